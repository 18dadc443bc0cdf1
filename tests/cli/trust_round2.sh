#!/usr/bin/env bash
# Trust, round two (fieldwork study): nothing read or written through a symlink that leads outside the
# workspace (the history's lock, the history itself, codebooks/labels); SOURCE_DATE_EPOCH out of range refused
# before anything is written; deeply nested REFI-QDA codes refused, located; --resamples bounded.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/ws"; mkdir "$ws"; cp -r "$FIXTURES"/fieldwork/{codebooks,guidelines,transcripts} "$ws/"
q() { "$QUALRANK" -C "$ws" "$@"; }
expect() {  # expect RC MESSAGE CMD...
  local rc=$1 msg=$2; shift 2
  set +e; "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?; set -e
  [[ $got == "$rc" ]] || fail "exit $got, not $rc: $* ($(cat "$tmp/err"))"
  grep -qxF -- "$msg" "$tmp/err" || fail "message of $*: $(cat "$tmp/err")"
}
H=$ws/codebooks/remote-work.history.yaml; cp "$H" "$tmp/history.orig"
propose() { q taxonomy propose add --id WELL.3 --parent WELL --name Sleep --rationale "asked twice" --date 2026-11-24; }

# The history's lock file as a symlink: refused, the file it points to never created.
ln -s "$tmp/outside.lock" "$H.lock"
expect 1 "codebooks/remote-work.history.yaml.lock: error: is a symlink: qualrank neither reads nor writes the history through one (replace it by the file)" propose
[[ ! -e $tmp/outside.lock ]] || fail "the lock's target was created"
rm "$H.lock"
# The history itself a symlink out: refused (was: "not read", then read anyway and written into a new file).
mv "$H" "$tmp/history.yaml"; ln -s "$tmp/history.yaml" "$H"
expect 1 "codebooks/remote-work.history.yaml: error: is a symlink: qualrank neither reads nor writes the history through one (replace it by the file)" propose
cmp -s "$tmp/history.yaml" "$tmp/history.orig" || fail "the history behind the symlink changed"
[[ -L $H ]] || fail "the symlink was replaced"
rm "$H"; mv "$tmp/history.yaml" "$H"
# codebooks/labels as a symlink out: agreement does not read it (as validate and report do not).
mkdir "$tmp/labels"; printf 'id,Label_1,Label_2\nu1,COM.1,COM.2\n' >"$tmp/labels/x.csv"
ln -s "$tmp/labels" "$ws/codebooks/labels"
expect 1 "codebooks/labels/x.csv: error: leads outside the workspace through a symlink; not read" q agreement
rm "$ws/codebooks/labels"

# SOURCE_DATE_EPOCH beyond 9999-12-31 (was a crash leaving a .tmp): refused, nothing written.
for v in 67768036191676800 99999999999999999999 -5 12abc; do
  expect 2 "qualrank report: error: SOURCE_DATE_EPOCH '$v' is not a whole number of seconds from 0 to 253402300799 (9999-12-31T23:59:59Z)" \
    env SOURCE_DATE_EPOCH="$v" "$QUALRANK" -C "$ws" report -o out
done
[[ ! -e $ws/out ]] || fail "report wrote with a bad SOURCE_DATE_EPOCH"
SOURCE_DATE_EPOCH=253402300799 q codebook -o cb.xlsx >/dev/null 2>&1 || fail "the latest SOURCE_DATE_EPOCH is refused"

# Deeply nested codes in a .qdc: refused at the first element too deep, fast.
python3 - "$tmp/nested.qdc" <<'PY'
import sys
n = 20000
s = '<?xml version="1.0" encoding="utf-8"?>\n<CodeBook xmlns="urn:QDA-XML:codebook:1.0" origin="x"><Codes>\n'
s += "".join('<Code guid="%08d-0000-4000-8000-000000000000" name="c%d" isCodable="true">\n' % (i, i) for i in range(n))
s += "</Code>\n" * n + "</Codes></CodeBook>\n"
open(sys.argv[1], "w").write(s)
PY
start=$(date +%s%N)
expect 1 "$tmp/nested.qdc:101: error: XML nested deeper than 100 elements (codes nest a few levels; the limit is in README, \"Safety and limits\")" q import "$tmp/nested.qdc"
(( ($(date +%s%N) - start) / 1000000 < 2000 )) || fail "the nested codebook took over 2 s"

