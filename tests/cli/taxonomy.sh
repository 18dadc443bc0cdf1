#!/usr/bin/env bash
# qualrank taxonomy: the bundled study's versions 1 and 2, the diff with provenance, the migration fixture
# (tests/fixtures/history/workspace: A.1 renamed to A.5, B.2 merged into B.1), a split needing re-coding, a
# tampered history, 20 concurrent proposals, and the bundled history rebuilt byte for byte by its script.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
Q=$QUALRANK
export QUALRANK_AUTHOR=tester SOURCE_DATE_EPOCH=1746000000   # 2025-04-30

# --- The bundled study -------------------------------------------------------------------------------------
"$Q" -C "$SOURCE_DIR" taxonomy show --at 1 | sed -n 1p | grep_q -x 'llm-frameworks version 1: Issue type 3, Theme 18, Sub-theme 69' \
  || fail "show --at 1: $("$Q" -C "$SOURCE_DIR" taxonomy show --at 1 | sed -n 1p)"
"$Q" -C "$SOURCE_DIR" taxonomy show --at 1 --format json >"$tmp/v1.json"
[[ $(grep -c '"level": 1,' "$tmp/v1.json") -eq 3 && $(grep -c '"level": 2,' "$tmp/v1.json") -eq 18 &&
   $(grep -c '"level": 3,' "$tmp/v1.json") -eq 69 ]] || fail "v1 json counts"
grep -q '"id": "B.5"' "$tmp/v1.json" && fail "B.5 in version 1"
"$Q" -C "$SOURCE_DIR" taxonomy show --at 2 --format json >"$tmp/v2.json"
for id in A.2.iii B.5 B.5.i B.5.ii B.5.iii B.5.iv B.5.v B.5.vi B.1.iv B.3.v B.2.vii B.2.viii C.11 C.11.i C.11.ii C.11.iii; do
  grep -q "\"id\": \"$id\"" "$tmp/v2.json" || fail "$id missing in version 2"
done
grep -q '"id": "A.5"' "$tmp/v2.json" && fail "the rejected A.5 is in version 2"
grep -A3 '"id": "C.11"' "$tmp/v2.json" | grep_q '"level": 2' || fail "C.11 is a theme"
"$Q" -C "$SOURCE_DIR" taxonomy show --at "after interviews" | sed -n 1p |
  grep_q -x 'llm-frameworks version 2 (after interviews): Issue type 3, Theme 20, Sub-theme 83' || fail "show by version name"
"$Q" -C "$SOURCE_DIR" taxonomy show | cmp -s - <("$Q" -C "$SOURCE_DIR" taxonomy show --at 2) || fail "latest is version 2"
"$Q" -C "$SOURCE_DIR" validate 2>/dev/null || fail "bundled study at version 2 does not validate"
"$Q" -C "$SOURCE_DIR" validate --at 1 2>/dev/null || fail "bundled study at version 1 does not validate"

# diff 1 2: every change listed with its edit and provenance (a transcript FILE:LINE that exists)
"$Q" -C "$SOURCE_DIR" taxonomy diff 1 2 >"$tmp/diff.md"
grep -qx -- '- version 2 (after interviews): Issue type 3, Theme 20, Sub-theme 83' "$tmp/diff.md" || fail "diff header"
rows=$(grep -c '^| [ABC][.0-9ivx]* | added ' "$tmp/diff.md")
[[ $rows -eq 16 ]] || fail "expected 16 added rows, got $rows"
while IFS= read -r row; do
  [[ $row == *"(transcripts/"*".md:"* ]] || fail "change without provenance: $row"
  [[ $row == *"| E00"* ]] || fail "change without edit: $row"
done < <(grep '^| [ABC][.0-9ivx]* | added ' "$tmp/diff.md")
grep -q 'E0017 (alice, 2025-04-22) | add A.5 .Slow Jupyter Notebooks. under A | U02 (transcripts/U02.md:42) .*| rejected by bob, 2025-04-29: ' "$tmp/diff.md" \
  || fail "the rejected proposal is not listed"
"$Q" -C "$SOURCE_DIR" taxonomy diff 1 2 --format json >"$tmp/diff.json"
[[ $(grep -c '"kind": "added"' "$tmp/diff.json") -eq 16 ]] || fail "json: 16 added"
# each provenance source in the history names an existing line of a transcript
grep -o 'source: transcripts/[A-Z0-9]*\.md:[0-9]*' "$SOURCE_DIR/codebooks/llm-frameworks.history.yaml" | sed 's/source: //' | sort -u >"$tmp/sources"
[[ $(wc -l <"$tmp/sources") -ge 19 ]] || fail "expected at least 19 provenance sources"
while IFS=: read -r file line; do
  sed -n "${line}p" "$SOURCE_DIR/$file" | grep_q "^$(basename "$file" .md): " || fail "$file:$line is not a turn of $(basename "$file" .md)"
