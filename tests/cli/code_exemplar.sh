#!/usr/bin/env bash
# An exemplar mark never blocks removing a code, and can be picked or dropped on its own (`code exemplar`), for
# the inline coder (@exemplar lines, a span's `| exemplar`) and a second coder's .codes line. Fieldwork study.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/ws"; mkdir "$ws"; cp -r "$FIXTURES"/fieldwork/{codebooks,guidelines,transcripts} "$ws/"
q() { "$QUALRANK" -C "$ws" "$@"; }
C01=$ws/transcripts/C01.md; cp "$C01" "$tmp/C01.orig"
block() { sed -n '/^C01: Only the kick-off/,/^$/p' "$C01"; }

# t3 is "@code COM.2, WELL.1" + "@exemplar WELL.1". Removing WELL.1 takes its name out of the @exemplar line,
# which then names nothing and goes.
[[ $(block) == $'C01: Only the kick-off. After that I am alone with the tickets.\n@code COM.2, WELL.1\n@exemplar WELL.1' ]] || fail "fixture: $(block)"
q code remove --transcript C01.md --turn 3 --node WELL.1 2>"$tmp/err" || fail "remove of an exemplar code: $(cat "$tmp/err")"
[[ $(block) == $'C01: Only the kick-off. After that I am alone with the tickets.\n@code COM.2' ]] || fail "after remove: $(block)"
cp "$tmp/C01.orig" "$C01"

# Dropping the exemplar keeps the coding; picking another writes @exemplar ID; dropping that again restores.
q code exemplar --transcript C01.md --turn 3 --node WELL.1 --off 2>"$tmp/err" || fail "drop: $(cat "$tmp/err")"
grep -qxF "qualrank code exemplar: dropped WELL.1 in t3 as an exemplar (its coding stays) (transcripts/C01.md, coder eli)" "$tmp/err" || fail "drop message: $(cat "$tmp/err")"
[[ $(block) == $'C01: Only the kick-off. After that I am alone with the tickets.\n@code COM.2, WELL.1' ]] || fail "after drop: $(block)"
q code exemplar --transcript C01.md --turn 3 --node COM.2 2>/dev/null || fail "pick"
[[ $(block) == $'C01: Only the kick-off. After that I am alone with the tickets.\n@code COM.2, WELL.1\n@exemplar COM.2' ]] || fail "after pick: $(block)"
if q code exemplar --transcript C01.md --turn 3 --node COM.2 2>"$tmp/err"; then fail "picked twice"; fi
grep -qxF "transcripts/C01.md:25:1: error: COM.2 in t3 is already an exemplar" "$tmp/err" || fail "twice: $(cat "$tmp/err")"
q code --format json | python3 -c '
import json, sys
s = {x["id"]: x for x in json.load(sys.stdin)["segments"]}["C01#t3"]
assert [(c["node"], c.get("exemplar", False)) for c in s["codes"]] == [("COM.2", True), ("WELL.1", False)], s["codes"]' || fail "json after pick"
q code exemplar --transcript C01.md --turn 3 --node COM.2 --off 2>/dev/null || fail "drop COM.2"
q code exemplar --transcript C01.md --turn 3 --node WELL.1 2>/dev/null || fail "pick WELL.1"
cmp -s "$tmp/C01.orig" "$C01" || fail "not back to the original: $(diff "$tmp/C01.orig" "$C01")"

# A span: `| exemplar` goes inside the braces, before a memo.
q code exemplar --transcript C01.md --turn 2 --span recording --node COM.1.b 2>/dev/null || fail "span pick"
grep -qF "I get a [recording]{COM.1.b | exemplar} of the demo" "$C01" || fail "span markup: $(grep -n recording "$C01")"

# A second coder's .codes line: the tail is rewritten, the memo kept.
E=$ws/transcripts/E01.carol.codes; cp "$E" "$tmp/E.orig"
q code exemplar --transcript E01.md --turn 4 --span "Important decisions vanish in threads" --node TOOL.1 --coder carol 2>/dev/null || fail "codes pick"
grep -qxF 't4 "Important decisions vanish in threads": TOOL.1 | exemplar | memo: chat fails as a decision log' "$E" || fail "codes line: $(cat "$E")"
q code remove --transcript E01.md --turn 3 --node COM.2 --coder carol 2>/dev/null || fail "codes remove of an exemplar line"
! grep -q "^t3:" "$E" || fail "t3 line left: $(cat "$E")"
q validate >/dev/null 2>&1 || fail "validate: $(q validate 2>&1 | head)"
echo "ok: exemplars"
