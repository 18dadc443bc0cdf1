#!/usr/bin/env bash
# Print-ready workbooks (fieldwork study and the bundled study): landscape A4, the header row repeated; a sheet
# too wide to stay readable on one page prints across pages at full size with its id/name columns repeated
# (no fit-to-width), a narrow one fits one page wide; rows grow with their wrapped text (taller for longer
# text); column A is as wide as its longest label; the scatter's points are labelled with the item ids.
# Then, printed by LibreOffice: several pages, and the full label "rho CI low (95% bootstrap)" on the page.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/study"; cp -r "$FIXTURES/fieldwork" "$ws"
"$QUALRANK" -C "$ws" -q report -o "$tmp/fw" --resamples 200 || fail "report (fieldwork)"
"$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/bundled" --resamples 200 || fail "report (bundled)"
for d in fw bundled; do
/usr/bin/python3 - "$tmp/$d" <<'PY' || fail "print setup ($d)"
import math, re, sys, zipfile, openpyxl
d = sys.argv[1]
cb = openpyxl.load_workbook(f"{d}/codebook.xlsx")
for ws in cb.worksheets:
    assert ws.page_setup.orientation == "landscape", (ws.title, ws.page_setup.orientation)
    assert str(ws.page_setup.paperSize) == "9", (ws.title, ws.page_setup.paperSize)
    assert ws.print_title_rows in ("1:1", "$1:$1"), (ws.title, ws.print_title_rows)
wide = cb["Codebook"]
total = sum((wide.column_dimensions[openpyxl.utils.get_column_letter(c)].width or 0) for c in range(1, wide.max_column + 1))
assert total > 200, total
assert not wide.sheet_properties.pageSetUpPr or not wide.sheet_properties.pageSetUpPr.fitToPage, "the wide Codebook sheet is shrunk to one page"
assert wide.print_title_cols in ("A:A", "$A:$A"), wide.print_title_cols
narrow = cb["Participants"] if "Participants" in cb.sheetnames else None
if narrow is not None:
    total = sum((narrow.column_dimensions[openpyxl.utils.get_column_letter(c)].width or 0) for c in range(1, narrow.max_column + 1))
    if total <= 200:
        assert narrow.sheet_properties.pageSetUpPr.fitToPage and narrow.page_setup.fitToWidth in (1, None), "a narrow sheet fits one page wide"
# Rows grow with wrapped text: in Coded segments, the row of the longest quote is taller than one line, and
# taller rows hold longer text.
seg = cb["Coded segments"]
header = [c.value for c in seg[1]]
qcol = header.index("Thematic Quote") + 1
rows = []
for r in range(2, seg.max_row + 1):
    text = seg.cell(row=r, column=qcol).value or ""
    height = seg.row_dimensions[r].height or 15
    rows.append((len(text) + 40 * text.count("\n"), height, text))
rows.sort()
longest = rows[-1]
width = seg.column_dimensions[openpyxl.utils.get_column_letter(qcol)].width
if longest[0] > width:
    assert longest[1] > 15, ("a long wrapped quote kept one line", longest)
for (la, ha, _), (lb, hb, _) in zip(rows, rows[1:]):
    assert ha <= hb or la == lb or abs(la - lb) < width, ("shorter text in a taller row", la, ha, lb, hb)
# The Summary sheets print first: the codebook's repeats the Codebook sheet's counts node by node, the
# rankings' has every group's Kendall's W and every comparison's rho as report.json (when the report has it)
# holds them; each header that is wider than its column wraps (a taller header row), nothing cut.
import json
assert cb.sheetnames[0] == "Summary", cb.sheetnames
summ, full = cb["Summary"], cb["Codebook"]
fh = [c.value for c in full[1]]
sh = [c.value for c in summ[1]]
groups = [h for h in fh[fh.index("Participants (with sub-nodes)") + 1:]]
assert [h.rsplit(" (n=", 1)[0] for h in sh[4:]] == groups, (sh, groups)
frows = {r[0]: r for r in full.iter_rows(min_row=2, values_only=True)}
n = 0
for r in summ.iter_rows(min_row=2, values_only=True):
    f = frows[r[0]]
    assert r[1].strip() == f[fh.index("Name")], (r, f)
    assert r[2] == f[fh.index("Segments (with sub-nodes)")] and r[3] == f[fh.index("Participants (with sub-nodes)")], (r, f)
    assert list(r[4:]) == list(f[fh.index("Participants (with sub-nodes)") + 1:]), (r, f)
    n += 1
