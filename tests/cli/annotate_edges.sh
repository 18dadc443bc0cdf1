#!/usr/bin/env bash
# The terminal coder's rough edges, driven in tmux on a copy of the fieldwork study; each scenario reads the
# screen, then the bytes on disk: Esc in a new code's parent picker records nothing and a proposal keeps the
# selected words; a @memo that follows no code is refused, never attached; n reaches the second match of a
# turn, the / prompt starts empty and Enter alone repeats; prompts and titles keep their ends at 80 and 60
# columns, help wraps, a hidden margin is said, NO_COLOR drops colours; ] offers save and go; g goes to a
# turn; SIGTERM keeps the unsaved work for the next session; a reload names the memo it could not re-apply.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${FIXTURES:?}"
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 77; }
export LANG=C.UTF-8 LC_ALL=C.UTF-8
unset NO_COLOR
tmp=$(mktemp -d)
source "$(dirname "${BASH_SOURCE[0]}")/lib/tmux.sh"  # sock, screen, wait_for, wait_gone, keys, fail
ws=$tmp/ws
mkdir -p "$ws"
cp -r "$FIXTURES"/fieldwork/{codebooks,guidelines,transcripts} "$ws"/
q() { "$QUALRANK" -C "$ws" "$@"; }
# start COLSxROWS ENV ARGS...: annotate in a new session of that size, with ENV (VAR=value ...) set.
start() {
  local size=$1 env=$2; shift 2
  rm -f "$tmp/rc" "$tmp/pid"
  new_server
  tmux -L "$sock" -u new-session -d -s qr -x "${size%x*}" -y "${size#*x}" \
    "cd '$ws' && echo \$\$ >'$tmp/pid' && exec env $env '$QUALRANK' annotate $*"
  wait_for "? help"
}
# stop: quits (answering y to "quit without saving?") and waits for the session to end.
stop() {
  keys q
  sleep 0.2
  tmux -L "$sock" has-session -t qr 2>/dev/null && keys y
  local deadline=$((SECONDS + 10))
  while tmux -L "$sock" has-session -t qr 2>/dev/null; do
    ((SECONDS < deadline)) || fail "annotate did not exit"
    sleep 0.05
  done
}
C01=$ws/transcripts/C01.md history=$ws/codebooks/remote-work.history.yaml

# 1. `+`, then Esc in the parent picker: nothing is recorded. Then a proposal under COM.1 (children COM.1.a,
#    COM.1.b) takes COM.1.c, and its quote is the selected word, not the whole line.
cp "$history" "$tmp/history.orig"
start 80x24 TERM=vt100 transcripts/C01.md
keys j; keys v; keys l; keys l; keys l; wait_for "[«recording»]"
keys +; wait_for "new code name (in vivo: the selection):"
keys Enter; wait_for "parent of the new code 'recording'"
[[ $(screen) == *"(the top level: a new top-level code)"* ]] || fail "no top-level row in the parent picker"
[[ $(screen) == *"Esc cancels (nothing proposed)"* ]] || fail "the parent picker does not say Esc cancels"
keys Escape; wait_for "no code proposed"
cmp -s "$history" "$tmp/history.orig" || fail "Esc in the parent picker recorded a proposal: $(diff "$tmp/history.orig" "$history")"
keys +; wait_for "new code name"; keys Enter; wait_for "parent of the new code"
keys -l COM.1; keys Enter
wait_for "proposed COM.1.c 'recording' under COM.1"
keys :; wait_for "messages, oldest first"
# Wrapped by words (#37.12): the message's words whole, over two lines.
[[ $(screen | tr -s ' \n' '  ') == *"under COM.1 as E0003 (the selected words as its source); code with it once accepted"* ]] ||
  fail "the proposal's whole message"
keys q
stop
python3 - "$tmp/history.orig" "$history" <<'PY' || fail "the proposal's entry"
import sys
old, new = (open(p, encoding="utf-8").read() for p in sys.argv[1:])
assert new.startswith(old), "the history was not appended to"
added = new[len(old):]
for want in ["  - propose: E0003\n", "      id: COM.1.c\n", "      parent: COM.1\n", "      name: recording\n",
             "      - participant: C01\n        source: transcripts/C01.md:19\n        quote: recording\n"]:
    assert want in added, (want, added)
PY

# 2. A @memo that follows no code: coding the turn is refused (named), the file keeps its bytes.
cat >"$ws/transcripts/S01.md" <<'EOF2'
---
participant: S01
role: employee
coder: eli
---
## II.1 Progress
I: How does your team share progress?
S01: "How do I start?" they ask me, and then "how do I stop?" every week.
@memo a note written before any code