done <"$tmp/sources"

"$Q" -C "$SOURCE_DIR" taxonomy log | tail -1 | grep_q -x '17 edits (16 accepted, 1 rejected, 0 proposed); latest version 2 (after interviews)' \
  || fail "log summary: $("$Q" -C "$SOURCE_DIR" taxonomy log | tail -1)"
"$Q" -C "$SOURCE_DIR" taxonomy log --node C.11 | grep -c '^E00' | grep_q -x 4 || fail "log --node C.11: 4 edits"
"$Q" -C "$SOURCE_DIR" taxonomy log --node C.11 | grep_q 'from D01 (transcripts/D01.md:68), U10 (transcripts/U10.md:59)' || fail "log provenance"

# export: a plain taxonomy file of version 2 that a workspace without history loads with the same nodes
mkdir -p "$tmp/exported"; cp -r "$SOURCE_DIR/guidelines" "$SOURCE_DIR/transcripts" "$tmp/exported/"
mkdir -p "$tmp/exported/codebooks"
"$Q" -q -C "$SOURCE_DIR" taxonomy export --at 2 -o "$tmp/exported/codebooks/llm-frameworks.yaml"
"$Q" -C "$tmp/exported" taxonomy show --format json | sed 's/"version": [0-9]*/"version": V/; s/"version_name": ".*"/"version_name": ""/' >"$tmp/exported.json"
sed 's/"version": [0-9]*/"version": V/; s/"version_name": ".*"/"version_name": ""/' "$tmp/v2.json" | cmp -s - "$tmp/exported.json" || fail "exported version 2 differs"
# Version 2 adds B.5 and C.11, which the `top: all` answers to IV.R and III.R (given at version 1) do not rank:
# with the exported file as version 1, each of those answers is an error naming the missing item (nothing is
# imputed), and nothing else is: 19 answers to IV.R, the developers' 8 to III.R.
set +e; "$Q" -C "$tmp/exported" validate >/dev/null 2>"$tmp/exported.err"; rc=$?; set -e
[[ $rc -eq 1 ]] || fail "validate of the exported workspace: exit $rc"
[[ $(grep -c ': error: ' "$tmp/exported.err") == 27 ]] || fail "exported: $(cat "$tmp/exported.err")"
[[ $(grep -cE "question 'IV.R' declares top: all for role '(user|developer)', every one of the [0-9]+ items; missing: B.5 \(" "$tmp/exported.err") == 19 ]] || fail "exported IV.R: $(cat "$tmp/exported.err")"
[[ $(grep -cE "question 'III.R' declares top: all for role 'developer', every one of the [0-9]+ items; missing: C.11 \(" "$tmp/exported.err") == 8 ]] || fail "exported III.R: $(cat "$tmp/exported.err")"

# the bundled history is exactly what scripts/example-history.sh records
mkdir -p "$tmp/rebuilt"; cp -r "$SOURCE_DIR/guidelines" "$SOURCE_DIR/transcripts" "$tmp/rebuilt/"
mkdir -p "$tmp/rebuilt/codebooks"; cp "$SOURCE_DIR/codebooks/llm-frameworks.yaml" "$tmp/rebuilt/codebooks/"
"$SOURCE_DIR/scripts/example-history.sh" "$Q" "$tmp/rebuilt" >/dev/null
cmp -s "$tmp/rebuilt/codebooks/llm-frameworks.history.yaml" "$SOURCE_DIR/codebooks/llm-frameworks.history.yaml" \
  || fail "scripts/example-history.sh does not reproduce codebooks/llm-frameworks.history.yaml"

