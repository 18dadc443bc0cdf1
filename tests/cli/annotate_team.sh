#!/usr/bin/env bash
# The terminal coder's fixes and views, driven in tmux as a person would, on a copy of the fieldwork study.
# Each scenario reads the screen, then the bytes saved: a memo for one code of a line, a repeated word coded
# where it was selected, an exemplar code removed and the mark toggled, scrolling in a turn taller than the
# screen, suggestions listed with their keys, the picker moving only among matches, the message history,
# search, first/last turn, next uncoded, the next transcript, the segments pane, the memo list, a new code
# proposed with its provenance, blind coding, and the coded-span marker (no colours) or colour.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${FIXTURES:?}"
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 77; }
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d)
source "$(dirname "${BASH_SOURCE[0]}")/lib/tmux.sh"  # sock, screen, wait_for, wait_gone, keys, fail
ws=$tmp/ws
mkdir -p "$ws"
cp -r "$FIXTURES"/fieldwork/{codebooks,guidelines,transcripts} "$ws"/
q() { "$QUALRANK" -C "$ws" "$@"; }
# start TERM ARGS...: annotate in a new 80x24 session.
start() {
  local term=$1; shift
  rm -f "$tmp/rc"
  new_server
  tmux -L "$sock" -u new-session -d -s qr -x 80 -y 24 "cd '$ws' && TERM=$term '$QUALRANK' annotate $*; echo \$? >'$tmp/rc'"
  wait_for "? help"
}
quit() {
  keys q
  local deadline=$((SECONDS + 10))
  while ((SECONDS < deadline)); do [[ -s $tmp/rc ]] && return 0; sleep 0.05; done
  keys y
  sleep 0.3
  [[ -s $tmp/rc ]] || fail "annotate did not exit"
}
C01=$ws/transcripts/C01.md E01=$ws/transcripts/E01.md

# 1. A memo for one code of a @code line stays that code's (C01 t2: "@code COM.1, WELL.1").
start vt100 transcripts/C01.md
keys j; wait_for "> t2 C01"
keys Tab; wait_for "* WELL.1 Isolation"
keys m; wait_for "memo for WELL.1:"
keys C-u; keys -l "lonely first"; keys Enter
wait_for "memo of WELL.1 in t2"
[[ $(screen) == *"- COM.1 Asynchronous updates [memo: Efficiency and"* ]] || fail "COM.1 lost its memo"
keys w; wait_for "saved transcripts/C01.md"
grep -qxF "@memo WELL.1: lonely first" "$C01" || fail "saved memo: $(sed -n 18,23p "$C01")"
grep -qxF "@memo Efficiency and isolation come together for contractors." "$C01" || fail "the shared memo changed"
quit

# 2. A word that occurs twice in the turn is coded where it was selected (E01 t2: the second "I").
start vt100 transcripts/E01.md
keys j; wait_for "> t2 E01"
keys v; for _ in 1 2 3 4 5 6 7; do keys l; done
wait_for "but [I] never"
keys c; wait_for "filter (id, name or alias)"
keys -l COM.2; keys Enter
wait_for 'added COM.2 to t2 "I"#2'
keys w; wait_for "saved transcripts/E01.md"
grep -qF "E01: I post in the stand-up thread, but [I]{COM.2} never know" "$E01" || fail "repeated word: $(sed -n 19p "$E01")"
# the coded word is marked «I» (no colours on a vt100)
[[ $(screen) == *"but [«I»] never"* ]] || fail "no marker around the coded span"

