#!/usr/bin/env bash
# Hostile input through the CLI (issue #16): each refused with a located error naming the limit (exit 1),
# nothing written, quickly; on the fieldwork fixture study. The inputs are small versions of the findings
# (tests/fuzz/make_hostile.py has the full-size ones, replayed by the fuzz.replay test and timed by
# bench/hostile_timing.sh).
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
fresh() { rm -rf "$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$tmp/ws"; }
# expect_refusal EXPECTED_LINE ARGS...: exit 1, the exact line on stderr, no workspace file changed.
expect_refusal() {
  local expected=$1; shift
  (cd "$tmp/ws" && find . -type f -exec sha256sum {} + | sort) > "$tmp/before"
  local status=0
  "$QUALRANK" -C "$tmp/ws" "$@" > "$tmp/out" 2> "$tmp/err" || status=$?
  [ "$status" = 1 ] || { cat "$tmp/err"; fail "$*: exit $status, expected 1"; }
  grep -qxF -- "$expected" "$tmp/err" || { cat "$tmp/err"; fail "$*: no line '$expected'"; }
  (cd "$tmp/ws" && find . -type f -exec sha256sum {} + | sort) > "$tmp/after"
  cmp -s "$tmp/before" "$tmp/after" || fail "$*: the workspace changed"
}

# --- YAML: alias expansion (a 300 KB string aliased 5 times), billion laughs, nesting, a cycle -------------
fresh
python3 - "$tmp/ws/codebooks/remote-work.yaml" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
big = "x" * (300 * 1024)
text = text.replace("title: Tools and habits of remote teams", "title: &s " + big, 1)
text += "# keywords of the first node, expanded five times:\nextra: [*s, *s, *s, *s, *s]\n"
open(path, "w").write(text)
PY
line=$(grep -n '^extra:' "$tmp/ws/codebooks/remote-work.yaml" | cut -d: -f1)
expect_refusal "codebooks/remote-work.yaml:$line:21: error: aliases expand to more than 1 MiB in all (the limit on alias expansion; write the values out instead)" validate

fresh
{ echo "a0: &a0 lol"; for i in 1 2 3 4 5 6 7 8 9; do
    printf 'a%d: &a%d [' "$i" "$i"; for j in 1 2 3 4 5 6 7 8 9; do printf '*a%d, ' $((i - 1)); done; printf '*a%d]\n' $((i - 1)); done
} > "$tmp/ws/guidelines/remote-work-interview.yaml"
expect_refusal "guidelines/remote-work-interview.yaml:7:15: error: aliases expand to more than 1 MiB in all (the limit on alias expansion; write the values out instead)" validate

fresh
printf 'title: %s%s\n' "$(printf '[%.0s' $(seq 70))" "$(printf ']%.0s' $(seq 70))" > "$tmp/ws/guidelines/remote-work-interview.yaml"
expect_refusal "guidelines/remote-work-interview.yaml:1:71: error: nested deeper than 64 levels (the limit on YAML nesting)" validate

fresh
python3 - "$tmp/ws/transcripts/E01.md" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
open(path, "w").write(text.replace("attributes:\n", "loop: &l [1, *l]\nattributes:\n", 1))
PY
expect_refusal "transcripts/E01.md:6:14: error: an alias inside the node it refers to (a cycle) is not supported" validate

# --- zip: a .docx whose document inflates 1000:1, a .qdpx with an oversized source, too many entries ------
python3 - "$tmp" <<'PY'
import sys, zipfile
tmp = sys.argv[1]
def z(path, entries):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as f:
        for name, data in entries:
            f.writestr(name, data)
z(tmp + "/bomb.docx", [("word/document.xml", b" " * (4 * 1024 * 1024))])
qde = ('<?xml version="1.0" encoding="utf-8"?>\n<Project xmlns="urn:QDA-XML:project:1.0" name="p"><Sources>'
       '<TextSource guid="00000000-0000-0000-0000-000000000001" name="s" plainTextPath="internal://s.txt"/>'
       '</Sources></Project>\n')
z(tmp + "/bomb.qdpx", [("project.qde", qde), ("sources/s.txt", b"a" * (4 * 1024 * 1024))])
z(tmp + "/qde-bomb.qdpx", [("project.qde", b" " * (4 * 1024 * 1024))])
z(tmp + "/many.qdpx", [("project.qde", qde)] + [("e%d" % i, b"") for i in range(10001)])
PY
fresh
cd "$tmp"  # file arguments are relative to the current folder
expect_refusal "bomb.docx: error: cannot read the document: entry 'word/document.xml' expands 1027 times (4081 bytes to 4194304); the limit is 200 times (a zip bomb?)" \
  import-transcript bomb.docx --participant E09 --role employee
[ ! -e "$tmp/ws/transcripts/E09.md" ] || fail "import-transcript wrote a transcript from a zip bomb"
grep -q "no word/document.xml" "$tmp/err" && fail "the zip reader's reason was replaced by 'no word/document.xml'"
expect_refusal "bomb.qdpx:sources/s.txt: error: entry 'sources/s.txt' expands 1027 times (4081 bytes to 4194304); the limit is 200 times (a zip bomb?)" \
  import bomb.qdpx
grep -q "missing from the archive" "$tmp/err" && fail "an oversized source was reported as missing"
expect_refusal "qde-bomb.qdpx: error: entry 'project.qde' expands 1027 times (4081 bytes to 4194304); the limit is 200 times (a zip bomb?)" \
  import qde-bomb.qdpx
grep -q "no project.qde" "$tmp/err" && fail "an oversized project.qde was reported as absent"
expect_refusal "many.qdpx: error: the archive has 10002 entries; the limit is 10000" import many.qdpx

# --- errors capped per kind, long quoted values cut ----------------------------------------------------------
fresh
python3 - "$tmp/ws/transcripts/E01.md" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
codes = ", ".join("NOPE%d" % i for i in range(30))
text = text.replace("@code COM.1.a, WELL.1\n", "@code COM.1.a, WELL.1, " + codes + ", " + "Z" * 5000 + "\n", 1)
open(path, "w").write(text)
PY
"$QUALRANK" -C "$tmp/ws" validate > "$tmp/out" 2> "$tmp/err" && fail "validate accepted an unknown code"
[ "$(wc -c < "$tmp/err")" -lt 6000 ] || fail "a 5,000-byte code id was echoed in full ($(wc -c < "$tmp/err") bytes)"
grep -qF "'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ…' (5000 bytes)" "$tmp/err" ||
  { cat "$tmp/err"; fail "the quoted code id is not cut to an excerpt with its length"; }
# 30 unknown codes NOPE0..NOPE29 on one line (and the long one, a kind of its own or not): 20 listed, the rest
# counted.
[ "$(grep -c "NOPE" "$tmp/err")" = 20 ] || { cat "$tmp/err"; fail "not 20 errors of one kind listed"; }
grep -qxE "transcripts/E01.md: note: 1[01] more errors in this file not shown \(at most 100 are listed, 20 of one kind\)" "$tmp/err" ||
  { cat "$tmp/err"; fail "no closing count of the errors not shown"; }
echo "limits: ok"
