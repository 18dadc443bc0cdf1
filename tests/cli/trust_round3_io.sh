#!/usr/bin/env bash
# Trust, round three (issue #32, items 1 and 3; fieldwork study): one read policy and one write policy for
# every file qualrank touches. File names that are not UTF-8 are located errors for validate and every command
# alike (was: exit 3, and a report half written); nothing is read from a FIFO, a device or past an input's
# limit, and the history never through a symlink (was: blocked forever, or 5.7 GB read from /dev/zero); an
# output never replaces a device, FIFO or folder (was: /dev/null replaced by a regular file), and package
# publishes folder and zip together or neither. Every case asserts the message, the exit code and that nothing
# was published; anything that could hang runs under `timeout 10`.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
fresh() { rm -rf "$ws"; mkdir "$ws"; cp -r "$FIXTURES"/fieldwork/{codebooks,guidelines,transcripts} "$ws/"; }
ws="$tmp/ws"; fresh
q() { timeout 10 "$QUALRANK" -C "$ws" "$@"; }
expect() {  # expect RC MESSAGE CMD...: the exit code, and MESSAGE as one whole line of stderr
  local rc=$1 msg=$2; shift 2
  set +e; "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?; set -e
  [[ $got == "$rc" ]] || fail "exit $got, not $rc: $* ($(cat "$tmp/err"))"
  grep -qxF -- "$msg" "$tmp/err" || fail "message of $*: $(cat "$tmp/err")"
}
unpublished() {  # no report, package or JSON output left behind
  [[ ! -e $ws/reports && ! -e $ws/package && ! -e $ws/package.zip && ! -e $ws/out.json ]] || fail "published: $(ls "$ws")"
}

# 1. File names that are not valid UTF-8: the same located error from validate and every command, exit 1.
not_utf8() {  # not_utf8 SHOWN: every command refuses with "SHOWN: error: file name is not valid UTF-8; rename it"
  local msg="$1: error: file name is not valid UTF-8; rename it"
  expect 1 "$msg" q validate
  expect 1 "$msg" q report
  expect 1 "$msg" q package
  expect 1 "$msg" q code --format json
  unpublished
}
printf 'x' >"$ws/transcripts/$(printf 'P\xff.md')"
not_utf8 'transcripts/P\xff.md'
expect 1 'transcripts/P\xff.md: error: file name is not valid UTF-8; rename it' q agreement --transcripts --format json
fresh; cp "$ws/transcripts/E01.carol.codes" "$ws/transcripts/$(printf 'E01.d\xe9.codes')"
not_utf8 'transcripts/E01.d\xe9.codes'
fresh; mkdir "$ws/codebooks/labels"; printf 'id,Label_1,Label_2\nu1,COM.1,COM.1\n' >"$ws/codebooks/labels/$(printf 'L\xc3.csv')"
not_utf8 'codebooks/labels/L\xc3.csv'
expect 1 'codebooks/labels/L\xc3.csv: error: file name is not valid UTF-8; rename it' q agreement --format json
fresh; mkdir "$ws/lists"; cp "$FIXTURES/corpus/forum.csv" "$ws/"; printf 'f1\n' >"$ws/lists/$(printf 'forum_2024\xff.txt')"
expect 1 'lists/forum_2024\xff.txt: error: file name is not valid UTF-8; rename it' \
  q agreement --labels forum.csv --resamples 0 --periods "lists/$(printf 'forum_2024\xff.txt')" --format json
unpublished

# 2. Unbounded reads: a device or a FIFO is refused before a byte is read; the history never through a symlink.
fresh
expect 1 "/dev/zero: error: not a regular file (a character device); qualrank reads only regular files" q package --names /dev/zero
unpublished
expect 1 "/dev/zero: error: not a regular file (a character device); qualrank reads only regular files" q agreement --labels /dev/zero
cp "$FIXTURES/corpus/forum.csv" "$ws/"
expect 1 "/dev/zero: error: not a regular file (a character device); qualrank reads only regular files" \
  q agreement --labels forum.csv --resamples 0 --periods /dev/zero