# --- The migration fixture ---------------------------------------------------------------------------------
ws="$tmp/mig"; cp -r "$FIXTURES/history/workspace" "$ws"
"$Q" -C "$ws" validate 2>/dev/null || fail "fixture does not validate"
"$Q" -C "$ws" code --format csv >"$tmp/mig.csv"
grep -q '^P1#t2,P1,user,II.1,"A.5,A.1.i",' "$tmp/mig.csv" || fail "A.1 not migrated to A.5: $(cat "$tmp/mig.csv")"
grep -q '^P1#t3,P1,user,II.1,B.1,"alice,bob",' "$tmp/mig.csv" || fail "bob's B.2 not migrated into B.1"
"$Q" -C "$ws" code --at 1 --format csv >"$tmp/mig1.csv"
grep -q '^P1#t2,P1,user,II.1,"A.1,A.1.i",' "$tmp/mig1.csv" || fail "--at 1 keeps A.1"
grep -q '^P1#t3,P1,user,II.1,"B.1,B.2",' "$tmp/mig1.csv" || fail "--at 1 keeps B.2"
"$Q" -C "$ws" code --at migrated --format csv | cmp -s - "$tmp/mig.csv" || fail "--at by name"
"$Q" -C "$ws" taxonomy diff 1 2 --format json >"$tmp/mig.json"
grep -A4 '"kind": "renamed"' "$tmp/mig.json" | grep_q '"node_after": "A.5"' || fail "diff: renamed A.1 -> A.5"
grep -A14 '"kind": "renamed"' "$tmp/mig.json" | grep_q '"segments": 1' || fail "diff: the rename touches 1 segment"
grep -A14 '"kind": "merged"' "$tmp/mig.json" | grep_q '"segments": 1' || fail "diff: the merge touches 1 segment"
"$Q" -C "$ws" taxonomy diff 1 2 | grep_q '| B.2 | merged B.2 .Numerics. into B.1 | E0002 (merge, alice, 2025-05-02) | P1 (transcripts/P1.md:26) |' \
  || fail "diff md: merge row"

# a split whose codings need re-coding: validate reports each code located, --at 2 still works
"$Q" -C "$ws" taxonomy propose split --node A.2 --into "A.2.a:How-to,A.2.b:Limits, and boundaries" --codings-to recode \
  --by P2 --source transcripts/P2.md:13 --rationale "two kinds of usage question" >"$tmp/id"
grep -qx E0005 "$tmp/id" || fail "split proposal id: $(cat "$tmp/id")"
"$Q" -q -C "$ws" taxonomy accept E0005
set +e; "$Q" -C "$ws" validate 2>"$tmp/err"; rc=$?; set -e
[[ $rc -eq 1 ]] || fail "validate after a recode split: exit $rc"
grep -qF "transcripts/P2.md:14:7: error: 'A.2' needs re-coding: node 'A.2' was split into A.2.a, A.2.b by E0005 (version 3)" "$tmp/err" \
  || fail "needs re-coding message: $(cat "$tmp/err")"
"$Q" -C "$ws" validate --at 2 2>/dev/null || fail "--at 2 after the split"
"$Q" -C "$ws" taxonomy show --at 3 | grep_q '^  A.2.b  Limits, and boundaries$' || fail "split successor with a comma in its name"

# --- A tampered history: the first broken entry, located -------------------------------------------------------
ws="$tmp/tampered"; cp -r "$FIXTURES/history/workspace" "$ws"; cp -r "$FIXTURES/history/tampered/." "$ws/"; rm "$ws/expect"
set +e; "$Q" -C "$ws" validate >"$tmp/out" 2>"$tmp/err"; rc=$?; set -e
[[ $rc -eq 1 ]] || fail "tampered history: exit $rc"
grep -qF -- "$(cat "$FIXTURES/history/tampered/expect")" "$tmp/err" || fail "tampered history message: $(cat "$tmp/err")"
set +e; "$Q" -C "$ws" taxonomy propose deprecate --node A.10 --rationale x >/dev/null 2>"$tmp/err"; rc=$?; set -e
[[ $rc -eq 1 ]] || fail "propose on a tampered history must fail"

