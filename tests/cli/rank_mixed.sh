#!/usr/bin/env bash
# Rankings as studies ask them (#38): a mixed question (`top: [3, all]`: complete answers beside top-3 ones, with
# ties) and an up-to question (`top: 4`), in a study of pharmacists and technicians. Every number of
# `rank --model plackett-luce --format json` is checked against an independent recomputation from the
# transcripts (tests/cli/rank_mixed_reference.py: SciPy, statsmodels, scipy.optimize for the model), stored in
# tests/fixtures/mixed-rank.expected.json and recomputed here when SciPy is installed. Then the declarations:
# each length refused says what was declared; `top: N` at the item count takes any length; a number past it is
# a located warning; malformed lists are located errors; the guide and the transcript skeleton say it in words.
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
py=/usr/bin/python3
ws="$FIXTURES/mixed-rank"
expected="$FIXTURES/mixed-rank.expected.json"

# 1. The numbers, against the independent computation.
"$QUALRANK" -C "$ws" rank --model plackett-luce --format json --resamples 0 >"$tmp/rank.json" 2>"$tmp/err" || fail "rank: $(cat "$tmp/err")"
[[ ! -s "$tmp/err" ]] || fail "rank printed diagnostics: $(cat "$tmp/err")"
if $py -c 'import scipy, statsmodels' 2>/dev/null; then
  $py "$SOURCE_DIR/tests/cli/rank_mixed_reference.py" "$ws" >"$tmp/fresh.json"
  $py - "$tmp/fresh.json" "$expected" <<'PY' || fail "the stored expected numbers are not what the reference computes now"
import json, sys, math
a, b = (json.load(open(p)) for p in sys.argv[1:])
def same(x, y, path=""):
    if isinstance(x, dict):
        assert x.keys() == y.keys(), path
        for k in x: same(x[k], y[k], path + "/" + k)
    elif isinstance(x, list):
        assert len(x) == len(y), path
        for i, (u, v) in enumerate(zip(x, y)): same(u, v, f"{path}/{i}")
    elif isinstance(x, float):
        assert math.isclose(x, y, rel_tol=1e-6, abs_tol=1e-9), (path, x, y)
    else:
        assert x == y, (path, x, y)
same(a, b)
PY
else
  echo "note: SciPy/statsmodels absent: checked against the stored numbers only"
fi
$py - "$tmp/rank.json" "$expected" <<'PY' || fail "qualrank's numbers differ from the independent computation"
import json, sys
got = {q["question"]: q for q in json.load(open(sys.argv[1]))["questions"]}
want = json.load(open(sys.argv[2]))
assert sorted(got) == sorted(want) == ["D.R", "D.S"], sorted(got)
checked = 0
def near(x, y, tol, what):
    global checked
    assert abs(x - y) <= tol, (what, x, y)
    checked += 1
for qid, E in want.items():
    Q = got[qid]
    assert Q["items"] == E["items"], (qid, Q["items"])
    for g, EG in E["groups"].items():
        G = Q["groups"][g]
        assert G["n"] == EG["n"] and G["answer_lengths"] == EG["answer_lengths"], (qid, g, G["n"], G["answer_lengths"])
        for key in ("mean_rank", "median_rank", "borda"):
            for it in E["items"]:
                near(G[key][it], EG[key][it], 1e-12, (qid, g, key, it))
        near(G["kendall_w"], EG["kendall_w"], 1e-12, (qid, g, "W"))
        near(G["kendall_w_p"], EG["kendall_w_p"], 1e-12, (qid, g, "W p"))
        M = Q["model"]["groups"][g]
        for it in E["items"]:
            near(M["items"][it]["worth"], EG["model"]["worth"][it], 1e-6, (qid, g, "worth", it))
        near(M["log_likelihood"], EG["model"]["log_likelihood"], 1e-5, (qid, g, "log-likelihood"))
    C = Q["comparison"]
    assert C["groups"] == E["groups_compared"], C["groups"]
    near(C["spearman_rho"], E["spearman_rho"], 1e-12, (qid, "rho"))
    near(C["kendall_tau_b"], E["kendall_tau_b"], 1e-12, (qid, "tau-b"))
    for gap in Q["gaps"]:
        EG = E["gaps"][gap["item"]]
        for key in ("gap", "mann_whitney_u", "p", "p_holm", "cliffs_delta"):
            near(gap[key], EG[key], 1e-12, (qid, gap["item"], key))
