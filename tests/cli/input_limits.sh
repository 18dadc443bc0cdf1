#!/usr/bin/env bash
# Every input kind bounded (issue #32): past a limit, a located error naming it (exit 1, or 2 for an option),
# nothing written; below it, CPU time that grows linearly (10x the input, at most 15x the time). On the
# fieldwork fixture study. Timed in CPU seconds (user + system) of the command, the least of three runs; a
# growth past the bound is measured again, up to three times in all (a moment's noise does not come back
# three times, a quadratic step does). Runs alone (RUN_SERIAL in tests/CMakeLists.txt).
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
[ -x /usr/bin/time ] || { echo "input_limits.sh: needs /usr/bin/time"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
fresh() { rm -rf "$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$tmp/ws"; }
# expect STATUS EXPECTED_LINE ARGS...: that exit status, the exact line on stderr, no workspace file changed.
expect() {
  local want=$1 expected=$2; shift 2
  (cd "$tmp/ws" && find . -type f -exec sha256sum {} + | sort) > "$tmp/before"
  local status=0
  (cd "$tmp" && "$QUALRANK" -C "$tmp/ws" "$@") > "$tmp/out" 2> "$tmp/err" || status=$?
  [ "$status" = "$want" ] || { head -5 "$tmp/err"; fail "$*: exit $status, expected $want"; }
  grep -qxF -- "$expected" "$tmp/err" || { head -5 "$tmp/err"; fail "$*: no line '$expected'"; }
  (cd "$tmp/ws" && find . -type f -exec sha256sum {} + | sort) > "$tmp/after"
  cmp -s "$tmp/before" "$tmp/after" || fail "$*: the workspace changed"
}
# least_cpu SETUP ARGS...: the least CPU seconds of three runs of qualrank -C ws ARGS, each after running the
# shell function SETUP (which makes the workspace). The exit status is not looked at.
least_cpu() {
  local setup=$1; shift
  local best=999 t
  for _ in 1 2 3; do
    "$setup"
    (cd "$tmp" && /usr/bin/time -f '%U %S' -o "$tmp/cpu" "$QUALRANK" -C "$tmp/ws" "$@" > /dev/null 2>&1) || true
    t=$(awk '{ print $1 + $2 }' "$tmp/cpu")
    best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (b < a) ? b : a }')
  done
  echo "$best"
}
# linear NAME SMALL_SETUP BIG_SETUP ARGS...: the big input (10x the small one) within 15x the small one's CPU
# time + 0.15 s (the timer counts in 10 ms steps; quadratic would be 100x).
linear() {
  local name=$1 small_setup=$2 big_setup=$3; shift 3
  local small big
  for attempt in 1 2 3; do
    small=$(least_cpu "$small_setup" "$@")
    big=$(least_cpu "$big_setup" "$@")
    awk -v s="$small" -v b="$big" 'BEGIN { exit !(b <= 15 * s + 0.15) }' && { echo "$name: $small s -> $big s"; return 0; }
  done
  fail "$name: 10x the input took $big s of CPU against $small s"
}

# --- label tables: at most 100 coder columns in all ------------------------------------------------------
# labels ROWS CODERS FILE: a label table of ROWS units, CODERS coder columns, every label COM.1.
labels() {
  python3 - "$1" "$2" "$3" <<'PY'
import sys
rows, coders, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
with open(path, "w") as f:
    f.write("unit," + ",".join("coder%d" % c for c in range(coders)) + "\n")
    for r in range(rows):
        f.write("u%d," % r + ",".join("COM.1" if (r + c) % 3 else "COM.2" for c in range(coders)) + "\n")
PY
}
fresh
mkdir -p "$tmp/ws/codebooks/labels"
labels 1 101 "$tmp/ws/codebooks/labels/wide.csv"
# The 101st coder column, coder100, starts after "unit," and 100 cells "coderN," (10 of 7 bytes, 90 of 8).
expect 1 "codebooks/labels/wide.csv:1:$((5 + 10 * 7 + 90 * 8 + 1)): error: more than 100 coder columns (the limit on coders in label tables)" \
  agreement --labels codebooks/labels/wide.csv
