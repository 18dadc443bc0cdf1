#!/usr/bin/env bash
# The streamed workbook writer (codebook.xlsx, src/report/xlsx/xlsx_stream.cpp) against libxlsxwriter: on the bundled
# study, the fieldwork fixture and a generated study of 60 transcripts (a 7 MB sheet, deflated in many pieces),
# both writers give the same cells (value, type, number format, bold, wrapping, alignment), column widths, row
# heights, frozen panes, autofilter, print titles, page setup, header and footer, and document properties.
# The streamed file is a valid zip (every entry's CRC checked by unzip -t) of well-formed XML parts, the same
# bytes on a second run, and LibreOffice reads its cells back.
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cp -r "$FIXTURES/fieldwork" "$tmp/fieldwork"
bash "$SOURCE_DIR/bench/gen_workspace.sh" "$tmp/gen" 60 1 >/dev/null 2>&1 || fail "generate a study of 60 transcripts"
for study in "$SOURCE_DIR" "$tmp/fieldwork" "$tmp/gen"; do
  name=$(basename "$study")
  "$QUALRANK" -q -C "$study" codebook -o "$tmp/$name-stream.xlsx" 2>/dev/null || fail "$name: codebook (streamed)"
  QUALRANK_XLSX_LIBXLSXWRITER=1 "$QUALRANK" -q -C "$study" codebook -o "$tmp/$name-lxw.xlsx" 2>/dev/null || fail "$name: codebook (libxlsxwriter)"
  "$QUALRANK" -q -C "$study" codebook -o "$tmp/$name-again.xlsx" 2>/dev/null || fail "$name: codebook again"
  # (one worker thread deflates every piece in order; the default, two, in whatever order they finish)
  QUALRANK_THREADS=1 "$QUALRANK" -q -C "$study" codebook -o "$tmp/$name-one.xlsx" 2>/dev/null || fail "$name: codebook on one thread"
  for other in again one; do
    cmp -s "$tmp/$name-stream.xlsx" "$tmp/$name-$other.xlsx" && continue
    # Say which parts differ, and whether in their content (CRC) or only in how they were deflated.
    diff <(unzip -v "$tmp/$name-stream.xlsx" | awk 'NF == 8 { print $8, $7, $3 }') \
         <(unzip -v "$tmp/$name-$other.xlsx" | awk 'NF == 8 { print $8, $7, $3 }') || true
    fail "$name: two runs ($other) gave different bytes (parts: name, CRC, compressed size above)"
  done
  unzip -tq "$tmp/$name-stream.xlsx" >/dev/null || fail "$name: not a valid zip: $(unzip -t "$tmp/$name-stream.xlsx" | tail -3)"
  mkdir "$tmp/$name-parts" && (cd "$tmp/$name-parts" && unzip -q "../$name-stream.xlsx")
  find "$tmp/$name-parts" -type f | while read -r part; do
    xmllint --noout --huge "$part" 2>"$tmp/xmllint" || fail "$name: ${part#"$tmp/$name-parts/"} is not well-formed XML: $(head -3 "$tmp/xmllint")"
  done
  if [[ $name == gen ]]; then
    pieces=$(unzip -v "$tmp/$name-stream.xlsx" | awk '$NF == "xl/worksheets/sheet3.xml" { print $1 }')
    (( pieces > 4 * 1024 * 1024 )) || fail "the generated study's segments sheet is only $pieces bytes (too small to be deflated in many pieces)"
  fi
  /usr/bin/python3 - "$tmp/$name-lxw.xlsx" "$tmp/$name-stream.xlsx" <<'PY' || fail "$name: the two writers differ (see above)"
import sys, openpyxl
a = openpyxl.load_workbook(sys.argv[1])
b = openpyxl.load_workbook(sys.argv[2])
assert a.sheetnames == b.sheetnames, (a.sheetnames, b.sheetnames)
def look(c):
    return (c.value, c.data_type, c.number_format, bool(c.font.b), bool(c.alignment.wrap_text), c.alignment.vertical)
