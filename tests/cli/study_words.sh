#!/usr/bin/env bash
# The study's own words, and figures that mean what they say, on the second fixture study
# (tests/fixtures/fieldwork: levels [Area, Practice, Habit], roles manager/employee/contractor, the codebook's
# context column = attribute `country` labelled "Country of residence", III.R worded per role):
# - no output of report, codebook, rank or taxonomy show carries a word of the bundled study (the text inside
#   every xlsx part included), and the outputs DO carry the fixture's level names and question texts;
# - the workbooks' number formats (U to one decimal, p to three significant digits, fixed decimals) read back
#   with openpyxl against report.json / rank --format json, and every sheet's print settings;
# - charts name their items; the codebook's context column follows the study's choice.
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
PY=/usr/bin/python3
if [[ ! -x $PY ]] || ! $PY -c "import openpyxl" 2>/dev/null; then echo "SKIP: python3-openpyxl is not installed"; exit 77; fi
command -v unzip >/dev/null || { echo "SKIP: unzip is not installed"; exit 77; }
command -v pdftotext >/dev/null || { echo "SKIP: pdftotext is not installed"; exit 77; }

ws="$tmp/fieldwork"
cp -r "$FIXTURES/fieldwork" "$ws"
out="$tmp/out"
"$QUALRANK" -C "$ws" -q report -o "$out" 2>"$tmp/report.err" || { cat "$tmp/report.err"; fail "report on the fieldwork study"; }
"$QUALRANK" -C "$ws" -q codebook -o "$out/codebook-cmd.xlsx" || fail "codebook"
"$QUALRANK" -C "$ws" codebook --format json >"$out/codebook.json" || fail "codebook --format json"
"$QUALRANK" -C "$ws" codebook --format csv >"$out/codebook.csv" || fail "codebook --format csv"
"$QUALRANK" -C "$ws" rank --format json --resamples 200 >"$out/rank.json" || fail "rank --format json"
"$QUALRANK" -C "$ws" rank --resamples 200 >"$out/rank.txt" || fail "rank (text)"
"$QUALRANK" -C "$ws" -q rank --resamples 200 -o "$out/rank-cmd.xlsx" -o "$out/rank-cmd.md" || fail "rank -o"
"$QUALRANK" -C "$ws" rank --resamples 200 --model plackett-luce --format latex >"$out/rank.tex" || fail "rank --format latex"
"$QUALRANK" -C "$ws" taxonomy show >"$out/taxonomy.txt" || fail "taxonomy show"
"$QUALRANK" -C "$ws" taxonomy show --format json >"$out/taxonomy.json" || fail "taxonomy show --format json"
for f in index.html report.json rankings.md rankings.xlsx codebook.xlsx; do [[ -s "$out/$f" ]] || fail "report wrote no $f"; done

# ---- every output as text: plain files as they are, workbooks as the text of all their XML parts ----
: >"$tmp/all.txt"
while IFS= read -r f; do  # every file, those in latex/ and figures/ too
  case "$f" in
    *.xlsx) mkdir -p "$tmp/x/$(basename "$f")"; unzip -qo "$f" -d "$tmp/x/$(basename "$f")"
            find "$tmp/x/$(basename "$f")" -name '*.xml' -exec cat {} + >"$tmp/part.txt"
            [[ -s "$tmp/part.txt" ]] || fail "$f has no XML parts"
            grep -c '<t>\|<t xml:space' "$tmp/part.txt" >/dev/null || fail "$f has no text cells (shared or inline)"
            cat "$tmp/part.txt" >>"$tmp/all.txt" ;;
    *.pdf) pdftotext "$f" - >>"$tmp/all.txt" || fail "pdftotext $f" ;;  # (the figures: their text, not deflated bytes)
    *) cat "$f" >>"$tmp/all.txt" ;;
  esac
done < <(find "$out" -type f | sort)
for word in "issue type" "framework" "LLM" "sub-theme" "subtheme" "novice" "expert" "types/themes"; do
  if grep -n -i -o -- ".\{0,60\}$word.\{0,60\}" "$tmp/all.txt" >"$tmp/hits.txt"; then
    head -5 "$tmp/hits.txt"; fail "an output carries the bundled study's word '$word'"
  fi
done