expect 1 "codebooks/labels/wide.csv:1:$((5 + 10 * 7 + 90 * 8 + 1)): error: more than 100 coder columns (the limit on coders in label tables)" report
[ ! -e "$tmp/ws/reports" ] || fail "report wrote outputs past the coder limit"
# Two files of 60 coders each, named apart (coderN, coderbN): 120 in all, refused at coderb40, the second
# file's 41st.
rm "$tmp/ws/codebooks/labels/wide.csv"
labels 2 60 "$tmp/a.csv"
labels 2 60 "$tmp/b.csv"
sed -i '1s/coder/coderb/g' "$tmp/b.csv"
cp "$tmp/a.csv" "$tmp/b.csv" "$tmp/ws/codebooks/labels/"
expect 1 "codebooks/labels/b.csv:1:$((5 + 10 * 8 + 30 * 9 + 1)): error: more than 100 coder columns (the limit on coders in label tables)" \
  agreement --labels codebooks/labels/a.csv codebooks/labels/b.csv
# 100 coders (4,950 pairs): 1,000 and 10,000 units (6 MB).
labels_small() { fresh; mkdir -p "$tmp/ws/codebooks/labels"; labels 1000 100 "$tmp/ws/codebooks/labels/x.csv"; }
labels_big() { fresh; mkdir -p "$tmp/ws/codebooks/labels"; labels 10000 100 "$tmp/ws/codebooks/labels/x.csv"; }
labels_big
"$QUALRANK" -C "$tmp/ws" agreement --labels codebooks/labels/x.csv --resamples 0 --format json > "$tmp/out" 2> "$tmp/err" ||
  fail "100 coders: $(head -3 "$tmp/err")"
python3 - "$tmp/out" <<'PY' || fail "100 coders: not 4,950 pairs of 10,000 units"
import json, sys
r = json.load(open(sys.argv[1]))
pairs = r["cohen_kappa_pairs"]
assert r["units"] == 10000 and len(r["coders"]) == 100, (r["units"], len(r["coders"]))
assert len(pairs) == 4950 and all(p["units"] == 10000 for p in pairs), (len(pairs), pairs[0])
assert pairs[0]["a"] == "coder0" and pairs[0]["b"] == "coder1" and pairs[-1]["a"] == "coder98" and pairs[-1]["b"] == "coder99"
PY
linear "label table, 100 coders" labels_small labels_big agreement --labels codebooks/labels/x.csv --resamples 0

# --- --resamples: at most 1,000,000 (a usage error) ---------------------------------------------------------
fresh
expect 2 "qualrank agreement: error: --resamples must be 0 to 1000000" agreement --resamples 2000000000
expect 2 "qualrank report: error: --resamples must be 0 to 1000000" report --resamples 1000001
expect 2 "qualrank package: error: --resamples must be 0 to 1000000" package --resamples 1000001

# --- REFI-QDA codebooks and taxonomies: at most 5,000 codes / nodes --------------------------------------
# qdc N FILE [SUFFIX]: a codebook of N flat codes, their names ending in SUFFIX.
qdc() {
  python3 - "$1" "$2" "${3:-}" <<'PY'
import sys
n, path, suffix = int(sys.argv[1]), sys.argv[2], sys.argv[3]
with open(path, "w") as f:
    f.write('<?xml version="1.0" encoding="utf-8"?>\n<CodeBook xmlns="urn:QDA-XML:codebook:1.0" origin="x"><Codes>\n')
    for i in range(n):
        f.write('<Code guid="%08d-0000-4000-8000-%012d" name="code number %d%s" isCodable="true"/>\n' % (i, i, i, suffix))
    f.write("</Codes></CodeBook>\n")
PY
}
fresh
qdc 5001 "$tmp/many.qdc"
expect 1 "many.qdc:5003: error: more than 5000 codes (the limit on taxonomy nodes)" import many.qdc
# An empty folder: the codebook becomes the taxonomy (500 and 5,000 codes, both accepted).
qdc 500 "$tmp/k1.qdc"
qdc 5000 "$tmp/k10.qdc"
qdc_small() { rm -rf "$tmp/ws"; mkdir "$tmp/ws"; cp "$tmp/k1.qdc" "$tmp/in.qdc"; }
qdc_big() { rm -rf "$tmp/ws"; mkdir "$tmp/ws"; cp "$tmp/k10.qdc" "$tmp/in.qdc"; }
qdc_big
(cd "$tmp" && "$QUALRANK" -C "$tmp/ws" import in.qdc > "$tmp/out" 2> "$tmp/err") || fail "5,000 codes: $(head -3 "$tmp/err")"
grep -qxF "created the taxonomy codebooks/in.yaml (5000 codes in the codebook)" "$tmp/out" "$tmp/err" ||
  fail "5,000 codes: $(head -3 "$tmp/out" "$tmp/err")"
