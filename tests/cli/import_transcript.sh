#!/usr/bin/env bash
# qualrank import-transcript: WebVTT (voice tags), SRT (Name: prefixes), plain text, Word .docx and UTF-16
# captions become transcripts that validate; malformed timings, empty files and non-UTF-8 text are located
# errors; existing transcripts are kept unless --force.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
in="$FIXTURES/import-transcript"
ws="$tmp/ws"; cp -r "$FIXTURES/mini" "$ws"
imp() { "$QUALRANK" -C "$ws" import-transcript "$@"; }

# WebVTT with <v> tags: consecutive cues of one speaker merged, timestamps kept, entities decoded
imp "$in/teams.vtt" --participant P5 --role user --interviewer "Dana Interviewer" --attr years=3 2>"$tmp/err" || fail "vtt: $(cat "$tmp/err")"
t="$ws/transcripts/P5.md"
grep -qx 'participant: P5' "$t" && grep -qx 'role: user' "$t" && grep -qx '  years: 3' "$t" || fail "vtt front matter: $(cat "$t")"
grep -qx 'I: Which questions come up when you use a framework for LLM work?' "$t" || fail "vtt interviewer turn"
grep -qx 'P5: Mostly installation. I spent two days matching CUDA and PyTorch versions. The README just says "pip install torch" & nothing else.' "$t" ||
  fail "vtt merged turn: $(cat "$t")"
grep -qx '<!-- 00:00:05.000 - 00:00:12.750 -->' "$t" || fail "vtt timestamps of the merged turn"
grep -qx 'P5: Out of memory errors, every day.' "$t" || fail "vtt tags inside the text"
[[ $(grep -c '^P5: ' "$t") -eq 2 && $(grep -c '^I: ' "$t") -eq 2 ]] || fail "vtt: 2 + 2 turns"

# SRT with Name: prefixes; a cue without a name continues the speaker; --section puts turns in a section
imp "$in/zoom.srt" --participant P6 --role developer --interviewer Dana --section II.2 2>/dev/null || fail "srt"
t="$ws/transcripts/P6.md"
grep -qx '## II.2' "$t" || fail "srt section"
grep -qx 'P6: Mostly installation, and matching CUDA versions. Then the ops, whether they are prebuilt.' "$t" || fail "srt merge: $(cat "$t")"
grep -qx '<!-- 00:00:04.500 - 00:00:10.000 -->' "$t" || fail "srt timestamps"

# plain text with [HH:MM:SS] Name: prefixes; a line starting with '@' is not a directive
imp "$in/interview.txt" --participant P7 --role user --interviewer Dana 2>"$tmp/err" || fail "txt"
grep -q "interview.txt:7: warning: a line of this text starts with '@'" "$tmp/err" || fail "txt warning: $(cat "$tmp/err")"
grep -qx '<!-- 00:01:05 -->' "$ws/transcripts/P7.md" || fail "txt timestamp"
grep -qx 'I spent two days matching CUDA and PyTorch versions. @channel remarks are not directives here.' "$ws/transcripts/P7.md" || fail "txt @ line"

# Word: paragraphs, bold speaker runs, a paragraph without a speaker continues the turn
imp "$in/interview.docx" --participant P8 --role user --interviewer Interviewer 2>/dev/null || fail "docx"
t="$ws/transcripts/P8.md"
grep -qx 'P8: Mostly installation. I spent two days on CUDA versions.' "$t" || fail "docx runs: $(cat "$t")"
grep -qx 'And then the tokenizer docs were out of date.' "$t" || fail "docx continuation paragraph"
grep -qx 'Interview transcript, participant 7' "$t" || fail "docx preamble"
grep -q 'Größer is not better.' "$t" || fail "docx UTF-8 and tab"

# UTF-16LE with a byte-order mark and CRLF line ends
imp "$in/utf16.srt" --participant P9 --role user --interviewer Dana 2>/dev/null || fail "utf-16"
grep -qx 'P9: Hallo, Straße.' "$ws/transcripts/P9.md" || fail "utf-16 text: $(cat "$ws/transcripts/P9.md")"