## II.2 Meetings
I: Which meetings are you invited to?
S01: And how do I log in, with which VPN?
EOF2
cp "$ws/transcripts/S01.md" "$tmp/S01.orig"
start 80x24 TERM=vt100 transcripts/S01.md
keys c; wait_for "filter (id, name or alias)"; keys -l COM.1; keys Enter
wait_for "error: this @memo line follows no code; coding t1 would make it the new code's"
keys :; wait_for "messages, oldest first"
[[ $(screen) == *"error: this @memo line follows no code; coding t1 would make it the new code's:"*"delete it or write its code above it first"* ]] ||
  fail "the stray @memo's message"
keys q; wait_for "? help"
keys w; wait_for "no changes to save"
cmp -s "$ws/transcripts/S01.md" "$tmp/S01.orig" || fail "the stray @memo's transcript changed"

# 3. Search: the match without its quote mark, n to the second match of the same turn, the prompt empty, Enter
#    alone repeats.
keys /; wait_for "search: _"
keys -l "how do i"; keys Enter
wait_for 'found "how do i" in t1'
[[ $(screen) == *'"[How do I] start?"'* ]] || fail "the first match (without the quote mark) is not selected"
keys n; wait_for '"[how do I]'
[[ $(screen) == *'"How do I start?"'* ]] || fail "n kept the first match selected"
[[ $(screen) == *"> t1 S01"* ]] || fail "n left the turn with a second match"
keys /; wait_for 'search (Enter: "how do i"): _'
keys Enter; wait_for "> t2 S01"
[[ $(screen) == *"And [how do I] log in"* ]] || fail "Enter alone did not repeat the search"
keys c; wait_for "filter"; keys -l TOOL.3; keys Enter; wait_for "added TOOL.3 to t2"
keys w; wait_for "saved transcripts/S01.md"
grep -qxF 'S01: And [how do I]{TOOL.3} log in, with which VPN?' "$ws/transcripts/S01.md" || fail "the span saved: $(tail -2 "$ws/transcripts/S01.md")"
stop
rm "$ws/transcripts/S01.md"  # its stray @memo would fail the queries below

# 3b. Grapheme clusters: a flag is one word, a ZWJ sequence and a VS16 sequence are drawn whole in their
#     base's columns; a span ends at a cluster's end.
printf -- '---\nparticipant: G01\nrole: employee\ncoder: eli\n---\n## II.1 Progress\nI: How does your team share progress?\nG01: 🇩🇪 team, 👩‍💻 coder and ✔️ done.\n' >"$ws/transcripts/G01.md"
start 80x24 TERM=vt100 transcripts/G01.md
keys v; wait_for "> t1 G01: [🇩🇪] team, 👩 coder and ✔️ done."
keys l; keys l; wait_for "> t1 G01: 🇩🇪 team, [👩] coder and ✔️ done."
keys L; wait_for "> t1 G01: 🇩🇪 team, [👩 coder] and ✔️ done."
keys c; wait_for "filter"; keys -l TOOL.1; keys Enter; wait_for 'added TOOL.1 to t1 "👩 coder"'  # drawn as its first emoji
keys Escape; keys v; keys c; wait_for "filter"; keys -l COM.3; keys Enter; wait_for 'added COM.3 to t1 "🇩🇪"'
keys w; wait_for "saved transcripts/G01.md"
grep -qxF "G01: [🇩🇪]{COM.3} team, [👩‍💻 coder]{TOOL.1} and ✔️ done." "$ws/transcripts/G01.md" || fail "cluster spans: $(tail -1 "$ws/transcripts/G01.md")"
stop
rm "$ws/transcripts/G01.md"

# 4. At 80 columns the conflict question keeps its (y/n); help wraps its descriptions; no colour with NO_COLOR.
start 80x24 "TERM=xterm-256color NO_COLOR=1" transcripts/C01.md
keys j; wait_for "> t2 C01"
[[ $(screen) == *"«recording»"* ]] || fail "NO_COLOR: the coded span is not marked"
tmux -L "$sock" capture-pane -p -e -t qr | grep_q -E $'\e\\[([0-9;]*;)?(3[0-7]|38)[;m]' && fail "NO_COLOR: colours drawn"
tmux -L "$sock" capture-pane -p -e -t qr | grep_q $'\e\\[4m' || fail "NO_COLOR: the coded span is not underlined"
keys c; wait_for "filter"; keys -l TOOL.1; keys Enter; wait_for "added TOOL.1 to t2"
printf '\n' >>"$C01"
keys w; wait_for "(y/n)"
[[ $(screen | tail -1) == *"…"*"(y/n)" ]] || fail "the conflict question lost its end: $(screen | tail -1)"
keys n; wait_for "not saved: transcripts/C01.md changed on disk since read"
keys '?'; wait_for "qualrank annotate: keys"
s=$(screen)
grep -qxF "                                    the match is selected; Enter alone repeats" <<<"$s" &&
  grep -qxF "                                    the last search" <<<"$s" || fail "help does not wrap"
