#!/usr/bin/env bash
# qualrank completion: a real bash (bash-completion loaded) runs the generated script's _qualrank with
# COMP_WORDS/COMP_CWORD set and the built binary on PATH; the candidates are compared exactly. Values come from
# the fieldwork fixture (named with -C, or found upward from a folder inside it). fish runs its script through
# `complete -C`; zsh's is syntax-checked (zsh -n). The hidden __complete is silent and exits 0 on any problem.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
[[ -f /usr/share/bash-completion/bash_completion ]] || { echo "bash-completion is not installed"; exit 77; }

ws=$FIXTURES/fieldwork
mkdir "$tmp/bin"; ln -s "$QUALRANK" "$tmp/bin/qualrank"
"$QUALRANK" completion bash >"$tmp/qualrank.bash"
cat >"$tmp/drive.sh" <<'DRIVE'
source /usr/share/bash-completion/bash_completion
source "$1"; shift
COMP_WORDS=(qualrank "$@"); COMP_CWORD=$#
COMP_LINE="qualrank $*"; COMP_POINT=${#COMP_LINE}
_qualrank
printf '%s\n' "${COMPREPLY[@]}"
DRIVE
# candidates WORD...: what bash offers for "qualrank WORD..." with the cursor at the end of the last word.
candidates() { PATH="$tmp/bin:$PATH" bash --norc --noprofile "$tmp/drive.sh" "$tmp/qualrank.bash" "$@"; }
expect() {
  local want=$1; shift
  local got; got=$(candidates "$@")
  [[ "$got" == "$want" ]] || fail "qualrank $* <TAB>: got [$got], want [$want]"
}

# commands and subcommands, from the command table
expect $'code\ncodebook\ncorpus\ncompletion' co
expect $'show\nlog\npropose\naccept\nreject\ndiff\nexport' -C "$ws" taxonomy ''
expect $'add\nremove\nexemplar' -C "$ws" code ''
expect $'import\nkeywords\nretrieve\nscreen\nsample\nlabel\nlabels\nreconcile\ntable' -C "$ws" corpus ''
expect $'label\nlabels' -C "$ws" corpus lab
expect '--doc' -C "$ws" corpus label --sample pilot --coder eve --do   # a subcommand's options; one given is not offered again
expect 'verify' package v
expect 'import' participants ''
expect $'--verbose\n--version' --v
# options of a command and a subcommand; one given already is not offered again, a repeatable one is
expect $'--at\n--help' -C "$ws" validate --
expect $'--turn\n--line\n--occurrence\n--node\n--coder\n--memo\n--help' -C "$ws" code add --transcript E01.md --span x --node A --
expect $'--transcript\n--turn' -C "$ws" code remove --t
# taxonomy node ids and names at the latest version (COM.1.b was merged into COM.1 in version 2)
expect $'COM\nCOM.1\nCOM.1.a\nCOM.2\nCOM.3' -C "$ws" code add --node COM
expect $'TOOL.2\nTOOL.2.a' -C "$ws" query --code TOOL.2
expect $'COM.1,WELL\nCOM.1,WELL.1\nCOM.1,WELL.2\nCOM.1,Wellbeing' -C "$ws" query --any-code COM.1,W
expect 'Asynchronous\ updates' -C "$ws" code add --node As
expect 'Asynchronous updates' -C "$ws" code add --node '"As'
expect 'Asynchronous updates' -C "$ws" code add --node "'As"
expect 'Asynchronous\ updates' -C "$ws" code add --node 'Asynchronous\ up'   # a typed escape is read as the shell reads it
expect '' -C "$ws" code add --node 'As"yn'        # a quote opened inside the word: nothing offered
expect '' -C "$ws" code add --node '"As"yn'       # a quote already closed: likewise
expect '' -C "$ws" code add --node '"As$(x)'      # an expansion typed in a quoted word: likewise
# transcripts after --transcript and as annotate's and reconcile's words
expect $'E01.md\nE02.md' -C "$ws" code add --transcript E
expect $'C01.md\nC02.md\nE01.md\nE02.md\nM01.md\nM02.md' -C "$ws" annotate ''
expect $'M01.md\nM02.md' -C "$ws" reconcile C01.md M
# coders: the transcripts' own, the second coders' .codes files, and consensus/all where the option takes them
expect $'carol\ndana\neli\nconsensus\nall' -C "$ws" report --coder ''
expect $'carol\ndana\neli\nconsensus\nall' -C "$ws" query --coder ''   # query takes consensus and all as every command does
# guideline questions and parts, roles, formats, versions
expect $'IV.1\nIV' -C "$ws" query --question IV
expect $'III.1\nIII.R' -C "$ws" rank --question III.
expect $'manager\nemployee\ncontractor' -C "$ws" new-transcript --role ''
expect $'json\ncsv\ntable' -C "$ws" code --format ''
expect $'tree\njson' -C "$ws" taxonomy show --format ''
expect 'md' -C "$ws" guide --format m
expect 'json' -C "$ws" code --format = j
expect $'1\n2\nafter\\ coding\\ round\\ 1' -C "$ws" taxonomy diff ''
expect $'move\nmerge' -C "$ws" taxonomy propose --op m
# no -C: the workspace is found upward from the current folder
got=$(cd "$ws/transcripts" && candidates guide --role c) || true
[[ "$got" == contractor ]] || fail "workspace found upward: got [$got]"
# -C with "..": the folder it names
got=$(cd "$ws/transcripts" && candidates -C .. guide --role m) || true
[[ "$got" == manager ]] || fail "-C ..: got [$got]"
# -C given as --workspace=DIR
expect 'WELL.2' --workspace="$ws" code remove --node WELL.2
# file and folder values fall back to the shell's file names
mkdir "$tmp/out"; touch "$tmp/out/labels.csv"
expect "$tmp/out/labels.csv" -C "$ws" agreement --labels "$tmp/out/la"
expect "$tmp/out" -C "$tmp/ou"
# values of nothing completable: no candidates
expect '' -C "$ws" rank --seed ''

# the hidden helper: VALUE<TAB>DESCRIPTION lines and a directive; silent, exit 0, on a missing workspace
out=$("$QUALRANK" __complete -C "$ws" code add --node WELL.)
[[ "$out" == $'WELL.1\tIsolation\nWELL.2\tBoundaries\n:0' ]] || fail "__complete output: [$out]"
set +e
out=$("$QUALRANK" __complete -C "$tmp/nowhere" code add --node '' 2>"$tmp/err"); rc=$?
set -e
[[ $rc == 0 && "$out" == ':0' && ! -s "$tmp/err" ]] || fail "no workspace: rc=$rc out=[$out] err=[$(cat "$tmp/err")]"
out=$("$QUALRANK" __complete nosuchcommand --x '' 2>"$tmp/err")
[[ -z "$out" && ! -s "$tmp/err" ]] || fail "unknown command: out=[$out]"
# fast: the node list of the bundled study in well under 100 ms of CPU (taxonomy and guideline only)
if [[ -n "${SOURCE_DIR:-}" && -x /usr/bin/time ]]; then
  cpu=$(/usr/bin/time -f '%U %S' "$QUALRANK" __complete -C "$SOURCE_DIR" code add --node '' 2>&1 >"$tmp/nodes" | awk '{ print ($1 + $2) * 1000 }')
  [[ $(grep -c . "$tmp/nodes") -gt 100 ]] || fail "bundled study: $(wc -l <"$tmp/nodes") node candidates"
  (( ${cpu%.*} < 100 )) || fail "__complete --node took $cpu ms of CPU"
fi
# hidden: never listed, and help does not offer it
"$QUALRANK" help | grep_q '__complete' && fail "qualrank help lists __complete"
"$QUALRANK" help | grep_q '^  completion ' || fail "qualrank help does not list completion"
expect 'completion' help comp

# the completion command itself
"$QUALRANK" completion bash | cmp -s - "$tmp/qualrank.bash" || fail "completion bash is not reproducible"
set +e
"$QUALRANK" completion tcsh >/dev/null 2>"$tmp/err"; rc=$?
set -e
[[ $rc == 2 ]] || fail "completion tcsh: exit $rc, want 2"
[[ "$(cat "$tmp/err")" == "qualrank completion: error: unknown shell 'tcsh' (bash, zsh or fish)" ]] || fail "tcsh message: $(cat "$tmp/err")"
bash -n "$tmp/qualrank.bash" || fail "bash -n"

# zsh: the script parses, and turns the helper's lines into _describe's VALUE:DESCRIPTION and its file
# directive into _files (compsys's functions stubbed to print what they are given)
if command -v zsh >/dev/null; then
  "$QUALRANK" completion zsh >"$tmp/_qualrank"
  zsh -n "$tmp/_qualrank" || fail "zsh -n"
  zsh_complete() {  # CURRENT WORD...
    PATH="$tmp/bin:$PATH" zsh -f -c 'compdef() { :; }; source "$1"; shift
      _describe() { print -rl -- "${(@P)${@[-1]}}"; }; _files() { print -r -- "_files $*"; }
      CURRENT=$1; shift; words=("$@"); _qualrank' _ "$tmp/_qualrank" "$@"
  }
  got=$(zsh_complete 7 qualrank -C "$ws" code add --node WELL.)
  [[ "$got" == $'WELL.1:Isolation\nWELL.2:Boundaries' ]] || fail "zsh --node: [$got]"
  got=$(zsh_complete 6 qualrank -C "$ws" report --output '')
  [[ "$got" == '_files ' ]] || fail "zsh -o: [$got]"
  got=$(zsh_complete 3 qualrank -C '')
  [[ "$got" == '_files -/' ]] || fail "zsh -C: [$got]"
fi
# fish: the script parses, and fish's own completer (complete -C) offers the helper's candidates
if command -v fish >/dev/null; then
  "$QUALRANK" completion fish >"$tmp/qualrank.fish"
  fish -n "$tmp/qualrank.fish" || fail "fish -n"
  got=$(PATH="$tmp/bin:$PATH" HOME="$tmp" fish --no-config -c "source $tmp/qualrank.fish; complete -C 'qualrank -C $ws code add --node WELL.'")
  [[ "$got" == $'WELL.1\tIsolation\nWELL.2\tBoundaries' ]] || fail "fish --node: [$got]"
  got=$(PATH="$tmp/bin:$PATH" HOME="$tmp" fish --no-config -c "source $tmp/qualrank.fish; complete -C 'qualrank -C $ws taxonomy '" | cut -f1 | tr '\n' ' ')
  [[ "$got" == 'accept diff export log propose reject show ' ]] || fail "fish taxonomy subcommands: [$got]"
fi
echo "ok: completion"