# 3. Exemplars: t3 is "@code COM.2, WELL.1" + "@exemplar WELL.1". Remove WELL.1 (the exemplar), then pick
#    COM.2 as an exemplar with e; the message history keeps every message whole.
keys j; wait_for "> t3 E01"
keys Tab; wait_for "* WELL.1 Isolation (exemplar)"
keys d; wait_for "removed WELL.1 from t3"
keys e; wait_for "picked COM.2 in t3 as an exemplar"
[[ $(screen) == *"* COM.2 Meetings (exemplar)"* ]] || fail "exemplar not shown"
keys w; wait_for "saved"
[[ $(sed -n '/^E01: None, honestly/,/^$/p' "$E01") == $'E01: None, honestly. The calls are the only time I hear my colleagues\' voices.\n@code COM.2\n@exemplar' ]] ||
  fail "exemplar bytes: $(sed -n '/^E01: None, honestly/,/^$/p' "$E01")"
keys :; wait_for "messages, oldest first"
[[ $(screen) == *'added COM.2 to t2 "I"#2 ("I post in the stand-up thread, but I'* ]] || fail "history lacks the add"
[[ $(screen) == *"picked COM.2 in t3 as an exemplar"* ]] || fail "history lacks the exemplar"
keys q; wait_for "? help"

# 4. Search, n/N, g (go to a turn)/G, next uncoded (U): t6 of E01 is uncoded.
keys /; wait_for "search:"
keys -l "kitchen"; keys Enter
wait_for 'found "kitchen" in t6'
[[ $(screen) == *"> t6 E01"*"[kitchen]"* ]] || fail "search did not select the match"
keys g; wait_for "go to turn (t1-t6): t"; keys 1 Enter; wait_for "> t1 E01"
keys G; wait_for "> t6 E01"
keys g; keys 1 Enter; keys U; wait_for "> t5 E01"   # t1 is background, coded by nobody? the first uncoded after t1
quit

# 5. Suggestions are listed under the turn with their keys; 'a' applies the first listed.
cat >"$ws/transcripts/T01.md" <<'EOF'
---
participant: T01
role: employee
coder: eli
---
## II.1 Progress
I: How does your team share progress?
T01: A short written update in the stand-up thread, then a zoom meeting on Fridays.
EOF
start vt100 transcripts/T01.md
wait_for "suggested: 1 "
sugg=$(screen | grep -o "suggested: 1 [A-Z0-9.a-z]*" | head -1); first=${sugg#suggested: 1 }
keys a; wait_for "added $first to t1"
keys w; wait_for "saved"
grep -qxF "@code $first" "$ws/transcripts/T01.md" || fail "a applied something else than suggestion 1 ($first): $(cat "$ws/transcripts/T01.md")"

# 6. The picker moves only among matches: "Status" matches COM.1.a only; COM and COM.1 are context.
keys c; wait_for "filter (id, name or alias)"
keys -l Status; wait_for "filter (id, name or alias): Status_"
[[ $(screen | grep '^> ') == *"COM.1.a  Status threads"* ]] || fail "picker starts on a non-match"
keys Up; keys Up; sleep 0.5   # (step_pick's unit test covers the moves themselves)
[[ $(screen | grep '^> ') == *"COM.1.a  Status threads"* ]] || fail "Up moved onto a parent that does not match"
keys Enter; wait_for "added COM.1.a to t1"
quit

# 7. A turn taller than the screen scrolls: the selection and the codes stay in view.
{ printf -- '---\nparticipant: T02\nrole: employee\ncoder: eli\n---\n## II.1 Progress\nI: How does your team share progress?\nT02:'
  for i in $(seq 1 60); do printf ' word%02d filler text here' "$i"; done
  printf ' lastword.\n'; } >"$ws/transcripts/T02.md"
start vt100 transcripts/T02.md
keys /; keys -l lastword; keys Enter
wait_for 'found "lastword" in t1'
[[ $(screen) == *"[lastword]."* ]] || fail "the selection at the end of a tall turn is off screen"
keys c; wait_for "filter"; keys -l TOOL.1; keys Enter; wait_for "added TOOL.1 to t1"
keys Escape; keys Tab
wait_for '* TOOL.1 Chat "lastword"' || fail "the highlighted coding of a tall turn is off screen"
keys w; wait_for "saved"
grep -qF "[lastword]{TOOL.1}." "$ws/transcripts/T02.md" || fail "tall turn coding not saved"
quit

# 8. The segments pane (the same call as query), the memo list, the next transcript, a new code proposed.
start vt100 transcripts/C01.md
keys j; wait_for "> t2 C01"
keys S; wait_for "segments coded COM.1 Asynchronous updates across the study"
q query --code COM.1 --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["segments"]))' >"$tmp/n"
[[ $(screen) == *"across the study ($(cat "$tmp/n"))"* ]] || fail "segments pane count differs from query ($(cat "$tmp/n"))"
[[ $(screen) == *"M01 t2 (manager) II.1 transcripts/M01.md:19:"* ]] || fail "segments pane lacks M01's segment"
keys q; wait_for "? help"
keys M; wait_for "memos of transcripts/C01.md"
[[ $(screen) == *"t2 WELL.1 Isolation: lonely first"* ]] || fail "memo list"
keys q; wait_for "? help"
keys ']'; wait_for "opened transcripts/C02.md"
[[ $(screen) == *"writing transcripts/C02.md"* ]] || fail "next transcript not shown"
keys '['; wait_for "opened transcripts/C01.md"
keys j; keys v; keys l; keys l; keys l; wait_for "[«recording»]"
keys +; wait_for "new code name (in vivo: the selection):"
keys Enter; wait_for "pick the parent"
keys -l COM.1; keys Enter
wait_for "'recording' under COM.1 as E"
quit
grep -qF "op: add" "$ws/codebooks/remote-work.history.yaml" && grep -qF "name: recording" "$ws/codebooks/remote-work.history.yaml" || fail "proposal not in the history"
grep -qF "source: transcripts/C01.md:19" "$ws/codebooks/remote-work.history.yaml" || fail "proposal without its source: $(tail -20 "$ws/codebooks/remote-work.history.yaml")"
q validate >/dev/null 2>&1 || fail "validate after annotate: $(q validate 2>&1 | head -3)"

