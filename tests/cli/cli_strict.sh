#!/usr/bin/env bash
# The command line forgives nothing silently (fieldwork study): no option prefixes, "did you mean" for
# options and codes (punctuation ignored: COM1 -> COM.1), global options after the command explained, the
# workspace found upward from a subfolder, a clear "not a qualrank workspace" elsewhere, control characters
# escaped in messages. Every refusal exits 2 (usage) or 1 (input) and writes nothing.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/ws"; mkdir "$ws"; cp -r "$FIXTURES"/fieldwork/{codebooks,guidelines,transcripts} "$ws/"
q() { "$QUALRANK" -C "$ws" "$@"; }
expect() {  # expect RC MESSAGE CMD...: the command exits RC and prints MESSAGE as a whole line on stderr
  local rc=$1 msg=$2; shift 2
  set +e; "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?; set -e
  [[ $got == "$rc" ]] || fail "exit $got, not $rc: $* ($(cat "$tmp/err"))"
  grep -qxF -- "$msg" "$tmp/err" || fail "message of $*: $(cat "$tmp/err")"
}
expect 2 "qualrank agreement: error: unknown option '--transcript'; did you mean '--transcripts'?" q agreement --transcript
expect 2 "qualrank report: error: unknown option '--out'; did you mean '--output'?" q report --out reports2
[[ ! -e $ws/reports2 ]] || fail "report --out wrote a folder"
expect 2 "qualrank query: error: unknown option '--txt'; did you mean '--text'?" q query --txt remote
expect 2 "qualrank validate: error: '-C' is a global option: put it before the command: qualrank -C $ws validate ..." "$QUALRANK" validate -C "$ws"
expect 2 "qualrank query: error: unknown option '--a\\x01b'" q query $'--a\x01b'
# Codes: punctuation ignored, then edit distance.
expect 1 "transcripts/C02.md: error: unknown taxonomy node 'COM1' (did you mean 'COM.1'?)" q code add --transcript C02.md --turn 2 --node COM1
sed -i 's/{COM.1.b}/{COM1}/' "$ws/transcripts/C01.md"
expect 1 "transcripts/C01.md:19:26: error: unknown taxonomy node 'COM1' (did you mean 'COM.1'?)" q validate
sed -i 's/{COM1}/{COM.1.b}/' "$ws/transcripts/C01.md"
# The workspace is found upward (from transcripts/), as git finds its repository; elsewhere a clear refusal.
(cd "$ws/transcripts" && "$QUALRANK" validate) >"$tmp/out" 2>&1 || fail "validate from transcripts/: $(cat "$tmp/out")"
grep -qF "qualrank validate: ok: 6 transcripts" "$tmp/out" || fail "upward: $(cat "$tmp/out")"
mkdir "$tmp/empty"
(cd "$tmp/empty" && set +e; "$QUALRANK" query --code COM >/dev/null 2>"$tmp/err"; echo $? >"$tmp/rc")
[[ $(cat "$tmp/rc") == 2 ]] || fail "outside a workspace: exit $(cat "$tmp/rc")"
grep -qxF "qualrank query: error: not a qualrank workspace (no codebooks/ folder here or in any folder above); run it inside a workspace, give -C DIR, or start one with 'qualrank init'" "$tmp/err" || fail "outside: $(cat "$tmp/err")"
# query --text searches every participant turn, coded or not (a quote in an uncoded turn was missed).
q query --text "office job" >"$tmp/out" 2>&1 || fail "query --text: $(cat "$tmp/out")"
[[ $(head -2 "$tmp/out") == $'C01 t1 (contractor) · I.1 · transcripts/C01.md:15\n  (no codes)' ]] || fail "uncoded turn not found by text: $(cat "$tmp/out")"
grep -qxF "1 segment from 1 participant" "$tmp/out" || fail "count: $(cat "$tmp/out")"
echo "ok: strict command line"
