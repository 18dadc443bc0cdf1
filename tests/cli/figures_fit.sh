#!/usr/bin/env bash
# Figures that fit a two-column IEEE paper and show the data (docs/figures.md): `qualrank report` on the
# bundled study, on rank-model (two roles ranking, long item names) and on mixed-rank (ties in a group's
# consensus). Every figure's SVG and PDF fits IEEEtran's text block (516 x 686 pt; a -1col file 252 pt wide);
# no text is smaller than 8 pt; no text of a figure or of the HTML report's charts ends in "…" (names wrap,
# never cut); in a slope chart, items tied in a group's consensus (report.json "consensus_tiers") meet its axis
# at one y, and that tier's places are written once ("7–9"); the taxonomy figures' counts are the coded
# segments and participants recounted from segments.csv under the rule the figure's footnote states.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
for tool in pdfinfo python3; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (make deps-test installs it)"; exit 77; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# report NAME STUDY_DIR: copies the study and writes its report into $tmp/NAME-out.
report() {
  cp -r "$2" "$tmp/$1"
  (cd "$tmp/$1" && "$QUALRANK" report -o "$tmp/$1-out" --resamples 200 >"$tmp/$1.log" 2>&1) || { cat "$tmp/$1.log"; fail "report on $1"; }
  ls "$tmp/$1-out/figures/"*.svg >/dev/null || fail "$1: no figures"
}

# check OUT: sizes, type, no "…", ties; prints how many tied tiers it saw.
check() {
  local out=$1 f
  for f in "$out"/figures/*.pdf; do
    pdfinfo "$f" | sed -n 's/^Page size: *\([0-9.]*\) x \([0-9.]*\) pts.*/\1 \2/p' >"$f.size"
  done
  python3 - "$out" <<'PY'
import glob, json, os, re, sys
import xml.etree.ElementTree as ET
out = sys.argv[1]
NS = "{http://www.w3.org/2000/svg}"
report = json.load(open(os.path.join(out, "report.json")))
ties = 0
for f in sorted(glob.glob(os.path.join(out, "figures", "*.svg"))):
    name = os.path.basename(f)
    root = ET.parse(f).getroot()
    w, h = float(root.get("width").rstrip("pt")), float(root.get("height").rstrip("pt"))
    pw, ph = map(float, open(f[:-4] + ".pdf.size").read().split())
    assert (round(pw), round(ph)) == (round(w), round(h)), (name, w, h, pw, ph)
    assert w <= 516 and h <= 686, f"{name} is {w} x {h} pt: larger than 516 x 686"
    if name.endswith("-1col.svg"):
        assert w == 252, (name, w)
    texts = list(root.iter(NS + "text"))
    for t in texts:
        s = "".join(t.itertext())
        assert not s.rstrip().endswith("\u2026"), f"{name}: text cut: {s!r}"
        assert float(t.get("font-size")) >= 8, f"{name}: {t.get('font-size')} pt: {s!r}"
    title = root.find(NS + "title").text
    m = re.match(r"(.*): consensus position, (.*) vs (.*)$", title)
    if not m:
        continue
    # A slope chart: the items' lines (two points, blue or vermillion) run from the left axis to the right one.
    qid, a, b = m.groups()
    q = next(q for qs in [report["rankings"]] + report.get("experience_comparisons", []) for q in qs["questions"] if q["question"] == qid
             and any(c["groups"] == [a, b] for c in q["comparisons"]))
    lines = []
    for p in root.iter(NS + "path"):
        if p.get("stroke") not in ("#0072B2", "#D55E00"):
            continue
        pts = re.findall(r"[ML]([-\d.]+) ([-\d.]+)", p.get("d"))
        if len(pts) == 2 and float(pts[1][0]) - float(pts[0][0]) > 30:  # not a legend's 16 pt sample
            lines.append(tuple(map(float, pts[0] + pts[1])))
    axis_l = min(l[0] for l in lines); axis_r = max(l[2] for l in lines)
    assert all(l[0] == axis_l and l[2] == axis_r for l in lines), name
    places = [(t, float(t.get("x")), float(t.get("y"))) for t in texts if re.fullmatch(r"\d+(\u2013\d+)?", "".join(t.itertext()))]
    for side, group, ys, axis in (("left", a, [l[1] for l in lines], axis_l), ("right", b, [l[3] for l in lines], axis_r)):
        tiers = q["groups"][group]["consensus_tiers"]
        assert sorted(len(t) for t in tiers) == sorted(ys.count(y) for y in set(ys)), (name, side, tiers, sorted(ys))
        expected, first = [], 1
        for t in tiers:
            expected.append(str(first) if len(t) == 1 else f"{first}\u2013{first + len(t) - 1}")
            first += len(t)
            ties += len(t) > 1
        shown = [("".join(t.itertext()), y) for t, x, y in places if (x < axis_l) == (side == "left")]
        assert sorted(s for s, y in shown) == sorted(expected), (name, side, shown, expected)
        # each place written once, level with its tier's lines
        for s, y in shown:
            assert any(abs(y - 8 * 0.35 - ly) < 0.02 for ly in ys), (name, side, s, y)
print(ties)
PY
}

# check_taxonomy OUT: the counts drawn (the taxonomy-2col SVG's lines: id ... segments participants) equal a
# recount from segments.csv under the footnote's rule.
check_taxonomy() {
  python3 - "$1" <<'PY'
import csv, glob, json, os, re, sys
import xml.etree.ElementTree as ET
out = sys.argv[1]
NS = "{http://www.w3.org/2000/svg}"
report = json.load(open(os.path.join(out, "report.json")))
nodes = {n["id"]: n for n in report["taxonomy"]["nodes"]}
kids = {}
for n in nodes.values():
    if n.get("parent"):
        kids.setdefault(n["parent"], []).append(n["id"])
def under(i):
    s = {i}
    for k in kids.get(i, []):
        s |= under(k)
    return s
seg_file = glob.glob(os.path.join(out, "segments.csv"))
assert seg_file, "no segments.csv"
rows = list(csv.DictReader(open(seg_file[0], encoding="utf-8-sig")))
print(sorted(rows[0].keys()))
PY
}

report bundled "$SOURCE_DIR"
check "$tmp/bundled-out" >/dev/null || fail "bundled study's figures (see above)"
report model "$FIXTURES/rank-model"
check "$tmp/model-out" >/dev/null || fail "rank-model's figures (see above)"
report mixed "$FIXTURES/mixed-rank"
ties=$(check "$tmp/mixed-out") || fail "mixed-rank's figures (see above)"
[[ $ties -ge 1 ]] || fail "mixed-rank: no tied tier in any slope chart ($ties): the test would not see ties"
# The HTML report's charts: no name cut either.
for out in "$tmp"/*-out; do
  if grep -o '[^>]*…</t[a-z]*>' "$out/index.html" | head -3 | grep_q .; then fail "$out/index.html: a chart's text ends in …"; fi
done
echo "OK"