linear ".qdc codes" qdc_small qdc_big import in.qdc
# Into a workspace with a taxonomy, 5,000 proposals of long names would grow the history past the YAML
# limit: refused naming it (was "internal error: the appended entries do not read back").
fresh
qdc 5000 "$tmp/in.qdc" "$(printf ' of a codebook whose names are long enough to grow the history%.0s' 1 2 3 4 5 6 7 8)"
status=0; (cd "$tmp" && "$QUALRANK" -C "$tmp/ws" import in.qdc) > "$tmp/out" 2> "$tmp/err" || status=$?
[ "$status" = 1 ] || fail "5,000 proposals: exit $status"
grep -qE "^codebooks/remote-work.history.yaml: error: [0-9]+ entries would grow the history to [0-9]+ bytes; the limit is 4 MiB \(the limit on a YAML text\); nothing written$" "$tmp/err" ||
  { head -5 "$tmp/err"; fail "5,000 proposals: no message naming the history's limit"; }
grep -q "internal error" "$tmp/err" && fail "5,000 proposals: an internal error"
cmp -s "$FIXTURES/fieldwork/codebooks/remote-work.history.yaml" "$tmp/ws/codebooks/remote-work.history.yaml" || fail "the history changed"

fresh
python3 - "$tmp/ws/codebooks/remote-work.yaml" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
text += "".join("  - id: X%d\n    name: extra %d\n" % (i, i) for i in range(5001))
open(path, "w").write(text)
PY
# The file's own nodes come first: the node past the limit is X(5000 - their number).
own=$(grep -c -- '- id:' "$FIXTURES/fieldwork/codebooks/remote-work.yaml")
line=$(grep -n "^  - id: X$((5000 - own))\$" "$tmp/ws/codebooks/remote-work.yaml" | cut -d: -f1)
expect 1 "codebooks/remote-work.yaml:$line:5: error: more than 5000 nodes (the limit on taxonomy nodes)" validate

# --- YAML: at most 500,000 nodes ----------------------------------------------------------------------------
fresh
python3 - "$tmp/ws/guidelines/remote-work-interview.yaml" <<'PY'
import sys
open(sys.argv[1], "w").write("title: x\nextra: [" + ",".join(["a"] * 600000) + "]\n")
PY
# Node 500,001: the map, 'title', 'x', 'extra', the list, then the list's 499,996th item at column 9 + 2 k.
expect 1 "guidelines/remote-work-interview.yaml:2:$((9 + 2 * 499995)): error: more than 500000 YAML nodes (the limit on YAML nodes)" validate
yaml_nodes() {  # a guideline whose keys list $1 values in all: a valid guideline, its size grown
  fresh
  python3 - "$tmp/ws/guidelines/remote-work-interview.yaml" "$1" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
text = open(path).read()
open(path, "w").write(text + "notes: [" + ",".join("n%d" % i for i in range(n)) + "]\n")
PY
}
yaml_small() { yaml_nodes 20000; }
yaml_big() { yaml_nodes 200000; }
linear "YAML nodes" yaml_small yaml_big validate

# --- .codes files: at most 250,000 codings ------------------------------------------------------------------
codes_file() {  # E01.carol.codes with $1 codings (turn 2, one code a line)
  fresh
  python3 - "$tmp/ws/transcripts/E01.carol.codes" "$1" <<'PY'
import sys
open(sys.argv[1], "w").write("# coder: carol\n" + "t2: COM.1.a\n" * int(sys.argv[2]))
PY
}
codes_file 250001
expect 1 "transcripts/E01.carol.codes:250002:1: error: more than 250000 codings in one file (the limit on codings per file)" validate
codes_small() { codes_file 25000; }
codes_big() { codes_file 250000; }
codes_big
"$QUALRANK" -C "$tmp/ws" validate > "$tmp/out" 2> "$tmp/err" || fail "250,000 codings: $(head -3 "$tmp/err")"
linear ".codes codings" codes_small codes_big validate

