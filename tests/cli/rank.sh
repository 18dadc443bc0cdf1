#!/usr/bin/env bash
# qualrank rank: the bundled study tells the reported story; table input matches the unit-tested SciPy
# values; JSON is byte-identical for a seed; the workbook has native charts and opens in LibreOffice;
# bad tables give located errors.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$QUALRANK" -C "$SOURCE_DIR" rank --format json --resamples 2000 >"$tmp/roles.json"
# consensus orders (the study's story), read with plain tools: the line after "consensus" lists the items
consensus() { # [file] question group -> items joined by '>'
  local file="$tmp/roles.json"
  if [[ $# -eq 3 ]]; then file=$1; shift; fi
  awk -v q="\"question\": \"$1\"" -v g="\"$2\": {" '
    index($0, q) {inq=1} inq && index($0, g) {ing=1}
    ing && /"consensus": \[/ {inc=1; next}
    inc && /\]/ {print out; exit} inc {gsub(/[ ",]/, ""); out = out (out ? ">" : "") $0}' "$file"
}
[[ "$(consensus II.R developer)" == "A.3>A.1>A.2>A.4" ]] || fail "developers' question themes: $(consensus II.R developer)"
[[ "$(consensus IV.R developer)" == "B.1>B.2>B.3>B.4" ]] || fail "developers' requirement themes"
[[ "$(consensus IV.R user)" == "B.1>B.2>B.3>B.4" ]] || fail "users' requirement themes"
[[ "$(consensus III.R developer)" == C.2\>C.1\>C.3\>C.4* ]] || fail "developers' bug themes: $(consensus III.R developer)"
[[ "$(consensus III.R developer)" == *C.10 ]] || fail "developers put C.10 last"
for key in '"spearman_rho"' '"kendall_tau_b"' '"bootstrap_ci"' '"mann_whitney_u"' '"p_holm"' '"cliffs_delta"' '"misaligned"' '"kendall_w_p"' '"borda"' '"median_rank"'; do
  grep -q "$key" "$tmp/roles.json" || fail "key $key missing"
done

# experience comparison among users
"$QUALRANK" -C "$SOURCE_DIR" rank --by experience --compare beginner,advanced --where role=user --format json --resamples 500 >"$tmp/exp.json"
[[ "$(consensus "$tmp/exp.json" III.R beginner)" == C.1\>C.6\>C.10* ]] || fail "beginners' bug themes: $(consensus III.R beginner)"
[[ "$(consensus "$tmp/exp.json" III.R advanced)" == C.2\>* ]] || fail "advanced users' bug themes: $(consensus III.R advanced)"
grep -q '"groups": \[' "$tmp/exp.json" && grep -A2 '"groups": \[' "$tmp/exp.json" | grep_q '"beginner"' || fail "compare groups"

# same seed -> same bytes; another seed -> a different CI
"$QUALRANK" -C "$SOURCE_DIR" rank --format json --resamples 2000 | cmp -s - "$tmp/roles.json" || fail "not reproducible"
"$QUALRANK" -C "$SOURCE_DIR" rank --format json --resamples 2000 --seed 99 | cmp -s - "$tmp/roles.json" && fail "seed ignored"

# table input: same numbers as the unit test (SciPy-checked)
"$QUALRANK" -C "$FIXTURES/mini" rank --table "$FIXTURES/rank/table.csv" --format json --resamples 100 >"$tmp/table.json"
grep -qE '"spearman_rho": -0.49999999999|"spearman_rho": -0.5,' "$tmp/table.json" || fail "table rho"
grep -q '"kendall_tau_p": 0.8166666666666' "$tmp/table.json" || fail "table tau p"
grep -q '"p_holm": 0.087255224139653' "$tmp/table.json" || fail "table holm"

# outputs: xlsx with native charts, md summary
"$QUALRANK" -C "$SOURCE_DIR" rank --resamples 500 -o "$tmp/rankings.xlsx" -o "$tmp/rankings.md" 2>/dev/null
unzip -l "$tmp/rankings.xlsx" | grep -c 'xl/charts/chart[0-9]*.xml' | grep_q -x 6 || fail "expected 6 charts (bar + scatter per question)"
grep -q 'Misaligned items' "$tmp/rankings.md" || fail "markdown lists misaligned items"
grep -q "Spearman's rho" "$tmp/rankings.md" || fail "markdown correlation"
"$QUALRANK" -C "$SOURCE_DIR" rank --resamples 500 -o "$tmp/again.xlsx" 2>/dev/null
cmp -s "$tmp/rankings.xlsx" "$tmp/again.xlsx" || fail "workbook not reproducible"
if command -v libreoffice >/dev/null 2>&1; then
  (cd "$tmp" && HOME="$tmp" timeout 120 libreoffice --headless --convert-to csv rankings.xlsx >/dev/null 2>&1) || fail "LibreOffice could not open the workbook"
  grep -q "^II.R,user,11,Kendall's W,0.4148760330578[0-9]*,0.003357544963[0-9]*,A.1 Unclear Installation Guidance (1.64) > A.2" "$tmp/rankings.csv" || fail "LibreOffice read the first sheet (Summary) wrongly"
else
  echo "note: libreoffice not installed; LibreOffice check not run"
fi

# bad tables: every problem located, nothing printed on stdout
set +e
"$QUALRANK" -C "$FIXTURES/mini" rank --table "$FIXTURES/rank/bad.csv" >"$tmp/out" 2>"$tmp/err"; rc=$?
set -e
[[ $rc -eq 1 ]] || fail "bad table exit $rc"
grep -qF "rank/bad.csv:2:14: error: item 'A.1' (A.1) is named twice" "$tmp/err" || fail "twice: $(cat "$tmp/err")"
grep -qF "rank/bad.csv:3:10: error: unknown ranking item 'Deployment'" "$tmp/err" || fail "unknown"
grep -qF "rank/bad.csv:4: error: empty ranking" "$tmp/err" || fail "empty"
grep -qF "rank/bad.csv:5:10: error: empty item" "$tmp/err" || fail "empty item"
[[ ! -s "$tmp/out" ]] || fail "printed results despite errors"

# invalid UTF-8 in a role or question value: a located error (it used to be an internal error, exit 3)
for f in bad-utf8-role.csv:3:16 bad-utf8-question.csv:2:5; do
  set +e
  "$QUALRANK" -C "$FIXTURES/mini" rank --table "$FIXTURES/rank/${f%%:*}" --format json >"$tmp/out" 2>"$tmp/err"; rc=$?
  set -e
  [[ $rc -eq 1 ]] || fail "${f%%:*}: exit $rc: $(cat "$tmp/err")"
  grep -qF "rank/$f: error: invalid UTF-8" "$tmp/err" || fail "${f%%:*}: $(cat "$tmp/err")"
  [[ ! -s "$tmp/out" ]] || fail "${f%%:*}: printed results despite errors"
done
echo "rank: ok"