# ---- the fixture's own words are there ----
grep -qx 'remote-work version 2 (after coding round 1): Area 3, Practice [0-9]*, Habit [0-9]*' "$out/taxonomy.txt" \
  || { head -1 "$out/taxonomy.txt"; fail "taxonomy show does not count by the fixture's level names"; }
$PY - "$out/taxonomy.json" "$out/taxonomy.txt" <<'EOF' || fail "taxonomy counts (see above)"
import json, sys
t = json.load(open(sys.argv[1]))
assert t["levels"] == ["Area", "Practice", "Habit"], t["levels"]
per = [sum(1 for n in t["nodes"] if n["level"] == l and n["status"] == "active") for l in (1, 2, 3)]
assert [t["counts"]["level_%d" % l] for l in (1, 2, 3)] == per, (t["counts"], per)
first = open(sys.argv[2]).readline().strip()
assert first.endswith("Area %d, Practice %d, Habit %d" % tuple(per)), first
EOF
grep -q '<h2 id="matrix">Practice by group</h2>' "$out/index.html" || fail "heatmap heading not named by level 2"
grep -q '<a href="#matrix">Practice by group</a>' "$out/index.html" || fail "nav link not named by level 2"
grep -q 'Participants who mentioned each Practice, per group' "$out/index.html" || fail "heatmap title"
# III.R is worded per role: each wording with its roles, in rankings.md, rank's text, the HTML page and the workbook.
grep -qx '## III.R (worded per role)' "$out/rankings.md" || fail "rankings.md heading"
grep -qx -- '- manager: Rank these tool themes by importance for your team.' "$out/rankings.md" || fail "rankings.md: manager wording"
grep -qx -- '- employee, contractor: Which two tool themes matter most to you?' "$out/rankings.md" || fail "rankings.md: shared wording"
grep -qx "## III.R (worded per role)" "$out/rank-cmd.md" || fail "rank -o FILE.md heading"
grep -qx '  (employee, contractor) Which two tool themes matter most to you?' "$out/rank.txt" || fail "rank text wording"
grep -q '<li><b>manager:</b> Rank these tool themes by importance for your team.</li>' "$out/index.html" || fail "HTML manager wording"
grep -q '<li><b>employee, contractor:</b> Which two tool themes matter most to you?</li>' "$out/index.html" || fail "HTML shared wording"
$PY - "$out/rank.json" <<'EOF' || fail "rank JSON wording (see above)"
import json, sys
q = json.load(open(sys.argv[1]))["questions"][0]
assert q["question"] == "III.R"
assert q["wording"] == [{"roles": ["manager"], "text": "Rank these tool themes by importance for your team."},
                        {"roles": ["employee", "contractor"], "text": "Which two tool themes matter most to you?"}], q["wording"]
for level, g in q["groups"].items():   # tiers flatten to the consensus, an unchanged key
    assert [i for t in g["consensus_tiers"] for i in t] == g["consensus"], (level, g)
EOF

# ---- workbooks: formats, print settings, charts, the context column ----
$PY - "$out" "$ws" <<'EOF' || fail "workbooks (see above)"
import json, os, re, sys, zipfile, openpyxl
out, ws = sys.argv[1], sys.argv[2]
report = json.load(open(os.path.join(out, "report.json")))

def print_settings(path):
    wb = openpyxl.load_workbook(path)
    for sh in wb.worksheets:
        assert sh.page_setup.orientation == "landscape", (path, sh.title, sh.page_setup.orientation)
        # One page wide when the sheet is narrow enough to stay readable (<= 200 characters), else across
        # pages at full size (tests/cli/workbook_print.sh checks the repeated columns).
        width = sum((sh.column_dimensions[openpyxl.utils.get_column_letter(c)].width or 0) for c in range(1, sh.max_column + 1))
        fits = bool(sh.sheet_properties.pageSetUpPr and sh.sheet_properties.pageSetUpPr.fitToPage)
        assert fits == (width <= 200), (path, sh.title, width, fits)
        if fits:
            assert sh.page_setup.fitToWidth in (1, "1", None), (path, sh.title, sh.page_setup.fitToWidth)  # 1 is the default
            assert str(sh.page_setup.fitToHeight) == "0", (path, sh.title, sh.page_setup.fitToHeight)
        assert sh.print_title_rows in ("1:1", "$1:$1"), (path, sh.title, sh.print_title_rows)
    return wb

