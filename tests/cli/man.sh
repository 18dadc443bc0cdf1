#!/usr/bin/env bash
# qualrank man: qualrank(1) and qualrank-COMMAND(1) made from the command table. Every page is clean roff
# (groff -ww, no warnings) and renders with man -l; every option each command's --help lists is on its page
# and in qualrank(1); the exit codes are documented; the pages are the same bytes on every run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v groff >/dev/null && command -v man >/dev/null || { echo "groff or man is not installed"; exit 77; }

"$QUALRANK" man -o "$tmp/man1"
commands=$("$QUALRANK" help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[[ $(wc -w <<<"$commands") -ge 20 ]] || fail "too few commands in qualrank help: $commands"
want=$( (echo qualrank.1; for c in $commands; do echo "qualrank-$c.1"; done) | sort)
[[ "$(ls "$tmp/man1" | sort)" == "$want" ]] || fail "pages: $(ls "$tmp/man1" | tr '\n' ' ')"

for page in "$tmp/man1"/*.1; do
  groff -man -Tutf8 -ww -z "$page" 2>"$tmp/warnings" || fail "groff failed on $(basename "$page")"
  [[ ! -s "$tmp/warnings" ]] || fail "groff warns on $(basename "$page"): $(head -3 "$tmp/warnings")"
done

# every option of every command and subcommand, as --help lists it, is on the command's page and in qualrank(1)
options_of() { "$QUALRANK" "$@" --help | grep -oE '^  (-[a-zA-Z] \[ )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+$'; }
checked=0
for c in $commands; do
  forms=("$c")
  for s in $("$QUALRANK" __complete "$c" '' | grep -v '^:' | cut -f1); do forms+=("$c $s"); done
  for form in "${forms[@]}"; do
    # shellcheck disable=SC2086
    for opt in $(options_of $form 2>/dev/null || true); do
      esc=${opt//-/\\-}
      grep -qF -- "\\fB$esc\\fR" "$tmp/man1/qualrank-$c.1" || fail "qualrank-$c.1 lacks $opt of '$form'"
      grep -qF -- "\\fB$esc\\fR" "$tmp/man1/qualrank.1" || fail "qualrank.1 lacks $opt of '$form'"
      checked=$((checked + 1))
    done
  done
done
[[ $checked -ge 150 ]] || fail "only $checked options checked"
grep -qF '.SS "qualrank taxonomy propose"' "$tmp/man1/qualrank-taxonomy.1" || fail "taxonomy propose has no section"
grep -qF '\fBqualrank code add\fR' "$tmp/man1/qualrank.1" || fail "qualrank.1 lacks code add"

# rendered by man: the option with its value and default, the exit codes
MANWIDTH=100 man -l "$tmp/man1/qualrank-report.1" 2>"$tmp/man.err" >"$tmp/report.txt"
[[ ! -s "$tmp/man.err" ]] || fail "man -l: $(cat "$tmp/man.err")"
grep -qxF '       -o, --output DIR' "$tmp/report.txt" || fail "report page: -o, --output DIR"
grep -qxF '              output folder (relative to the workspace) (default: reports)' "$tmp/report.txt" || fail "report page: -o help"
grep -qxF '       --coder consensus|all|NAME' "$tmp/report.txt" || fail "report page: --coder"
MANWIDTH=200 man -l "$tmp/man1/qualrank.1" 2>/dev/null | sed -n '/^EXIT STATUS/,/^SEE ALSO/p' >"$tmp/exit.txt"
cat >"$tmp/exit.want" <<'WANT'
EXIT STATUS
       0      success

       1      input errors, each printed as FILE:LINE:COL: error: MESSAGE (all of them, then the command stops; nothing is written)

       2      usage errors: an unknown command or option, a missing or malformed value, no workspace

       3      an internal error (a bug in qualrank)

SEE ALSO
WANT
diff "$tmp/exit.want" "$tmp/exit.txt" || fail "exit status section"
MANWIDTH=100 man -l "$tmp/man1/qualrank-annotate.1" 2>/dev/null | grep_q -xF '       qualrank annotate FILE [--coder NAME] [--blind]' || fail "annotate synopsis"
# the global options, from the table qualrank help prints
MANWIDTH=100 man -l "$tmp/man1/qualrank.1" 2>/dev/null | grep_q -xF '       -C, --workspace DIR' || fail "global -C"

# one page on stdout is the file -o writes; the same bytes every time; no date in them
"$QUALRANK" man | cmp -s - "$tmp/man1/qualrank.1" || fail "qualrank man differs from qualrank.1"
"$QUALRANK" man taxonomy | cmp -s - "$tmp/man1/qualrank-taxonomy.1" || fail "qualrank man taxonomy differs"
"$QUALRANK" man -o "$tmp/again"
diff -r "$tmp/man1" "$tmp/again" >/dev/null || fail "pages differ between runs"
grep -q '^\.TH QUALRANK 1 "" "qualrank ' "$tmp/man1/qualrank.1" || fail ".TH line"

# usage errors
set +e
"$QUALRANK" man nosuch >/dev/null 2>"$tmp/err"; rc=$?
set -e
[[ $rc == 2 && "$(cat "$tmp/err")" == "qualrank man: error: unknown command 'nosuch' (see 'qualrank help')" ]] || fail "man nosuch: $rc $(cat "$tmp/err")"
set +e
"$QUALRANK" man report -o "$tmp/x" 2>"$tmp/err"; rc=$?
set -e
[[ $rc == 2 && ! -e "$tmp/x" ]] || fail "man report -o: exit $rc"
# works outside any workspace
(cd "$tmp" && "$QUALRANK" man validate | grep_q -F 'qualrank\-validate \- check the whole workspace') || fail "man outside a workspace"
# README's command list names every command qualrank help lists, the two of this suite as help words them
if [[ -n "${SOURCE_DIR:-}" ]]; then
  block=$(sed -n '/^## Commands$/,/^`-C DIR`/p' "$SOURCE_DIR/README.md")
  for c in $commands; do grep -qE "^  $c +" <<<"$block" || fail "README's Commands lacks $c"; done
  for c in completion man; do
    line=$("$QUALRANK" help | grep -E "^  $c +")
    grep -qxF -- "$line" <<<"$block" || fail "README's Commands words $c otherwise than qualrank help: $line"
  done
fi
echo "ok: man ($checked options checked)"