"$QUALRANK" -C "$ws" validate >"$tmp/validate" 2>&1 || fail "imported transcripts do not validate: $(cat "$tmp/validate")"
grep -q 'ok: 7 transcripts' "$tmp/validate" || fail "7 transcripts: $(cat "$tmp/validate")"

# errors, located, and nothing written
imp "$in/bad-timing.vtt" --participant X1 --role user 2>"$tmp/err" && fail "malformed timing accepted"
grep -q "bad-timing.vtt:6:18: error: malformed cue end time '00:00:0x.000'" "$tmp/err" || fail "timing error: $(cat "$tmp/err")"
imp "$in/empty.vtt" --participant X1 --role user 2>"$tmp/err" && fail "empty file accepted"
grep -q "empty.vtt:1:1: error: the file is empty" "$tmp/err" || fail "empty error: $(cat "$tmp/err")"
imp "$in/latin1.txt" --participant X1 --role user 2>"$tmp/err" && fail "latin-1 accepted"
grep -q "latin1.txt:2:8: error: not UTF-8" "$tmp/err" || fail "encoding error: $(cat "$tmp/err")"
[[ ! -e $ws/transcripts/X1.md ]] || fail "a failed import wrote a transcript"
printf 'WEBVTT\n\nno timing here\nHello\n' >"$tmp/no-timing.vtt"
imp "$tmp/no-timing.vtt" --participant X1 --role user 2>"$tmp/err" && fail "cue without timing accepted"
grep -q "no-timing.vtt:4:1: error: expected a cue timing line" "$tmp/err" || fail "no timing: $(cat "$tmp/err")"
printf 'Hello there.\n' >"$tmp/hello.rtf"
imp "$tmp/hello.rtf" --participant X1 --role user 2>"$tmp/err" && fail "unknown format accepted"
grep -q "unknown transcript format '.rtf'" "$tmp/err" || fail "format error"

# options
imp "$in/teams.vtt" --participant P5 --role user 2>"$tmp/err" && fail "overwrote P5.md"
grep -q "transcripts/P5.md: error: the file exists already" "$tmp/err" || fail "exists: $(cat "$tmp/err")"
imp "$in/teams.vtt" --participant P5 --role user --force 2>"$tmp/err" || fail "--force"
grep -q "warning: speakers Dana Interviewer, Sam Lee all become participant P5 (name the interviewer with --interviewer)" "$tmp/err" ||
  fail "speaker warning: $(cat "$tmp/err")"
imp "$in/teams.vtt" --participant P11 --role nobody 2>/dev/null && fail "unknown role accepted"
imp "$in/teams.vtt" --participant P11 --role user --section II.2 2>/dev/null && fail "section not asked to the role accepted"
# -o is the user's choice, relative to the workspace as for every command; the default must stay inside
imp "$in/teams.vtt" --participant P11 --role user -o ../outside.md 2>"$tmp/err" || fail "-o ../outside.md: $(cat "$tmp/err")"
grep -q '^participant: P11$' "$tmp/outside.md" || fail "-o ../outside.md not written beside the workspace"
mkdir "$tmp/elsewhere"; mv "$ws/transcripts" "$ws/transcripts.real"; ln -s "$tmp/elsewhere" "$ws/transcripts"
set +e; imp "$in/teams.vtt" --participant P12 --role user >/dev/null 2>"$tmp/err"; rc=$?; set -e
[[ $rc -eq 1 ]] || fail "default output through a symlink: exit $rc, not 1"
grep -qxF "qualrank import-transcript: error: the default output transcripts/P12.md leads outside the workspace (through a symlink); give -o to write there on purpose" "$tmp/err" || fail "symlinked default: $(cat "$tmp/err")"
[[ -z $(ls -A "$tmp/elsewhere") ]] || fail "import-transcript wrote through the symlink"
rm "$ws/transcripts"; mv "$ws/transcripts.real" "$ws/transcripts"
echo "import-transcript: ok"