# Codes sharing one GUID: refused at the second, naming the first (was: 1,000 such codes accepted).
python3 - "$tmp/dup.qdc" <<'PY'
import sys
s = '<?xml version="1.0" encoding="utf-8"?>\n<CodeBook xmlns="urn:QDA-XML:codebook:1.0" origin="x"><Codes>\n'
s += "".join('<Code guid="00000001-0000-4000-8000-00000000000A" name="c%d" isCodable="true"/>\n' % i for i in range(1000))
s += "</Codes></CodeBook>\n"
open(sys.argv[1], "w").write(s)
PY
expect 1 "$tmp/dup.qdc:4: error: <Code> has the guid '00000001-0000-4000-8000-00000000000A' of the <Code> at line 3; a GUID names one element, so references to it would be ambiguous" q import "$tmp/dup.qdc"
grep -qxF "$tmp/dup.qdc: note: 979 more errors in this file not shown (at most 100 are listed, 20 of one kind)" "$tmp/err" || fail "duplicate GUIDs not capped: $(tail -2 "$tmp/err")"
[[ ! -e $ws/codebooks/dup.yaml ]] || fail "a codebook with duplicate GUIDs was imported"
# 200,000 coded spans on one turn: accepted in linear time (was 4.6 s; 400,000 took 18 s: each span's
# code-point offset was counted from the turn's start).
python3 - "$ws/transcripts/E09.md" 200000 <<'PY'
import sys
open(sys.argv[1], "w").write("---\nparticipant: E09\nrole: employee\ncoder: dana\n---\n\n## I.1 Tenure\nI: How long?\nE09: " + "[a]{COM.1} " * int(sys.argv[2]) + "\n")
PY
# Timed in CPU seconds (user + system) of the command, not wall time: tests run two at a time on two cores.
/usr/bin/time -f '%U %S' -o "$tmp/cpu" "$QUALRANK" -C "$ws" validate >"$tmp/out" 2>&1 || fail "200,000 spans: $(head -3 "$tmp/out")"
grep -qxF "qualrank validate: ok: 7 transcripts, 200026 coded segments, 6 rankings, taxonomy version 2 (14 nodes)" "$tmp/out" || fail "200,000 spans: $(cat "$tmp/out")"
awk '{ exit !($1 + $2 < 2.0) }' "$tmp/cpu" || fail "200,000 spans took over 2 s of CPU: $(cat "$tmp/cpu")"
python3 - "$ws/transcripts/E09.md" 2000 <<'PY'
import sys
open(sys.argv[1], "w").write("---\nparticipant: E09\nrole: employee\ncoder: dana\n---\n\n## I.1 Tenure\nI: How long?\nE09: " + "[a]{COM.1} " * int(sys.argv[2]) + "\n")
PY
q query --code COM.1 --format json >"$tmp/q.json" 2>/dev/null || fail "query spans"
python3 - "$tmp/q.json" <<'PY' || fail "span offsets"
import json, sys
segs = [s for s in json.load(open(sys.argv[1]))["segments"] if s["participant"] == "E09"]
assert len(segs) == 2000, len(segs)
# The text is "[a]{COM.1} " repeated: span k covers code point 2k (the "a "s of the text "a a a ...").
ids = sorted(int(s["id"].split("[")[1].split(":")[0]) for s in segs)
assert ids == list(range(0, 4000, 2)), ids[:5]
PY
rm "$ws/transcripts/E09.md"
expect 2 "qualrank rank: error: --resamples must be 0 to 1000000" q rank --resamples 2000000000
# A group name that is HTML is escaped in the Markdown (was written raw into rankings.md and rank -o x.md).
sed 's/,manager,/,<script>alert(1)<\/script>,/' "$FIXTURES/rank/fieldwork-groups.csv" >"$tmp/groups.csv"
q rank --table "$tmp/groups.csv" --format md --resamples 0 >"$tmp/r.md" 2>/dev/null || fail "rank md"
grep -qF '\<script>alert(1)\</script>' "$tmp/r.md" || fail "group name not escaped: $(grep -n script "$tmp/r.md" | head -3)"
! grep -qE '(^|[^\\])<script>' "$tmp/r.md" || fail "a raw <script> is left in the Markdown"
# Dates are calendar dates; CR-only line endings are named as such.
expect 2 "qualrank taxonomy propose: error: --date '2025-02-30' is not a date YYYY-MM-DD" \
  q taxonomy propose add --id WELL.3 --parent WELL --name Sleep --rationale x --date 2025-02-30
sed -i 's/^date: 2025-05-13$/date: 2025-02-29/' "$ws/transcripts/C01.md"
expect 1 "transcripts/C01.md:5:7: error: date '2025-02-29' is not a date YYYY-MM-DD (the interview's day; it orders the saturation curve)" q validate
sed -i 's/^date: 2025-02-29$/date: 2025-05-13/' "$ws/transcripts/C01.md"
tr '\n' '\r' <"$ws/transcripts/C02.md" >"$tmp/cr.md"; mv "$tmp/cr.md" "$ws/transcripts/C02.md"
expect 1 "transcripts/C02.md:1:1: error: the file's lines end with a bare carriage return (CR, old Mac style); convert them to LF or CRLF" q validate
cp "$FIXTURES/fieldwork/transcripts/C02.md" "$ws/transcripts/C02.md"
# propose says which words it recorded from --source.
q taxonomy propose add --id WELL.3 --parent WELL --name Sleep --rationale "asked" --by C01 --source transcripts/C01.md:42 \
  --date 2026-01-02 >"$tmp/out" 2>"$tmp/err" || fail "propose: $(cat "$tmp/err")"
