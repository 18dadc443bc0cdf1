#!/usr/bin/env bash
# Exemplar quotes and "What is coded": the codebook's Exemplar quotes column (read with openpyxl) and JSON, the
# report's "coded" key recounted independently from `code --format json`, the HTML table's numbers read back
# and compared with report.json, quotes HTML-escaped. Fixture: tests/fixtures/fieldwork; and the bundled study.
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
PY=/usr/bin/python3
if [[ ! -x $PY ]] || ! $PY -c "import openpyxl" 2>/dev/null; then
  echo "SKIP: $PY with openpyxl is needed to read the workbook (apt install python3-openpyxl)"
  exit 77
fi
ws="$tmp/fieldwork"
cp -r "$FIXTURES/fieldwork" "$ws"

# ---- the codebook: one cell per node, "quote" (participant) per pick, segment order; none invented ----
"$QUALRANK" -C "$ws" codebook >/dev/null
$PY - "$ws/reports/codebook.xlsx" <<'EOF' || fail "Exemplar quotes column (see above)"
import sys, openpyxl
sheet = openpyxl.load_workbook(sys.argv[1])["Codebook"]
head = [c.value for c in sheet[1]]
col = head.index("Exemplar quotes")
assert head[col - 1] == "Exclusion criteria", head
cells = {r[0].value: r[col] for r in sheet.iter_rows(min_row=2)}
assert cells["WELL.1"].value == ('"Only the kick-off. After that I am alone with the tickets." (C01)\n'
                                 '"None, honestly. The calls are the only time I hear my colleagues\' voices." (E01)'), cells["WELL.1"].value
assert cells["COM.2"].value == '"None, honestly. The calls are the only time I hear my colleagues\' voices." (E01)', cells["COM.2"].value
tool2 = cells["TOOL.2"]
assert tool2.data_type == "s" and "<script>alert('todo')</script>" in tool2.value, tool2.value
for node in ("COM", "COM.1.a", "COM.3", "TOOL.1", "WELL.2"):  # coded, but nobody picked an exemplar
    assert cells[node].value in (None, ""), (node, cells[node].value)
print("codebook: Exemplar quotes column checked")
EOF
"$QUALRANK" -C "$ws" codebook --format json | $PY -c "
import json, sys
rows = {r['node']: r for r in json.load(sys.stdin)['matrix']['rows']}
well = rows['WELL.1']['exemplars']
assert [(e['participant'], e['segment'], e['source']) for e in well] == [
    ('C01', 'C01#t3', 'transcripts/C01.md:25'), ('E01', 'E01#t3', 'transcripts/E01.md:25')], well
assert rows['COM.3']['exemplars'] == []" || fail "codebook JSON exemplars"

# ---- the Coded segments sheet's "Exemplar for" column carries the picks through a CSV import ----
$PY - "$ws/reports/codebook.xlsx" "$tmp/table.csv" <<'EOF'
import csv, sys, openpyxl
rows = list(openpyxl.load_workbook(sys.argv[1])["Coded segments"].iter_rows(values_only=True))
assert rows[0][-1] == "Exemplar for", rows[0]
picked = {r[10]: r[-1] for r in rows[1:] if r[-1]}
assert picked == {"C01#t3": "WELL.1", "C01#t4": "TOOL.2", "E01#t3": "COM.2, WELL.1", "E02#t5": "TOOL.3",
                  "M01#t2": "COM.1", "M02#t4": "TOOL.2.a"}, picked
with open(sys.argv[2], "w", newline="", encoding="utf-8") as f:
    csv.writer(f, lineterminator="\n").writerows([["" if v is None else v for v in r] for r in rows])
EOF
"$QUALRANK" -C "$ws" codebook --format json >"$tmp/from-transcripts.json"
"$QUALRANK" -C "$ws" codebook --import-table "$tmp/table.csv" --format json >"$tmp/from-table.json"
cmp -s "$tmp/from-transcripts.json" "$tmp/from-table.json" || fail "exemplars lost in the table round trip"
sed -i 's/,COM.1$/,TOOL.3/' "$tmp/table.csv"  # M01#t2 is not coded TOOL.3
"$QUALRANK" -C "$ws" codebook --import-table "$tmp/table.csv" --format json 2>"$tmp/import.err" >/dev/null
grep -qE "^$tmp/table.csv:[0-9]+: warning: Exemplar for 'TOOL.3', a node the row does not link; ignored\$" "$tmp/import.err" ||
  fail "unlinked exemplar warning: $(cat "$tmp/import.err")"

# ---- the report: "coded" recounted from the segments; the HTML table shows the same numbers ----
"$QUALRANK" -C "$ws" -q report -o "$tmp/out"
"$QUALRANK" -C "$ws" code --format json >"$tmp/segments.json"
$PY - "$tmp/out/report.json" "$tmp/segments.json" "$tmp/out/index.html" <<'EOF' || fail "What is coded (see above)"
import json, sys
from html.parser import HTMLParser
report, segments, page = sys.argv[1:4]
coded = json.load(open(report))["coded"]
roles = [g["value"] for g in coded["groups"]]
assert roles == ["manager", "employee", "contractor"], roles
# independent recount: a node counts each segment that carries it (itself, not rolled up), once
seg, people = {}, {}
for s in json.load(open(segments))["segments"]:
    for node in {c["node"] for c in s["codes"]}:
        seg[node] = seg.get(node, 0) + 1
        people.setdefault(node, {r: set() for r in roles})[s["role"]].add(s["participant"])
