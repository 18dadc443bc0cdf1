#!/usr/bin/env bash
# Turn numbers where a researcher needs them (fieldwork study): `query` and `code` listings show tN, `code add`
# echoes the turn's first words, and `--line` on a directive line (a number that moved as codes were added)
# is refused naming the turn, writing nothing.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/ws"; mkdir "$ws"; cp -r "$FIXTURES"/fieldwork/{codebooks,guidelines,transcripts} "$ws/"
q() { "$QUALRANK" -C "$ws" "$@"; }

# code add echoes the turn and its first words.
q code add --transcript C01.md --turn 3 --node COM.3 2>"$tmp/err" || fail "add: $(cat "$tmp/err")"
grep -qxF 'qualrank code add: added COM.3 to t3 ("Only the kick-off. After that I am alone…") (transcripts/C01.md, coder eli)' "$tmp/err" ||
  fail "echo: $(cat "$tmp/err")"
# Line 25 was t3's text; line 26 is now its @code line: refused, nothing written.
[[ $(sed -n 26p "$ws/transcripts/C01.md") == "@code COM.2, WELL.1" ]] || fail "fixture moved: $(sed -n 26p "$ws/transcripts/C01.md")"
cp "$ws/transcripts/C01.md" "$tmp/before"
if q code add --transcript C01.md --line 26 --node TOOL.1 2>"$tmp/err"; then fail "--line on a directive was accepted"; fi
grep -qxF "transcripts/C01.md:26:1: error: line 26 is the directive '@code COM.2, WELL.1' after turn t3 (line 25), not the turn's text; line numbers move as codes are added: name the turn with --turn 3" "$tmp/err" ||
  fail "directive line: $(cat "$tmp/err")"
cmp -s "$tmp/before" "$ws/transcripts/C01.md" || fail "a refused add wrote the transcript"
# --line on the turn's own text still works.
q code add --transcript C01.md --line 25 --node TOOL.1 2>"$tmp/err" || fail "--line on text: $(cat "$tmp/err")"
grep -qF "added TOOL.1 to t3 (" "$tmp/err" || fail "--line echo: $(cat "$tmp/err")"

# query's listing heads each segment with participant and tN; code's JSON has the turn number.
q query --code COM.3 >"$tmp/list"
grep -qxF 'C01 t3 (contractor) · II.2 · transcripts/C01.md:25' "$tmp/list" || fail "query header: $(cat "$tmp/list")"
q code --format json | python3 -c '
import json, sys
segs = {s["id"]: s for s in json.load(sys.stdin)["segments"]}
assert segs["C01#t3"]["turn"] == 3, segs["C01#t3"]
assert all(s["turn"] == int(i.split("#t")[1].split("[")[0]) for i, s in segs.items()), "turn differs from the id"
' || fail "code json turn"
echo "ok: turn numbers"