mkfifo "$ws/transcripts/P99.md"
expect 1 "transcripts/P99.md: error: not a regular file (a FIFO); qualrank reads only regular files" q validate
expect 1 "transcripts/P99.md: error: not a regular file (a FIFO); qualrank reads only regular files" q report
unpublished
rm "$ws/transcripts/P99.md"; mkfifo "$ws/findings.yaml"
expect 1 "findings.yaml: error: not a regular file (a FIFO); qualrank reads only regular files" q validate
rm "$ws/findings.yaml"
# package verify: a FIFO in place of a packaged transcript
q -q package >/dev/null 2>&1 || fail "package: $(q package 2>&1)"
rm "$ws/package/transcripts/C01.md"; mkfifo "$ws/package/transcripts/C01.md"
expect 1 "$ws/package/transcripts/C01.md: error: is missing (listed in SHA256SUMS): not a regular file (a FIFO); qualrank reads only regular files" \
  q package verify "$ws/package"
rm -rf "$ws/package" "$ws/package.zip"
# Files to import or to read participants from: a FIFO said as one.
mkfifo "$tmp/in.docx" "$tmp/in.csv" "$tmp/in.qdpx"
expect 1 "$tmp/in.docx: error: not a regular file (a FIFO); qualrank reads only regular files" \
  q import-transcript "$tmp/in.docx" --participant P50 --role employee
expect 1 "$tmp/in.csv: error: not a regular file (a FIFO); qualrank reads only regular files" q participants import "$tmp/in.csv" --id-column id
expect 1 "$tmp/in.qdpx: error: not a regular file (a FIFO); qualrank reads only regular files" q import "$tmp/in.qdpx"
[[ ! -e $ws/transcripts/P50.md ]] || fail "import-transcript wrote"
# A names list over its limit: refused by its size, before it is read.
head -c $((4 * 1024 * 1024 + 1)) /dev/zero | tr '\0' 'a' >"$tmp/big.csv"
expect 1 "$tmp/big.csv: error: the file is 4194305 bytes; the limit for a list is 4 MiB; not read" q package --names "$tmp/big.csv"
unpublished
# The history as a symlink (to /dev/zero: was read without bound): refused, never opened, by every command.
H="$ws/codebooks/remote-work.history.yaml"; mv "$H" "$tmp/history.yaml"; ln -s /dev/zero "$H"
for cmd in validate report package "code --format json" "taxonomy log"; do
  # shellcheck disable=SC2086
  expect 1 "codebooks/remote-work.history.yaml: error: is a symlink: qualrank neither reads nor writes the history through one (replace it by the file)" q $cmd
done
unpublished
rm "$H"; mv "$tmp/history.yaml" "$H"

# 3. Writes that replace what is not ours: refused (exit 1) before anything is written. A FIFO of our own
# first; only then /dev/null (run as whoever runs the tests: as root it was replaced by a regular file).
mkfifo "$tmp/fifo.xlsx"
expect 1 "$tmp/fifo.xlsx: error: is a FIFO, not a regular file; qualrank replaces only regular files (nothing written)" \
  q codebook -o "$tmp/fifo.xlsx"
[[ -p $tmp/fifo.xlsx ]] || fail "the FIFO was replaced"
for target in /dev/null /dev/full; do
  [[ -e $target ]] || continue
  [[ -c $target ]] || fail "$target is not a character device before the test"
  expect 1 "$target: error: is a character device, not a regular file; qualrank replaces only regular files (nothing written)" \
    q codebook -o "$target"
  [[ -c $target ]] || fail "$target is no longer a character device"
  expect 1 "qualrank export: error: $target is a character device, not a regular file; qualrank replaces only regular files (nothing written)" \
    q export --qdc -o "$target"
  [[ -c $target ]] || fail "$target is no longer a character device"
  expect 1 "$target: error: is not a folder; report writes its outputs into one (nothing written)" q report -o "$target"
  expect 1 "$target: error: is a character device, not a regular file; qualrank replaces only regular files (nothing written)" \
    q package --key "$target"
  [[ -c $target ]] || fail "$target is no longer a character device"
  unpublished
