#!/usr/bin/env bash
# qualrank participants import: a classification sheet (CSV and .xlsx) merged into the front matter of a copy of
# the fieldwork study (roles manager/employee/contractor, levels junior/mid/senior from tenure, bins [2, 5]).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
sheets="$FIXTURES/participants"
fresh() { rm -rf "$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$tmp/ws"; }
sums() { (cd "$tmp/ws" && md5sum transcripts/*.md); }
body() { awk 'n>=2 {print} /^---$/ {n++}' "$1"; }
maps=(--map "Years remote=tenure" --map "Team size=team_size")

# --- dry run (CSV): every change listed, nothing written -------------------------------------------------
fresh
before=$(sums)
"$QUALRANK" -C "$tmp/ws" participants import "$sheets/people.csv" --id-column participant "${maps[@]}" --dry-run >"$tmp/dry" 2>"$tmp/dry.err"
[[ "$(sums)" == "$before" ]] || fail "dry run changed a transcript"
grep -qF 'dry run: nothing written' "$tmp/dry" || fail "dry-run line"
grep -qF 'transcripts/C02.md: tenure: (not set) -> 4  (set; from' "$tmp/dry" || fail "C02 tenure 4 years -> 4"
grep -qF 'transcripts/E02.md: tenure: 6 -> 7  (replaced; from' "$tmp/dry" || fail "E02 tenure replaced"
grep -qF 'transcripts/E02.md: experience: (not set) -> junior' "$tmp/dry" || fail "E02 level in the guideline's spelling"
grep -qF 'transcripts/M01.md: country: DE -> NL' "$tmp/dry" || fail "M01 country"
grep -qF 'transcripts/M01.md: team_size: 12 -> 14' "$tmp/dry" || fail "M01 team size via --map"
grep -qF '5 changes in 3 transcripts' "$tmp/dry" || { cat "$tmp/dry"; fail "change count"; }
grep -qF 'ignored columns (no attribute of that name; use --map COLUMN=ATTRIBUTE): Notes' "$tmp/dry" || fail "ignored column listed"
grep -qF 'in the sheet without a transcript: X09' "$tmp/dry" || fail "sheet-only participant"
grep -qF 'transcripts without a row in the sheet: M02' "$tmp/dry" || fail "transcript-only participant"
grep -qE "people.csv:7:1: warning: participant 'X09' has no transcript" "$tmp/dry.err" || { cat "$tmp/dry.err"; fail "X09 warning located"; }
grep -qE "transcripts/M02.md:[0-9]+:[0-9]+: warning: participant 'M02' has no row" "$tmp/dry.err" || fail "M02 warning located"
# 6 months is C01's 0.5 and Contractor its role: unchanged, not listed.
grep -q 'C01' "$tmp/dry" && fail "C01 has no change"

# A header near a known attribute, not mapped: ignored, with a warning at its cell.
"$QUALRANK" -C "$tmp/ws" participants import "$sheets/people.csv" --id-column participant --map "Years remote=tenure" --dry-run >"$tmp/nomap" 2>"$tmp/nomap.err"
grep -qF "people.csv:1:39: warning: column 'Team size' is ignored (did you mean 'team_size'? --map \"Team size=team_size\" imports it)" "$tmp/nomap.err" || { cat "$tmp/nomap.err"; fail "near-miss header"; }
grep -qF 'ignored columns (no attribute of that name; use --map COLUMN=ATTRIBUTE): Team size, Notes' "$tmp/nomap" || fail "Team size listed as ignored"

# --- the import (CSV), with E01's attributes as a flow map ------------------------------------------------
fresh
sed -i 's/^attributes:$/attributes: {tenure: 1, team_size: 12, country: FR}/; /^  tenure: 1$/d; /^  team_size: 12$/d; /^  country: FR$/d' "$tmp/ws/transcripts/E01.md"
"$QUALRANK" -C "$tmp/ws" validate >/dev/null 2>&1 || fail "flow-map E01 should validate"
body "$tmp/ws/transcripts/E02.md" >"$tmp/E02.body"
cp "$tmp/ws/transcripts/C01.md" "$tmp/C01.before"
"$QUALRANK" -C "$tmp/ws" participants import "$sheets/people.csv" --id-column Participant "${maps[@]}" >"$tmp/imp" 2>/dev/null
grep -qF 'wrote 3 transcripts' "$tmp/imp" || { cat "$tmp/imp"; fail "import summary"; }
awk '/^---$/ {n++; next} n==1' "$tmp/ws/transcripts/E02.md" >"$tmp/E02.fm"
grep -qx '  tenure: 7' "$tmp/E02.fm" || fail "E02 tenure 7 written"
grep -qx '  experience: junior' "$tmp/E02.fm" || fail "E02 experience written"
grep -qx '  country: DE' "$tmp/E02.fm" || fail "E02 country kept"
cmp -s <(body "$tmp/ws/transcripts/E02.md") "$tmp/E02.body" || fail "E02 body changed"
cmp -s "$tmp/ws/transcripts/C01.md" "$tmp/C01.before" || fail "an unchanged transcript was rewritten"
grep -qx '  team_size: 14' "$tmp/ws/transcripts/M01.md" || fail "M01 team size"
grep -qx '  country: NL' "$tmp/ws/transcripts/M01.md" || fail "M01 country"
grep -qx '  tenure: 4' "$tmp/ws/transcripts/C02.md" || fail "C02 tenure appended to its block"
# Running it again changes nothing.
"$QUALRANK" -C "$tmp/ws" participants import "$sheets/people.csv" --id-column Participant "${maps[@]}" >"$tmp/again" 2>/dev/null
grep -qF '0 changes in 0 transcripts' "$tmp/again" || { cat "$tmp/again"; fail "second import not idempotent"; }

# --- validate: E02 states junior, but tenure 7 puts them in senior -------------------------------------------
"$QUALRANK" -C "$tmp/ws" validate >"$tmp/v.out" 2>"$tmp/v.err" || { cat "$tmp/v.err"; fail "validate after import"; }
exp_line=$(grep -n '^  experience: junior$' "$tmp/ws/transcripts/E02.md" | cut -d: -f1)
ten_line=$(grep -n '^  tenure: 7$' "$tmp/ws/transcripts/E02.md" | cut -d: -f1)
grep -qF "transcripts/E02.md:$exp_line:15: warning: experience 'junior' is stated here, but tenure 7 (transcripts/E02.md:$ten_line:11) puts the participant in 'senior'; the stated level is used" "$tmp/v.err" \
  || { cat "$tmp/v.err"; fail "level/years conflict warning with both locations"; }
grep -q "E01.md.*warning: experience" "$tmp/v.err" && fail "E01 has no stated level"
# query reads the imported attributes: E02 now counts as junior (the stated level wins).
"$QUALRANK" -C "$tmp/ws" query --where experience=junior --format json >"$tmp/q.json" 2>/dev/null
jq -e '[.segments[].participant] | unique | index("E02") != null' "$tmp/q.json" >/dev/null || fail "E02 is junior for query"

# --- .xlsx: the same sheet gives the same plan ---------------------------------------------------------------
fresh
"$QUALRANK" -C "$tmp/ws" participants import "$sheets/people.xlsx" --id-column Participant "${maps[@]}" --dry-run >"$tmp/xdry" 2>/dev/null
sed 's/people\.csv:[0-9]*:[0-9]*/CELL/; s/people\.xlsx:People:[0-9]*:[0-9]*/CELL/' "$tmp/dry" | tail -n +2 >"$tmp/a"
sed 's/people\.csv:[0-9]*:[0-9]*/CELL/; s/people\.xlsx:People:[0-9]*:[0-9]*/CELL/' "$tmp/xdry" | tail -n +2 >"$tmp/b"
diff "$tmp/a" "$tmp/b" || fail "xlsx and csv plans differ"
grep -qE 'transcripts/E02.md: tenure: 6 -> 7  \(replaced; from .*people\.xlsx:People:5:3\)$' "$tmp/xdry" || fail "xlsx cell location"
head -1 "$tmp/xdry" | grep_q -F 'people.xlsx:People: 6 participant rows' || fail "xlsx summary names the sheet"
"$QUALRANK" -C "$tmp/ws" participants import "$sheets/people.xlsx" --id-column Participant "${maps[@]}" >/dev/null 2>&1 || fail "xlsx import"
grep -qx '  tenure: 7' "$tmp/ws/transcripts/E02.md" || fail "xlsx import wrote E02"

# --- errors: located, all reported, nothing written ----------------------------------------------------------
fresh
before=$(sums)
set +e
"$QUALRANK" -C "$tmp/ws" participants import "$sheets/bad.csv" --id-column Participant --map "Years remote=tenure" >/dev/null 2>"$tmp/bad.err"
rc=$?
set -e
[[ $rc == 1 ]] || fail "bad csv exit $rc"
[[ "$(sums)" == "$before" ]] || fail "a transcript changed despite errors"
grep -qF "bad.csv:2:16: error: column 'Years remote': 'about 3' is not a number of years" "$tmp/bad.err" || { cat "$tmp/bad.err"; fail "about 3 located"; }
grep -qF "bad.csv:3:5: error: column 'Role': unknown role 'employe' (did you mean 'employee'?)" "$tmp/bad.err" || fail "role typo with did you mean"
grep -qF "bad.csv:4:15: error: column 'Years remote': '2-3 years' is not a number of years" "$tmp/bad.err" || fail "range rejected"
grep -qF 'nothing written' "$tmp/bad.err" || fail "says nothing written"
set +e
"$QUALRANK" -C "$tmp/ws" participants import "$sheets/people.xlsx" --sheet bad --id-column Participant --map "Years remote=tenure" >/dev/null 2>"$tmp/xbad.err"
rc=$?
set -e
[[ $rc == 1 ]] || fail "bad xlsx exit $rc"
grep -qF "people.xlsx:Bad:2:3: error: column 'Years remote': 'about 3'" "$tmp/xbad.err" || { cat "$tmp/xbad.err"; fail "xlsx about 3 located"; }
grep -qF "people.xlsx:Bad:3:2: error: column 'Role': unknown role 'employe'" "$tmp/xbad.err" || fail "xlsx role located"
grep -qF "people.xlsx:Bad:4:3: error: column 'Years remote': 'TRUE' is not a number of years" "$tmp/xbad.err" || fail "xlsx boolean cell"
[[ "$(sums)" == "$before" ]] || fail "a transcript changed despite xlsx errors"
set +e
"$QUALRANK" -C "$tmp/ws" participants import "$sheets/people.xlsx" --sheet Peple --id-column Participant >/dev/null 2>"$tmp/sheet.err"; rc=$?
"$QUALRANK" -C "$tmp/ws" participants import "$sheets/people.csv" --id-column Participnt >/dev/null 2>"$tmp/col.err"; rc2=$?
"$QUALRANK" -C "$tmp/ws" participants import "$sheets/people.csv" >/dev/null 2>"$tmp/usage.err"; rc3=$?
set -e
[[ $rc == 1 && $rc2 == 1 && $rc3 == 2 ]] || fail "exit codes $rc $rc2 $rc3"
grep -qF "no sheet 'Peple' (did you mean 'People'?)" "$tmp/sheet.err" || fail "sheet typo"
grep -qF "no column 'Participnt' for the participant ids (did you mean 'Participant'?)" "$tmp/col.err" || fail "id column typo"
[[ "$(sums)" == "$before" ]] || fail "changed on usage errors"
"$QUALRANK" participants import --help >"$tmp/help"
grep -qF -- '--id-column' "$tmp/help" && grep -qF 'docs/participants.md' "$tmp/help" || fail "--help"
echo "participants: ok"
