#!/usr/bin/env bash
# qualrank agreement: the bundled label tables (values from statsmodels), grouping, bad input, free
# categories, the workbook, and multi-coder transcripts (bundled study and the mini fixture).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
fx="$FIXTURES/agreement"

# Flattens pretty-printed JSON (2-space indent) into path=value lines, e.g. groups.A.fleiss_kappa=0.67...
flatten() {
  awk '{
    match($0, /^ */); depth = RLENGTH / 2
    if (match($0, /^ *"[^"]*": /)) {
      key = $0; sub(/^ *"/, "", key); sub(/": .*/, "", key); stack[depth] = key
      value = $0; sub(/^ *"[^"]*": /, "", value); sub(/,$/, "", value)
      if (value != "{" && value != "[") { path = stack[1]; for (i = 2; i <= depth; i++) path = path "." stack[i]; print path "=" value }
    }
  }' "$1"
}
get() { flatten "$1" | sed -n "s/^$2=//p" | head -1; }
# near FILE PATH EXPECTED: the value at PATH is within 1e-6 of EXPECTED
near() {
  local v; v=$(get "$1" "$2")
  [[ -n $v && $v != null ]] || fail "$2 missing or null in $1"
  awk -v a="$v" -v b="$3" 'BEGIN { d = a - b; exit !(d < 1e-6 && d > -1e-6) }' || fail "$2 = $v, expected $3"
}
is() { local v; v=$(get "$1" "$2"); [[ $v == "$3" ]] || fail "$2 = '$v', expected '$3'"; }

# --- the bundled label tables, one file at a time and together --------------------------------------------
# /usr/bin/python3 -c "import pandas as pd; from statsmodels.stats.inter_rater import fleiss_kappa, aggregate_raters; d=pd.read_csv('codebooks/labels/issue-reports-sample.csv'); print(repr(fleiss_kappa(aggregate_raters(d.filter(like='Label_').values)[0])))"
"$QUALRANK" -C "$SOURCE_DIR" agreement --labels codebooks/labels/issue-reports-sample.csv --format json --resamples 0 >"$tmp/sample.json"
near "$tmp/sample.json" fleiss_kappa 0.7521030748404566
is "$tmp/sample.json" units 60
is "$tmp/sample.json" dropped_units 0
# /usr/bin/python3 -c "import pandas as pd; from statsmodels.stats.inter_rater import fleiss_kappa, aggregate_raters; d=pd.read_csv('codebooks/labels/issue-reports-followup.csv'); print(repr(fleiss_kappa(aggregate_raters(d.filter(like='Label_').values)[0])))"
"$QUALRANK" -C "$SOURCE_DIR" agreement --labels codebooks/labels/issue-reports-followup.csv --format json --resamples 0 >"$tmp/followup.json"
near "$tmp/followup.json" fleiss_kappa 0.770437185112953
is "$tmp/followup.json" units 25

# Without --labels: every table in codebooks/labels/, grouped by issue type (level 1).
"$QUALRANK" -C "$SOURCE_DIR" agreement --group-by-level 1 --format json >"$tmp/all.json"
is "$tmp/all.json" units 85
# /usr/bin/python3 -c "import pandas as pd; from statsmodels.stats.inter_rater import fleiss_kappa, aggregate_raters; d=pd.concat([pd.read_csv('codebooks/labels/'+f+'.csv') for f in ['issue-reports-followup','issue-reports-sample']]); print(repr(fleiss_kappa(aggregate_raters(d.filter(like='Label_').values)[0])), [(g, len(s), repr(fleiss_kappa(aggregate_raters(s.filter(like='Label_').values)[0]))) for g,s in d.groupby(d.Final_Label.str[0])])"
near "$tmp/all.json" fleiss_kappa 0.7576919296176153
near "$tmp/all.json" groups.A.fleiss_kappa 0.6792327588180095
near "$tmp/all.json" groups.B.fleiss_kappa 0.6865543117234593
near "$tmp/all.json" groups.C.fleiss_kappa 0.7655196629213485
is "$tmp/all.json" groups.A.units 28
is "$tmp/all.json" groups.C.units 36
# /usr/bin/python3 -c "import pandas as pd, itertools as it; d=pd.concat([pd.read_csv('codebooks/labels/'+f+'.csv') for f in ['issue-reports-followup','issue-reports-sample']]); U=d.filter(like='Label_').values; o={}; [o.__setitem__((a,b),o.get((a,b),0)+1/(len(u)-1)) for u in U for a,b in it.permutations(list(u),2)]; nc={}; [nc.__setitem__(a,nc.get(a,0)+v) for (a,b),v in o.items()]; n=sum(nc.values()); print(repr(1-(n-1)*sum(v for (a,b),v in o.items() if a!=b)/(n*n-sum(x*x for x in nc.values()))))"
near "$tmp/all.json" krippendorff_alpha 0.7580991700720396
is "$tmp/all.json" sources.issue-reports-sample.units 60
is "$tmp/all.json" sources.issue-reports-sample.groups.A 20
is "$tmp/all.json" sources.issue-reports-followup.groups.C 11
is "$tmp/all.json" confidence.resamples 1000
grep -q '"fleiss_kappa": \[' "$tmp/all.json" || fail "confidence interval missing"
# reproducible: same input and seed, same bytes; another seed, another interval
"$QUALRANK" -C "$SOURCE_DIR" agreement --group-by-level 1 --format json | cmp -s - "$tmp/all.json" || fail "JSON not reproducible"
"$QUALRANK" -C "$SOURCE_DIR" agreement --group-by-level 1 --format json --seed 7 | cmp -s - "$tmp/all.json" && fail "--seed ignored"
# --at 1 is the same taxonomy; an unknown version is a located error
"$QUALRANK" -C "$SOURCE_DIR" agreement --at 1 --resamples 0 --format json >"$tmp/at1.json"
near "$tmp/at1.json" fleiss_kappa 0.7576919296176153
if "$QUALRANK" -C "$SOURCE_DIR" agreement --at 99 >"$tmp/out" 2>"$tmp/err"; then fail "--at 99 accepted"; fi
grep -q "error: .*version.*'99'" "$tmp/err" || fail "--at 99 message: $(cat "$tmp/err")"

