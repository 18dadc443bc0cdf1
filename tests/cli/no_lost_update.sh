#!/usr/bin/env bash
# No lost update: concurrent `code add` on one transcript (the inline coder's markup and a second coder's
# .codes file) all land; `annotate` never overwrites a change made on disk while it was open (it offers to
# reload and re-apply, and lists what it cannot re-apply); Ctrl-C asks like `q`. On the fieldwork study.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 77; }
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d)
source "$(dirname "${BASH_SOURCE[0]}")/lib/tmux.sh"  # sock, screen, wait_for, wait_gone, keys, fail
ws=$tmp/ws
mkdir -p "$ws"
cp -r "$FIXTURES"/fieldwork/{codebooks,guidelines,transcripts} "$ws"/
q() { "$QUALRANK" -C "$ws" "$@"; }
cp "$ws/transcripts/C01.md" "$tmp/C01.orig"

# 1. 50 pairs of `code add` started together (every other pair 0-6 ms apart), alternately by the transcript's
#    own coder (inline markup) and by a second coder (C01.dana.codes): both exit 0 and both codings are there.
for i in $(seq 1 50); do
  coder=(); [[ $((i % 2)) == 0 ]] && coder=(--coder dana)
  delay=0; [[ $((i % 4)) -ge 2 ]] && delay=0.00$((i % 7))
  q code add --transcript C01.md --turn 3 --node COM.3 "${coder[@]}" >"$tmp/a.out" 2>&1 & pa=$!
  sleep "$delay"
  q code add --transcript C01.md --turn 6 --node TOOL.1 "${coder[@]}" >"$tmp/b.out" 2>&1 & pb=$!
  wait $pa || fail "pair $i: the first add failed: $(cat "$tmp/a.out")"
  wait $pb || fail "pair $i: the second add failed: $(cat "$tmp/b.out")"
  grep -q "added COM.3 to t3" "$tmp/a.out" || fail "pair $i: $(cat "$tmp/a.out")"
  grep -q "added TOOL.1 to t6" "$tmp/b.out" || fail "pair $i: $(cat "$tmp/b.out")"
  if [[ ${#coder[@]} == 0 ]]; then
    [[ $(grep -c '^@code COM.3$' "$ws/transcripts/C01.md") == 1 && $(grep -c '^@code TOOL.1$' "$ws/transcripts/C01.md") == 1 ]] ||
      fail "pair $i: a coding was lost: $(diff "$tmp/C01.orig" "$ws/transcripts/C01.md")"
  else
    [[ $(sort "$ws/transcripts/C01.dana.codes") == $'t3: COM.3\nt6: TOOL.1' ]] ||
      fail "pair $i: a coding was lost from the .codes file: $(cat "$ws/transcripts/C01.dana.codes")"
  fi
  q code remove --transcript C01.md --turn 3 --node COM.3 "${coder[@]}" 2>/dev/null || fail "pair $i: remove"
  q code remove --transcript C01.md --turn 6 --node TOOL.1 "${coder[@]}" 2>/dev/null || fail "pair $i: remove"
  cmp -s "$tmp/C01.orig" "$ws/transcripts/C01.md" || fail "pair $i: not restored"
  [[ ! -e $ws/transcripts/C01.dana.codes ]] || fail "pair $i: the emptied .codes file is left"
done
[[ -f $ws/.qualrank.lock ]] || fail "no workspace lock file"

# 2. A lock file that is a symlink is never followed: the command refuses and creates nothing.
mv "$ws/.qualrank.lock" "$tmp/lock.bak"
ln -s "$tmp/outside.lock" "$ws/.qualrank.lock"
if q code add --transcript C01.md --turn 3 --node COM.3 2>"$tmp/err"; then fail "a symlinked lock was followed"; fi
grep -qxF "qualrank code add: error: .qualrank.lock is a symlink; remove it (qualrank never follows it)" "$tmp/err" || fail "symlink lock: $(cat "$tmp/err")"
[[ ! -e $tmp/outside.lock ]] || fail "the symlink's target was created"
cmp -s "$tmp/C01.orig" "$ws/transcripts/C01.md" || fail "written through a refused lock"
rm "$ws/.qualrank.lock"; mv "$tmp/lock.bak" "$ws/.qualrank.lock"

# 3. annotate against external edits, 10 races: annotate codes t2 of C01 (unsaved), something else changes the
#    file on disk, then 'w'.
start() {
  rm -f "$tmp/rc"
  new_server
  tmux -L "$sock" -u new-session -d -s qr -x 120 -y 30 "cd '$ws' && '$QUALRANK' annotate $*; echo \$? >'$tmp/rc'"
  wait_for "? help"
}
wait_exit() {
  local deadline=$((SECONDS + 10))
  while ((SECONDS < deadline)); do [[ -s $tmp/rc ]] && return 0; sleep 0.05; done
  fail "annotate did not exit"
}
# code_t2 NODE [span]: in annotate, go to t2 and apply NODE through the picker to the whole turn, or with
# "span" to its second word ("get").
code_t2() {
  keys j; wait_for "> t2"
  [[ ${2:-} == span ]] && { keys v; sleep 0.1; keys l; sleep 0.1; }
  keys c; wait_for "filter (id, name or alias)"
  keys -l "$1"; keys Enter
  wait_for "added $1 to t2"
}
for race in $(seq 1 10); do
  cp "$tmp/C01.orig" "$ws/transcripts/C01.md"
  start transcripts/C01.md
  case $((race % 5)) in
    0) # another qualrank command codes another turn: reload, re-apply, save; both codings kept
      code_t2 TOOL.3
      q code add --transcript C01.md --turn 6 --node WELL.2 2>/dev/null || fail "race $race: external code add"
      keys w; wait_for "changed on disk since read: reload it and re-apply"
      keys y; wait_for "reloaded from disk, re-applied 1 change(s); saved"
      grep -qxF "@code WELL.2" "$ws/transcripts/C01.md" || fail "race $race: the other command's coding was lost"
      awk '/^C01: I get a/{f=1} f&&/^@code TOOL.3$/{ok=1} /^## II.2/{f=0} END{exit !ok}' "$ws/transcripts/C01.md" ||
        fail "race $race: annotate's coding is not after t2: $(diff "$tmp/C01.orig" "$ws/transcripts/C01.md")" ;;
    1) # the other writer applied the very same coding: nothing to re-apply, nothing written twice
      code_t2 TOOL.3
      q code add --transcript C01.md --turn 2 --node TOOL.3 2>/dev/null || fail "race $race: external code add"
      cp "$ws/transcripts/C01.md" "$tmp/theirs"
      keys w; wait_for "changed on disk since read"
      keys y; wait_for "reloaded from disk: it already has your changes, nothing to save"
      cmp -s "$tmp/theirs" "$ws/transcripts/C01.md" || fail "race $race: the file was written again"
      [[ $(grep -c '^@code TOOL.3$' "$ws/transcripts/C01.md") == 1 ]] || fail "race $race: TOOL.3 twice" ;;
    2) # an editor changes another line (sed): kept, and annotate's coding re-applied
      code_t2 TOOL.3
      sed -i 's/before that an office job/before that an office job in Recife/' "$ws/transcripts/C01.md"
      keys w; wait_for "changed on disk since read"
      keys y; wait_for "; saved"
      grep -qF "office job in Recife" "$ws/transcripts/C01.md" || fail "race $race: the editor's change was lost"
      [[ $(grep -c '^@code TOOL.3$' "$ws/transcripts/C01.md") == 1 ]] || fail "race $race: annotate's coding was lost" ;;
    3) # the same line changed on disk (annotate coded a word of t2, the editor rewrote t2): annotate cannot
       # re-apply that coding, lists it, and writes nothing
      code_t2 TOOL.3 span
      sed -i 's/efficient but lonely/efficient but very lonely/' "$ws/transcripts/C01.md"
      cp "$ws/transcripts/C01.md" "$tmp/theirs"
      keys w; wait_for "changed on disk since read"
      keys y; wait_for "NOT re-applied"
      [[ $(screen) == *'reloaded from disk, re-applied 0 change(s); NOT re-applied (kept; u shows, r re-applies): t2 "get" TOOL.3: your addition'* ]] ||
        fail "race $race: the message does not list the coding not re-applied"
      cmp -s "$tmp/theirs" "$ws/transcripts/C01.md" || fail "race $race: a failed re-apply wrote the file" ;;
    4) # the user declines: nothing written, the other change intact, the edit still unsaved
      code_t2 TOOL.3
      q code add --transcript C01.md --turn 4 --node TOOL.1 2>/dev/null || fail "race $race: external code add"
      cp "$ws/transcripts/C01.md" "$tmp/theirs"
      keys w; wait_for "changed on disk since read"
      keys n; wait_for "not saved: transcripts/C01.md changed on disk since read"
      cmp -s "$tmp/theirs" "$ws/transcripts/C01.md" || fail "race $race: declining still wrote the file" ;;
  esac
  # Ctrl-C asks like q when something is unsaved; 'n' stays, then Ctrl-C and 'y' quit.
  if [[ $((race % 5)) == 4 ]]; then
    keys C-c; wait_for "unsaved changes: quit without saving? (y/n)"
    keys n; wait_for "not quitting"
    [[ ! -s $tmp/rc ]] || fail "race $race: Ctrl-C quit without asking"
    keys C-c; wait_for "quit without saving"; keys y
  elif [[ $((race % 5)) == 3 ]]; then  # the change not re-applied is kept: Ctrl-C asks before dropping it
    keys C-c; wait_for "1 change(s) not re-applied are kept"; keys y
  else
    keys C-c
  fi
  wait_exit
  [[ $(cat "$tmp/rc") == 0 ]] || fail "race $race: annotate exit $(cat "$tmp/rc")"
  q validate >/dev/null 2>&1 || fail "race $race: the workspace no longer validates: $(q validate 2>&1 | head -5)"
done

# 4. The CLI refuses when the file changes between its read and its write (an editor ignores the lock): the
#    library test (model_coding_edit) covers that moment; here a writer holding the lock makes code add wait.
cp "$tmp/C01.orig" "$ws/transcripts/C01.md"
( flock 9; sleep 0.5; printf '\n' >>"$ws/transcripts/C01.md" ) 9>"$ws/.qualrank.lock" &
sleep 0.1
start_ns=$(date +%s%N)
q code add --transcript C01.md --turn 3 --node COM.3 2>/dev/null || fail "code add after waiting for the lock"
waited=$(( ($(date +%s%N) - start_ns) / 1000000 ))
wait
((waited >= 300)) || fail "code add did not wait for the lock (${waited} ms)"
[[ $(tail -c 1 "$ws/transcripts/C01.md" | od -An -c | tr -d ' ') == '\n' ]] || fail "the lock holder's change"
grep -qxF "@code COM.3" "$ws/transcripts/C01.md" || fail "the waiting add did not land"
echo "ok: no lost update (50 code add pairs, 10 annotate races)"
