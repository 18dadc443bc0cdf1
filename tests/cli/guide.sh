#!/usr/bin/env bash
# qualrank guide and new-transcript: the protocol per role, a skeleton that validates, no overwriting.
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$QUALRANK" -C "$FIXTURES/mini" guide --role user --format md >"$tmp/user.md"
grep -qF -- '- **II.R** (ranking) Which two question themes matter most?' "$tmp/user.md" || fail "user ranking text"
grep -qF 'rank the top 2 of 3 items' "$tmp/user.md" || fail "top-k for users"
grep -qF 'A.10  Größenordnung' "$tmp/user.md" || fail "items with names"
grep -q 'II.2' "$tmp/user.md" && fail "II.2 is for developers only"
"$QUALRANK" -C "$FIXTURES/mini" guide --role developer --format text | grep -qF 'rank all 3 items' || fail "developer ranks all"

cp -r "$FIXTURES/mini" "$tmp/ws"
"$QUALRANK" -C "$tmp/ws" new-transcript --participant P3 --role developer --attr years=2 --attr frameworks=JAX 2>/dev/null
[[ -f "$tmp/ws/transcripts/P3.md" ]] || fail "skeleton not written"
grep -q '^## II.2$' "$tmp/ws/transcripts/P3.md" || fail "developer section II.2 missing"
grep -q '^  years: 2$' "$tmp/ws/transcripts/P3.md" || fail "attribute in front matter"
"$QUALRANK" -C "$tmp/ws" validate 2>"$tmp/v.err" || { cat "$tmp/v.err"; fail "skeleton does not validate"; }
before=$(md5sum "$tmp/ws/transcripts/P3.md")
if "$QUALRANK" -C "$tmp/ws" new-transcript --participant P3 --role developer 2>"$tmp/err"; then fail "overwrote an existing transcript"; fi
grep -q "exists already" "$tmp/err" || fail "no message on refusing to overwrite"
[[ "$(md5sum "$tmp/ws/transcripts/P3.md")" == "$before" ]] || fail "existing file changed"
if "$QUALRANK" -C "$tmp/ws" new-transcript --participant P4 --role user -o ../escape.md 2>/dev/null; then fail "path escaped the workspace"; fi
[[ ! -e "$tmp/escape.md" ]] || fail "wrote outside the workspace"
"$QUALRANK" --version | grep -q '^qualrank [0-9]' || fail "--version"
"$QUALRANK" help | grep -q 'new-transcript' || fail "help lists commands"
"$QUALRANK" new-transcript --help | grep -q -- '--participant' || fail "command --help"
echo "guide: ok"