assert n == len(frows), (n, len(frows))
assert (summ.row_dimensions[1].height or 15) >= 30, ("summary header not wrapped", summ.row_dimensions[1].height)
rk = openpyxl.load_workbook(f"{d}/rankings.xlsx")
assert rk.sheetnames[0] == "Summary", rk.sheetnames
rep = json.load(open(f"{d}/report.json"))["rankings"]
qs = {q["question"]: q for q in rep["questions"]}
seen = {"Kendall's W": 0, "Spearman's rho": 0}
for r in rk["Summary"].iter_rows(min_row=2, values_only=True):
    if not r[0] or r[3] not in seen or ": " in (r[1] or ""):
        continue
    q = qs[r[0]]
    if r[3] == "Kendall's W":
        g = q["groups"][r[1]]
        same = lambda x, y: (x is None and y is None) or (x is not None and y is not None and abs(x - y) < 1e-12)
        assert same(r[4], g["kendall_w"]) and same(r[5], g["kendall_w_p"]) and r[2] == str(g["n"]), (r, g)
    else:
        a, b = r[1].split(" vs ")
        c = next(c for c in q["comparisons"] if c["groups"] == [a, b])
        same = lambda x, y: (x is None and y is None) or (x is not None and y is not None and abs(x - y) < 1e-12)
        assert same(r[4], c["spearman_rho"]) and same(r[5], c["spearman_p"]), (r, c)
        assert r[2] == f'{c["n"][a]} / {c["n"][b]}', (r, c)
    seen[r[3]] += 1
assert seen["Kendall's W"] >= 2 and seen["Spearman's rho"] >= 1, seen
# Column A of the rankings sheets is as wide as its longest label.
for ws in rk.worksheets:
    labels = [c.value for c in ws["A"] if isinstance(c.value, str)]
    if not labels:
        continue
    need = max(len(l) for l in labels)
    got = ws.column_dimensions["A"].width
    assert got >= min(need, 60), (ws.title, got, need, max(labels, key=len))
# The scatter's data labels are the item ids, as text (not cell references drawn as values).
z = zipfile.ZipFile(f"{d}/rankings.xlsx")
charts = [n for n in z.namelist() if n.startswith("xl/charts/chart")]
scatters = [z.read(n).decode() for n in charts if "<c:scatterChart>" in z.read(n).decode()]
assert scatters, "no scatter chart"
for x in scatters:
    texts = re.findall(r"<c:dLbl>.*?<a:t>([^<]*)</a:t>", x, re.S)
    assert texts and all(re.fullmatch(r"[A-Za-z]+(\.[A-Za-z0-9]+)*", t) for t in texts), texts[:5]
    assert "<c:strRef>" not in x.split("<c:dLbls>")[1].split("</c:dLbls>")[0], "labels refer to cells"
# The charts of a question sheet sit below everything written on it, from column A, each starting a printed
# page of its own (a row break just above it), so no page edge cuts one.
names = {}
wbx = z.read("xl/workbook.xml").decode()
rels = z.read("xl/_rels/workbook.xml.rels").decode()
for name, rid in re.findall(r'<sheet name="([^"]*)" sheetId="\d+" r:id="(rId\d+)"', wbx):
    names[name] = "xl/" + re.search(r'Id="%s" Type="[^"]*" Target="([^"]*)"' % rid, rels).group(1)
