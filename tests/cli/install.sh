#!/usr/bin/env bash
# make install: with DESTDIR and PREFIX=/usr the binary, the manual pages, the three shells' completions and the
# docs land where Debian's tools look for them, and nothing else is installed; the pages and scripts are the
# ones the binary prints; bash-completion's loader finds the installed script; PREFIX defaults to /usr/local.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
build=$(dirname "$QUALRANK")
[[ -f "$build/CMakeCache.txt" ]] || { echo "no CMake build folder beside $QUALRANK"; exit 77; }

make -s -C "$SOURCE_DIR" install BUILD_DIR="$build" JOBS=2 DESTDIR="$tmp/stage" PREFIX=/usr >"$tmp/log" 2>&1 ||
  { cat "$tmp/log"; fail "make install"; }
commands=$("$QUALRANK" help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
{
  echo ./usr/bin/qualrank
  echo ./usr/share/bash-completion/completions/qualrank
  echo ./usr/share/doc/qualrank/README.md
  for f in "$SOURCE_DIR"/docs/*.md; do echo "./usr/share/doc/qualrank/docs/$(basename "$f")"; done
  echo ./usr/share/fish/vendor_completions.d/qualrank.fish
  echo ./usr/share/man/man1/qualrank.1
  for c in $commands; do echo "./usr/share/man/man1/qualrank-$c.1"; done
  echo ./usr/share/zsh/vendor-completions/_qualrank
} | LC_ALL=C sort >"$tmp/want"
(cd "$tmp/stage" && find . -type f -o -type l) | LC_ALL=C sort >"$tmp/got"
diff "$tmp/want" "$tmp/got" || fail "installed files differ (< wanted, > installed)"
grep -qx './usr/share/man/man1/qualrank-report.1' "$tmp/got" || fail "no qualrank-report.1"
grep -qx './usr/share/doc/qualrank/docs/formats.md' "$tmp/got" || fail "no docs/formats.md"

# the installed files are what the binary prints
usr=$tmp/stage/usr
[[ -x "$usr/bin/qualrank" ]] || fail "the binary is not executable"
[[ "$("$usr/bin/qualrank" --version)" == "$("$QUALRANK" --version)" ]] || fail "installed --version"
"$QUALRANK" completion bash | cmp -s - "$usr/share/bash-completion/completions/qualrank" || fail "bash completion"
"$QUALRANK" completion zsh | cmp -s - "$usr/share/zsh/vendor-completions/_qualrank" || fail "zsh completion"
"$QUALRANK" completion fish | cmp -s - "$usr/share/fish/vendor_completions.d/qualrank.fish" || fail "fish completion"
"$QUALRANK" man | cmp -s - "$usr/share/man/man1/qualrank.1" || fail "qualrank.1"
"$QUALRANK" man report | cmp -s - "$usr/share/man/man1/qualrank-report.1" || fail "qualrank-report.1"
cmp -s "$SOURCE_DIR/README.md" "$usr/share/doc/qualrank/README.md" || fail "README.md"
# man finds the pages by name in the installed tree
MANPATH="$usr/share/man" MANWIDTH=100 man qualrank-taxonomy 2>/dev/null | grep_q -F 'qualrank taxonomy show [--at VERSION] [--format tree|json]' ||
  fail "man qualrank-taxonomy from the installed MANPATH"
# bash-completion loads the installed script on demand (as for /usr/share on a Debian system)
if [[ -f /usr/share/bash-completion/bash_completion ]]; then
  got=$(XDG_DATA_DIRS="$usr/share" bash --norc --noprofile -c \
    'source /usr/share/bash-completion/bash_completion; __load_completion qualrank; complete -p qualrank')
  [[ "$got" == 'complete -F _qualrank qualrank' ]] || fail "bash-completion's loader: [$got]"
fi

# PREFIX defaults to /usr/local
make -s -C "$SOURCE_DIR" install BUILD_DIR="$build" JOBS=2 DESTDIR="$tmp/local" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make install (default PREFIX)"; }
# A DESTDIR with a quote and $(...) is a path, and nothing in it runs (#37.9).
odd="$tmp/odd \"dir\" \$(touch $tmp/pwned)"
make -s -C "$SOURCE_DIR" install BUILD_DIR="$build" JOBS=2 DESTDIR="$odd" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make install (odd DESTDIR)"; }
[[ -x "$odd/usr/local/bin/qualrank" && ! -e "$tmp/pwned" ]] || fail "odd DESTDIR: $(ls "$tmp")"
[[ -x "$tmp/local/usr/local/bin/qualrank" && -f "$tmp/local/usr/local/share/man/man1/qualrank.1" ]] || fail "default PREFIX /usr/local"
[[ ! -e "$tmp/local/usr/bin" ]] || fail "installed outside PREFIX"
echo "ok: install ($(wc -l <"$tmp/got") files)"
