#!/usr/bin/env bash
# qualrank rank --model plackett-luce: the JSON keys, worths that sum to 1, byte-identical output, roles other
# than the bundled study's (a workspace of nurses and carers, and a --table), a clear error naming the item when
# the worths diverge without pseudo-rankings; and in `report`, the forest plot draws exactly report.json's
# numbers (each point's data attributes against the JSON, the markers' x positions in the order of the values).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$FIXTURES/rank-model"

# JSON keys on the nurses-and-carers workspace
"$QUALRANK" -C "$ws" rank --model plackett-luce --format json --resamples 0 >"$tmp/care.json"
jq -e '.questions[0].model | .method == "plackett-luce" and .ties == "efron" and .partial == "top-k" and .pseudo_rankings == 0.5
       and (.log_likelihood | type == "number") and (.iterations | type == "number") and .reference == "A.1"' "$tmp/care.json" >/dev/null || fail "model keys"
jq -e '.questions[0].model.groups | keys == ["carer", "nurse"]' "$tmp/care.json" >/dev/null || fail "groups nurse and carer"
jq -e '[.questions[0].model.groups[], .questions[0].model.overall | .items[] | has("worth") and has("log_worth") and has("se") and has("quasi_se")] | all' \
  "$tmp/care.json" >/dev/null || fail "item estimate keys"
jq -e '[.questions[0].model.groups[], .questions[0].model.overall | [.items[].worth] | add | . > 0.999999 and . < 1.000001] | all' \
  "$tmp/care.json" >/dev/null || fail "worths do not sum to 1"
jq -e '.questions[0].model.lr_test | (.statistic | type == "number") and .df == 2 and .p > 0 and .p <= 1 and .groups == ["nurse", "carer"]' \
  "$tmp/care.json" >/dev/null || fail "lr_test (df = (2 - 1)(3 - 1))"
jq -e '.questions[0].model.item_differences | length == 3 and (map(has("item") and has("difference") and has("se") and has("p") and has("p_holm")) | all)' \
  "$tmp/care.json" >/dev/null || fail "item_differences"
# nurses put A.1 first, carers A.10: the sign of the differences (carer - nurse) says so
jq -e '.questions[0].model.item_differences | (map(select(.item == "A.1"))[0].difference < 0) and (map(select(.item == "A.10"))[0].difference > 0)' \
  "$tmp/care.json" >/dev/null || fail "difference signs"
"$QUALRANK" -C "$ws" rank --model plackett-luce --format json --resamples 0 | cmp -s - "$tmp/care.json" || fail "not reproducible"
# without --model: no model key (the mean-rank JSON is unchanged)
"$QUALRANK" -C "$ws" rank --format json --resamples 0 | jq -e '.questions[0] | has("model") | not' >/dev/null || fail "model without --model"
# the Markdown states the test in a sentence; the table output too
"$QUALRANK" -C "$ws" rank --model plackett-luce --format md --resamples 0 | grep_q -E '(do not share one set of priorities|No evidence that the groups \(nurse, carer\) weigh the items differently) \(likelihood-ratio chi-square = [0-9.]+, df = 2, p' \
  || fail "markdown sentence"
"$QUALRANK" -C "$ws" rank --model plackett-luce --resamples 0 | grep_q 'PL worth nurse:' || fail "table output"

# --table with nurses who never name B.1 (top-k: it loses every choice): finite with pseudo-rankings, an error without
"$QUALRANK" -C "$FIXTURES/mini" rank --table "$ws/table.csv" --model plackett-luce --format json --resamples 0 >"$tmp/table.json"
jq -e '.questions[0].model.groups.nurse.items["B.1"].worth < .questions[0].model.groups.nurse.items["A.10"].worth' "$tmp/table.json" >/dev/null \
  || fail "B.1 should be the nurses' lowest worth"
set +e
"$QUALRANK" -C "$FIXTURES/mini" rank --table "$ws/table.csv" --model plackett-luce --pseudo-rankings 0 --resamples 0 >"$tmp/out" 2>"$tmp/err"; rc=$?
set -e
[[ $rc -eq 1 ]] || fail "diverging worths: exit $rc"
grep -q "question Q, group nurse: the worths diverge without pseudo-rankings: B.1 never ranked above A.1, A.2, A.10 (use --pseudo-rankings)" "$tmp/err" || fail "error text: $(cat "$tmp/err")"
[[ ! -s "$tmp/out" ]] || fail "printed results despite the error"
# --partial subset: the nurses' answers rank only what they name, so B.1 is never compared within the nurses
set +e
"$QUALRANK" -C "$FIXTURES/mini" rank --table "$ws/table.csv" --model plackett-luce --partial subset --pseudo-rankings 0 --resamples 0 >/dev/null 2>"$tmp/err"
set -e
grep -q "group nurse: .*B.1 never compared with another item" "$tmp/err" || fail "subset error: $(cat "$tmp/err")"
"$QUALRANK" -C "$FIXTURES/mini" rank --table "$ws/table.csv" --model plackett-luce --partial subset --format json --resamples 0 \
  | jq -e '.questions[0].model.partial == "subset"' >/dev/null || fail "partial subset"