checked = 0
for ws in rk.worksheets:
    sheet_xml = z.read(names[ws.title]).decode()
    m = re.search(r'<drawing r:id="(rId\d+)"', sheet_xml)
    if not m:
        continue
    srels = z.read(names[ws.title].replace("worksheets/", "worksheets/_rels/") + ".rels").decode()
    drawing = "xl/" + re.search(r'Id="%s" Type="[^"]*" Target="\.\./([^"]*)"' % m.group(1), srels).group(1)
    anchors = [(int(c), int(r)) for c, r in re.findall(r"<xdr:from><xdr:col>(\d+)</xdr:col><xdr:colOff>\d+</xdr:colOff><xdr:row>(\d+)</xdr:row>",
                                                      z.read(drawing).decode())]
    last = max(c.row for row in ws.iter_rows() for c in row if c.value is not None) - 1  # 0-based
    breaks = sorted(int(b) for b in re.findall(r'<brk id="(\d+)"', sheet_xml))
    assert anchors, ws.title
    for col, row in anchors:
        assert col == 0 and row > last, (ws.title, "chart at", col, row, "last row written", last)
        assert row in breaks, (ws.title, "no page break above the chart at row", row, breaks)
    checked += 1
assert checked >= 1, "no question sheet with charts"
print("ok")
PY
done
# Printed by LibreOffice: the Codebook prints across pages, column A's labels whole.
if command -v soffice >/dev/null && command -v pdftotext >/dev/null; then
  (cd "$tmp/fw" && HOME="$tmp" timeout 180 soffice --headless --convert-to pdf --outdir "$tmp/pdf" rankings.xlsx >/dev/null 2>&1) || fail "soffice"
  pdftotext -layout "$tmp/pdf/rankings.pdf" "$tmp/rankings.txt"
  grep -q "rho CI low (95% bootstrap)" "$tmp/rankings.txt" || fail "the label of column A is cut on the printed page"
  pages=$(grep -c $'\f' "$tmp/rankings.txt" || true)
  (( pages > 1 )) || fail "the wide sheet printed on $pages page(s)"
  # The Summary sheets alone (the rest removed) print on a few pages, every header word on the page. Bundled
  # study: 106 nodes on 3 pages, 3 questions and 10 comparisons on 2 (before: the whole workbooks, 185 and
  # 103 pages, had no such sheet).
  for d in fw bundled; do
    for w in codebook rankings; do
      /usr/bin/python3 - "$tmp/$d/$w.xlsx" "$tmp/sum-$d-$w.xlsx" <<'PY' || fail "summary of $d/$w"
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
for ws in wb.worksheets[1:]:
    wb.remove(ws)
wb.save(sys.argv[2])
PY
      (cd "$tmp" && HOME="$tmp" timeout 180 soffice --headless --convert-to pdf --outdir "$tmp/pdf" "sum-$d-$w.xlsx" >/dev/null 2>&1) || fail "soffice $d/$w"
      pdftotext -layout "$tmp/pdf/sum-$d-$w.pdf" "$tmp/sum.txt"
      pages=$(pdfinfo "$tmp/pdf/sum-$d-$w.pdf" | awk '/^Pages:/ {print $2}')
      (( pages >= 1 && pages <= 6 )) || fail "the $d $w summary printed on $pages pages"
      # every word of every header title is on the page (a cut title loses its last words: "nodes)", "n=6)")
      /usr/bin/python3 - "$tmp/sum-$d-$w.xlsx" "$tmp/sum.txt" <<'PY' || fail "the $d $w summary: a header cut on the page"
import sys, openpyxl
words = open(sys.argv[2], encoding="utf-8").read().split()
for title in [c.value for c in openpyxl.load_workbook(sys.argv[1]).worksheets[0][1] if c.value]:
    for w in title.split():
        assert w in words or any(x.startswith(w) or w.startswith(x) and x.endswith("-") for x in words), (title, w)
PY
      echo "$d $w summary: $pages page(s)"
    done
  done
else
  echo "note: soffice or pdftotext absent; the printed pages are not checked"
fi
echo "ok: print-ready workbooks"