grep -qxF "qualrank taxonomy propose: $(cat "$tmp/out"): source transcripts/C01.md:42 (C01): \"I work in the evening and on the weekend when the client's time zone needs me.\"" "$tmp/err" ||
  fail "propose quote: $(cat "$tmp/err")"
# Participant ids and transcript names that would read as something else are refused, located.
expect 2 "qualrank new-transcript: error: participant id '..' starts with '.'" q new-transcript --participant .. --role contractor
expect 2 "qualrank new-transcript: error: participant id 'P\\u202E01' contains an invisible or direction-changing character (such as U+202E)" \
  q new-transcript --participant $'P\u202E01' --role contractor
[[ $(ls "$ws/transcripts" | grep -c '^\.\.\|\.\.\.md') == 0 ]] || fail "a transcript named by '..' was written"
sed -i $'s/^participant: C01$/participant: C\u202E01/' "$ws/transcripts/C01.md"
q validate >"$tmp/out" 2>&1 && fail "a bidi participant id was accepted"
grep -qF "transcripts/C01.md:2:14: error: participant id 'C\\u202E01' contains an invisible or direction-changing character (such as U+202E)" "$tmp/out" || fail "bidi id: $(head -3 "$tmp/out")"
# YAML: a key written twice, a second document, text after '...': each a located error (were silently dropped).
sed -i $'s/^participant: C\u202E01$/participant: C01/' "$ws/transcripts/C01.md"
T=$ws/codebooks/remote-work.yaml; cp "$T" "$tmp/tax.orig"
printf 'title: Twice\n' >>"$T"
q validate >"$tmp/out" 2>&1 && fail "a duplicate key was accepted"
grep -qE "^codebooks/remote-work.yaml:[0-9]+:1: error: duplicate key 'title' \(first at line [0-9]+\); one of the two values would be lost$" "$tmp/out" || fail "duplicate key: $(head -3 "$tmp/out")"
cp "$tmp/tax.orig" "$T"; printf -- '---\ntaxonomy: other\n' >>"$T"
q validate >"$tmp/out" 2>&1 && fail "a second document was accepted"
grep -qF "error: a second YAML document starts here ('---'); a file holds one, the rest would be ignored" "$tmp/out" || fail "second doc: $(head -3 "$tmp/out")"
cp "$tmp/tax.orig" "$T"; printf -- '...\nnodes: []\n' >>"$T"
q validate >"$tmp/out" 2>&1 && fail "text after ... was accepted"
grep -qF "error: text after the document end '...' (a file holds one YAML document; it would be ignored)" "$tmp/out" || fail "after ...: $(head -3 "$tmp/out")"
cp "$tmp/tax.orig" "$T"
q validate >/dev/null 2>&1 || fail "restored workspace: $(q validate 2>&1 | head -3)"
# A transcript that is a symlink out, a transcript that does not exist, a bare .qde: each says what it is.
ln -s /etc/hostname "$ws/transcripts/LNK.md"
expect 1 "transcripts/LNK.md: error: leads outside the workspace through a symlink; not read" q code add --transcript LNK.md --turn 1 --node COM.1
rm "$ws/transcripts/LNK.md"
expect 1 "NOPE: error: no such transcript (looked for NOPE, transcripts/NOPE and transcripts/NOPE.md)" q code add --transcript NOPE --turn 1 --node COM.1
q export --qdpx -o "$tmp/p.qdpx" >/dev/null 2>&1 || fail "export"
(cd "$tmp" && unzip -q -o p.qdpx project.qde)
mkdir "$tmp/qde-ws"
set +e; "$QUALRANK" -C "$tmp/qde-ws" import "$tmp/project.qde" >/dev/null 2>"$tmp/err"; rc=$?; set -e
[[ $rc == 1 ]] || fail "bare .qde: exit $rc"
grep -qE "^$tmp/project.qde:[0-9]+: error: source text 'internal://[0-9a-f-]+\.txt' is in the project's archive, not in this file: a \.qde is the project file inside a \.qdpx archive, which also holds the sources; import the \.qdpx \(or a \.qdc for the codebook alone\)$" "$tmp/err" || fail "bare .qde: $(head -2 "$tmp/err")"
# A misindented guideline: yaml-cpp's words, and what is probably wrong.
G=$ws/guidelines/remote-work-interview.yaml; cp "$G" "$tmp/g.orig"
sed -i '21s/^      - id: I.2/    - id: I.2/' "$G"
expect 1 "guidelines/remote-work-interview.yaml:21:5: error: YAML syntax error: end of map not found (the lines around here are probably not indented alike: the keys of one map, and the '- ' items of one list, start in the same column, their contents further right; use spaces, not tabs)" q validate
cp "$tmp/g.orig" "$G"
echo "ok: trust round two"
