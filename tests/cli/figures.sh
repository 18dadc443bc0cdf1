#!/usr/bin/env bash
# Vector figures (docs/figures.md): `qualrank report` writes reports/figures/*.svg and *.pdf on the bundled
# study, on the fieldwork study (a node named with "<script>" and "&", another with an accent; three roles)
# and on the rank-model study (rankings of two roles, a Plackett-Luce model). Every SVG is well-formed XML
# (xmllint), every PDF opens (pdfinfo) at 252 or 516 pt wide as its name says and embeds all its fonts (pdffonts);
# report.json "files" lists exactly the figures written; reruns are byte-identical and SOURCE_DATE_EPOCH sets
# the PDFs' date; the taxonomy figure's PDF shows each node's id with its counts from report.json on its line
# (pdftotext -bbox); the ranking and saturation figures draw one mark per misaligned item and per interview as
# report.json says; a node's name is escaped in the SVG and shown as typed in the PDF; a figure a later run no
# longer draws is removed (a file of the user's is kept); a figures/ path that cannot be a folder fails the
# report before report.json is written.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
for tool in xmllint pdfinfo pdffonts pdftotext pdftoppm python3; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (make deps-test installs it)"; exit 77; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# check_files OUT: every figure valid, the right width, fonts embedded, listed in report.json and nothing else.
check_files() {
  local out=$1 f w name
  for f in "$out"/figures/*.svg; do xmllint --noout "$f" || fail "$f is not well-formed XML"; done
  for f in "$out"/figures/*.pdf; do
    pdfinfo "$f" >"$tmp/info.txt" 2>&1 || fail "pdfinfo $f: $(cat "$tmp/info.txt")"
    w=$(sed -n 's/^Page size: *\([0-9.]*\) x .*/\1/p' "$tmp/info.txt")
    case "$f" in *-1col.pdf) [[ $w == 252 ]] ;; *-2col.pdf) [[ $w == 516 ]] ;; *) false ;; esac || fail "$f is $w pt wide"
    grep -qx 'Creator: *qualrank [0-9.]*' "$tmp/info.txt" || fail "$f: Creator $(grep Creator "$tmp/info.txt")"
    pdffonts "$f" | tail -n +3 >"$tmp/fonts.txt"
    [[ -s "$tmp/fonts.txt" ]] || fail "$f lists no font"
    # columns: name type encoding emb sub uni id gen; "emb" is the 4th field from the end
    awk '{ if ($(NF-4) != "yes") { print; bad = 1 } } END { exit bad }' "$tmp/fonts.txt" || fail "$f has a font not embedded"
    grep -q 'DejaVuSans' "$tmp/fonts.txt" || fail "$f: not DejaVu Sans: $(cat "$tmp/fonts.txt")"
  done
  for f in "$out"/figures/*.svg; do
    name=${f%.svg}
    [[ -f "$name.pdf" ]] || fail "$f has no PDF beside it"
  done
  python3 - "$out" <<'PY' || fail "report.json files vs figures/ (see above)"
import json, os, sys
out = sys.argv[1]
listed = sorted(f for f in json.load(open(os.path.join(out, "report.json")))["files"] if f.startswith("figures/"))
there = sorted("figures/" + f for f in os.listdir(os.path.join(out, "figures")))
assert listed == there, (set(listed) ^ set(there))
assert len(listed) % 4 == 0 and len(listed) >= 8, len(listed)
PY
}

# check_taxonomy OUT STEM: each node's id and its counts on one line of the PDF (words' boxes from pdftotext
# -bbox), every node of the taxonomy (of its first two levels for a -2levels figure) there once.
check_taxonomy() {
  local out=$1 stem=$2
  pdftotext -bbox "$out/figures/$stem.pdf" "$tmp/$stem.html"
  python3 - "$out" "$tmp/$stem.html" "$stem" <<'PY'
import json, re, sys
out, html, stem = sys.argv[1:4]
report = json.load(open(out + "/report.json"))
words = []  # (page, y, x, text)
page, width = 0, 0
for line in open(html, encoding="utf-8"):
    if "<page " in line:
        page += 1
        width = float(re.search(r'width="([\d.]+)"', line).group(1))
    m = re.search(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', line)
    if m:
        t = m.group(5).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&apos;", "'")
        words.append((page, round(float(m.group(4)), 1), float(m.group(1)), t))
cb = report["codebook"]
if cb.get("coded_segments", 0) > 0:
    counts = {r["node"]: [str(r["segments"]), str(r["participants"])] for r in cb["matrix"]["rows"]}
else:
    counts = {k: [str(v["units"])] for k, v in report["agreement"]["labels"]["groups"].items()}
nodes = report["taxonomy"]["nodes"]
# Which nodes the figure draws, from its title (the SVG's <title>, the PDF's Title): all; the first two levels;
# or node X's subtree, or X with its children A to B and their subtrees (a part of a split taxonomy).
title = re.search(r"<title>(.*?)</title>", open(out + "/figures/" + stem + ".svg", encoding="utf-8").read()).group(1)
kids = {}
for n in nodes:
    if n.get("parent"): kids.setdefault(n["parent"], []).append(n["id"])
def subtree(i):
    return [i] + [d for k in kids.get(i, []) for d in subtree(k)]
if title.endswith("first 2 levels"):
    nodes = [n for n in nodes if n["level"] <= 2]
elif ", node " in title:
    m = re.search(r", node (\S+)(?: with (\S+)(?: to (\S+))?)?$", title)
    top, a, b = m.group(1), m.group(2), m.group(3) or m.group(2)
    ids = [top]
    if a:
        ch = kids[top]
        for k in ch[ch.index(a):ch.index(b) + 1]: ids += subtree(k)
    else:
        ids = subtree(top)
    nodes = [n for n in nodes if n["id"] in ids]
checked = 0
for n in nodes:
    # (not a box's "ID (continued)" heading at the top of the next column)
    def next_word(w):
        right = sorted((v for v in words if v[0] == w[0] and abs(v[1] - w[1]) < 0.6 and v[2] > w[2]), key=lambda v: v[2])
        return right[0][3] if right else None
    at = [w for w in words if w[3] == n["id"] and next_word(w) != "(continued)"]
    assert len(at) == 1, (n["id"], len(at))
    p, y, x, _ = at[0]
    # the counts: the first numbers right of the id on its line (the boxes flow into up to three columns)
    line = [w[3] for w in sorted((w for w in words if w[0] == p and abs(w[1] - y) < 0.6 and x < w[2]), key=lambda w: w[2])]
    want = counts.get(n["id"], [])
    got = next((line[i:i + len(want)] for i in range(len(line)) if all(re.fullmatch(r"\d+", v) for v in line[i:i + len(want)])), []) if want else []
    assert got == want, (n["id"], n["name"], want, line)
    checked += 1
print(checked)
PY
}

# 1. The bundled study: every file; the taxonomy figures; reruns; SOURCE_DATE_EPOCH.
"$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/b1" || fail "report on the bundled study"
check_files "$tmp/b1"
# The bundled taxonomy is too large for a page: an overview of its first two levels, a figure per top-level
# node, the largest in two parts (figures_fit.sh checks that they fit); every node has its counts in one part.
total=0
for size in 1col 2col; do
  n=$(check_taxonomy "$tmp/b1" "taxonomy-$size") || fail "bundled taxonomy-$size: node ids and counts"
  nodes=$(python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['taxonomy']['nodes']; print(len([n for n in t if n['level'] <= 2]))" "$tmp/b1/report.json")
  [[ $n == "$nodes" ]] || fail "bundled taxonomy-$size: $n of $nodes nodes checked"
  for stem in taxonomy-a taxonomy-b taxonomy-c-part1 taxonomy-c-part2; do
    n=$(check_taxonomy "$tmp/b1" "$stem-$size") || fail "bundled $stem-$size: node ids and counts"
    total=$((total + n))
  done
done
nodes=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['taxonomy']['nodes']))" "$tmp/b1/report.json")
[[ $total == $((2 * (nodes + 1))) ]] || fail "bundled: $total node lines checked in the parts, not 2 x ($nodes + 1) (C is in both parts)"
"$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/b2" || fail "report again"
diff -r "$tmp/b1/figures" "$tmp/b2/figures" >/dev/null || fail "figures differ between runs"
pdfinfo "$tmp/b1/figures/saturation-1col.pdf" | grep_q -x 'CreationDate: *Wed Jan  1 00:00:00 2025 UTC' \
  || fail "default date: $(pdfinfo "$tmp/b1/figures/saturation-1col.pdf" | grep CreationDate)"
SOURCE_DATE_EPOCH=1700000000 "$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/b3" || fail "report with SOURCE_DATE_EPOCH"
pdfinfo "$tmp/b3/figures/saturation-1col.pdf" | grep_q -x 'CreationDate: *Tue Nov 14 22:13:20 2023 UTC' \
  || fail "SOURCE_DATE_EPOCH date: $(pdfinfo "$tmp/b3/figures/saturation-1col.pdf" | grep CreationDate)"
cmp -s "$tmp/b1/figures/taxonomy-1col.svg" "$tmp/b3/figures/taxonomy-1col.svg" || fail "SOURCE_DATE_EPOCH changed an SVG"

# marks OUT: the ranking and saturation figures' marks against report.json (SVG: "⚑" texts of a slope chart,
# black-outlined bars of a gap chart, a circle per interview on the saturation curve).
marks() {
  python3 - "$1" <<'PY'
import json, os, re, sys
import xml.etree.ElementTree as ET
out = sys.argv[1]
report = json.load(open(os.path.join(out, "report.json")))
S = "{http://www.w3.org/2000/svg}"
def slug(s):
    s = re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")
    return s or "item"
checked = 0
def ranking(r, prefix):
    global checked
    for q in r.get("questions", []):
        stem = prefix + "-" + slug(q["question"])
        for c in q.get("comparisons") or []:
            pair = slug(c["groups"][0]) + "-vs-" + slug(c["groups"][1])
            flagged = sum(1 for g in c["gaps"] if g["misaligned"])
            for size in ("1col", "2col"):
                svg = ET.parse(os.path.join(out, "figures", "%s-slope-%s-%s.svg" % (stem, pair, size))).getroot()
                flags = sum(1 for t in svg.iter(S + "text") if t.text == "\u2691")
                assert flags == 2 * flagged, (stem, pair, size, flags, flagged)
                texts = [t.text for t in svg.iter(S + "text")]
                for g in c["groups"]: assert g in texts, (stem, g)
                gaps = ET.parse(os.path.join(out, "figures", "%s-gaps-%s-%s.svg" % (stem, pair, size))).getroot()
                outlined = sum(1 for p in gaps.iter(S + "path") if p.get("stroke") == "#000000" and p.get("stroke-width") == "1.2")
                assert outlined == flagged, (stem, pair, size, outlined, flagged)
                values = [t.text for t in gaps.iter(S + "text")]
                for g in c["gaps"]:
                    if isinstance(g["gap"], (int, float)):
                        v = "%.2f" % g["gap"]
                        v = "\u2212" + v[1:] if v.startswith("-") else v
                        assert v in values, (stem, g["item"], v)
                        checked += 1
        if isinstance(q.get("model"), dict):
            for size in ("1col", "2col"):
                f = ET.parse(os.path.join(out, "figures", "%s-worths-%s.svg" % (stem, size))).getroot()
                texts = [t.text for t in f.iter(S + "text")]
                for grp, v in q["model"]["groups"].items():
                    assert "%s (n = %d)" % (grp, v["n"]) in texts, (stem, grp, texts[-4:])
                    checked += 1
ranking(report["rankings"], "rank")
for e in report.get("experience_comparisons") or []:
    ranking(e, "rank-" + slug(e["role"]) + "-" + slug(e["by"]))
sat = report.get("saturation")
if isinstance(sat, dict) and sat["all"]["interviews"]:
    for size in ("1col", "2col"):
        svg = ET.parse(os.path.join(out, "figures", "saturation-%s.svg" % size)).getroot()
        circles = sum(1 for c in svg.iter(S + "circle"))
        assert circles == len(sat["all"]["interviews"]) + 1, (size, circles)  # (+1: the legend's)
        checked += 1
print(checked)
PY
}
n=$(marks "$tmp/b1") || fail "bundled: marks (see above)"
[[ $n -ge 100 ]] || fail "bundled: only $n marks checked"

# 2. The fieldwork study: node names with markup and an accent; three roles.
fw="$tmp/fw"; cp -r "$FIXTURES/fieldwork" "$fw"
hostile='<script>alert(1)</script> & "co" <b>'
accented='Zoë Ångström & co.'
python3 - "$fw/codebooks/remote-work.yaml" "$hostile" "$accented" <<'PY'
import json, re, sys
p, hostile, accented = sys.argv[1:4]
s = open(p).read()
for node, text in (("COM.1", hostile), ("COM.3", accented)):
    s2 = re.sub(r"(- id: " + re.escape(node) + r"\n\s+name: ).*", lambda m: m.group(1) + json.dumps(text, ensure_ascii=False), s, count=1)
    assert s2 != s, node + " has no name line"
    s = s2
open(p, "w").write(s)
PY
"$QUALRANK" -C "$fw" -q report -o "$fw/reports" || fail "report on fieldwork"
check_files "$fw/reports"
for stem in taxonomy-1col taxonomy-2col; do
  n=$(check_taxonomy "$fw/reports" "$stem") || fail "fieldwork $stem: node ids and counts"
  [[ $n -ge 10 ]] || fail "fieldwork $stem: only $n nodes"
done
n=$(marks "$fw/reports") || fail "fieldwork: marks (see above)"
[[ $n -ge 4 ]] || fail "fieldwork: only $n marks checked"
svg="$fw/reports/figures/taxonomy-2col.svg"
grep -qF '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot; &lt;b&gt;' "$svg" || fail "the hostile name is not escaped in the SVG"
if grep -q '<script\|<b>' "$fw"/reports/figures/*.svg; then fail "a node name became markup in an SVG"; fi
grep -qF 'Zoë Ångström &amp; co.' "$svg" || fail "the accented name is not in the SVG"
pdftotext -raw "$fw/reports/figures/taxonomy-2col.pdf" "$tmp/fw-tax.txt"
grep -qF '<script>alert(1)</script> & "co" <b>' "$tmp/fw-tax.txt" || fail "the PDF does not show the hostile name as typed: $(grep COM.1 "$tmp/fw-tax.txt")"
grep -qF 'Zoë Ångström & co.' "$tmp/fw-tax.txt" || fail "the PDF does not show the accented name"
"$QUALRANK" -C "$fw" -q report -o "$fw/reports2" || fail "report on fieldwork again"
diff -r "$fw/reports/figures" "$fw/reports2/figures" >/dev/null || fail "fieldwork: figures differ between runs"

# 3. The rank-model study: the ranking figures and the Plackett-Luce forest plot.
"$QUALRANK" -C "$FIXTURES/rank-model" -q report -o "$tmp/rm" || fail "report on rank-model"
check_files "$tmp/rm"
ls "$tmp/rm/figures" | grep_q -- '-worths-2col.pdf$' || fail "rank-model: no forest plot ($(ls "$tmp/rm/figures"))"
n=$(marks "$tmp/rm") || fail "rank-model: marks (see above)"
[[ $n -ge 4 ]] || fail "rank-model: only $n marks checked"
pdftoppm -png -r 100 -singlefile "$tmp/rm/figures/taxonomy-1col.pdf" "$tmp/rm-tax" || fail "pdftoppm"
python3 - "$tmp/rm-tax.png" <<'PY' || fail "the PNG of the taxonomy figure (see above)"
import struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n"
w, h = struct.unpack(">II", b[16:24])
assert w == 350, w  # 252 pt at 100 dpi
PY

# The summary names the folder once, with its count.
"$QUALRANK" -C "$FIXTURES/rank-model" report -o "$tmp/rm-printed" >"$tmp/printed.txt" || fail "report (printed)"
n=$(ls "$tmp/rm-printed/figures" | wc -l)
grep -qx "  $tmp/rm-printed/figures/ ($n files: SVG and PDF)" "$tmp/printed.txt" || fail "summary: $(cat "$tmp/printed.txt")"
grep -q "^qualrank report: wrote [0-9]* files, [0-9]* LaTeX tables and $n figure files\$" "$tmp/printed.txt" || fail "summary: $(head -1 "$tmp/printed.txt")"
if grep -q '/figures/[^ ]' "$tmp/printed.txt"; then fail "the summary lists figures one by one"; fi

# The snippet of docs/figures.md compiles against the bundled study's figures, each at its own width.
if command -v pdflatex >/dev/null; then
  mkdir -p "$tmp/paper"; ln -s "$tmp/b1" "$tmp/paper/reports"
  { echo '\documentclass[twocolumn]{article}'; sed -n '/^```latex$/,/^```$/p' "$SOURCE_DIR/docs/figures.md" | sed '1d;$d' | sed -n '1p'
    echo '\begin{document}'; sed -n '/^```latex$/,/^```$/p' "$SOURCE_DIR/docs/figures.md" | sed '1d;$d' | sed '1,2d'; echo '\end{document}'; } >"$tmp/paper/paper.tex"
  [[ $(grep -c 'includegraphics\[width=[^]]*\]{reports/figures/' "$tmp/paper/paper.tex") == 2 ]] || fail "the docs snippet includes no figure"
  (cd "$tmp/paper" && HOME="$tmp" pdflatex -halt-on-error -interaction=nonstopmode paper.tex >paper.out 2>&1) || fail "docs snippet: $(grep -A4 '^!' "$tmp/paper/paper.log")"
  pdffonts "$tmp/paper/paper.pdf" | grep_q 'DejaVuSans' || fail "the paper does not carry the figures' font"
  if grep -q 'Overfull' "$tmp/paper/paper.log"; then fail "a figure of the docs snippet is wider than its place"; fi
fi

# 4. A figure a later run no longer draws is removed; a file of the user's is kept.
cp "$tmp/rm/figures/taxonomy-1col.svg" "$tmp/rm/figures/old-1col.svg"
cp "$tmp/rm/figures/taxonomy-1col.pdf" "$tmp/rm/figures/old-1col.pdf"
printf '<svg xmlns="http://www.w3.org/2000/svg"/>\n' >"$tmp/rm/figures/mine.svg"
"$QUALRANK" -C "$FIXTURES/rank-model" -q report -o "$tmp/rm" || fail "report on rank-model again"
[[ ! -e "$tmp/rm/figures/old-1col.svg" && ! -e "$tmp/rm/figures/old-1col.pdf" ]] || fail "a stale figure was kept"
[[ -f "$tmp/rm/figures/mine.svg" ]] || fail "the user's file was removed"

# 5. figures/ cannot be a folder: the report fails, located, before report.json is written.
mkdir -p "$tmp/blocked"; : >"$tmp/blocked/figures"
if "$QUALRANK" -C "$FIXTURES/rank-model" -q report -o "$tmp/blocked" 2>"$tmp/blocked.err"; then fail "report wrote through a file named figures"; fi
grep -q "^$tmp/blocked/figures/taxonomy-1col.svg: error: cannot write: " "$tmp/blocked.err" || fail "blocked: $(cat "$tmp/blocked.err")"
[[ ! -e "$tmp/blocked/report.json" && ! -e "$tmp/blocked/methods.md" ]] || fail "the blocked report wrote report.json or methods.md"
if ls "$tmp"/blocked/latex/*.tex >/dev/null 2>&1; then fail "the blocked report wrote a LaTeX table"; fi
echo "figures: ok"