# Readable table by default; the most disputed units.
"$QUALRANK" -C "$SOURCE_DIR" agreement --disagreements 3 --resamples 0 >"$tmp/table.txt"
grep -q "^  Fleiss' kappa  *0.758" "$tmp/table.txt" || fail "table: $(head -5 "$tmp/table.txt")"
grep -q "^  mindspore#853 .*issue-reports-followup:17" "$tmp/table.txt" || fail "most disputed unit"

# --- CSV edge cases ---------------------------------------------------------------------------------------
# BOM, CRLF, quoted comma/quote/newline, an alias, a blank line, a missing rating, no consensus on one row.
# /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import fleiss_kappa, aggregate_raters; U=np.array([[0,0,1],[4,4,4],[5,-1,5],[6,6,7],[2,3,2],[2,2,2]]); T=U[(U>=0).all(1)]; print(repr(fleiss_kappa(aggregate_raters(T,n_cat=8)[0])))"
"$QUALRANK" -C "$SOURCE_DIR" agreement --labels "$fx/edge-cases.csv" --format json --resamples 0 --disagreements 1 >"$tmp/edge.json"
near "$tmp/edge.json" fleiss_kappa 0.49999999999999994
is "$tmp/edge.json" units 6
is "$tmp/edge.json" dropped_units 1
grep -q '"unit": "pytorch#1, part \\"a\\""' "$tmp/edge.json" || fail "quoted unit id"

# One problem per file: each a located error and exit 1, nothing on stdout.
expect_error() {  # FILE PATTERN [OPTIONS...]
  local file=$1 pattern=$2; shift 2
  if "$QUALRANK" -C "$SOURCE_DIR" agreement --labels "$fx/$file" "$@" >"$tmp/out" 2>"$tmp/err"; then fail "$file accepted"; fi
  grep -q -- "$pattern" "$tmp/err" || fail "$file: expected '$pattern', got: $(cat "$tmp/err")"
  [[ ! -s $tmp/out ]] || fail "$file: output despite errors"
}
expect_error ragged.csv "ragged.csv:3: error: row has 5 fields, the header has 4"
expect_error unknown-label.csv "unknown-label.csv:3:12: error: unknown taxonomy node 'B.9' (did you mean 'B.1'?)"
expect_error duplicate-unit.csv "duplicate-unit.csv:4:1: error: duplicate unit id 'vllm#1' (first at .*duplicate-unit.csv:2)" --duplicates error
expect_error empty-unit.csv "empty-unit.csv:3: error: empty unit id"
expect_error unterminated.csv "unterminated.csv:3: error: unterminated quoted field"
expect_error no-coders.csv "no-coders.csv:1: error: no coder columns"
expect_error edge-cases.csv "error: no coder column 'Label_9' in the header" --coder-cols Label_1,Label_9
# Repeated unit ids: by default a warning and separate units; --duplicates first keeps the first row only.
"$QUALRANK" -C "$SOURCE_DIR" agreement --labels "$fx/repeated-units.csv" --resamples 0 --format json >"$tmp/dup.json" 2>"$tmp/err" ||
  fail "repeated unit ids refused: $(cat "$tmp/err")"
grep -q "repeated-units.csv:4:1: warning: unit id 'u1' is on 3 rows (.*repeated-units.csv:2, .*repeated-units.csv:4, .*repeated-units.csv:8); each row is counted as a separate unit (--duplicates keep|first|error)" "$tmp/err" ||
  fail "repeated unit ids: no warning, got: $(cat "$tmp/err")"