# --- transcripts: at most 500,000 coded spans -----------------------------------------------------------------
fresh
where=$(python3 - "$tmp/ws/transcripts/E02.md" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
own = text.count("]{") - text.count("\\]{")
text += "\nE02: " + "[a]{COM.1} " * (500001 - own) + "\n"
open(path, "w").write(text)
lines = text.split("\n")
# the last span's ']' on the last line: "E02: " then spans of 11 characters, ']' the third of one
print("%d:%d" % (len(lines) - 1, 5 + 11 * (500000 - own) + 2 + 1))
PY
)
expect 1 "transcripts/E02.md:$where: error: more than 500000 coded spans (the limit on coded spans per transcript)" validate

# --- package verify: each listed file once, at most 10,000 lines --------------------------------------------
fresh
"$QUALRANK" -C "$tmp/ws" -q package -o "$tmp/ws/pkg" --resamples 10 > /dev/null 2> "$tmp/err" || fail "package: $(head -3 "$tmp/err")"
sums=$tmp/ws/pkg/SHA256SUMS
n=$(wc -l < "$sums")
first=$(head -1 "$sums")
echo "$first" >> "$sums"
expect 1 "$tmp/ws/pkg/SHA256SUMS:$((n + 1)):1: error: '${first:66}' is listed twice (first at line 1)" package verify pkg
head -n "$n" "$sums" > "$tmp/sums" && cp "$tmp/sums" "$sums"
python3 - "$sums" <<'PY'
import sys
path = sys.argv[1]
lines = open(path).read().splitlines()
lines += ["%064x  extra/%d" % (i, i) for i in range(10001 - len(lines))]
open(path, "w").write("\n".join(lines) + "\n")
PY
expect 1 "$tmp/ws/pkg/SHA256SUMS:10001:1: error: more than 10000 lines (the limit on SHA256SUMS lines); the rest is not checked" package verify pkg

# --- import-transcript: at most 100 speakers ----------------------------------------------------------------
fresh
for i in $(seq 1 101); do echo "Speaker$i: hello"; done > "$tmp/talk.txt"
expect 1 "talk.txt:101:1: error: more than 100 speakers (the limit on speakers of an imported transcript)" \
  import-transcript talk.txt --participant E09 --role employee
[ ! -e "$tmp/ws/transcripts/E09.md" ] || fail "import-transcript wrote a transcript past the speaker limit"
talk() {  # $1 lines of two speakers
  fresh
  python3 -c "import sys; sys.stdout.write(''.join('%s: said %d\n' % ('Interviewer' if i % 2 else 'Ana', i) for i in range(int(sys.argv[1]))))" "$1" > "$tmp/talk.txt"
}
talk_small() { talk 20000; }
talk_big() { talk 200000; }
linear "import-transcript lines" talk_small talk_big import-transcript talk.txt --participant E09 --role employee

# --- participants import: linear in the sheet's columns -----------------------------------------------------
sheet() {
  fresh
  python3 - "$tmp/sheet.csv" "$1" <<'PY'
import sys
path, cols = sys.argv[1], int(sys.argv[2])
rows = [",".join(["participant"] + ["a%d" % i for i in range(cols)])]
for p in ["E01", "E02", "M01", "M02", "C01", "C02"]:
    rows.append(",".join([p] + ["v%d" % i for i in range(cols)]))
open(path, "w").write("\n".join(rows) + "\n")
PY
}
sheet_small() { sheet 4000; }
sheet_big() { sheet 40000; }
linear "participants sheet columns" sheet_small sheet_big participants import sheet.csv --id-column participant

# --- rank --table: at most 100,000 rows; linear when every answer is a group of its own ------------------------
ranking() {  # ws/table.csv (rank reads --table relative to the workspace): $1 rows, a role each (a group each)
  fresh
  python3 - "$tmp/ws/table.csv" "$1" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
with open(path, "w") as f:
    f.write("participant,question,ranking,role\n")
    for i in range(n):
        f.write("p%d,III.R,TOOL.1 > TOOL.2 > TOOL.3,role%d\n" % (i, i))
PY
}
ranking 100001
expect 1 "$tmp/ws/table.csv:100002:1: error: more than 100000 rows (the limit on ranking table rows)" rank --table table.csv --resamples 0
ranking_small() { ranking 10000; }
ranking_big() { ranking 100000; }
ranking_big
(cd "$tmp" && "$QUALRANK" -C "$tmp/ws" rank --table table.csv --resamples 0 --format json > "$tmp/out" 2> "$tmp/err") ||
  fail "100,000 rankings: $(head -3 "$tmp/err")"
