#!/usr/bin/env bash
# qualrank guide and new-transcript: the protocol per role, a skeleton that validates, no overwriting.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$QUALRANK" -C "$FIXTURES/mini" guide --role user --format md >"$tmp/user.md"
grep -qF -- '- **II.R** (ranking) Which two question themes matter most?' "$tmp/user.md" || fail "user ranking text"
grep -qF 'rank up to 2 of the 3 items' "$tmp/user.md" || fail "top-k for users"
grep -qF 'A.10  Größenordnung' "$tmp/user.md" || fail "items with names"
grep -q 'II.2' "$tmp/user.md" && fail "II.2 is for developers only"
"$QUALRANK" -C "$FIXTURES/mini" guide --role developer --format text | grep_q -F 'rank every one of the 3 items' || fail "developer ranks all"

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
# -o is the user's choice (relative to the workspace, like every command's -o): "../P4.md" is beside it
"$QUALRANK" -C "$tmp/ws" new-transcript --participant P4 --role developer -o ../P4.md 2>"$tmp/err" || fail "-o ../P4.md: $(cat "$tmp/err")"
grep -q '^participant: P4$' "$tmp/P4.md" || fail "-o ../P4.md was not written beside the workspace"
# the default location must stay inside the workspace, symlinks resolved
mkdir "$tmp/elsewhere"; mv "$tmp/ws/transcripts" "$tmp/ws/transcripts.real"; ln -s "$tmp/elsewhere" "$tmp/ws/transcripts"
set +e; "$QUALRANK" -C "$tmp/ws" new-transcript --participant P5 --role developer >/dev/null 2>"$tmp/err"; rc=$?; set -e
[[ $rc -eq 1 ]] || fail "default output through a symlink: exit $rc, not 1"
grep -qxF "qualrank new-transcript: error: the default output transcripts/P5.md leads outside the workspace (through a symlink); give -o to write there on purpose" "$tmp/err" || fail "symlinked default: $(cat "$tmp/err")"
[[ -z $(ls -A "$tmp/elsewhere") ]] || fail "wrote through the symlink: $(ls -A "$tmp/elsewhere")"
rm "$tmp/ws/transcripts"; mv "$tmp/ws/transcripts.real" "$tmp/ws/transcripts"
"$QUALRANK" --version | grep_q '^qualrank [0-9]' || fail "--version"
"$QUALRANK" help | grep_q 'new-transcript' || fail "help lists commands"
"$QUALRANK" new-transcript --help | grep_q -- '--participant' || fail "command --help"
echo "guide: ok"