is "$tmp/dup.json" units 7
near "$tmp/dup.json" fleiss_kappa 0.42465753424657526  # statsmodels: see analysis_agreement_test.cpp
"$QUALRANK" -C "$SOURCE_DIR" agreement --labels "$fx/repeated-units.csv" --resamples 0 --format json --duplicates first >"$tmp/dup.json" 2>"$tmp/err" ||
  fail "--duplicates first refused: $(cat "$tmp/err")"
is "$tmp/dup.json" units 4
near "$tmp/dup.json" fleiss_kappa 0.23404255319148928
if "$QUALRANK" -C "$SOURCE_DIR" agreement --labels "$fx/repeated-units.csv" --duplicates twice 2>"$tmp/err"; then fail "--duplicates twice accepted"; fi
grep -q "error: --duplicates must be keep, first or error" "$tmp/err" || fail "--duplicates twice: $(cat "$tmp/err")"
if "$QUALRANK" -C "$SOURCE_DIR" agreement --labels "$tmp/missing.csv" 2>"$tmp/err"; then fail "missing file accepted"; fi
grep -q "missing.csv: error: cannot read the label table" "$tmp/err" || fail "missing file message"

# --- free categories (no taxonomy in the workspace) and named columns ---------------------------------------
mkdir "$tmp/plain"
# /usr/bin/python3 -c "import pandas as pd; from statsmodels.stats.inter_rater import fleiss_kappa, aggregate_raters; d=pd.read_csv('tests/fixtures/agreement/custom-columns.csv'); U=d[['first','second','third']]; C=U[U.notna().all(1)]; print(repr(fleiss_kappa(aggregate_raters(C.values)[0])), len(d)-len(C))"
"$QUALRANK" -C "$tmp/plain" agreement --labels "$fx/custom-columns.csv" --unit-col item --coder-cols first,second,third \
  --final-col agreed --format json --resamples 0 >"$tmp/free.json"
near "$tmp/free.json" fleiss_kappa 0.338235294117647
is "$tmp/free.json" dropped_units 1
# /usr/bin/python3 -c "import numpy as np, itertools as it; U=[[0,0,0],[0,2,0],[1,1,2],[2,2,2],[1,0,-1],[2,2,0]]; k=3; o=np.zeros((k,k)); [o.__setitem__((a,b),o[a,b]+1/(len(v)-1)) for u in U for v in [[x for x in u if x>=0]] if len(v)>1 for a,b in it.permutations(v,2)]; nc=o.sum(1); n=nc.sum(); print(repr(1-(n-1)*(o.sum()-np.trace(o))/(n*n-(nc**2).sum())))"
near "$tmp/free.json" krippendorff_alpha 0.29670329670329665
is "$tmp/free.json" coder_vs_final.first.units 6
if "$QUALRANK" -C "$tmp/plain" agreement --labels "$fx/custom-columns.csv" --unit-col item --coder-cols first,second \
  --final-col agreed --group-by-level 1 2>"$tmp/err" >/dev/null; then fail "--group-by-level without taxonomy accepted"; fi
grep -q "needs a taxonomy" "$tmp/err" || fail "--group-by-level without taxonomy: $(cat "$tmp/err")"
# no label tables at all, and bad options: usage errors (exit 2)
set +e
"$QUALRANK" -C "$tmp/plain" agreement >/dev/null 2>"$tmp/err"; rc=$?
"$QUALRANK" -C "$SOURCE_DIR" agreement --format xml >/dev/null 2>&1; rc2=$?
set -e
[[ $rc -eq 2 ]] && grep -q "no label tables" "$tmp/err" || fail "no label tables: rc=$rc $(cat "$tmp/err")"
[[ $rc2 -eq 2 ]] || fail "--format xml accepted (rc=$rc2)"

# --- the workbook: written, reproducible, inside the workspace for relative paths ----------------------------
cp -r "$SOURCE_DIR/codebooks" "$SOURCE_DIR/guidelines" "$tmp/plain/" 2>/dev/null || true
"$QUALRANK" -q -C "$tmp/plain" agreement --group-by-level 1 --disagreements 5 -o reports/agreement.xlsx
[[ -s $tmp/plain/reports/agreement.xlsx ]] || fail "workbook not written"
[[ $(head -c 2 "$tmp/plain/reports/agreement.xlsx") == PK ]] || fail "workbook is not a zip"
cp "$tmp/plain/reports/agreement.xlsx" "$tmp/first.xlsx"
"$QUALRANK" -q -C "$tmp/plain" agreement --group-by-level 1 --disagreements 5 -o reports/agreement.xlsx
cmp -s "$tmp/first.xlsx" "$tmp/plain/reports/agreement.xlsx" || fail "workbook not reproducible"
ls "$tmp/plain/reports" | grep_q -v '^agreement.xlsx$' && fail "temporary files left: $(ls "$tmp/plain/reports")"

