#!/usr/bin/env bash
# The Debian package (CPack DEB, what make package writes): its control fields (name, version, maintainer,
# section science, Depends from the binary's libraries by dpkg-shlibdeps), its contents (binary, manual pages,
# completions, docs), and the binary extracted from it runs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
build=$(dirname "$QUALRANK")
[[ -f "$build/CPackConfig.cmake" ]] || { echo "no CPack configuration beside $QUALRANK"; exit 77; }
command -v dpkg-shlibdeps >/dev/null || { echo "dpkg-shlibdeps (dpkg-dev) is not installed"; exit 77; }

cmake --build "$build" --target qualrank qualrank_shell_files >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "build"; }
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "cpack"; }
version=$("$QUALRANK" --version | awk '{ print $2 }')
arch=$(dpkg --print-architecture)
deb=$tmp/pkg/qualrank_${version}_${arch}.deb
[[ -f "$deb" ]] || fail "no $deb: $(ls "$tmp/pkg")"

[[ "$(dpkg-deb -f "$deb" Package)" == qualrank ]] || fail "Package"
[[ "$(dpkg-deb -f "$deb" Version)" == "$version" ]] || fail "Version"
[[ "$(dpkg-deb -f "$deb" Section)" == science ]] || fail "Section"
[[ "$(dpkg-deb -f "$deb" Architecture)" == "$arch" ]] || fail "Architecture"
[[ "$(dpkg-deb -f "$deb" Maintainer)" == 'qualrank maintainers <'*'>' ]] || fail "Maintainer: $(dpkg-deb -f "$deb" Maintainer)"
depends=$(dpkg-deb -f "$deb" Depends)
names=$(tr ',' '\n' <<<"$depends" | awk '{ print $1 }')
# Every package that holds a shared library the binary names (each release names them its own way: Debian 12's
# libicu72 and libzip4 are Debian 13's libicu76 and libzip5), found here by dpkg -S, and the figures' font.
wanted=(fonts-dejavu-core)
while read -r so; do
  pkg=$(dpkg -S "$so" 2>/dev/null || dpkg -S "$(readlink -f "$so")" 2>/dev/null || dpkg -S "/usr$so" 2>/dev/null || true)
  pkg=${pkg%%:*}
  [[ -n $pkg ]] || fail "no package holds $so (ldd $QUALRANK)"
  wanted+=("$pkg")
done < <(ldd "$QUALRANK" | awk -v needed="$(readelf -d "$QUALRANK" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')" '
  BEGIN { n = split(needed, list, " "); for (i = 1; i <= n; i++) want[list[i]] = 1 }
  $2 == "=>" && ($1 in want) && $3 ~ /^\// { print $3 }')  # the libraries the binary names itself (NEEDED)
(( ${#wanted[@]} >= 12 )) || fail "only ${#wanted[@]} packages for the binary's libraries: ${wanted[*]}"
for lib in "${wanted[@]}"; do
  grep -qxF "$lib" <<<"$names" || fail "Depends lacks $lib: $depends"
done
for lib in libc6 libstdc++6 libncursesw6 libcairo2 zlib1g; do  # names both releases share
  grep -qxF "$lib" <<<"$names" || fail "Depends lacks $lib: $depends"
done

dpkg-deb --contents "$deb" | awk '{ print $6 }' >"$tmp/contents"
for f in ./usr/bin/qualrank ./usr/share/man/man1/qualrank.1 ./usr/share/man/man1/qualrank-report.1 \
  ./usr/share/man/man1/qualrank-taxonomy.1 ./usr/share/bash-completion/completions/qualrank \
  ./usr/share/zsh/vendor-completions/_qualrank ./usr/share/fish/vendor_completions.d/qualrank.fish \
  ./usr/share/doc/qualrank/README.md ./usr/share/doc/qualrank/docs/formats.md; do
  grep -qxF "$f" "$tmp/contents" || fail "the package lacks $f"
done
pages=$(grep -c '^\./usr/share/man/man1/qualrank.*\.1$' "$tmp/contents")
commands=$("$QUALRANK" help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF' | wc -l)
[[ $pages == $((commands + 1)) ]] || fail "$pages pages for $commands commands"
grep -v '^\./usr/' "$tmp/contents" | grep -vx '\./' && fail "files outside /usr"

# the extracted binary runs (its libraries are the Depends above, installed here to build it)
dpkg-deb -x "$deb" "$tmp/root"
[[ "$("$tmp/root/usr/bin/qualrank" --version)" == "qualrank $version" ]] || fail "extracted --version"
"$tmp/root/usr/bin/qualrank" help | grep_q '^  completion ' || fail "extracted help"
"$tmp/root/usr/bin/qualrank" completion bash | cmp -s - "$tmp/root/usr/share/bash-completion/completions/qualrank" || fail "packaged completion"
echo "ok: deb ($(wc -l <"$tmp/contents") entries)"