# --- Input errors ----------------------------------------------------------------------------------------
ws="$tmp/errors"; cp -r "$FIXTURES/history/workspace" "$ws"
expect_error() {  # expect_error MESSAGE ARGS...: exit 1 and MESSAGE on stderr
  local msg=$1; shift
  set +e; "$Q" -C "$ws" "$@" >/dev/null 2>"$tmp/err"; local rc=$?; set -e
  [[ $rc -eq 1 ]] || fail "'$*' exited $rc"
  grep -qF -- "$msg" "$tmp/err" || fail "'$*': expected '$msg' in: $(cat "$tmp/err")"
}
expect_error "E0005: cannot rename: node 'A.1' was renamed to 'A.5' by E0001" taxonomy propose rename --node A.1 --name X --rationale r
expect_error "E0005: cannot add: id 'B.2' belonged to a node that is gone; node ids are never reused" taxonomy propose add --parent B --id B.2 --name X --rationale r
expect_error "E0005: cannot move: moving 'A' under 'A.5' would make a cycle" taxonomy propose move --node A --parent A.5 --rationale r
expect_error "source '../outside.md:1' is outside the workspace" taxonomy propose add --parent A --id A.6 --name X --rationale r --by P1 --source ../outside.md:1
expect_error "participant 'P2' is not the participant of transcripts/P1.md ('P1')" taxonomy propose add --parent A --id A.6 --name X --rationale r --by P2 --source transcripts/P1.md:21
expect_error "E0004 was already rejected" taxonomy accept E0004
expect_error "unknown taxonomy version '9' (versions: 1, 2 (migrated))" taxonomy show --at 9
"$Q" -C "$ws" taxonomy propose merge --from B.1 --rationale r >/dev/null 2>&1 && fail "merge without --into accepted"
"$Q" -C "$ws" taxonomy propose rename --node A.5 --parent A --name X --rationale r >/dev/null 2>&1 && fail "--parent accepted for rename"
cmp -s "$ws/codebooks/mini.history.yaml" "$FIXTURES/history/workspace/codebooks/mini.history.yaml" || fail "a failed command changed the history"
"$Q" -C "$ws" taxonomy propose add --parent A --id A.6 --name Other --rationale r | grep_q -x E0005 || fail "propose E0005"
expect_error "cannot accept into version 1: the latest version is 2; accept into 2 or 3" taxonomy accept E0005 --into-version 1
expect_error "version name 'migrated' already names version 2" taxonomy accept E0005 --version-name migrated

# --- 20 concurrent proposals: all recorded, none lost or interleaved --------------------------------------------
ws="$tmp/concurrent"; cp -r "$FIXTURES/history/workspace" "$ws"
pids=()
for i in $(seq 1 20); do
  "$Q" -C "$ws" taxonomy propose add --parent B --id "B.c$i" --name "Concurrent $i" --rationale "script $i" \
    --by P1 --source transcripts/P1.md:26 >"$tmp/c.$i" 2>"$tmp/e.$i" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || fail "a concurrent propose failed: $(cat "$tmp"/e.*)"; done
[[ $(cat "$tmp"/c.[0-9]* | sort -u | wc -l) -eq 20 ]] || fail "20 distinct edit ids expected: $(cat "$tmp"/c.[0-9]* | tr '\n' ' ')"
[[ $(grep -c '^  - propose: ' "$ws/codebooks/mini.history.yaml") -eq 24 ]] || fail "24 proposals expected in the file"
for i in $(seq 1 20); do grep -q "rationale: script $i\$" "$ws/codebooks/mini.history.yaml" || fail "proposal $i lost"; done
"$Q" -C "$ws" validate 2>/dev/null || fail "history after concurrent proposals does not validate"
"$Q" -C "$ws" taxonomy log | tail -1 | grep_q '^24 edits (3 accepted, 1 rejected, 20 proposed)' || fail "log after concurrent proposals"

# Without $QUALRANK_AUTHOR, $USER and $LOGNAME the author is the account's name (as reconcile's decider), never
# "unknown".
env -u USER -u LOGNAME -u QUALRANK_AUTHOR "$Q" -C "$ws" taxonomy propose deprecate --node B.1 --rationale "no author given" \
  >"$ws/id" || fail "propose without USER"
grep -A8 "^  - propose: $(cat "$ws/id")\$" "$ws/codebooks/mini.history.yaml" | grep_q -x "    author: $(id -un)" ||
  fail "author without USER: $(grep -A8 "^  - propose: $(cat "$ws/id")" "$ws/codebooks/mini.history.yaml")"

# A subcommand mistyped: exit 2, "did you mean", the usage (taxonomy and corpus share one dispatcher).
for cmd in "taxonomy shwo:show" "corpus retreive:retrieve"; do
  words=${cmd%%:*}; near=${cmd##*:}
  set +e; "$Q" -C "$ws" $words >/dev/null 2>"$ws/err"; rc=$?; set -e
  [[ $rc == 2 ]] || fail "$words: exit $rc"
  [[ $(head -1 "$ws/err") == "qualrank ${words%% *}: error: unknown subcommand '${words#* }'; did you mean '$near'?" ]] ||
    fail "$words: $(head -1 "$ws/err")"
  grep -qx "usage: qualrank ${words%% *} SUBCOMMAND \[OPTIONS\]" "$ws/err" || fail "$words: no usage after the error"
done

echo "taxonomy: ok"