for name in ("rankings.xlsx", "codebook.xlsx", "codebook-cmd.xlsx", "rank-cmd.xlsx", "agreement.xlsx"):
    print_settings(os.path.join(out, name))
# agreement.xlsx: coefficients to three decimals (kappa, alpha), never General.
ag = openpyxl.load_workbook(os.path.join(out, "agreement.xlsx"))
fixed = 0
for sh in ag.worksheets:
    for r in sh.iter_rows():
        for c in r:
            if isinstance(c.value, float) and c.value != int(c.value):
                assert c.number_format in ("0.000", "0.0%", "0.00"), (sh.title, c.coordinate, c.value, c.number_format)
                fixed += 1
assert fixed > 0, "no fractional statistic in agreement.xlsx"

# rankings.xlsx, sheet III.R: the gap table against report.json, cell by cell, with the number formats.
wb = openpyxl.load_workbook(os.path.join(out, "rankings.xlsx"))
sh = wb["III.R"]
q = report["rankings"]["questions"][0]
assert sh.oddHeader.left.text.startswith("III.R: manager: Rank these tool themes by importance for your team.; "
                                         "employee, contractor: Which two tool themes"), sh.oddHeader.left.text
rows = list(sh.iter_rows())
asked = next(i for i, r in enumerate(rows) if r[0].value == "Question III.R")
assert [rows[asked][1].value, rows[asked + 1][1].value] == ["manager: Rank these tool themes by importance for your team.",
                                                           "employee, contractor: Which two tool themes matter most to you?"]
head = next(i for i, r in enumerate(rows) if r[5].value == "Mann-Whitney U")
assert [c.value for c in rows[head][:10]][4:9] == ["Gap (b - a)", "Mann-Whitney U", "p", "Holm p", "Cliff's delta"]
def p_format(p):
    return "0.00E+00" if p != 0 and abs(p) < 0.001 else "0.000"
for k, g in enumerate(q["gaps"]):
    r = rows[head + 1 + k]
    assert r[0].value == g["item"], (r[0].value, g["item"])
    assert r[5].value == g["mann_whitney_u"] and r[5].number_format == "0.0", (r[5].value, r[5].number_format, g)
    for cell, key in ((r[6], "p"), (r[7], "p_holm")):
        assert abs(cell.value - g[key]) < 1e-12 and cell.number_format == p_format(g[key]), (key, cell.value, cell.number_format)
    assert abs(r[8].value - g["cliffs_delta"]) < 1e-12 and r[8].number_format == "0.000", (r[8].value, r[8].number_format)
# Kendall's W block: W to three decimals, its p to three significant digits.
wrow = next(i for i, r in enumerate(rows) if r[2].value == "Kendall's W")
for r in rows[wrow + 1: wrow + 1 + len(q["groups"])]:
    g = q["groups"][r[0].value]
    assert r[2].number_format == "0.000" and r[4].number_format == p_format(r[4].value), (r[0].value, r[2].number_format, r[4].number_format)
    assert abs(r[2].value - g["kendall_w"]) < 1e-12
# No statistic in General format: every number cell of the question sheet has an explicit number format.
for r in rows:
    for c in r:
        if isinstance(c.value, float) and c.value != int(c.value):
            assert c.number_format != "General", (c.coordinate, c.value)
# The column chart's categories are the items' names (column B), the scatter's points are labelled.
z = zipfile.ZipFile(os.path.join(out, "rankings.xlsx"))
chart = z.read("xl/charts/chart1.xml").decode()
cat = re.search(r"<c:cat>.*?<c:f>(.*?)</c:f>", chart, re.S).group(1)
assert cat.endswith("!$B$2:$B$%d" % (1 + len(q["items"]))), cat
names = [rows[i][1].value for i in range(1, 1 + len(q["items"]))]
assert all(names) and names[0] == [n["name"] for n in report["taxonomy"]["nodes"] if n["id"] == q["items"][0]][0], names

# The codebook's context column: headed by the study's label, holding each participant's `country`.
cb = openpyxl.load_workbook(os.path.join(out, "codebook.xlsx"))["Coded segments"]
header = [c.value for c in next(cb.iter_rows(max_row=1))]
assert header[3] == "Country of residence", header
countries = {}
for f in os.listdir(os.path.join(ws, "transcripts")):
    if f.endswith(".md"):
        text = open(os.path.join(ws, "transcripts", f)).read()
        countries[re.search(r"^participant: (\S+)", text, re.M).group(1)] = re.search(r"^  country: (\S+)", text, re.M).group(1)
