#!/usr/bin/env bash
# qualrank export --qdc/--qdpx and import: the exports validate against the REFI-QDA schemas (read from
# $SHARED_DIR, never copied into the repo), are reproducible, and round-trip; a QualCoder-style project
# imports; broken projects give located errors; a .qdc into a workspace with a taxonomy becomes proposals.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}" "${SHARED_DIR:?}"
XSD="$SHARED_DIR/reference/refi-qda"
if [[ ! -f $XSD/Codebook.xsd || ! -f $XSD/Project.xsd ]]; then
  echo "skipped: the REFI-QDA schemas ($XSD) are absent"
  exit 77
fi
for tool in xmllint unzip; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed (make deps-test)"; exit 77; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
Q() { "$QUALRANK" "$@"; }
valid_qdc() { xmllint --noout --schema "$XSD/Codebook.xsd" "$1" 2>"$tmp/xmllint.log" || fail "$1 does not validate: $(cat "$tmp/xmllint.log")"; }
valid_qdpx() {
  unzip -p "$1" project.qde >"$tmp/project.qde" || fail "$1 has no project.qde"
  xmllint --noout --schema "$XSD/Project.xsd" "$tmp/project.qde" 2>"$tmp/xmllint.log" || fail "$1 does not validate: $(cat "$tmp/xmllint.log")"
}
# Segments as JSON without the transcript line numbers (the imported transcripts are laid out anew).
segments() { Q -C "$1" code --format json --no-suggestions 2>/dev/null | grep -v '^ *"line": [0-9]*$'; }

# --- The bundled study: exports validate and are reproducible -------------------------------------------
study="$tmp/study"; mkdir "$study"
cp -r "$SOURCE_DIR"/codebooks "$SOURCE_DIR"/guidelines "$SOURCE_DIR"/transcripts "$study"/
Q -q -C "$study" export --qdc -o "$tmp/study.qdc" || fail "export --qdc"
valid_qdc "$tmp/study.qdc"
TZ=Pacific/Auckland Q -q -C "$study" export --qdc -o "$tmp/again.qdc"
cmp -s "$tmp/study.qdc" "$tmp/again.qdc" || fail "export --qdc is not reproducible"
grep -q 'name="A.1.i System Support and Dependency Management" isCodable="true"' "$tmp/study.qdc" || fail "code name ID NAME"
grep -q '<Code guid="[0-9a-f-]*" name="A Question" isCodable="true" color="#1F77B4">' "$tmp/study.qdc" || fail "issue types are codes"
Q -q -C "$study" export --qdc --at 1 -o "$tmp/v1.qdc" && valid_qdc "$tmp/v1.qdc"
# codes keep their GUIDs across versions (name-based on taxonomy name and node id)
guid_v1=$(grep -o '<Code guid="[^"]*" name="A.1 ' "$tmp/v1.qdc"); grep -qF "$guid_v1" "$tmp/study.qdc" || fail "GUID of A.1 changed between versions"

Q -q -C "$study" export --qdpx -o "$tmp/study.qdpx" || fail "export --qdpx"
valid_qdpx "$tmp/study.qdpx"
TZ=America/Los_Angeles Q -q -C "$study" export --qdpx -o "$tmp/again.qdpx"
cmp -s "$tmp/study.qdpx" "$tmp/again.qdpx" || fail "export --qdpx is not reproducible"
unzip -l "$tmp/study.qdpx" >"$tmp/listing"  # (no `| grep_q`: its early exit would fail the pipeline)
grep -q ' 2025-01-01 00:00 *project.qde' "$tmp/listing" || fail "zip timestamps: $(head -5 "$tmp/listing")"
[[ $(grep -c ' sources/[0-9a-f-]*\.txt$' "$tmp/listing") -eq 19 ]] || fail "19 sources"
grep -q ' qualrank/guidelines/llm-frameworks-interview.yaml$' "$tmp/listing" || fail "the guideline is carried"
# every coded segment is a selection; each selection's offsets point at exactly the segment's text
[[ $(unzip -p "$tmp/study.qdpx" project.qde | grep -c '<PlainTextSelection ') -eq 160 ]] || fail "160 selections"
src=$(unzip -p "$tmp/study.qdpx" project.qde | grep -o 'name="U01" plainTextPath="internal://[^"]*"' | sed 's/.*internal:\/\///; s/"$//')
sel=$(unzip -p "$tmp/study.qdpx" project.qde | grep -o 'name="U01#t6\[[0-9]*:[0-9]*\]" startPosition="[0-9]*" endPosition="[0-9]*"')
start=$(sed 's/.*startPosition="\([0-9]*\)".*/\1/' <<<"$sel"); end=$(sed 's/.*endPosition="\([0-9]*\)".*/\1/' <<<"$sel")
unzip -p "$tmp/study.qdpx" "sources/$src" >"$tmp/U01.txt"
# (U01's text before the span is ASCII, so code points are bytes here; tests/unit checks every selection)
head -c "$end" "$tmp/U01.txt" >"$tmp/U01.head"
LC_ALL=C grep -q '[^ -~[:space:]]' "$tmp/U01.head" && fail "U01 is not ASCII before the span"
[[ $(tail -c "$((end - start))" "$tmp/U01.head") == "CUDA and PyTorch versions" ]] || fail "U01#t6 span offsets $start-$end"

