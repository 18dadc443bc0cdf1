#!/usr/bin/env bash
# `--help` and `-h` of every command and every subcommand print the usage on stdout and exit 0 anywhere: in an
# empty folder (no workspace here or above), and with -C naming a folder that does not exist. The commands are
# the table `qualrank --help` prints; the subcommands are those each command's --help names (its
# "subcommands:" list, or its usage lines "usage: qualrank CMD WORD ..." and those under it), one level further for a subcommand that has
# its own (corpus keywords import, corpus labels export). `qualrank help CMD SUB` is `CMD SUB --help`.
set -euo pipefail
: "${QUALRANK:?}"
QUALRANK=$(cd "$(dirname "$QUALRANK")" && pwd)/$(basename "$QUALRANK")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$tmp/empty"
cd "$tmp/empty"
# No workspace above the temp folder either (a TMPDIR inside a workspace would hide the bug).
d=$PWD
while [[ "$d" != / ]]; do [[ ! -d "$d/codebooks" ]] || { echo "SKIP: $d is a workspace"; exit 77; }; d=$(dirname "$d"); done

commands=$("$QUALRANK" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[[ $(wc -w <<<"$commands") -ge 20 ]] || fail "too few commands in qualrank --help: $commands"

# subcommands_of WORDS...: the subcommands that `qualrank WORDS --help` names.
subcommands_of() {
  local out
  out=$("$QUALRANK" "$@" --help)
  {
    sed -n '/^subcommands:/,/^$/p' <<<"$out" | awk 'NR > 1 && NF { print $1 }'
    grep -E "^(usage: |       )qualrank $* [a-z][a-z-]*( |$)" <<<"$out" | sed -E "s/^(usage: |       )qualrank $* ([a-z-]+).*/\2/"
  } | sort -u
}

checked=0
# check WORDS...: `qualrank WORDS --help` (and -h, and under -C /nonexistent) prints "usage: qualrank WORDS" on
# stdout, nothing on stderr, and exits 0.
check() {
  local form="$*" flag rc
  for flag in --help -h; do
    for global in "" "-C /nonexistent" "--workspace=$tmp/none"; do
      rc=0
      # shellcheck disable=SC2086
      "$QUALRANK" $global "$@" "$flag" >"$tmp/out" 2>"$tmp/err" || rc=$?
      [[ $rc -eq 0 ]] || fail "qualrank $global $form $flag exits $rc: $(head -3 "$tmp/err")"
      [[ ! -s "$tmp/err" ]] || fail "qualrank $global $form $flag writes to stderr: $(head -3 "$tmp/err")"
      grep -q "^usage: qualrank $form\( \|$\)" "$tmp/out" || fail "qualrank $global $form $flag: no 'usage: qualrank $form': $(head -3 "$tmp/out")"
    done
  done
  # the help command says the same
  rc=0
  "$QUALRANK" help "$@" >"$tmp/out2" 2>"$tmp/err" || rc=$?
  [[ $rc -eq 0 && ! -s "$tmp/err" ]] || fail "qualrank help $form exits $rc: $(head -3 "$tmp/err")"
  cmp -s "$tmp/out" "$tmp/out2" || fail "qualrank help $form differs from qualrank $form -h"
  checked=$((checked + 1))
}

subs=0
for c in $commands; do
  check "$c"
  for s in $(subcommands_of "$c"); do
    check "$c" "$s"
    subs=$((subs + 1))
    for t in $(subcommands_of "$c" "$s"); do check "$c" "$s" "$t"; done
  done
done
# the subcommands that must be among them (the table has more)
for form in "taxonomy show" "taxonomy accept" "corpus label" "corpus import" "corpus table" "code add" "code exemplar" \
            "package verify" "participants import" "corpus keywords import" "corpus labels export"; do
  grep -qx "$form" <<<"$(for c in $commands; do for s in $(subcommands_of "$c"); do echo "$c $s";
    for t in $(subcommands_of "$c" "$s"); do echo "$c $s $t"; done; done; done)" || fail "subcommand not found in the help: $form"
done
[[ $subs -ge 20 ]] || fail "only $subs subcommands found"

# --help wins over the rest of the line: an option the command does not know, a missing value, -C after it
for line in "report --no-such-option --help" "rank --format --help" "taxonomy show -h --at" "query -C x --help"; do
  rc=0
  # shellcheck disable=SC2086
  "$QUALRANK" $line >"$tmp/out" 2>"$tmp/err" || rc=$?
  [[ $rc -eq 0 && ! -s "$tmp/err" ]] || fail "qualrank $line exits $rc: $(head -3 "$tmp/err")"
  grep -q "^usage: qualrank " "$tmp/out" || fail "qualrank $line: no usage"
done
# without --help, a command outside a workspace still says so (exit 2)
rc=0
"$QUALRANK" report >"$tmp/out" 2>"$tmp/err" || rc=$?
[[ $rc -eq 2 ]] && grep -q "not a qualrank workspace" "$tmp/err" || fail "report outside a workspace exits $rc: $(cat "$tmp/err")"
# after "--" a word is an argument, not a request for help
rc=0
"$QUALRANK" query -- --help >"$tmp/out" 2>"$tmp/err" || rc=$?
[[ $rc -eq 2 ]] || fail "query -- --help outside a workspace exits $rc"
[[ -z "$(ls -A "$tmp/empty")" ]] || fail "help wrote into the folder: $(ls -A "$tmp/empty")"
echo "ok: --help, -h and help of $checked commands and subcommands, anywhere"
