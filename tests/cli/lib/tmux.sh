# Sourced by the tests that drive the terminal coder in tmux (annotate*.sh, no_lost_update.sh), after they set
# `tmp`: a private tmux server (-L, never the default one, which another program may own or kill) and the
# session `qr` on it; on exit the server is killed and $tmp removed.
#   screen             the visible screen
#   wait_for TEXT [S]  until the screen shows TEXT (S seconds, 10 by default), else fail
#   wait_gone TEXT [S] until it no longer does
#   keys KEY...        tmux send-keys to the session
#   fail MESSAGE       prints it and the screen, exits 1
#   new_server         ends the server (if any) and moves to a new one for the next new-session: a socket is
#                      never reused, since a client that meets a server still exiting on it fails ("server
#                      exited unexpectedly"); call it before any new-session that may follow another
servers=0
sock=qr-$(basename "$0" .sh)-$$-0
new_server() { tmux -L "$sock" kill-server 2>/dev/null || true; sock=qr-$(basename "$0" .sh)-$$-$((++servers)); }
cleanup() {
  local k
  for ((k = 0; k <= servers; ++k)); do tmux -L "qr-$(basename "$0" .sh)-$$-$k" kill-server 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- screen:"; screen || true; exit 1; }
screen() { tmux -L "$sock" capture-pane -p -t qr 2>/dev/null; }
wait_for() {
  local deadline=$((SECONDS + ${2:-10}))
  while ((SECONDS < deadline)); do
    [[ $(screen) == *"$1"* ]] && return 0
    sleep 0.05
  done
  fail "timed out waiting for '$1'"
}
wait_gone() {
  local deadline=$((SECONDS + ${2:-10}))
  while ((SECONDS < deadline)); do
    [[ $(screen) == *"$1"* ]] || return 0
    sleep 0.05
  done
  fail "'$1' is still on the screen"
}
keys() { tmux -L "$sock" send-keys -t qr "$@"; }
