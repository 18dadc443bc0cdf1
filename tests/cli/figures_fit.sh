#!/usr/bin/env bash
# Figures that fit a two-column IEEE paper and show the data (docs/figures.md): `qualrank report` on the
# bundled study, on fieldwork (a node added by the taxonomy's history), on fieldwork with a generated top-level
# node of 75 sub-nodes (too large for a page), on rank-model (two roles ranking, long item names) and on
# mixed-rank (ties in a group's consensus). Every figure's SVG and PDF fits IEEEtran's text block (516 x 686 pt; a -1col file 252 pt wide);
# no text is smaller than 8 pt; no text of a figure or of the HTML report's charts ends in "…" (names wrap,
# never cut); in a slope chart, items tied in a group's consensus (report.json "consensus_tiers") meet its axis
# at one y, and that tier's places are written once ("7–9"); the taxonomy figures' counts are the coded
# segments and participants recounted from `qualrank query` under the rule the figure's footnote states; the
# HTML report's slope charts draw ties as ties too.
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

# check_taxonomy OUT STUDY: the counts drawn on each node's line in the taxonomy figures equal a recount from
# `qualrank query --format json` (every segment with its codes) under the rule the footnote states: a node counts
# the segments coded with it or a node under it, each segment once, and the participants with such a segment.
# Every node is drawn with its counts in some figure; the rule matters (some node counts fewer segments than its
# sub-nodes together), and nodes added after version 1 end with "+".
check_taxonomy() {
  (cd "$2" && "$QUALRANK" query --format json) >"$tmp/segments.json" || fail "query on $2"
  python3 - "$1" "$tmp/segments.json" <<'PY'
import glob, json, os, re, sys
import xml.etree.ElementTree as ET
out, segs = sys.argv[1:3]
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
segments = [s for s in json.load(open(segs))["segments"] if s["codes"]]
recount = {}
for i in nodes:
    u = under(i)
    hit = [s for s in segments if any(c["node"] in u for c in s["codes"])]
    recount[i] = [str(len(hit)), str(len({s["participant"] for s in hit}))]
if os.environ.get("RULE_MATTERS"):
    assert any(int(recount[i][0]) < sum(int(recount[k][0]) for k in kids.get(i, [])) for i in nodes), "no node where the rule matters"
seen = set()
for f in sorted(glob.glob(os.path.join(out, "figures", "taxonomy*-2col.svg"))):
    texts = [("".join(t.itertext()), float(t.get("x")), float(t.get("y")), t.get("text-anchor")) for t in ET.parse(f).getroot().iter(NS + "text")]
    foot = " ".join(s for s, x, y, a in texts if x == 4 and y > max(vy for v, vx, vy, va in texts if v in nodes))
    assert foot.startswith("Numbers: segments coded with the node or a node under it (a segment with several such codes counts once), "
                           "and the participants with such a segment."), (f, foot)
    assert ("+: added to the taxonomy after its first version" in foot) == any("added_in" in nodes[v] for v, *_ in texts if v in nodes), (f, foot)
    for s, x, y, a in texts:
        if s in nodes and a is None:
            # the counts: the numbers ending on the id's line right of it, in its own box (the nearest ones)
            drawn = [v for v, vx, vy, va in sorted(texts, key=lambda t: t[1]) if va == "end" and vx > x and abs(vy - y) < 0.01 and re.fullmatch(r"\d+", v)]
            drawn = drawn[:len(recount[s])]
            assert drawn == recount[s], (os.path.basename(f), s, drawn, recount[s])
            seen.add(s)
            # the name's lines: from the first text right of the id on its line, down in steps of one line
            name_x = min(vx for v, vx, vy, va in texts if abs(vy - y) < 0.01 and vx > x and va is None)
            lines, ly = [], y
            while True:
                at = [v for v, vx, vy, va in texts if abs(vx - name_x) < 0.01 and abs(vy - ly) < 0.01]
                if not at or (ly > y and any(v in nodes and abs(vy - ly) < 0.01 and x - 40 < vx < name_x for v, vx, vy, va in texts)):
                    break  # below the name: the next node's line
                lines.append(at[0])
                ly += 10.5
            assert lines[-1].endswith(" +") == ("added_in" in nodes[s]), (s, lines)
assert seen == set(nodes), ("nodes without counts in any figure", set(nodes) - seen)
print(len(seen))
PY
}