done
[[ -z $(find "$tmp" -maxdepth 1 -name '.*.tmp') ]] || fail "a temp file was left in $tmp"
# package: a folder where the zip goes is refused before the package folder is put in place.
mkdir "$ws/package.zip"
expect 1 "$ws/package.zip: error: is a directory, not a regular file; qualrank replaces only regular files (nothing written)" q package
[[ ! -e $ws/package && -z $(ls -A "$ws/package.zip") ]] || fail "package published a part: $(ls -a "$ws")"
rmdir "$ws/package.zip"
# report: an output that is a FIFO is refused before anything is written.
mkdir "$ws/reports"; mkfifo "$ws/reports/methods.md"
expect 1 "$ws/reports/methods.md: error: is a FIFO, not a regular file; qualrank replaces only regular files (nothing written)" q report
[[ $(ls -A "$ws/reports") == methods.md && -p $ws/reports/methods.md ]] || fail "report wrote beside the FIFO: $(ls -A "$ws/reports")"
rm -rf "$ws/reports"

# 4. Messages that say what happened.
# A dangling symlink is one (was: "changed on disk since read" from code add).
ln -s gone.md "$ws/transcripts/P98.md"
expect 1 "transcripts/P98.md: error: is a symbolic link to a missing file" q validate
expect 1 "transcripts/P98.md: error: is a symbolic link to a missing file" q code add --transcript P98 --turn 1 --node COM.1
rm "$ws/transcripts/P98.md"
ln -s E01.gone.codes "$ws/transcripts/E01.bob.codes"
expect 1 "transcripts/E01.bob.codes: error: is a symbolic link to a missing file" q code add --transcript E01 --turn 2 --node COM.1 --coder bob
rm "$ws/transcripts/E01.bob.codes"
ln -s gone.codes "$ws/transcripts/E01.consensus.codes"
expect 1 "transcripts/E01.consensus.codes: error: is a symbolic link to a missing file" q reconcile E01
[[ -L $ws/transcripts/E01.consensus.codes ]] || fail "reconcile replaced the dangling symlink"
rm "$ws/transcripts/E01.consensus.codes"
# code add --coder with a relative -C (was: the path doubled, "cannot read the file").
cp "$ws/transcripts/E01.carol.codes" "$tmp/carol.before"
(cd "$tmp" && timeout 10 "$QUALRANK" -C ws code add --transcript E01 --turn 4 --node WELL.2 --coder carol) >"$tmp/out" 2>"$tmp/err" \
  || fail "code add --coder with a relative -C: $(cat "$tmp/err")"
[[ "$(cat "$tmp/err")" == 'qualrank code add: added WELL.2 to t4 ("Slack. Important decisions vanish in threads and I…") (transcripts/E01.carol.codes, coder carol)' ]] || fail "code add said: $(cat "$tmp/err")"
[[ "$(diff "$tmp/carol.before" "$ws/transcripts/E01.carol.codes" || true)" == $'5a6\n> t4: WELL.2' ]] || fail "code add: $(diff "$tmp/carol.before" "$ws/transcripts/E01.carol.codes")"
fresh
# code add on a transcript with an error elsewhere (an unclosed '{' in t2): the edit is saved, exit 0, and
# the error already there is a warning that says so (was: "error" printed by a command that succeeded).
sed -i 's/{COM.3}/{COM.3/' "$ws/transcripts/E02.md"
expect 0 "transcripts/E02.md:23:76: warning: '{' is never closed on this line (a code list is {ID, ID} before the end of the line) (already in the file before this edit; \`qualrank validate\` lists it)" \
  q code add --transcript E02 --turn 3 --node WELL.2
