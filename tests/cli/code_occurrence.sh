#!/usr/bin/env bash
# A span whose words occur more than once in the turn is coded at the occurrence asked for: inline brackets at
# that place, `"span"#N` in a second coder's .codes file; without --occurrence the refusal says how to choose.
# Fieldwork study, E01's t2 ("I post in the stand-up thread, but I never know ...": "I" twice).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/ws"; mkdir "$ws"; cp -r "$FIXTURES"/fieldwork/{codebooks,guidelines,transcripts} "$ws/"
q() { "$QUALRANK" -C "$ws" "$@"; }
E01=$ws/transcripts/E01.md; cp "$E01" "$tmp/E01.orig"

if q code add --transcript E01.md --turn 2 --span I --node COM.1 2>"$tmp/err"; then fail "an ambiguous span was coded"; fi
grep -qxF 'transcripts/E01.md:19:1: error: span "I" occurs 2 times in turn t2; say which with --occurrence N (1 to 2), or give a longer span' "$tmp/err" || fail "ambiguous: $(cat "$tmp/err")"
if q code add --transcript E01.md --turn 2 --span I --occurrence 3 --node COM.1 2>"$tmp/err"; then fail "occurrence 3 of 2"; fi
grep -qxF 'transcripts/E01.md:19:1: error: span "I" occurs 2 time(s) in turn t2, not 3' "$tmp/err" || fail "too many: $(cat "$tmp/err")"
cmp -s "$tmp/E01.orig" "$E01" || fail "a refusal wrote"

# Inline (the transcript's coder, dana): the second "I" gets the brackets.
q code add --transcript E01.md --turn 2 --span I --occurrence 2 --node COM.1 2>"$tmp/err" || fail "inline: $(cat "$tmp/err")"
grep -qF 'qualrank code add: added COM.1 to t2 "I"#2 (' "$tmp/err" || fail "inline message: $(cat "$tmp/err")"
grep -qxF 'E01: I post in the stand-up thread, but [I]{COM.1} never know if anyone reads it. Notre équipe est dispersée sur trois pays.' "$E01" || fail "inline markup: $(sed -n 19p "$E01")"
q code remove --transcript E01.md --turn 2 --span I --occurrence 2 --node COM.1 2>/dev/null || fail "inline remove"
cmp -s "$tmp/E01.orig" "$E01" || fail "inline remove did not restore"

# A second coder: "I"#2 in the .codes file; the segment is the second "I" (code-point offsets 35-36).
q code add --transcript E01.md --turn 2 --span I --occurrence 2 --node COM.1 --coder carol 2>/dev/null || fail "codes add"
tail -1 "$ws/transcripts/E01.carol.codes" | grep_q -xF 't2 "I"#2: COM.1' || fail "codes line: $(tail -1 "$ws/transcripts/E01.carol.codes")"
q code --format json | python3 -c '
import json, sys
segs = [s for s in json.load(sys.stdin)["segments"] if s["id"].startswith("E01#t2[")]
assert [(s["id"], s["text"], [c["coder"] for c in s["codes"]]) for s in segs] == [("E01#t2[35:36]", "I", ["carol"])], segs' || fail "segment of the second I"
q validate 2>&1 | grep_q "span text occurs more than once" && fail "#2 still warns"
# Without #N the first is coded, with a warning that names the notation.
printf 't2 "I": COM.2\n' >>"$ws/transcripts/E01.carol.codes"
q validate >"$tmp/out" 2>&1 || true
grep -qF 'transcripts/E01.carol.codes:7:1: warning: span text occurs more than once in turn t2; the first occurrence is coded (write "span"#N for the N-th, or quote a longer span)' "$tmp/out" || fail "warning: $(cat "$tmp/out")"
printf 't2 "I"#0: COM.2\n' >>"$ws/transcripts/E01.carol.codes"
q validate >"$tmp/out" 2>&1 && fail "#0 accepted"
grep -qF "transcripts/E01.carol.codes:8:7: error: after a quoted span, '#N' names its N-th occurrence in the turn (N = 1, 2, ...)" "$tmp/out" || fail "#0: $(cat "$tmp/out")"
echo "ok: span occurrences"