# --- multi-coder transcripts --------------------------------------------------------------------------------
# mini fixture: P1 coded by alice and bob; rows (unit, node) over A.1, A.1.i, B.1, B.2 for turns t2 and t3:
# /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import fleiss_kappa, aggregate_raters, cohens_kappa; R=np.array([[1,0],[1,1],[0,0],[0,0],[0,0],[0,0],[1,0],[0,1]]); print(repr(fleiss_kappa(aggregate_raters(R,n_cat=2)[0])), repr(cohens_kappa(np.array([[sum(1 for r in R if r[0]==x and r[1]==y) for y in range(2)] for x in range(2)])).kappa))"
"$QUALRANK" -C "$FIXTURES/mini" agreement --transcripts --format json --resamples 0 --disagreements 5 >"$tmp/mini.json"
near "$tmp/mini.json" fleiss_kappa 0.12727272727272726
# /usr/bin/python3 -c "import numpy as np, itertools as it; U=[[1,0],[1,1],[0,0],[0,0],[0,0],[0,0],[1,0],[0,1]]; k=2; o=np.zeros((k,k)); [o.__setitem__((a,b),o[a,b]+1/(len(v)-1)) for u in U for v in [[x for x in u if x>=0]] if len(v)>1 for a,b in it.permutations(v,2)]; nc=o.sum(1); n=nc.sum(); print(repr(1-(n-1)*(o.sum()-np.trace(o))/(n*n-(nc**2).sum())))"
near "$tmp/mini.json" krippendorff_alpha 0.18181818181818177
is "$tmp/mini.json" units 2
is "$tmp/mini.json" single_coder_transcripts 1
near "$tmp/mini.json" per_node.A.1.i.percent_agreement 1
grep -q '"kappa": 0.1428571428571428' "$tmp/mini.json" || fail "mini Cohen's kappa"
grep -q '"unit": "P1#t3"' "$tmp/mini.json" || fail "mini disputed unit"

# bundled study: bob coded U01, U03, D01, D02 besides alice
"$QUALRANK" -C "$SOURCE_DIR" agreement --transcripts --format json >"$tmp/tr.json"
tr -d ' \n' <"$tmp/tr.json" | grep_q '"transcripts":\["transcripts/D01.md","transcripts/D02.md","transcripts/U01.md","transcripts/U03.md"\]' \
  || fail "compared transcripts"
tr -d ' \n' <"$tmp/tr.json" | grep_q '"coders":\["alice","bob"\]' || fail "coders"
is "$tmp/tr.json" dropped_units 0
is "$tmp/tr.json" unit '"turn"'
units=$(get "$tmp/tr.json" units)
[[ $units -ge 20 ]] || fail "too few compared turns: $units"
"$QUALRANK" -C "$SOURCE_DIR" agreement --transcripts --format json | cmp -s - "$tmp/tr.json" || fail "transcripts JSON not reproducible"
"$QUALRANK" -C "$SOURCE_DIR" agreement --transcripts --unit segment --compare-level 2 >"$tmp/tr.txt"
grep -q "compared at level 2" "$tmp/tr.txt" || fail "transcripts table"
# A label table of 8 MB (400,000 units): the same bytes on one thread as on the machine's threads.
mkdir "$tmp/big"
awk 'BEGIN { srand(7); print "Unit,A,B,C"; for (i = 1; i <= 400000; i++) {
  c = "K." int(1 + rand() * 5); printf "unit-%07d,%s,%s,%s\n", i, c, (rand() < 0.8 ? c : "K." int(1 + rand() * 5)), c } }' >"$tmp/big/labels.csv"
[[ $(stat -c %s "$tmp/big/labels.csv") -ge $((8 << 20)) ]] || fail "the generated label table is under 8 MiB"
"$QUALRANK" -C "$tmp/big" agreement --labels labels.csv --unit-col Unit --coder-cols A,B,C --resamples 20 --format json >"$tmp/big/tuned.json" ||
  fail "large table"
QUALRANK_THREADS=1 "$QUALRANK" -C "$tmp/big" agreement --labels labels.csv --unit-col Unit --coder-cols A,B,C --resamples 20 \
  --format json >"$tmp/big/untuned.json" || fail "large table, one thread"
cmp -s "$tmp/big/tuned.json" "$tmp/big/untuned.json" || fail "a large table's agreement differs on one thread"
python3 -c 'import json,sys; j = json.load(open(sys.argv[1])); assert j["units"] == 400000, j["units"]' "$tmp/big/tuned.json" ||
  fail "large table: $(head -c 300 "$tmp/big/tuned.json")"
echo "agreement: ok"
