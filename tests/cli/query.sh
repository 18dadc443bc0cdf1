#!/usr/bin/env bash
# qualrank query on the fieldwork fixture: every format's content, --count, --by, the errors (exact messages
# and exit codes), the JSON equal to `code --format json`, CSV formula neutralisation, no ANSI escapes in a
# pipe (and highlighting on a terminal), reproducible bytes. Hand counts: tests/unit/analysis_query_test.cpp.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
fw="$FIXTURES/fieldwork"
q() { "$QUALRANK" -C "$fw" query "$@"; }

# ---- the same segments as `code --format json`, byte for byte, with the same options ----
"$QUALRANK" -C "$fw" code --format json >"$tmp/code.json"
q --format json >"$tmp/query.json"
cmp -s "$tmp/code.json" "$tmp/query.json" || fail "query --format json differs from code --format json"
for opts in "--no-suggestions" "--all" "--at 1" "--all --no-suggestions --at 1"; do
  # shellcheck disable=SC2086
  cmp -s <("$QUALRANK" -C "$fw" code --format json $opts) <(q --format json $opts) || fail "query differs from code with $opts"
done
"$QUALRANK" -C "$fw" code --format csv | cmp -s - <(q --format csv) || fail "query --format csv differs from code --format csv"
# the bundled study too
cmp -s <("$QUALRANK" -C "$SOURCE_DIR" code --format json) <("$QUALRANK" -C "$SOURCE_DIR" query --format json) ||
  fail "bundled study: query --format json differs from code --format json"
# a filtered query: a subset of those segments, each exactly as `code` prints it
python3 - "$tmp/code.json" <(q --code COM.1 --where role=contractor --format json) <<'EOF' || fail "filtered JSON (see above)"
import json, sys
code = {s["id"]: s for s in json.load(open(sys.argv[1]))["segments"]}
found = json.load(open(sys.argv[2]))
assert list(found) == ["segments"], list(found)
ids = [s["id"] for s in found["segments"]]
assert ids == ["C01#t2", "C01#t2[8:17]", "C02#t2"], ids
for s in found["segments"]:
    assert s == code[s["id"]], s["id"]
EOF

# ---- the listing: FILE:LINE, codes with names, memo, the quote wrapped to 80 columns in a pipe ----
q --code COM.1 --where role=contractor >"$tmp/list.txt"
grep -qxF 'C01 t2 (contractor) · II.1 · transcripts/C01.md:19' "$tmp/list.txt" || fail "listing header: $(cat "$tmp/list.txt")"
grep -qxF '  codes: COM.1 Asynchronous updates, WELL.1 Isolation · by eli' "$tmp/list.txt" || fail "listing codes line"
grep -qxF '  memo: Efficiency and isolation come together for contractors.' "$tmp/list.txt" || fail "listing memo"
grep -qxF '  │ =cmd|'"'"' /C calc'"'"'!A0 is what a client once pasted into our shared sheet; since' "$tmp/list.txt" ||
  fail "listing wrap: $(cat "$tmp/list.txt")"
grep -qxF '  │ then I send updates as plain text.' "$tmp/list.txt" || fail "listing continuation line"
tail -1 "$tmp/list.txt" | grep_q -x '3 segments from 2 participants' || fail "listing footer"
python3 -c "
import sys; long = [l for l in open(sys.argv[1], encoding='utf-8').read().splitlines() if len(l) > 80]
assert not long, long" "$tmp/list.txt" || fail "a line longer than 80 characters in a pipe"
# exemplar picks are marked
q --code WELL.1 --participant C01 | grep_q -F 'WELL.1 Isolation (exemplar)' || fail "exemplar mark"
# --uncoded: what is left to code, with the keyword suggestions
q --uncoded --where role=contractor >"$tmp/uncoded.txt"
grep -qxF '  suggested: COM.3 Time zones, WELL.2 Boundaries' "$tmp/uncoded.txt" || fail "uncoded suggestions: $(cat "$tmp/uncoded.txt")"
tail -1 "$tmp/uncoded.txt" | grep_q -x '5 uncoded turns from 2 participants' || fail "uncoded footer"

# ---- no ANSI escapes in a pipe or a file; highlighting on a terminal ----
q --text 'time zones?' >"$tmp/plain.txt"
q --text 'time zones?' | cat >"$tmp/piped.txt"
! grep -q $'\x1b' "$tmp/plain.txt" "$tmp/piped.txt" || fail "ANSI escape in a file or pipe"
q --text 'time zones?' --format md | grep_q $'\x1b' && fail "ANSI escape in markdown"
if command -v script >/dev/null; then
  script -qec "'$QUALRANK' -C '$fw' query --text 'time zones?' --participant M02" /dev/null >"$tmp/tty.txt" </dev/null || true
  grep -qF $'three \x1b[1;7mtime zones\x1b[0m burn' "$tmp/tty.txt" || fail "no highlight on a terminal: $(cat -v "$tmp/tty.txt")"