# the lengths as declared: D.R complete (6) and top-3 answers, D.S answers of 2 to 4
assert got["D.R"]["groups"]["pharmacist"]["answer_lengths"] == {"3": 3, "6": 4}
assert got["D.S"]["groups"]["technician"]["answer_lengths"] == {"2": 1, "3": 3, "4": 2}
print(f"{checked} numbers as SciPy, statsmodels and scipy.optimize compute them")
PY
# The sentence, in the text and the Markdown (and the report's JSON note).
sentence='Answers: pharmacist 4 complete and 3 ranking 3 of the 6 items; technician 4 complete and 2 ranking 3 of the 6 items. An item an answer leaves unranked shares the mean of the positions after the items it ranks (3 of 6 ranked: rank 5)'
"$QUALRANK" -C "$ws" rank --resamples 0 >"$tmp/rank.txt"
"$QUALRANK" -C "$ws" rank --resamples 0 --format md >"$tmp/rank.md"
grep -qF "$sentence" "$tmp/rank.txt" || fail "text output: no answer-length sentence"
grep -qF "$sentence" "$tmp/rank.md" || fail "markdown: no answer-length sentence"
jq -e --arg s "$sentence" '.questions[0].answer_lengths_note | startswith($s) and endswith("in the Plackett-Luce model it lost every choice the answer made (nothing is imputed).")' \
  "$tmp/rank.json" >/dev/null || fail "JSON answer_lengths_note: $(jq -r '.questions[0].answer_lengths_note' "$tmp/rank.json")"
# another grouping: by site, the same answers counted per site
"$QUALRANK" -C "$ws" rank --by site --format json --resamples 0 \
  | jq -e '.questions[0].groups | .hospital.answer_lengths == {"3": 2, "6": 5} and .community.answer_lengths == {"3": 3, "6": 3}' >/dev/null \
  || fail "--by site answer lengths"

# 2. Declarations and their messages.
cp -r "$ws" "$tmp/w"
guide="$tmp/w/guidelines/dispensing-interview.yaml"
expect_error() { # message...: rank fails (exit 1), prints nothing on stdout, and stderr holds each message
  set +e; "$QUALRANK" -C "$tmp/w" rank --resamples 0 >"$tmp/out" 2>"$tmp/err"; local rc=$?; set -e
  [[ $rc -eq 1 ]] || fail "exit $rc, expected 1: $(cat "$tmp/err")"
  [[ ! -s "$tmp/out" ]] || fail "results printed despite errors"
  for m in "$@"; do grep -qxF -- "$m" "$tmp/err" || fail "missing message: $m; got: $(cat "$tmp/err")"; done
}
# a technician ranks 4: neither 3 nor all
sed -i 's/@rank R.4 > R.5 > R.6$/@rank R.4 > R.5 > R.6 > R.1/' "$tmp/w/transcripts/T4.md"
expect_error "transcripts/T4.md:18:1: error: the answer ranks 4 of the 6 items; question 'D.R' declares top: [3, all] for role 'technician', 3 or all 6 items"
cp "$ws/transcripts/T4.md" "$tmp/w/transcripts/T4.md"
# top: all refuses the top-3 answers, naming the missing items and what would accept them
sed -i 's/top: \[3, all\]/top: all/' "$guide"
expect_error "transcripts/P2.md:18:1: error: the answer ranks 3 of the 6 items; question 'D.R' declares top: all for role 'pharmacist', every one of the 6 items; missing: R.3, R.5, R.6 (rank them, or declare top: [3, all] for answers of 3 or all items, top: 6 for answers of any length)"
[[ $(grep -c "declares top: all" "$tmp/err") -eq 5 ]] || fail "top: all: 5 short answers expected: $(cat "$tmp/err")"
# without a `top`, the message says all is the default
sed -i '/top: all/d' "$guide"
expect_error "transcripts/T2.md:18:1: error: the answer ranks 3 of the 6 items; question 'D.R' asks role 'technician' for top: all (the default), every one of the 6 items; missing: R.2, R.3, R.4 (rank them, or declare top: [3, all] for answers of 3 or all items, top: 6 for answers of any length)"
# top: 6 of 6 items: any length, the same numbers as [3, all]
sed -i 's/items: {children_of: R}/items: {children_of: R}\n        top: 6/' "$guide"
"$QUALRANK" -C "$tmp/w" rank --model plackett-luce --format json --resamples 0 >"$tmp/up.json" 2>"$tmp/err" || fail "top: 6: $(cat "$tmp/err")"
cmp -s "$tmp/up.json" "$tmp/rank.json" || fail "top: 6 gave other numbers than top: [3, all] for the same answers"
"$QUALRANK" -C "$tmp/w" guide --role technician --format text >"$tmp/guide6"
grep -qF "rank any number of the 6 items, up to all of them:" "$tmp/guide6" || fail "guide: top: 6"
# past the item count: a warning at the guideline's line, read as up to all
sed -i 's/        top: 6$/        top: 9/' "$guide"
"$QUALRANK" -C "$tmp/w" rank --model plackett-luce --format json --resamples 0 >"$tmp/up9.json" 2>"$tmp/err" || fail "top: 9 refused"
grep -qxF "guidelines/dispensing-interview.yaml:16:14: warning: 'top: 9' is more than the question's 6 items: read as up to all 6" "$tmp/err" \
  || fail "top: 9 warning: $(cat "$tmp/err")"