grep -q ' error: ' "$tmp/err" && fail "code add printed an error and exited 0: $(cat "$tmp/err")"
grep -qxF "qualrank code add: added WELL.2 to t3 (\"Written updates. I write mine at the end…\") (transcripts/E02.md, coder eli)" "$tmp/err" || fail "code add: $(cat "$tmp/err")"
fresh
# validate reads the label tables with report's checks (was: ok on a table report refuses).
mkdir "$ws/codebooks/labels"; printf 'id,Label_1,Label_2\nu1,COM.1,NOPE.9\n' >"$ws/codebooks/labels/x.csv"
set +e; q report >/dev/null 2>"$tmp/report.err"; set -e
msg=$(grep -m1 'codebooks/labels/x.csv:' "$tmp/report.err") || fail "report does not refuse the table: $(cat "$tmp/report.err")"
expect 1 "$msg" q validate
rm -rf "$ws/codebooks/labels" "$ws/reports"
# A byte order mark at the start of a .codes file or a period list is skipped, as in a transcript: the same
# codings and the same corpus table as without it.
q -q code --format json >"$tmp/plain.json"
printf '\xef\xbb\xbf' | cat - "$ws/transcripts/E01.carol.codes" >"$tmp/bom" && mv "$tmp/bom" "$ws/transcripts/E01.carol.codes"
q -q validate || fail "a .codes file with a BOM: $(q validate 2>&1)"
q -q code --format json >"$tmp/bom.json"
cmp -s "$tmp/plain.json" "$tmp/bom.json" || fail "a BOM changed the codings"
cp "$FIXTURES/corpus/forum.csv" "$FIXTURES"/corpus/forum_2024-H*.txt "$ws/"
q -q agreement --labels forum.csv --resamples 0 --periods forum_2024-H1.txt forum_2024-H2.txt >"$tmp/plain.txt"
printf '\xef\xbb\xbf' | cat - "$ws/forum_2024-H1.txt" >"$tmp/bom" && mv "$tmp/bom" "$ws/forum_2024-H1.txt"
q -q agreement --labels forum.csv --resamples 0 --periods forum_2024-H1.txt forum_2024-H2.txt >"$tmp/bom.txt"
cmp -s "$tmp/plain.txt" "$tmp/bom.txt" || fail "a BOM changed the corpus table: $(diff "$tmp/plain.txt" "$tmp/bom.txt")"
# Coder names with an invisible or direction-changing character (one would print as another coder, e.g.
# "car<U+200B>ol" as "carol"): refused in a transcript's `coder:`, in a codings file's name and by
# `code add --coder`, located, nothing written.
fresh
cp "$ws/transcripts/E01.carol.codes" "$ws/transcripts/$(printf 'E01.car\xe2\x80\x8bol.codes')"
expect 1 'transcripts/E01.car\u200Bol.codes: error: the file name contains an invisible or direction-changing character (such as U+202E); rename it' q validate
expect 1 'transcripts/E01.car\u200Bol.codes: error: the file name contains an invisible or direction-changing character (such as U+202E); rename it' q report
unpublished
fresh
sed -i "s/^coder: .*/coder: $(printf 'ali\xe2\x80\xaece')/" "$ws/transcripts/E01.md"
line=$(grep -n '^coder:' "$ws/transcripts/E01.md" | cut -d: -f1)
expect 1 "transcripts/E01.md:$line:8: error: coder name 'ali\\u202Ece' contains an invisible or direction-changing character (such as U+202E)" q validate
fresh
ls "$ws/transcripts" >"$tmp/before"
expect 1 "transcripts/E01.md: error: coder name 'jo\\u2060nas' contains an invisible or direction-changing character (such as U+202E)" \
  q code add --transcript E01 --turn 4 --node WELL.2 --coder "$(printf 'jo\xe2\x81\xa0nas')"
ls "$ws/transcripts" | cmp -s - "$tmp/before" || fail "code add wrote a codings file: $(ls "$ws/transcripts")"
echo "ok"