seen = 0
for r in cb.iter_rows(min_row=2, values_only=True):
    assert r[3] == countries[r[0]], (r[0], r[3])
    seen += 1
assert seen > 5, seen
about = dict(openpyxl.load_workbook(os.path.join(out, "codebook.xlsx"))["About"].iter_rows(min_row=2, values_only=True))
assert about["Levels"] == "1 Area, 2 Practice, 3 Habit", about["Levels"]
assert "at taxonomy level 2 (Practice)" in about["Co-occurrence"], about["Co-occurrence"]
EOF

# The bundled study has half-integer U values and p-values below 0.001: U keeps its decimals, p goes scientific.
"$QUALRANK" -C "$SOURCE_DIR" -q rank --resamples 200 -o "$tmp/bundled.xlsx" || fail "rank on the bundled study"
"$QUALRANK" -C "$SOURCE_DIR" rank --resamples 200 --format json >"$tmp/bundled.json" || fail "rank --format json (bundled)"
$PY - "$tmp/bundled.xlsx" "$tmp/bundled.json" <<'EOF' || fail "bundled workbook formats (see above)"
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
halves = scientific = 0
for q in json.load(open(sys.argv[2]))["questions"]:
    rows = list(wb[q["question"]].iter_rows())
    head = next(i for i, r in enumerate(rows) if r[5].value == "Mann-Whitney U")
    for k, g in enumerate(q["gaps"]):
        u, p = rows[head + 1 + k][5], rows[head + 1 + k][6]
        assert u.value == g["mann_whitney_u"] and u.number_format == "0.0", (q["question"], g["item"], u.value, u.number_format)
        halves += u.value != int(u.value)
        assert p.number_format == ("0.00E+00" if 0 < g["p"] < 0.001 else "0.000"), (g["p"], p.number_format)
    for r in rows:
        for c in r:
            if c.number_format == "0.00E+00":
                assert 0 < c.value < 0.001, (c.coordinate, c.value)
                scientific += 1
assert halves >= 3, halves          # e.g. III.R U = 80.5, shown as 80.5 (it used to read 81)
assert scientific >= 5, scientific  # Kendall's W p = 5.92e-11 on III.R, shown as 5.92E-11 (it used to read 0.00)
EOF

# Without the guideline's codebook_context there is no context column; --context-attr names one by its attribute.
sed -i '/^codebook_context:/d' "$ws/guidelines/remote-work-interview.yaml"
"$QUALRANK" -C "$ws" -q codebook -o "$tmp/plain.xlsx" || fail "codebook without codebook_context"
"$QUALRANK" -C "$ws" -q codebook --context-attr team_size -o "$tmp/team.xlsx" || fail "codebook --context-attr"
$PY - "$tmp/plain.xlsx" "$tmp/team.xlsx" <<'EOF' || fail "context column choice (see above)"
import sys, openpyxl
plain = [c.value for c in next(openpyxl.load_workbook(sys.argv[1])["Coded segments"].iter_rows(max_row=1))]
assert plain[:4] == ["Participant", "Role", "Experience Level", "Prompt Category"], plain
team = [c.value for c in next(openpyxl.load_workbook(sys.argv[2])["Coded segments"].iter_rows(max_row=1))]
assert team[3] == "team_size", team
EOF

# A bad `levels:` list is a located error and nothing is written.
sed -i 's/^levels: \[Area, Practice, Habit\]$/levels: [Area, "", Habit]/' "$ws/codebooks/remote-work.yaml"
rm -rf "$tmp/bad"
if "$QUALRANK" -C "$ws" report -o "$tmp/bad" >"$tmp/bad.out" 2>"$tmp/bad.err"; then fail "a bad levels list was accepted"; fi
grep -q '^codebooks/remote-work.yaml:4:16: error: each entry of .levels. is a non-empty name' "$tmp/bad.err" \
  || { cat "$tmp/bad.err"; fail "bad levels: no located error"; }
[[ ! -e "$tmp/bad/index.html" ]] || fail "report wrote output despite the error"
echo "study_words: no bundled-study word in $(ls "$out" | wc -l) outputs; level names, wording, formats and print settings checked"