cmp -s "$tmp/up9.json" "$tmp/rank.json" || fail "top: 9 read otherwise than up to all"
# malformed lists: located errors, nothing printed
for bad in '[3, 3]|16:18|'"'top' lists the length '3' twice" '[3, x]|16:18|'"'top' takes a positive number or 'all', not 'x'" \
           '[]|16:14|'"'top' lists no length (write e.g. [3, all])" '0|16:14|'"'top' takes 'all', a positive number (up to that many items), or a list of lengths such as [3, all], not '0'" \
           '[6, all]|16:18|'"'top' lists the length 'all' twice"; do
  IFS='|' read -r value at message <<<"$bad"
  sed -i "16s/^        top: .*/        top: $value/" "$guide"
  expect_error "guidelines/dispensing-interview.yaml:$at: error: $message"
done
# per role: pharmacists mixed, technicians complete only
sed -i "16s/^        top: .*/        top: {pharmacist: [3, all], technician: all}/" "$guide"
expect_error "transcripts/T2.md:18:1: error: the answer ranks 3 of the 6 items; question 'D.R' declares top: all for role 'technician', every one of the 6 items; missing: R.2, R.3, R.4 (rank them, or declare top: [3, all] for answers of 3 or all items, top: 6 for answers of any length)"
[[ $(grep -c ": error: " "$tmp/err") -eq 2 ]] || fail "per role: only the technicians' 2 short answers: $(cat "$tmp/err")"

# 3. In words: the guide and a new transcript's skeleton.
"$QUALRANK" -C "$ws" guide --role pharmacist --format text >"$tmp/guide"
grep -qF "rank 3 or all 6 items:" "$tmp/guide" || fail "guide: [3, all]: $(grep rank "$tmp/guide")"
grep -qF "rank up to 4 of the 5 items:" "$tmp/guide" || fail "guide: top: 4"
cp -r "$ws" "$tmp/n"
"$QUALRANK" -C "$tmp/n" new-transcript --participant P8 --role pharmacist >/dev/null 2>"$tmp/err" || fail "new-transcript: $(cat "$tmp/err")"
grep -qF "<!-- rank 3 or all 6 items with '@rank A > B > C'" "$tmp/n/transcripts/P8.md" || fail "skeleton: $(grep -F '<!-- rank' "$tmp/n/transcripts/P8.md")"
echo "ok: mixed rankings"
