#!/usr/bin/env bash
# Ctrl-Z suspends the terminal screens as a shell job and `fg` brings them back redrawn (#37 item 12): annotate
# and its node picker, in a real interactive bash in tmux. (The labeller reads its keys through the same
# tui::read_key.) Nothing is written by the suspension.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d)
source "$(dirname "${BASH_SOURCE[0]}")/lib/tmux.sh"  # fail, and the terminal's: sock, screen, wait_for, keys
ws="$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$ws"
before=$(sha256sum "$ws/transcripts/E01.md")
tmux -L "$sock" -u new-session -d -s qr -x 80 -y 24 "env -i HOME=/nonexistent HISTFILE=/dev/null TERM=xterm-256color LANG=C.UTF-8 PS1='shell> ' bash --norc --noprofile -i"
wait_for "shell>"
keys "cd '$ws' && '$QUALRANK' annotate E01.md" Enter
wait_for "How many years have you worked remotely?"
keys C-z
wait_for "Stopped"
[[ $(screen) != *"(interviewer)"* ]] || fail "the screen was not left on Ctrl-Z"
keys "fg" Enter
wait_for "(interviewer): How many years have you worked remotely?"
# In the node picker too.
keys c
wait_for "filter (id, name or alias)"
keys C-z
wait_for "Stopped"
keys "fg" Enter
wait_for "filter (id, name or alias)"
keys Escape
wait_for "(interviewer)"
sleep 0.2
keys q
sleep 0.3
[[ $(screen) == *"shell>"* ]] || keys y
wait_for "shell>"
[[ $(sha256sum "$ws/transcripts/E01.md") == "$before" ]] || fail "the suspension wrote the transcript"
keys "exit" Enter   # the shell ends before the cleanup removes $tmp (it wrote nothing there)
sleep 0.3
echo "ok: tui_suspend"