# 9. Blind coding: carol (not E01's coder) sees nothing of dana's codes; dana sees carol's, dimmed, in the margin.
start vt100 transcripts/E01.md --coder carol
[[ $(screen) == *"writing transcripts/E01.carol.codes (coder carol, transcript unchanged, blind)"* ]] || fail "a second coder is not blind by default"
keys j; wait_for "> t2 E01"
[[ $(screen) != *"dana: "* && $(screen) != *"WELL.1"* ]] || fail "a blind coder sees dana's codes"
# The segments pane too: carol's TOOL.1 on t4 lists her own span only, not dana's whole turn of the same code.
keys j; keys j; wait_for "> t4 E01"
keys Tab; wait_for "* TOOL.1"
keys S; wait_for "segments coded TOOL.1"
[[ $(screen) == *"across the study (1)"* ]] || fail "a blind coder's segments pane counts other coders' segments"
[[ $(screen | tr -s ' \n' '  ') == *"E01 t4 (employee) III.1 transcripts/E01.md:"*": Important decisions vanish in threads"* &&
   $(screen) != *"Slack. Important"* ]] ||
  fail "a blind coder sees dana's segment in the segments pane"
keys q; wait_for "? help"
quit
start vt100 transcripts/E01.md
keys j; wait_for "> t2 E01"
[[ $(screen) == *"carol: COM.1.a"* ]] || fail "the own coder does not see carol's codes in the margin"
quit
start vt100 transcripts/E01.md --blind
keys j; wait_for "> t2 E01"
[[ $(screen) != *"carol: "* ]] || fail "--blind shows carol's codes"
quit

# 10. Colours where the terminal has them: the coded word is coloured, without the «» marker.
start xterm-256color transcripts/E01.md
keys j; wait_for "> t2 E01"
[[ $(screen) == *"but I never"* ]] || fail "a colour terminal still shows the marker"
tmux -L "$sock" capture-pane -p -e -t qr | grep_q $'\e\\[3[0-9]m' || fail "no colour on the coded span"
quit
echo "ok: the terminal coder"