cells = 0
for name in a.sheetnames:
    x, y = a[name], b[name]
    assert (x.max_row, x.max_column) == (y.max_row, y.max_column), (name, x.dimensions, y.dimensions)
    for rx, ry in zip(x.iter_rows(), y.iter_rows()):
        for cx, cy in zip(rx, ry):
            if cx.value is None and cy.value is None:
                continue
            assert look(cx) == look(cy), (name, cx.coordinate, look(cx), look(cy))
            cells += 1
    for col in set(x.column_dimensions) | set(y.column_dimensions):
        assert x.column_dimensions[col].width == y.column_dimensions[col].width, (name, col, x.column_dimensions[col].width, y.column_dimensions[col].width)
    for r in range(1, x.max_row + 1):
        assert x.row_dimensions[r].height == y.row_dimensions[r].height, (name, r, x.row_dimensions[r].height, y.row_dimensions[r].height)
    assert x.freeze_panes == y.freeze_panes, (name, x.freeze_panes, y.freeze_panes)
    assert x.auto_filter.ref == y.auto_filter.ref, (name, x.auto_filter.ref, y.auto_filter.ref)
    assert (x.print_title_rows, x.print_title_cols) == (y.print_title_rows, y.print_title_cols), (name, x.print_title_rows, x.print_title_cols, y.print_title_rows, y.print_title_cols)
    px, py = x.page_setup, y.page_setup
    assert (px.orientation, px.paperSize, px.fitToHeight, px.fitToWidth) == (py.orientation, py.paperSize, py.fitToHeight, py.fitToWidth), name
    fx = bool(x.sheet_properties.pageSetUpPr and x.sheet_properties.pageSetUpPr.fitToPage)
    fy = bool(y.sheet_properties.pageSetUpPr and y.sheet_properties.pageSetUpPr.fitToPage)
    assert fx == fy, (name, fx, fy)
    assert (x.oddHeader.left.text, x.oddFooter.center.text) == (y.oddHeader.left.text, y.oddFooter.center.text), name
    assert (x.page_margins.left, x.page_margins.top) == (y.page_margins.left, y.page_margins.top), name
for p in ("title", "subject", "creator", "description", "created", "modified", "lastModifiedBy"):
    assert getattr(a.properties, p) == getattr(b.properties, p), (p, getattr(a.properties, p), getattr(b.properties, p))
assert cells > 100, cells
print(f"{sys.argv[2]}: {cells} cells on {len(a.sheetnames)} sheets as libxlsxwriter writes them")
PY
done
# LibreOffice reads the streamed workbook's cells (the fieldwork codebook's segments, its third sheet, as CSV).
if command -v soffice >/dev/null; then
  (cd "$tmp" && HOME="$tmp" timeout 180 soffice --headless --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,3' \
     --outdir "$tmp/lo" fieldwork-stream.xlsx >/dev/null 2>&1) || fail "soffice could not convert the streamed workbook"
  sheet=$(ls "$tmp/lo" | grep -i "coded segments" | head -1)
  [[ -n $sheet ]] || fail "LibreOffice wrote no 'Coded segments' sheet: $(ls "$tmp/lo")"
  /usr/bin/python3 - "$tmp/lo/$sheet" "$tmp/fieldwork-lxw.xlsx" <<'PY' || fail "LibreOffice read other cells"
import csv, sys, openpyxl
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8")))
ws = openpyxl.load_workbook(sys.argv[2])["Coded segments"]
want = [["" if c.value is None else str(c.value) for c in r] for r in ws.iter_rows()]
assert len(rows) == len(want), (len(rows), len(want))
for got, exp in zip(rows, want):
    assert got[:len(exp)] == exp, (got, exp)
print(f"LibreOffice: {len(rows)} rows of 'Coded segments' as written")
PY
else
  echo "note: soffice absent; LibreOffice's reading is not checked"
fi
echo "ok: streamed workbooks"