keys q; wait_for "? help"
# 5. ] with unsaved changes: stay, or save and go (here through the reload the change on disk asks for).
keys ']'; wait_for "s save and go, d discard and go, Esc stay"
keys Escape; wait_for "staying ('w' saves)"
[[ $(screen) == *"writing transcripts/C01.md"* ]] || fail "Esc did not stay"
keys ']'; wait_for "s save and go"; keys s
wait_for "changed on disk since read: reload it"; keys y
wait_for "opened transcripts/C02.md"
sed -n 19,23p "$C01" >"$tmp/t2"
printf '%s\n' "C01: I get a [recording]{COM.1.b} of the demo and a list of tasks. It is efficient but lonely." \
  "@code COM.1, WELL.1" "@memo Efficiency and isolation come together for contractors." "@code TOOL.1" "" | cmp -s - "$tmp/t2" ||
  fail "save and go did not save: $(cat "$tmp/t2")"
[[ $(tail -c 2 "$C01" | od -An -c | tr -d ' ') == '\n\n' ]] || fail "the change on disk was lost"
# 6. g goes to a turn by its number.
keys g; wait_for "go to turn (t1-t"
keys -l 3; keys Enter; wait_for "> t3 C02"
keys g; keys -l t99; keys Enter; wait_for "error: no participant turn 't99'"
stop

# 7. At 60x20 the margin is hidden and the status line says so; the S title keeps its count.
start 60x20 TERM=vt100 transcripts/C01.md
[[ $(screen) == *"margin hidden"* ]] || fail "a hidden margin is not said"
[[ $(screen | tail -1) == "margin hidden below 70 columns; codes are under each turn" ]] || fail "no notice of the hidden margin"
keys j; keys S; wait_for "segments coded"
n=$(q query --code COM.1 --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["segments"]))')
[[ $(screen | head -1) == *"…"*"($n)" ]] || fail "the S title lost its count ($n): $(screen | head -1)"
keys q; wait_for "? help"
stop

# 8. SIGTERM with unsaved work: the next session offers it back; a save removes the recovery file.
start 80x24 TERM=vt100 transcripts/C02.md
keys j; keys c; wait_for "filter"; keys -l TOOL.1; keys Enter; wait_for "added TOOL.1 to t2"
rec=$ws/.qualrank-recover/C02.eli.json base=$ws/.qualrank-recover/C02.eli.base
[[ -s $rec ]] || fail "no recovery file after an edit"
cp "$ws/transcripts/C02.md" "$tmp/C02.before"
kill -TERM "$(cat "$tmp/pid")"
sleep 0.5
cmp -s "$ws/transcripts/C02.md" "$tmp/C02.before" || fail "SIGTERM wrote the transcript"
[[ -s $rec ]] || fail "SIGTERM lost the recovery file"
start 80x24 TERM=vt100 transcripts/C02.md 2>/dev/null || true
wait_for "recover the unsaved changes of 20"
keys y; wait_for "recovered the unsaved changes of"
[[ $(screen) == *"[modified]"* ]] || fail "recovered changes not shown as unsaved"
keys w; wait_for "saved transcripts/C02.md"
[[ ! -e $rec && ! -e $base && ! -e $ws/.qualrank-recover ]] || fail "the recovery file stayed after a save"
grep -qxF "@code TOOL.1" "$ws/transcripts/C02.md" || fail "recovered change not saved: $(sed -n 17,22p "$ws/transcripts/C02.md")"
stop

# 9. A reload after a change on the same line names the memo it could not re-apply, with its text.
start 80x24 TERM=vt100 transcripts/C02.md
keys j; keys j; wait_for "> t3 C02"
keys m; wait_for "memo for COM.2:"
keys -l "late calls"; keys Enter; wait_for "memo of COM.2 in t3"
sed -i 's/at midnight my time/at 11 pm my time/' "$ws/transcripts/C02.md"
keys w; wait_for "changed on disk since read: reload it"; keys y
wait_for "reloaded from disk, re-applied 0 change(s); NOT re-applied (kept; u shows, r re-"
keys :; wait_for "messages, oldest first"
[[ $(screen | tr -s ' \n' '  ') == *'NOT re-applied (kept; u shows, r re-applies): t3 "call with the client" COM.2: your memo "late calls"; the undo history is cleared'* ]] ||
  fail "the memo not re-applied is not named"
keys q; wait_for "? help"
stop
grep -qxF "C02: A weekly [call with the client]{COM.2}, at 11 pm my time. [Zeitzonen sind mein Alltag]{COM.3}." "$ws/transcripts/C02.md" ||
  fail "the other change was not kept: $(grep '^C02: A weekly' "$ws/transcripts/C02.md")"
echo "ok: the terminal coder's edges"
