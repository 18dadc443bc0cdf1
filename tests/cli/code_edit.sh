#!/usr/bin/env bash
# qualrank code add / code remove: the markup written (inline for the transcript's coder, the .codes file for
# another), what `code --format json` then reports, byte-for-byte restoration, and refusals that write nothing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/study"; mkdir "$ws"; cp -r "$SOURCE_DIR"/{codebooks,guidelines,transcripts} "$ws/"
q() { "$QUALRANK" -C "$ws" "$@"; }
cp "$ws/transcripts/U01.md" "$tmp/U01.orig"; cp "$ws/transcripts/U03.bob.codes" "$tmp/U03.bob.orig"; cp "$ws/transcripts/U03.md" "$tmp/U03.orig"

# segment(ID) -> "node|coder|memo|file:line|text" lines of that segment, from code --format json
segment() { q code --format json | python3 -c '
import json, sys
for s in json.load(sys.stdin)["segments"]:
    if s["id"] == sys.argv[1]:
        for c in s["codes"]:
            print("|".join([c["node"], c["coder"], c["memo"], "%s:%d" % (s["source"]["file"], s["source"]["line"]), s["text"]]))' "$1"; }

# 1. A whole turn, with a memo, by the transcript's own coder (alice): an @code and an @memo line after the turn.
q code add --transcript U01.md --turn 3 --node A.2 --memo "setup, not usage" 2>"$tmp/add.err" || fail "add: $(cat "$tmp/add.err")"
grep -qxF "qualrank code add: added A.2 to t3 (\"PyTorch with Hugging Face Transformers, and PEFT for…\") (transcripts/U01.md, coder alice)" "$tmp/add.err" || fail "add message: $(cat "$tmp/add.err")"
diff "$tmp/U01.orig" "$ws/transcripts/U01.md" >"$tmp/d1" || true
[[ "$(grep -c '^>' "$tmp/d1")" == 2 && "$(grep -c '^<' "$tmp/d1")" == 0 ]] || fail "whole-turn add changed more than two lines: $(cat "$tmp/d1")"
grep -qxF "> @code A.2" "$tmp/d1" && grep -qxF "> @memo setup, not usage" "$tmp/d1" || fail "markup: $(cat "$tmp/d1")"
line=$(grep -n '^U01: ' "$ws/transcripts/U01.md" | sed -n 3p | cut -d: -f1)
segment 'U01#t3' | grep_q -F "A.2|alice|setup, not usage|transcripts/U01.md:$line|" || fail "json of the whole-turn code: $(segment 'U01#t3')"

# 2. A word span by name ("CUDA" in turn t7): brackets around it, reported with its text and line.
q code add --transcript transcripts/U01.md --turn 7 --span "CUDA" --node "Unclear Installation Guidance" 2>/dev/null || fail "span add"
grep -qF "yet another [CUDA]{A.1} version" "$ws/transcripts/U01.md" || fail "span markup: $(grep -n 'yet another' "$ws/transcripts/U01.md")"
sline=$(grep -n 'yet another \[CUDA\]' "$ws/transcripts/U01.md" | cut -d: -f1)
q code --format json | python3 -c '
import json, sys
segs = [s for s in json.load(sys.stdin)["segments"] if s["id"].startswith("U01#t7[")]
assert len(segs) == 1 and segs[0]["text"] == "CUDA", segs
assert [(c["node"], c["coder"]) for c in segs[0]["codes"]] == [("A.1", "alice")], segs
assert segs[0]["source"] == {"file": "transcripts/U01.md", "line": int(sys.argv[1])}, segs[0]["source"]' "$sline" || fail "json of the span code"
# A second code on the same span joins its list; removing it takes exactly that back.
q code add --transcript U01.md --turn 7 --span "CUDA" --node A.1.i 2>/dev/null || fail "second code on the span"
grep -qF "[CUDA]{A.1, A.1.i}" "$ws/transcripts/U01.md" || fail "joined list"
q code remove --transcript U01.md --turn 7 --span "CUDA" --node A.1.i 2>/dev/null || fail "remove from the list"
grep -qF "[CUDA]{A.1} version" "$ws/transcripts/U01.md" || fail "list after remove"

# 3. Removing what was added gives the file back byte for byte.
q code remove --transcript U01.md --line "$sline" --span "CUDA" --node A.1 2>/dev/null || fail "span remove"
q code remove --transcript U01.md --turn 3 --node A.2 2>/dev/null || fail "turn remove"
cmp -s "$tmp/U01.orig" "$ws/transcripts/U01.md" || fail "add then remove did not restore U01.md: $(diff "$tmp/U01.orig" "$ws/transcripts/U01.md")"

# 4. Another coder writes only their .codes file (an existing one: bob; a new one: carol), never the transcript.
q code add --transcript U03.md --turn 1 --span "classify customer complaints" --node A.2 --coder Bob --memo 'a "quoted" memo' 2>/dev/null || fail "bob add"
cmp -s "$tmp/U03.orig" "$ws/transcripts/U03.md" || fail "a second coder's add changed the transcript"
tail -1 "$ws/transcripts/U03.bob.codes" | grep_q -xF 't1 "classify customer complaints": A.2 | memo: a "quoted" memo' || fail "bob line: $(tail -1 "$ws/transcripts/U03.bob.codes")"
tline=$(grep -n 'classify customer complaints' "$ws/transcripts/U03.md" | cut -d: -f1)
q code --format json | python3 -c '
import json, sys
segs = [s for s in json.load(sys.stdin)["segments"] if s["id"].startswith("U03#t") and s["text"] == "classify customer complaints"]
assert len(segs) == 1, segs
assert [(c["node"], c["coder"], c["memo"]) for c in segs[0]["codes"]] == [("A.2", "bob", "a \"quoted\" memo")], segs
# located at the transcript line of the turn it codes, not at the .codes line
assert segs[0]["source"] == {"file": "transcripts/U03.md", "line": int(sys.argv[1])}, segs[0]["source"]' "$tline" || fail "json of bob's span"
q code remove --transcript U03.md --turn 1 --span "classify customer complaints" --node A.2 --coder bob 2>/dev/null || fail "bob remove"
cmp -s "$tmp/U03.bob.orig" "$ws/transcripts/U03.bob.codes" || fail "bob's file not restored"
q code add --transcript U03.md --turn 2 --node A.1 --coder carol 2>/dev/null || fail "carol add"
[[ "$(cat "$ws/transcripts/U03.carol.codes")" == "t2: A.1" ]] || fail "carol's new file: $(cat "$ws/transcripts/U03.carol.codes")"
q code remove --transcript U03.md --turn 2 --node A.1 --coder carol 2>/dev/null || fail "carol remove"
[[ ! -e "$ws/transcripts/U03.carol.codes" ]] || fail "an emptied .codes file was left behind"

# 5. Refusals: located, exit 1, nothing written.
sum() { cat "$ws"/transcripts/* | md5sum; }
before=$(sum)
refuse() {  # refuse EXPECTED-MESSAGE ARGS...
  local want=$1; shift
  set +e; q code "$@" >/dev/null 2>"$tmp/r.err"; local rc=$?; set -e
  [[ $rc -eq 1 ]] || fail "code $*: exit $rc, expected 1"
  grep -qF -- "$want" "$tmp/r.err" || fail "code $*: expected '$want' in: $(cat "$tmp/r.err")"
}
refuse "transcripts/U01.md:43:1: error: span \"an\" occurs 3 times in turn t7; say which with --occurrence N (1 to 3), or give a longer span" add --transcript U01.md --turn 7 --span "an" --node A.1
refuse "span \"no such words\" is not in turn t7" add --transcript U01.md --turn 7 --span "no such words" --node A.1
refuse "transcripts/U01.md:38:1: error: this is an interviewer turn ('I'); only participant turns are coded" add --transcript U01.md --line 38 --node A.1
refuse "unknown taxonomy node 'A.9' (did you mean 'A.1'?)" add --transcript U01.md --turn 3 --node A.9
refuse "is already coded A.1.i by alice" add --transcript U01.md --turn 7 --node A.1.i
refuse "has no code A.4 by alice" remove --transcript U01.md --turn 7 --node A.4
refuse "no participant turn t99" add --transcript U01.md --turn 99 --node A.1
refuse "the span overlaps the coded span" add --transcript U01.md --turn 6 --span "PyTorch versions on" --node A.2
[[ "$(sum)" == "$before" ]] || fail "a refused edit wrote something"
set +e; q code add --turn 3 --node A.1 >/dev/null 2>"$tmp/u.err"; rc=$?; set -e
[[ $rc -eq 2 ]] && grep -qF -- "--transcript is required" "$tmp/u.err" || fail "usage error: exit $rc $(cat "$tmp/u.err")"

# 6. The mini fixture (other transcript, coder alice): an escaped literal bracket stays text next to a new span.
m="$tmp/mini"; cp -r "$FIXTURES/mini" "$m"
printf '\nP1: A literal \\[bracket\\] and the wheel again.\n@code A.1\n' >>"$m/transcripts/P1.md"
"$QUALRANK" -C "$m" code add --transcript P1.md --turn 5 --span "wheel" --node A.1.i 2>/dev/null || fail "mini span add"
grep -qxF 'P1: A literal \[bracket\] and the [wheel]{A.1.i} again.' "$m/transcripts/P1.md" || fail "escaped brackets kept: $(tail -3 "$m/transcripts/P1.md")"
"$QUALRANK" -C "$m" code --format json | grep_q -F '"text": "A literal [bracket] and the wheel again."' || fail "escapes resolved in the text"
# 7. The fieldwork study (other roles, coders eli and carol, another taxonomy): inline and standoff edits.
f="$tmp/fieldwork"; cp -r "$FIXTURES/fieldwork" "$f"
cp "$f/transcripts/C01.md" "$tmp/C01.orig"; cp "$f/transcripts/E01.carol.codes" "$tmp/E01.carol.orig"
"$QUALRANK" -C "$f" code add --transcript C01 --turn 3 --span "the tickets" --node "Documentation" 2>/dev/null || fail "fieldwork span add"
grep -qF "alone with [the tickets]{TOOL.2}." "$f/transcripts/C01.md" || fail "fieldwork span markup"
"$QUALRANK" -C "$f" code --format json | python3 -c '
import json, sys
segs = [s for s in json.load(sys.stdin)["segments"] if s["participant"] == "C01" and s["text"] == "the tickets"]
assert len(segs) == 1 and segs[0]["role"] == "contractor", segs
assert [(c["node"], c["coder"]) for c in segs[0]["codes"]] == [("TOOL.2", "eli")], segs' || fail "fieldwork json"
"$QUALRANK" -C "$f" code add --transcript E01.md --turn 2 --span "Notre équipe est dispersée" --node COM.3 --coder CAROL 2>/dev/null || fail "carol add"
tail -1 "$f/transcripts/E01.carol.codes" | grep_q -xF 't2 "Notre équipe est dispersée": COM.3' || fail "carol line"
"$QUALRANK" -C "$f" code remove --transcript E01.md --turn 2 --span "Notre équipe est dispersée" --node COM.3 --coder carol 2>/dev/null || fail "carol remove"
"$QUALRANK" -C "$f" code remove --transcript C01 --turn 3 --span "the tickets" --node TOOL.2 2>/dev/null || fail "fieldwork remove"
cmp -s "$tmp/C01.orig" "$f/transcripts/C01.md" && cmp -s "$tmp/E01.carol.orig" "$f/transcripts/E01.carol.codes" || fail "fieldwork files not restored"
"$QUALRANK" -C "$f" validate 2>/dev/null || fail "fieldwork no longer validates"
echo "code_edit: ok"