# usage errors
set +e
"$QUALRANK" -C "$ws" rank --model bradley-terry >/dev/null 2>&1; [[ $? -eq 2 ]] || fail "--model bradley-terry accepted"
"$QUALRANK" -C "$ws" rank --model plackett-luce --pseudo-rankings -1 >/dev/null 2>&1; [[ $? -eq 2 ]] || fail "negative --pseudo-rankings accepted"
set -e

# report: the forest plot draws report.json's numbers
forest_check() { # dir
  local dir=$1
  # every point: item, group, estimate, lo, hi (in drawing order)
  grep -o '<g class="forest-point" data-item="[^"]*" data-group="[^"]*" data-estimate="[^"]*" data-lo="[^"]*" data-hi="[^"]*"><line x1="[^"]*"[^>]*/><[a-z]* [a-z]*="[^"]*"' "$dir/index.html" \
    | sed -E 's/.*data-item="([^"]*)" data-group="([^"]*)" data-estimate="([^"]*)" data-lo="([^"]*)" data-hi="([^"]*)"><line x1="([^"]*)".*/\1 \2 \3 \4 \5/' >"$tmp/points"
  [[ -s "$tmp/points" ]] || fail "no forest-plot points in $dir/index.html"
  # the JSON's numbers for the same points, all ranking analyses of the report in page order
  jq -r '([.rankings] + (.experience_comparisons // [])) | .[].questions[] | select(.model != null) | .model as $m
         | ($m.overall.items | to_entries | to_entries | sort_by(-.value.value.worth, .key) | map(.value.key)) as $order
         | $order[] as $item | $m.groups | to_entries[] | "\($item) \(.key) \(.value.items[$item].log_worth) \(.value.items[$item].quasi_se)"' \
    "$dir/report.json" >"$tmp/expected"
  [[ $(wc -l <"$tmp/points") -eq $(wc -l <"$tmp/expected") ]] || fail "$(wc -l <"$tmp/points") points drawn, $(wc -l <"$tmp/expected") in report.json"
  paste -d' ' "$tmp/points" "$tmp/expected" | awk '
    function abs(x) { return x < 0 ? -x : x }
    { if ($1 != $6 || $2 != $7) { print "order: " $0; bad = 1; exit }
      if (abs($3 - $8) > 1e-12 || abs($4 - ($8 - 1.96 * $9)) > 1e-9 || abs($5 - ($8 + 1.96 * $9)) > 1e-9) { print "numbers: " $0; bad = 1; exit } }
    END { exit bad }' || fail "the forest plot does not draw report.json's numbers"
}
cp -r "$ws" "$tmp/care"
"$QUALRANK" -C "$tmp/care" -q report -o "$tmp/care/reports"
forest_check "$tmp/care/reports"
grep -q 'legend-entry' "$tmp/care/reports/index.html" || fail "no legend"
grep -q 'nurse (n = 6)' "$tmp/care/reports/index.html" || fail "legend names the nurses"
grep -q 'log-worth relative to A.1' "$tmp/care/reports/index.html" || fail "axis label"
# the markers' x positions follow the estimates (one plot: the nurses-and-carers question)
grep -o '<g class="forest-point"[^>]*data-estimate="[^"]*"[^>]*>.*</g>' "$tmp/care/reports/index.html" | grep -o 'data-estimate="[^"]*"[^>]*><line[^>]*/><[a-z]* [^>]*' \
  | sed -E 's/data-estimate="([^"]*)".*<(circle cx|rect x|polygon points)="([0-9.]+).*/\1 \3/' >"$tmp/xs"
sort -g -k1,1 "$tmp/xs" | awk 'NR > 1 && $1 > prev_e + 1e-9 && $2 + 0 < prev_x - 7 { bad = 1 } { prev_e = $1; prev_x = $2 } END { exit bad }' \
  || fail "marker positions do not follow the estimates"
jq -e '.rankings.questions[0].model.lr_test.df == 2' "$tmp/care/reports/report.json" >/dev/null || fail "report.json model"
grep -q 'likelihood-ratio chi-square' "$tmp/care/reports/rankings.md" || fail "rankings.md sentence"
# (listings go to files first: grep -q closing a pipe early fails the pipeline under pipefail)
unzip -l "$tmp/care/reports/rankings.xlsx" >"$tmp/xlsx.list"
grep -q 'xl/worksheets/sheet3.xml' "$tmp/xlsx.list" || fail "rankings.xlsx model sheet"
unzip -p "$tmp/care/reports/rankings.xlsx" xl/styles.xml >"$tmp/styles.xml"
grep -q 'formatCode="0.0000"' "$tmp/styles.xml" || fail "model sheet number format"
# the bundled study
"$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/study"
forest_check "$tmp/study"
echo "rank_model: ok"