else
  echo "note: 'script' is not installed; the terminal highlighting check is skipped"
fi

# ---- Markdown: a quote list, escaped ----
q --code TOOL.2 --exact --format md >"$tmp/quotes.md"
cat >"$tmp/want.md" <<'EOF'
> Our wiki page literally says \<script\>alert('todo')\</script\> at the top; nobody fixed the embed.
>
> — C01 (contractor), III.1, TOOL.2 Documentation

> Only the weekly planning call and one-to-ones. Everything else became a document in the wiki.
>
> — M01 (manager), II.2, COM.2 Meetings, TOOL.2 Documentation

EOF
diff "$tmp/want.md" "$tmp/quotes.md" || fail "markdown quote list"

# ---- CSV: formula-like text neutralised, like every CSV qualrank writes ----
q --participant C02 --format csv >"$tmp/c02.csv"
python3 - "$tmp/c02.csv" <<'EOF' || fail "CSV neutralisation (see above)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [r["id"] for r in rows] == ["C02#t2", "C02#t3[9:29]", "C02#t3[52:78]"], [r["id"] for r in rows]
assert rows[0]["text"].startswith("'=cmd|"), rows[0]["text"]
assert rows[1]["text"] == "call with the client" and rows[1]["nodes"] == "COM.2", rows[1]
EOF

# ---- --count and --by ----
[[ $(q --code TOOL --count) == "9 segments from 5 participants" ]] || fail "--count: $(q --code TOOL --count)"
q --code TOOL --count --format json | python3 -c "
import json, sys; d = json.load(sys.stdin); assert d == {'segments': 9, 'participants': 5}, d" || fail "--count json"
[[ $(q --uncoded --count --format csv) == $'segments,participants\n14,6' ]] || fail "--count csv"
[[ $(q --text 'übergabe|ZEITZONEN' --count) == "2 segments from 2 participants" ]] || fail "Unicode regex count"
[[ $(q --text 'ÉQUIPE EST' --fixed --count) == "1 segment from 1 participant" ]] || fail "fixed phrase count"
q --code TOOL --by experience --format csv >"$tmp/by.csv"
grep -qx 'TOOL.1,Chat,experience=junior,1,2' "$tmp/by.csv" || fail "--by csv cell: $(cat "$tmp/by.csv")"
grep -qx 'TOOL.1,Chat,all,3,4' "$tmp/by.csv" || fail "--by csv row total"
grep -qx 'all,every segment found,experience=senior,2,5' "$tmp/by.csv" || fail "--by csv total row"
grep -qx 'all,every segment found,all,5,9' "$tmp/by.csv" || fail "--by csv grand total"
q --code TOOL --by experience --format md | grep_q -xF '| TOOL.1 Chat | 1/2 | 0/0 | 2/2 | 3/4 |' || fail "--by md row"
q --code TOOL --by experience | grep_q -E '^TOOL\.1 Chat +1/2 +0/0 +2/2 +3/4$' || fail "--by table row"
q --code COM --by role --format json | python3 -c "
import json, sys
d = json.load(sys.stdin)
assert d['by'] == 'role' and [g['value'] for g in d['groups']] == ['manager', 'employee', 'contractor'], d['groups']
com1 = d['rows'][0]
assert com1['node'] == 'COM.1' and [c['segments'] for c in com1['cells']] == [3, 1, 3], com1
assert d['total']['all'] == {'participants': 6, 'segments': 18}, d['total']" || fail "--by json"

# ---- reproducible ----
q --text 'call' --format json | cmp -s - <(q --text 'call' --format json) || fail "two runs differ"
QUALRANK_THREADS=1 "$QUALRANK" -C "$fw" query --format json | cmp -s - "$tmp/query.json" || fail "one thread gives other bytes"

