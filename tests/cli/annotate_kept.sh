#!/usr/bin/env bash
# annotate keeps what it cannot re-apply (issue #37 item 3), driven in tmux on a copy of the fieldwork study:
# a coding with its memo, both unsaved, on lines another program changed: after `w` then `y` the message names
# the memo's text, the recovery file keeps it, `u` shows it and `r` applies it again, across a SIGTERM too;
# changes recovered after a SIGTERM are one undo step (`u` takes them off, `r` puts them back).
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 77; }
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d)
source "$(dirname "${BASH_SOURCE[0]}")/lib/tmux.sh"  # sock, screen, wait_for, wait_gone, keys, fail
ws=$tmp/ws
mkdir -p "$ws"
cp -r "$FIXTURES"/fieldwork/{codebooks,guidelines,transcripts} "$ws"/
start() {
  rm -f "$tmp/pid"
  new_server
  tmux -L "$sock" -u new-session -d -s qr -x 80 -y 24 \
    "cd '$ws' && echo \$\$ >'$tmp/pid' && exec env TERM=vt100 '$QUALRANK' annotate $*"
  wait_for "? help"
}
term() {  # SIGTERM, as a closed terminal or a kill
  kill -TERM "$(cat "$tmp/pid")"
  local deadline=$((SECONDS + 10))
  while tmux -L "$sock" has-session -t qr 2>/dev/null; do
    ((SECONDS < deadline)) || fail "annotate did not end on SIGTERM"
    sleep 0.05
  done
}
C02=$ws/transcripts/C02.md rec=$ws/.qualrank-recover/C02.eli.json

# 1. The word "weekly" of t3 coded, with a memo; another program rewrites that line meanwhile.
start transcripts/C02.md
keys j; keys j; wait_for "> t3 C02"
keys v; keys l
keys c; wait_for "filter"; keys -l TOOL.1; keys Enter; wait_for "added TOOL.1 to"
keys m; wait_for "memo for TOOL.1:"
keys -l "sheet fears"; keys Enter; wait_for "memo of TOOL.1"
sed -i 's/at midnight my time/at 11 pm my time/' "$C02"
cp "$C02" "$tmp/theirs"
keys w; wait_for "changed on disk since read: reload it"; keys y
wait_for "NOT re-applied (kept; u shows, r re-"
keys :; wait_for "messages, oldest first"
[[ $(screen | tr -d '\n' | tr -s ' ') == *'t3 "weekly" TOOL.1: your addition with its memo "sheet fears"'* ]] ||
  fail "the memo's text is not in the message"
keys q; wait_for "? help"
cmp -s "$tmp/theirs" "$C02" || fail "a failed re-apply wrote the file"
[[ -s $rec ]] && grep -qF '"memo": "sheet fears"' "$rec" || fail "the recovery file does not keep the memo: $(cat "$rec" 2>/dev/null)"

# 2. Killed now: the next session offers it back, on its undo stack; u shows it, r applies it, w saves.
term
start transcripts/C02.md
wait_for "recover the unsaved changes of 20"
keys y; wait_for "recovered the unsaved changes of"
keys u; wait_for "undone: nothing to take back, this change was NOT re-applied at the reload"
keys r; wait_for "redone: applied again: t3 \"weekly\" TOOL.1"
keys w; wait_for "saved transcripts/C02.md"
grep -qxF "C02: A [weekly]{TOOL.1 | memo: sheet fears} [call with the client]{COM.2}, at 11 pm my time. [Zeitzonen sind mein Alltag]{COM.3}." "$C02" ||
  fail "the kept change or theirs is missing: $(grep '^C02: A' "$C02")"
[[ ! -e $rec ]] || fail "the recovery file stayed once everything was saved"

# 3. Changes recovered after a kill are one undo step.
keys j; wait_for "> t4 C02"
keys c; wait_for "filter"; keys -l TOOL.2; keys Enter; wait_for "added TOOL.2 to t4"
cp "$C02" "$tmp/saved"
term
start transcripts/C02.md
wait_for "recover the unsaved changes of 20"
keys y; wait_for "recovered the unsaved changes of"
[[ $(screen) == *"[modified]"* ]] || fail "recovered changes not shown as unsaved"
keys u; wait_for "undone: the recovered unsaved changes of"
wait_gone "[modified]"
keys r; wait_for "redone: the recovered unsaved changes of"
wait_for "[modified]"
keys u; wait_for "undone: the recovered unsaved changes of"
keys q; sleep 0.3
cmp -s "$tmp/saved" "$C02" || fail "undoing the recovered changes wrote the file"
echo "ok: annotate keeps what it cannot re-apply"
