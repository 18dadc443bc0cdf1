#!/usr/bin/env bash
# Completion never plants a command (trust round four, #37.1): a workspace whose node names hold backticks,
# $(...), quotes, ';', '!', globs, backslashes and a line break is completed in real interactive bash
# (bash-completion loaded), zsh (compinit) and fish, each in tmux: the test types the start of a value,
# unquoted and after each kind of opening quote, presses Tab, reads the line from the screen, presses Enter,
# and checks the words the command received (a stand-in `qualrank` on PATH records them; `__complete` goes to
# the real binary) and that no file was created by anything in a name.
set -euo pipefail
: "${QUALRANK:?}"
tmp=$(mktemp -d)
source "$(dirname "$0")/lib/tmux.sh"
command -v tmux >/dev/null || { echo "tmux is not installed"; exit 77; }
[[ -f /usr/share/bash-completion/bash_completion ]] || { echo "bash-completion is not installed"; exit 77; }

ws=$tmp/ws
"$QUALRANK" init "$ws" --roles alpha,beta --taxonomy t >/dev/null 2>&1
# Each hostile name gets its own first letters, so that typing them selects it alone.
cat >>"$ws/codebooks/t.yaml" <<'EOF'
      - id: HE.3
        name: 'Tick `touch pwned-tick` end'
        definition: A name with a command in backticks.
      - id: HE.4
        name: 'Quote''; touch pwned-quote; echo '''
        definition: A name that closes a single quote.
      - id: HE.5
        name: 'Dquote"; touch pwned-dq; echo "'
        definition: A name that closes a double quote.
      - id: HE.6
        name: 'Dollar $(touch pwned-dollar) and ${HOME}'
        definition: A name with a command substitution and a parameter.
      - id: HE.7
        name: 'Bang !! and !-1 done'
        definition: A name with history expansions.
      - id: HE.8
        name: 'Star * and ? [ab]'
        definition: A name with glob characters.
      - id: HE.9
        name: 'Back \ slash \\ end'
        definition: A name with backslashes.
EOF
"$QUALRANK" -C "$ws" validate >/dev/null 2>&1 || { "$QUALRANK" -C "$ws" validate; fail "the hostile workspace is not valid"; }

# The stand-in: completion asks the real binary; running the command records its words, NUL-separated.
mkdir "$tmp/bin"
cat >"$tmp/bin/qualrank" <<EOF
#!/bin/bash
[[ \${1-} == __complete ]] && exec "$QUALRANK" "\$@"
printf '%s\0' "\$@" >"$tmp/args"
echo RAN-OK
EOF
chmod +x "$tmp/bin/qualrank"
"$QUALRANK" completion bash >"$tmp/qualrank.bash"
"$QUALRANK" completion zsh >"$tmp/_qualrank"
"$QUALRANK" completion fish >"$tmp/qualrank.fish"

# start SHELL: a fresh interactive shell in the workspace, completion loaded, prompt "READY> " (no history
# file: nothing is written under $tmp after the test).
start() {
  new_server
  local envs=(env -i HOME="$tmp" PATH="$tmp/bin:/usr/bin:/bin" TERM=xterm LANG=C.UTF-8 LC_ALL=C.UTF-8 HISTFILE=/dev/null)
  case $1 in
    bash) tmux -L "$sock" -u new-session -d -x 200 -y 30 -s qr -c "$ws" "${envs[@]}" bash --norc --noprofile -i
          keys "source /usr/share/bash-completion/bash_completion; source $tmp/qualrank.bash; PS1='READY> '" Enter ;;
    zsh) mkdir -p "$tmp/zfunc"; cp "$tmp/_qualrank" "$tmp/zfunc/_qualrank"
         tmux -L "$sock" -u new-session -d -x 200 -y 30 -s qr -c "$ws" "${envs[@]}" zsh -f -i
         keys "fpath=($tmp/zfunc \$fpath); autoload -Uz compinit; compinit -u -D; PS1='READY> '" Enter ;;
    fish) tmux -L "$sock" -u new-session -d -x 200 -y 30 -s qr -c "$ws" "${envs[@]}" fish --no-config --private -i
          keys "source $tmp/qualrank.fish; function fish_prompt; echo -n 'READY> '; end; function fish_greeting; end" Enter ;;
  esac
  keys clear Enter
  wait_for 'READY>' 10
}

# try SHELL TYPED WANT: type "qualrank query --code TYPED", Tab, Enter; the command must receive exactly
# query, --code, WANT, and nothing in the workspace may have been created.
try() {
  local shell=$1 typed=$2 want=$3
  rm -f "$tmp/args"
  keys C-u clear Enter
  wait_for 'READY>'
  keys -l "qualrank query --code $typed"
  sleep 0.3
  keys Tab
  sleep 0.8
  local line; line=$(screen | grep 'READY> qualrank' | tail -1)
  keys Enter
  local deadline=$((SECONDS + 5))
  while [[ ! -f $tmp/args ]] && ((SECONDS < deadline)); do sleep 0.05; done
  sleep 0.2
  [[ -f $tmp/args ]] || fail "$shell: typed [$typed], Tab gave [$line]; the command did not run"
  local got; got=$(tr '\0' '\n' <"$tmp/args")
  [[ "$got" == $'query\n--code\n'"$want" ]] || fail "$shell: typed [$typed], Tab gave [$line], the command received [$got], want [$want]"
  local planted; planted=$(cd "$ws" && ls -d pwned-* 2>/dev/null || true)
  [[ -z $planted ]] || fail "$shell: typed [$typed], Tab gave [$line]: a name's command ran and created $planted"
}

tick='Tick `touch pwned-tick` end'
quote="Quote'; touch pwned-quote; echo '"
dq='Dquote"; touch pwned-dq; echo "'
dollar='Dollar $(touch pwned-dollar) and ${HOME}'
bang='Bang !! and !-1 done'
star='Star * and ? [ab]'
back='Back \ slash \\ end'

for shell in bash zsh fish; do
  command -v "$shell" >/dev/null || { echo "skip: $shell is not installed"; continue; }
  start "$shell"
  for name in "$tick" "$quote" "$dq" "$dollar" "$bang" "$star" "$back"; do
    first=${name:0:3}
    try "$shell" "$first" "$name"       # unquoted
    try "$shell" "\"$first" "$name"     # after an opening double quote
    try "$shell" "'$first" "$name"      # after an opening single quote
    [[ $shell == bash ]] && try bash "\$'$first" "$name"   # bash's ANSI-C quoting
  done
  echo "ok: $shell"
done
echo "ok: completion_hostile"