# ---- errors: exact messages; usage errors exit 2, workspace errors exit 1 ----
expect() {  # expect CODE MESSAGE ARGS...
  local code=$1 msg=$2; shift 2
  set +e; "$QUALRANK" -C "$fw" query "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?; set -e
  [[ $rc -eq $code ]] || fail "query $*: exit $rc, expected $code ($(cat "$tmp/err"))"
  grep -qxF "$msg" "$tmp/err" || fail "query $*: message: $(cat "$tmp/err")"
  [[ ! -s "$tmp/out" ]] || fail "query $*: printed something on stdout"
}
expect 2 "qualrank query: error: --code: unknown taxonomy node 'COMM' (did you mean 'COM'?)" --code COMM
expect 2 "qualrank query: error: --not-code: unknown taxonomy node 'Wel.2' (did you mean 'WELL.2'?)" --not-code Wel.2
expect 2 "qualrank query: error: --where: no participant has an attribute 'tenur' (did you mean 'tenure'?)" --where tenur=1
expect 2 "qualrank query: error: --where: no participant has country = 'Spain' (values: BR, DE, FR, IN, US)" --where country=Spain
expect 2 "qualrank query: error: --where takes attribute=value, not 'country'" --where country
expect 2 "qualrank query: error: --text: invalid regular expression '[a-': U_REGEX_INVALID_RANGE at character 4 (use --fixed for a plain phrase)" --text '[a-'
expect 2 "qualrank query: error: --by: no participant has an attribute 'team'" --by team
expect 2 "qualrank query: error: --count and --by cannot be combined (--by already counts)" --count --by role
expect 2 "qualrank query: error: --code takes one node, not 'COM,TOOL' (repeat --code for all of them, --any-code A,B for either)" --code COM,TOOL
expect 2 "qualrank query: error: unknown format 'xml' (text, json, csv or md)" --format xml
expect 2 "qualrank query: error: --uncoded lists turns without codes; it cannot be combined with --code, --any-code, --not-code or --coder" --uncoded --coder dana
expect 1 "codebooks/remote-work.history.yaml: error: unknown taxonomy version '7' (versions: 1, 2 (after coding round 1))" --at 7
# a workspace error: located, exit 1, nothing printed on stdout
cp -r "$fw" "$tmp/broken"
sed -i 's/^@code TOOL.3$/@code TOOL.33/' "$tmp/broken/transcripts/M01.md"
set +e; "$QUALRANK" -C "$tmp/broken" query --code TOOL >"$tmp/out" 2>"$tmp/err"; rc=$?; set -e
[[ $rc -eq 1 ]] || fail "broken workspace: exit $rc, expected 1"
grep -qxF "transcripts/M01.md:36:7: error: unknown taxonomy node 'TOOL.33' (did you mean 'TOOL.3'?)" "$tmp/err" || fail "broken workspace message: $(cat "$tmp/err")"
[[ ! -s "$tmp/out" ]] || fail "broken workspace: printed segments"

# ---- help is true ----
"$QUALRANK" query --help >"$tmp/help.txt"
for o in --code --any-code --not-code --exact --where --participant --question --coder --text --fixed --uncoded --all \
         --no-suggestions --at --format --count --by; do
  grep -qE "^  $o( |$)" "$tmp/help.txt" || fail "query --help lacks $o"
done
line=$("$QUALRANK" help | grep -E '^  query ')
grep -qxF "$line" "$SOURCE_DIR/README.md" || fail "README's command list lacks: $line"
# README's query session is real: every command in it prints what the README shows
python3 - "$SOURCE_DIR/README.md" "$QUALRANK" "$SOURCE_DIR" <<'EOF' || fail "README's query session is out of date (see above)"
import shlex, subprocess, sys
readme, qualrank, root = sys.argv[1:4]
text = open(readme, encoding="utf-8").read()
block = text[text.index("## Retrieving what is coded"):].split("```")[1].split("\n")[1:]
runs, current = [], None
for line in block:
    if line.startswith("$ qualrank "):
        current = [shlex.split(line[2:]), []]
        runs.append(current)
    elif current is not None:
        current[1].append(line)
assert len(runs) >= 4, runs
for argv, want in runs:
    got = subprocess.run([qualrank] + argv[1:], cwd=root, capture_output=True, text=True, check=True).stdout
    want = "\n".join(want).rstrip("\n")
    assert got.rstrip("\n") == want, (argv, got, want)
print("README: %d query commands checked" % len(runs))
EOF
# ---- a generated workspace large enough for the text search to run on several threads: the same bytes
# on one thread and on four, and the count of a --fixed phrase equal to grep's count of its turns ----
bash "$SOURCE_DIR/bench/gen_workspace.sh" "$tmp/gen" 40 1 >/dev/null 2>&1
for args in "--text nccl" "--text timed\s+out --code A" "--text NCCL --fixed --where role=user"; do
  # shellcheck disable=SC2086
  QUALRANK_THREADS=1 "$QUALRANK" -C "$tmp/gen" query $args --format json >"$tmp/one.json"
  # shellcheck disable=SC2086
  QUALRANK_THREADS=4 "$QUALRANK" -C "$tmp/gen" query $args --format json >"$tmp/four.json"
  cmp -s "$tmp/one.json" "$tmp/four.json" || fail "query $args: other bytes on four threads"
done
n=$(jq '.segments | length' "$tmp/one.json")
[[ $n -gt 512 ]] || fail "the generated text search has only $n segments (want several slices)"
# the same segments as the query without --text, filtered here by the phrase (jq's lower case)
"$QUALRANK" -C "$tmp/gen" query --where role=user --format json >"$tmp/all.json"
want=$(jq -c '[.segments[] | select(.text | ascii_downcase | contains("nccl")) | .id]' "$tmp/all.json")
got=$(jq -c '[.segments[] | .id]' "$tmp/one.json")
[[ $want == "$got" ]] || fail "--text NCCL --fixed lists other segments than those whose text holds the phrase"
echo "query: ok"