python3 - "$tmp/out" <<'PY' || fail "100,000 rankings: not 100,000 groups of one"
import json, sys
r = json.load(open(sys.argv[1]))
q = r["questions"][0]
assert len(r["levels"]) == 100000 and len(q["groups"]) == 100000, (len(r["levels"]), len(q["groups"]))
assert len(q["too_small"]) == 100000 and q["too_small"][99999]["rankings"] == [
    {"participant": "p99999", "ranking": "TOOL.1 > TOOL.2 > TOOL.3"}], q["too_small"][99999]
PY
linear "ranking table rows, a group each" ranking_small ranking_big rank --table table.csv --resamples 0

# --- period lists: UTF-8 only, never echoed as invalid bytes ------------------------------------------------
fresh
cp "$FIXTURES/corpus/forum.csv" "$tmp/forum.csv"
printf 'f1\n\xf3\n\xa0f4 \n' > "$tmp/forum_2024.txt"
expect 1 "$tmp/forum_2024.txt:2:1: error: invalid UTF-8 (a period list is UTF-8 text)" \
  agreement --labels "$tmp/forum.csv" --resamples 0 --periods "$tmp/forum_2024.txt"

# --- the corpus's inputs (#37.7): each linear in the dimension an audit found quadratic -----------------------
# corpus_input KIND N FILE: an export or keyword file whose size grows with N.
corpus_input() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
kind, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
issue = {"number": 1, "url": "https://example.org/a/b/issues/1", "title": "a cache miss", "body": "b", "createdAt": "2024-01-01T00:00:00Z"}
if kind == "keys":      # one issue with n fields
    d = dict(issue); d.update({"k%d" % k: k for k in range(n)}); json.dump([d], open(path, "w"))
elif kind == "columns":  # a CSV of one issue with n columns
    cols = list(issue) + ["c%d" % k for k in range(n)]
    open(path, "w").write(",".join(cols) + "\n" + ",".join(str(issue[c]) for c in issue) + ",x" * n + "\n")
elif kind == "issues":   # n issues of a title only
    json.dump([{"number": k, "url": "https://example.org/a/b/issues/%d" % k, "title": "t"} for k in range(1, n + 1)], open(path, "w"))
elif kind == "terms":    # keywords.yaml with n terms for source a
    open(path, "w").write("sources:\n  a:\n" + "".join("    - term%d word%d\n" % (k, k) for k in range(n)))
elif kind == "pyterms":  # a Python keyword list of n terms
    open(path, "w").write("a_keywords = [" + ", ".join("'term%d word%d'" % (k, k) for k in range(n)) + "]\n")
PY
}
for spec in "keys 12000 import" "columns 20000 import" "issues 12500 import" "terms 10000 retrieve" "pyterms 10000 kwimport"; do
  read -r kind n cmd <<<"$spec"
  ext=json; [[ $kind == columns ]] && ext=csv; [[ $kind == terms ]] && ext=yaml; [[ $kind == pyterms ]] && ext=py
  corpus_input "$kind" "$n" "$tmp/small.$ext"
  corpus_input "$kind" "$((n * 10))" "$tmp/big.$ext"
  case $cmd in
    import)
      eval "cs_small() { fresh; cp '$tmp/small.$ext' '$tmp/ws/in.$ext'; }; cs_big() { fresh; cp '$tmp/big.$ext' '$tmp/ws/in.$ext'; }"
      linear "corpus import: $kind" cs_small cs_big corpus import "ws/in.$ext" --source a ;;
    retrieve)  # a small corpus, the keyword file grows
      corpus_input issues 200 "$tmp/few.json"
      eval "cs_small() { fresh; '$QUALRANK' -C '$tmp/ws' -q corpus import '$tmp/few.json' --source a; cp '$tmp/small.$ext' '$tmp/ws/corpus/keywords.yaml'; }
            cs_big() { fresh; '$QUALRANK' -C '$tmp/ws' -q corpus import '$tmp/few.json' --source a; cp '$tmp/big.$ext' '$tmp/ws/corpus/keywords.yaml'; }"
      linear "corpus retrieve: keyword terms" cs_small cs_big corpus retrieve --any-date ;;
    kwimport)
      eval "cs_small() { fresh; cp '$tmp/small.$ext' '$tmp/ws/kw.py'; }; cs_big() { fresh; cp '$tmp/big.$ext' '$tmp/ws/kw.py'; }"
      linear "corpus keywords import: terms" cs_small cs_big corpus keywords import ws/kw.py ;;
  esac
done
echo "input_limits: ok"