# --- Import into a workspace with only the guideline: same segments, rankings, codebook ----------------
fresh="$tmp/fresh"; mkdir -p "$fresh/guidelines"; cp "$SOURCE_DIR"/guidelines/*.yaml "$fresh/guidelines/"
Q -C "$fresh" import "$tmp/study.qdpx" >"$tmp/import.out" 2>"$tmp/import.err" || fail "import: $(cat "$tmp/import.err")"
grep -q 'imported 19 transcripts' "$tmp/import.out" || fail "import summary: $(cat "$tmp/import.out")"
Q -C "$fresh" validate >/dev/null 2>&1 || fail "the imported workspace does not validate"
segments "$study" >"$tmp/seg.orig"; segments "$fresh" >"$tmp/seg.new"
cmp -s "$tmp/seg.orig" "$tmp/seg.new" || fail "segments differ after import: $(diff "$tmp/seg.orig" "$tmp/seg.new" | head)"
if Q -C "$study" rank --format json --resamples 200 >"$tmp/rank.orig" 2>/dev/null; then
  Q -C "$fresh" rank --format json --resamples 200 >"$tmp/rank.new" 2>/dev/null || fail "rank on the imported workspace"
  cmp -s "$tmp/rank.orig" "$tmp/rank.new" || fail "rank differs after import"
fi
if Q -C "$study" codebook --format json >"$tmp/codebook.orig" 2>/dev/null; then
  Q -C "$fresh" codebook --format json >"$tmp/codebook.new" 2>/dev/null || fail "codebook on the imported workspace"
  # (exemplar quotes name their FILE:LINE; an import lays the transcripts out anew, so lines differ, as above)
  noline() { sed -E 's/("source": "[^"]*:)[0-9]+"/\1LINE"/' "$1"; }
  cmp -s <(noline "$tmp/codebook.orig") <(noline "$tmp/codebook.new") || fail "codebook differs after import"
  grep -q '"source": "transcripts/U04.md:[0-9]*"' "$tmp/codebook.new" || fail "exemplar picks lost in the import"
fi
# export -> import -> export: the same project, byte for byte
Q -q -C "$fresh" export --qdpx -o "$tmp/reexport.qdpx" 2>/dev/null
cmp -s "$tmp/study.qdpx" "$tmp/reexport.qdpx" || fail "export -> import -> export changed the project"
# importing again: files that hold exactly the planned bytes are no clash (an import killed half-way can be
# run again); an edited transcript is not overwritten without --force
Q -q -C "$fresh" import "$tmp/study.qdpx" >/dev/null 2>"$tmp/again.err" || fail "re-import of the same bytes: $(cat "$tmp/again.err")"
echo "<!-- edited after the import -->" >>"$fresh/transcripts/U01.md"
Q -C "$fresh" import "$tmp/study.qdpx" >/dev/null 2>"$tmp/again.err" && fail "re-import overwrote transcripts"
grep -q 'study.qdpx:project.qde:[0-9]*: error: transcripts/U01.md exists; not overwritten (use --force' "$tmp/again.err" || fail "re-import message: $(head -3 "$tmp/again.err")"
Q -q -C "$fresh" import --force "$tmp/study.qdpx" >/dev/null 2>&1 || fail "import --force"

# --- A codebook into an empty workspace creates the taxonomy; exporting it again gives the same codebook --
cb="$tmp/cb"; mkdir -p "$cb/guidelines"; cp "$SOURCE_DIR"/guidelines/*.yaml "$cb/guidelines/"
Q -q -C "$cb" import "$tmp/v1.qdc" >/dev/null || fail "import .qdc into an empty workspace"
[[ -f $cb/codebooks/llm-frameworks.yaml ]] || fail "no taxonomy created from the codebook"
Q -q -C "$cb" export --qdc -o "$tmp/cb.qdc"
cmp -s "$tmp/v1.qdc" "$tmp/cb.qdc" || fail "qdc -> taxonomy -> qdc changed the codebook: $(diff "$tmp/v1.qdc" "$tmp/cb.qdc" | head)"

# --- A .qdc into a workspace with a taxonomy: differences become proposals, the taxonomy stays -----------
mini="$tmp/mini"; cp -r "$FIXTURES/mini" "$mini"
Q -q -C "$mini" export --qdc -o "$tmp/mini.qdc"
sed -e 's/name="A.2 Usage"/name="A.2 Usage and Examples"/' \
    -e 's|<Code guid="[^"]*" name="B.2 Numerics"|<Code guid="0b6e3f1c-2d4a-4b8e-9c1f-7a5d3e2b1c0f" name="B.3 Kernels" isCodable="true"/>&|' \
    "$tmp/mini.qdc" >"$tmp/edited.qdc"
cp "$mini/codebooks/mini.yaml" "$tmp/mini.yaml.before"
QUALRANK_AUTHOR=tester Q -C "$mini" import "$tmp/edited.qdc" >"$tmp/qdc.out" || fail "import .qdc with differences"
cmp -s "$mini/codebooks/mini.yaml" "$tmp/mini.yaml.before" || fail "a .qdc import changed the taxonomy file"
grep -q "edited.qdc:[0-9]*: rename A.2 'Usage' -> 'Usage and Examples'" "$tmp/qdc.out" || fail "rename difference: $(cat "$tmp/qdc.out")"
grep -q "add B.3 'Kernels' under B" "$tmp/qdc.out" || fail "add difference"
Q -C "$mini" taxonomy log >"$tmp/log" 2>/dev/null || fail "taxonomy log"
grep -q "E0001  proposed  rename A.2" "$tmp/log" || fail "proposal E0001: $(cat "$tmp/log")"
grep -q "codebooks/imports/edited.qdc:" "$tmp/log" || fail "provenance is the kept codebook"
QUALRANK_AUTHOR=tester Q -C "$mini" import "$tmp/edited.qdc" >"$tmp/qdc2.out" 2>&1
grep -q "0 proposed" "$tmp/qdc2.out" || fail "a second import proposed again: $(cat "$tmp/qdc2.out")"

# --- A project written the way QualCoder writes them ----------------------------------------------------
qc="$tmp/qc"; cp -r "$FIXTURES/mini" "$qc"
Q -C "$qc" import "$FIXTURES/refi/qualcoder.qdpx" >/dev/null 2>"$tmp/qc.err" && fail "unmapped code accepted"
grep -q "qualcoder.qdpx:project.qde:21: error: code 'Memory problems' does not map" "$tmp/qc.err" || fail "unmapped code error: $(cat "$tmp/qc.err")"
grep -q "qualcoder.qdpx:project.qde:13: warning: code 'Questions' does not map" "$tmp/qc.err" || fail "unmapped category warning"
[[ ! -e $qc/transcripts/Anna.md ]] || fail "a failed import wrote files"
Q -C "$qc" import "$FIXTURES/refi/qualcoder.qdpx" --map "$FIXTURES/refi/qualcoder-map.yaml" >/dev/null 2>&1 || fail "import with --map"
Q -C "$qc" validate >/dev/null 2>&1 || fail "the QualCoder import does not validate"
Q -C "$qc" code --format csv --no-suggestions >"$tmp/qc.csv"
# the byte-order mark is not a character, and 'naïve' counts as 5 characters: offsets land on the words
grep -qF 'Anna#t4[19:51],Anna,user,,B.1,colin,,,transcripts/Anna.md:' "$tmp/qc.csv" || fail "Anna#t4: $(cat "$tmp/qc.csv")"
grep -qF ',ran out of memory on every batch' "$tmp/qc.csv" || fail "span text"
grep -qF 'Anna#t2,Anna,user,,A.1,colin,' "$tmp/qc.csv" || fail "whole-line selection is a whole turn"
grep -qF 'Anna#t2[64:104],Anna,user,,A.1,colin,"Version matching, again."' "$tmp/qc.csv" || fail "memo from a Note"
grep -qF 'P4#t1[22:37],P4,developer,,A.1,maria,' "$tmp/qc.csv" || fail "second coder's span"
grep -qF 'P4#t2[0:20],P4,developer,,B.1,"colin,maria"' "$tmp/qc.csv" || fail "two coders on one selection"
grep -q '^ *years: 5$' "$qc/transcripts/P4.md" || fail "case variable as attribute"
[[ -f $qc/transcripts/P4.maria.codes ]] || fail "second coder's codings file"
Q -q -C "$qc" export --qdpx -o "$tmp/qc.qdpx" && valid_qdpx "$tmp/qc.qdpx"
# the same project into a workspace with only a guideline: its codes carry no ids, and the guideline names
# node ids, so ids by position are refused; a --map file gives the codes their ids
qe="$tmp/qe"; mkdir -p "$qe/guidelines"; cp "$FIXTURES"/mini/guidelines/*.yaml "$qe/guidelines/"
Q -C "$qe" import "$FIXTURES/refi/qualcoder.qdpx" >/dev/null 2>"$tmp/qe.err" && fail "QualCoder project bound by position"
grep -q "error: the guideline names node 'A' (and 1 more), but .*qualcoder.qdpx's codes carry no ids" "$tmp/qe.err" || fail "positional refusal: $(cat "$tmp/qe.err")"
[[ ! -e $qe/codebooks ]] || fail "a refused import wrote the taxonomy"
printf 'Questions: A\nInstallation: A.1\nUsage: A.2\nBugs: B\nMemory problems: B.1\n' >"$tmp/qe-map.yaml"
Q -C "$qe" import "$FIXTURES/refi/qualcoder.qdpx" --map "$tmp/qe-map.yaml" >/dev/null 2>"$tmp/qe.err" || fail "QualCoder project with ids from --map: $(cat "$tmp/qe.err")"
grep -q '^taxonomy: mini$' "$qe/codebooks/mini.yaml" || fail "taxonomy name from the guideline"
grep -q '^      - id: A.1$' "$qe/codebooks/mini.yaml" && grep -q '^        name: Installation$' "$qe/codebooks/mini.yaml" || fail "ids from --map"
Q -C "$qe" validate >/dev/null 2>&1 || fail "the created workspace does not validate"

# other tools' speaker names: --interviewer maps one to I, a repeated other name becomes the participant
sp="$tmp/sp"; cp -r "$FIXTURES/mini" "$sp"
Q -C "$sp" import "$FIXTURES/refi/speakers.qde" --interviewer Dana >/dev/null 2>"$tmp/sp.err" || fail "speakers.qde: $(cat "$tmp/sp.err")"
grep -q "speaker Anna becomes participant P8" "$tmp/sp.err" || fail "speaker note: $(cat "$tmp/sp.err")"
grep -qx 'I: How did the install go?' "$sp/transcripts/P8.md" || fail "interviewer turn: $(cat "$sp/transcripts/P8.md")"
grep -qx 'P8: Badly, \[the wheel did not match\]{A.1}.' "$sp/transcripts/P8.md" || fail "participant turn"
[[ $(grep -A1 -x 'P8: Out of memory, twice.' "$sp/transcripts/P8.md" | tail -1) == '@code B.1' ]] || fail "a whole-turn selection is @code"
rm -rf "$sp"; cp -r "$FIXTURES/mini" "$sp"
Q -C "$sp" import "$FIXTURES/refi/speakers.qde" >/dev/null 2>"$tmp/sp.err" || fail "speakers.qde without --interviewer"
grep -q "lines start with speaker names (Anna, Dana) but none is the interviewer" "$tmp/sp.err" || fail "speaker warning: $(cat "$tmp/sp.err")"

# --- Broken projects: one problem each -------------------------------------------------------------------
imp() {  # FILE [OPTIONS]: import a broken-fixture file into a fresh copy of the mini workspace
  local file=$1; shift
  rm -rf "$tmp/b"; cp -r "$FIXTURES/mini" "$tmp/b"
  (cd "$FIXTURES/refi/broken" && "$QUALRANK" -C "$tmp/b" import "$file" "$@") >"$tmp/b.out" 2>"$tmp/b.err"
}
expect() { grep -q "$1" "$tmp/b.err" || fail "expected '$1', got: $(cat "$tmp/b.err")"; }
imp ok.qde || fail "ok.qde: $(cat "$tmp/b.err")"
Q -C "$tmp/b" validate >/dev/null 2>&1 || fail "ok.qde import does not validate"
grep -q '^P7: I could not \[install the right wheel\]{A.1}.$' "$tmp/b/transcripts/P7.md" || fail "ok.qde span: $(cat "$tmp/b/transcripts/P7.md")"
imp unknown-code-guid.qde && fail "unknown-code-guid.qde accepted"
expect "unknown-code-guid.qde:24: error: unknown code GUID '99999999"
[[ ! -e $tmp/b/transcripts/P7.md ]] || fail "unknown-code-guid.qde wrote a transcript"
imp selection-outside.qde || fail "selection-outside.qde: $(cat "$tmp/b.err")"
expect "selection-outside.qde:23: warning: selection \[12, 99) is outside its source (36 characters)"
[[ -e $tmp/b/transcripts/P7.md ]] || fail "selection-outside.qde: the rest is imported"
imp no-role.qde && fail "no-role.qde accepted"
expect "no-role.qde:21: error: case 'P7' has no 'role' variable"
imp no-role.qde --role user || fail "no-role.qde --role user: $(cat "$tmp/b.err")"
grep -q '^role: user$' "$tmp/b/transcripts/P7.md" || fail "--role sets the role"
imp unknown-user.qde && fail "unknown-user.qde accepted"
expect "unknown-user.qde:23: error: unknown user GUID"
echo "refi: ok"