assert [c["node"] for c in coded["codes"]] == ["COM.1", "COM.1.a", "COM.2", "COM.3", "TOOL.1", "TOOL.2", "TOOL.2.a",
                                                 "TOOL.3", "WELL.1", "WELL.2"], [c["node"] for c in coded["codes"]]
for c in coded["codes"]:
    assert c["segments"] == seg[c["node"]], c
    assert c["participants"] == {r: len(people[c["node"]][r]) for r in roles}, c
assert [e["participant"] for e in coded["codes"][8]["exemplars"]] == ["C01", "E01"]

# the HTML table, read back cell by cell
class Table(HTMLParser):
    def __init__(self):
        super().__init__(); self.inside = False; self.rows = []; self.cell = None; self.depth = 0
    def handle_starttag(self, tag, attrs):
        if tag == "h2" and ("id", "coded") in attrs: self.inside = True
        elif self.inside and tag == "tr": self.rows.append([])
        elif self.inside and tag in ("td", "th") and self.cell is None: self.cell = ""
    def handle_endtag(self, tag):
        if self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(self.cell.strip()); self.cell = None
        elif self.inside and tag == "table": self.inside = False
    def handle_data(self, data):
        if self.cell is not None: self.cell += data
t = Table(); t.feed(open(page, encoding="utf-8").read())
head, body = t.rows[0], t.rows[1:]
assert head == ["Code", "Segments", "manager (n = 2)", "employee (n = 2)", "contractor (n = 2)", "Exemplar quotes"], head
assert len(body) == len(coded["codes"]), (len(body), len(coded["codes"]))
for row, c in zip(body, coded["codes"]):
    assert row[0] == c["node"] + " " + c["name"], (row[0], c["node"])
    assert [int(x) for x in row[1:5]] == [c["segments"]] + [c["participants"][r] for r in roles], (row, c)
    for e in c["exemplars"]:
        assert e["quote"].replace("\n", " ").split()[0] in row[5], (row[5], e["quote"])
html = open(page, encoding="utf-8").read()
assert "<script" not in html and "&lt;script&gt;alert(&#39;todo&#39;)&lt;/script&gt;" in html, "quote not escaped"
print("report: What is coded checked against %d segments" % sum(seg.values()))
EOF

# ---- the bundled study shows its two picks, in the table and in the taxonomy tree ----
"$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/study"
$PY - "$tmp/study/report.json" "$tmp/study/index.html" <<'EOF' || fail "bundled study exemplars (see above)"
import json, sys
report = json.load(open(sys.argv[1]))
picks = {c["node"]: [e["participant"] for e in c["exemplars"]] for c in report["coded"]["codes"] if c["exemplars"]}
assert picks == {"A.1": ["U04"], "C.6.v": ["D01"]}, picks
html = open(sys.argv[2], encoding="utf-8").read()
tree = html[html.index('<h2 id="taxonomy"'):]
assert "Checkpoint recovery. A job saves fine for two weeks" in tree and "— D01, transcripts/D01.md:68" in tree
assert "Installing paddlepaddle-gpu was confusing." in tree and "— U04, transcripts/U04.md:38" in tree
EOF
# ---- exemplar picks survive a REFI-QDA export and import: whole turns, a span (some of its codes), a second
# coder's .codes line (a Note named qualrank:exemplar on the Coding carries each pick) ----
mini="$tmp/mini"; cp -r "$FIXTURES/mini" "$mini"
$PY - "$mini/transcripts/P1.md" "$mini/transcripts/P1.bob.codes" <<'EOF'
import sys
p, codes = sys.argv[1:3]
s = open(p, encoding="utf-8").read()
old = "P1: Then the Straße of errors: OUT OF MEMORY everywhere.\n@code B.1\n"
assert old in s
s = s.replace(old, "P1: Then the Straße of errors: [OUT OF MEMORY]{B.1, B.2} everywhere.\n@exemplar B.2\n@code B.1\n@exemplar\n")
open(p, "w", encoding="utf-8").write(s)
open(codes, "a").write("t3: B.1 | exemplar | memo: bob picks it\n")
EOF
"$QUALRANK" -C "$mini" -q export --qdpx -o "$tmp/mini.qdpx"
mkdir -p "$tmp/mini-in/guidelines"; cp "$mini"/guidelines/*.yaml "$tmp/mini-in/guidelines/"
"$QUALRANK" -C "$tmp/mini-in" import "$tmp/mini.qdpx" >/dev/null || fail "import of the mini project"
picks() { "$QUALRANK" -C "$1" code --format json --no-suggestions | $PY -c "
import json, sys
print(sorted((s['id'], c['node'], c['coder']) for s in json.load(sys.stdin)['segments'] for c in s['codes'] if c.get('exemplar')))"; }
[[ $(picks "$mini") == "[('P1#t3', 'B.1', 'alice'), ('P1#t3', 'B.1', 'bob'), ('P1#t3[27:40]', 'B.2', 'alice')]" ]] ||
  fail "picks before export: $(picks "$mini")"
[[ $(picks "$tmp/mini-in") == "$(picks "$mini")" ]] || fail "picks after import: $(picks "$tmp/mini-in")"
echo "what_is_coded: ok"