report bundled "$SOURCE_DIR"
check "$tmp/bundled-out" >/dev/null || fail "bundled study's figures (see above)"
n=$(RULE_MATTERS=1 check_taxonomy "$tmp/bundled-out" "$tmp/bundled") || fail "bundled study's taxonomy counts (see above)"
[[ $n -ge 100 ]] || fail "bundled study: $n nodes checked"
# The bundled taxonomy does not fit a page: an overview of its first two levels and parts that each fit.
ls "$tmp/bundled-out/figures" | sed -n 's/^\(taxonomy.*\)-2col\.svg$/\1/p' | LC_ALL=C sort | tr '\n' ' ' >"$tmp/stems.txt"
[[ $(cat "$tmp/stems.txt") == "taxonomy taxonomy-a taxonomy-b taxonomy-c-part1 taxonomy-c-part2 " ]] || fail "taxonomy stems: $(cat "$tmp/stems.txt")"
grep_q '<title>Taxonomy [^<]*, first 2 levels</title>' "$tmp/bundled-out/figures/taxonomy-1col.svg" || fail "taxonomy-1col.svg is not the overview"
# fieldwork: a node added by the history (TOOL.4, marked "+"), its counts recounted.
report fieldwork "$FIXTURES/fieldwork"
check "$tmp/fieldwork-out" >/dev/null || fail "fieldwork's figures (see above)"
n=$(check_taxonomy "$tmp/fieldwork-out" "$tmp/fieldwork") || fail "fieldwork's taxonomy counts (see above)"
[[ $n == 14 ]] || fail "fieldwork: $n nodes checked"
grep_q '>TOOL.4</text>' "$tmp/fieldwork-out/figures/taxonomy-2col.svg" || fail "fieldwork: TOOL.4 not drawn"
# fieldwork with a top-level node of 3 x 24 sub-nodes with long names (uncoded): too large for a page, so an
# overview and parts that each fit.
cp -r "$FIXTURES/fieldwork" "$tmp/big-src"
python3 - "$tmp/big-src/codebooks/remote-work.yaml" <<'PY'
import sys
with open(sys.argv[1], "a") as f:
    f.write("  - id: BIG\n    name: A top-level node with many sub-nodes\n    definition: Generated.\n    children:\n")
    for i in range(1, 4):
        f.write(f"      - id: BIG.{i}\n        name: Practice number {i} of a long list\n        definition: Generated.\n        children:\n")
        for j in range(1, 25):
            f.write(f"          - id: BIG.{i}.{j}\n            name: Habit {j} of practice {i}, named at length so that it wraps onto two lines in one column\n            definition: Generated.\n")
PY
report big "$tmp/big-src"
check "$tmp/big-out" >/dev/null || fail "the large taxonomy's figures (see above)"
n=$(check_taxonomy "$tmp/big-out" "$tmp/big") || fail "the large taxonomy's counts (see above)"
[[ $n == 90 ]] || fail "large taxonomy: $n nodes checked"
ls "$tmp/big-out/figures" | sed -n 's/^\(taxonomy.*\)-2col\.svg$/\1/p' | LC_ALL=C sort | tr '\n' ' ' >"$tmp/stems.txt"
[[ $(cat "$tmp/stems.txt") == "taxonomy taxonomy-big taxonomy-big-1-part1 taxonomy-big-1-part2 taxonomy-big-2-part1 taxonomy-big-2-part2 taxonomy-big-3-part1 taxonomy-big-3-part2 taxonomy-com taxonomy-tool taxonomy-well " ]] ||
  fail "large taxonomy's stems: $(cat "$tmp/stems.txt")"
report model "$FIXTURES/rank-model"
check "$tmp/model-out" >/dev/null || fail "rank-model's figures (see above)"
report mixed "$FIXTURES/mixed-rank"
ties=$(check "$tmp/mixed-out") || fail "mixed-rank's figures (see above)"
[[ $ties -ge 1 ]] || fail "mixed-rank: no tied tier in any slope chart ($ties): the test would not see ties"
# The HTML report's slope charts draw ties as ties too: tied items' markers at one y, each label "5–6. ID ...".
python3 - "$tmp/mixed-out" <<'PY' || fail "mixed-rank: ties in index.html's slope charts (see above)"
import json, re, sys
out = sys.argv[1]
report = json.load(open(out + "/report.json"))
html = open(out + "/index.html", encoding="utf-8").read()
checked = 0
for q in report["rankings"]["questions"]:
    for c in q["comparisons"]:
        a, b = c["groups"]
        svg = re.search(r'aria-label="' + re.escape(q["question"] + ": consensus position, " + a + " vs " + b) + r'".*?</svg>', html, re.S).group(0)
        ys = {}  # item -> (left cy, right cy, left label, right label)
        for g in re.findall(r'<g class="slope[^"]*">(.*?)</g>', svg, re.S):
            cy = re.findall(r'<circle cx="[\d.]+" cy="([\d.]+)"', g)
            texts = ["".join(re.findall(r">([^<>]+)<", t)) for t in re.findall(r"<text.*?</text>", g, re.S)]
            item = texts[0].split(" ")[1]
            ys[item] = (cy[0], cy[1], texts[0].split(" ")[0], texts[1].split(" ")[0])
        for side, group in ((0, a), (1, b)):
            first = 1
            for tier in q["groups"][group]["consensus_tiers"]:
                want = (str(first) if len(tier) == 1 else f"{first}\u2013{first + len(tier) - 1}") + "."
                assert len({ys[i][side] for i in tier}) == 1, (q["question"], group, tier, [ys[i] for i in tier])
                assert all(ys[i][side + 2] == want for i in tier), (q["question"], group, tier, want, [ys[i] for i in tier])
                checked += len(tier) > 1
                first += len(tier)
assert checked >= 1, "no tie checked"
PY
# The HTML report's charts: no name cut either.
for out in "$tmp"/*-out; do
  if grep -o '[^>]*…</t[a-z]*>' "$out/index.html" | head -3 | grep_q .; then fail "$out/index.html: a chart's text ends in …"; fi
done
echo "OK"
