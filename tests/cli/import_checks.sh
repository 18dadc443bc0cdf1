#!/usr/bin/env bash
# qualrank import is all-or-nothing and says what happened (issue #16): refused proposals record nothing, a
# project that would leave a workspace failing `validate` writes nothing, the guideline's node ids are never
# rebound by position, two codes on one node are one warning, a project without a codebook says so, a DOCTYPE
# is a warning; and export -> import round-trips the second fixture study (tests/fixtures/fieldwork).
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
Q() { "$QUALRANK" "$@"; }
H="$FIXTURES/refi/hostile"
export QUALRANK_AUTHOR=tester SOURCE_DATE_EPOCH=1748736000
fresh() { rm -rf "$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$tmp/ws"; }
state() { (cd "$tmp/ws" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
imp() {  # imp FILE [OPTIONS]: import from the hostile fixtures' folder into $tmp/ws; sets rc
  set +e; (cd "$H" && "$QUALRANK" -C "$tmp/ws" import "$@") >"$tmp/out" 2>"$tmp/err"; rc=$?; set -e
}
has() { grep -qxF "$1" "$2" || fail "expected the line '$1' in $2: $(cat "$2")"; }

# --- A refused proposal: nothing is proposed, nothing written (was: errors, and the rest appended) --------
fresh; state >"$tmp/before"
imp refused-rename.qdc
[[ $rc -eq 1 ]] || fail "refused-rename.qdc: exit $rc, not 1"
has "refused-rename.qdc:5: warning: code 'TOOL.1 Documentation' maps to TOOL.1, but its name is that of TOOL.2" "$tmp/err"
has "refused-rename.qdc:5: error: cannot propose 'rename TOOL.1 'Chat' -> 'Documentation'': cannot rename: 'Documentation' is already the id, name or alias of node 'TOOL.2' (at version 2 (after coding round 1))" "$tmp/err"
has "qualrank import: nothing imported: the history refuses these proposals (above); none was recorded" "$tmp/err"
state | cmp -s - "$tmp/before" || fail "a refused import changed the workspace"
[[ ! -e $tmp/ws/codebooks/imports ]] || fail "a refused import kept the codebook"

# --- A flat codebook (Taguette's kind): no impossible moves, every proposal recorded ---------------------
fresh
imp flat-codebook.qdc
[[ $rc -eq 0 ]] || fail "flat-codebook.qdc: exit $rc: $(cat "$tmp/err")"
has "flat-codebook.qdc: note: 3 codes at the top level of the codebook map to nested nodes (TOOL.1, TOOL.2, COM.3); they are not proposed as moves" "$tmp/err"
has "flat-codebook.qdc: note: 2 nodes are not in the codebook but nodes under them are (COM, TOOL); they are not proposed for deprecation" "$tmp/err"
has "3 codes matched taxonomy nodes; 2 codes matched nothing (proposed as new nodes)" "$tmp/out"
grep -q "rename" "$tmp/out" && fail "a code named by an alias ('wiki') proposed as a rename: $(cat "$tmp/out")"
grep -q "add [A-Z.0-9]* 'Noise at home' at the top level" "$tmp/out" || fail "add at the top level: $(cat "$tmp/out")"
grep -q "move" "$tmp/out" && fail "a flat codebook proposed moves: $(cat "$tmp/out")"
n=$(grep -c '^  flat-codebook.qdc:' "$tmp/out")
grep -qx "$n differences from the taxonomy; $n proposed as taxonomy edits (provenance: codebooks/imports/flat-codebook.qdc):" "$tmp/out" \
  || fail "every difference proposed: $(head -3 "$tmp/out")"
# children are deprecated before their parent (COM.1.a before COM.1; COM keeps COM.3)
order=$(grep -o 'deprecate COM[.0-9a-z]*' "$tmp/out" | tr '\n' ' ')
[[ $order == "deprecate COM.2 deprecate COM.1.a deprecate COM.1 " ]] || fail "deprecation order: $order"
Q -q -C "$tmp/ws" validate || fail "the history does not validate after the flat codebook"

# --- Two codes on one node: one located warning, no failing moves ----------------------------------------
fresh; imp two-codes-one-node.qdc
has "two-codes-one-node.qdc:5: warning: codes 'TOOL.1 Chat' (line 4) and 'messaging' both map to node TOOL.1; this one is compared as the same node (name it in a --map file to map it elsewhere)" "$tmp/err"
[[ $(grep -c 'warning' "$tmp/err") -eq 1 ]] || fail "more than one warning: $(cat "$tmp/err")"
grep -q "cannot" "$tmp/err" && fail "failing proposals: $(cat "$tmp/err")"
has "2 codes matched taxonomy nodes (1 code shares its node with another code); 0 codes matched nothing" "$tmp/out"
[[ $rc -eq 0 ]] || fail "two-codes-one-node.qdc: exit $rc"

# --- A project without a codebook says so ----------------------------------------------------------------
fresh; imp no-codebook.qde
[[ $rc -eq 0 ]] || fail "no-codebook.qde: exit $rc: $(cat "$tmp/err")"
has "no codebook in the project" "$tmp/out"
grep -q "matches the taxonomy" "$tmp/out" && fail "no-codebook.qde: claims the codebook matches"

# --- A DOCTYPE with entities: a warning; the entities are not expanded -----------------------------------
fresh; imp doctype.qdc
has "doctype.qdc:2: warning: a DOCTYPE with entity declarations is ignored: no DTD is read and entities are not expanded" "$tmp/err"
grep -q "a lot of text" "$tmp/out" "$tmp/err" "$tmp/ws/codebooks"/*.yaml && fail "an entity was expanded"

# --- Codes without ids into a workspace with only the guideline: refused, then mapped ---------------------
rm -rf "$tmp/ws"; mkdir -p "$tmp/ws/guidelines"; cp "$FIXTURES"/fieldwork/guidelines/*.yaml "$tmp/ws/guidelines/"
state >"$tmp/before"
imp no-ids.qde
[[ $rc -eq 1 ]] || fail "no-ids.qde into a guideline: exit $rc, not 1"
has "guidelines/remote-work-interview.yaml:27:13: error: the guideline names node 'COM' (and 3 more), but no-ids.qde's codes carry no ids: ids given by position would point the guideline's questions at unrelated codes; give each code its id in a --map file (code name: node id)" "$tmp/err"
state | cmp -s - "$tmp/before" || fail "a refused project import wrote files"
imp no-ids.qde --map no-ids-map.yaml
[[ $rc -eq 0 ]] || fail "no-ids.qde --map: exit $rc: $(cat "$tmp/err")"
grep -q '^  - id: TOOL$' "$tmp/ws/codebooks/remote-work.yaml" || fail "mapped ids: $(cat "$tmp/ws/codebooks/remote-work.yaml")"
grep -qF '[wiki]{TOOL.2}' "$tmp/ws/transcripts/E09.md" || fail "the coding: $(cat "$tmp/ws/transcripts/E09.md")"
Q -q -C "$tmp/ws" validate || fail "the mapped import does not validate"

# --- A project that would leave a workspace failing validate: nothing written ----------------------------
rm -rf "$tmp/ws"; mkdir -p "$tmp/ws/guidelines"
sed 's/^taxonomy: remote-work$/taxonomy: remote-work-v2/' "$FIXTURES"/fieldwork/guidelines/remote-work-interview.yaml \
  >"$tmp/ws/guidelines/remote-work-interview.yaml"
cp -r "$FIXTURES/fieldwork" "$tmp/fw"
Q -q -C "$tmp/fw" export --qdpx -o "$tmp/fw.qdpx"
state >"$tmp/before"
set +e; Q -C "$tmp/ws" import "$tmp/fw.qdpx" >"$tmp/out" 2>"$tmp/err"; rc=$?; set -e
[[ $rc -eq 1 ]] || fail "import leaving an invalid workspace: exit $rc, not 1: $(cat "$tmp/err")"
has "guidelines/remote-work-interview.yaml:4:11: error: the guideline is written for taxonomy 'remote-work-v2' but the workspace's is 'remote-work'" "$tmp/err"
has "qualrank import: nothing imported: the workspace would not validate afterwards (above)" "$tmp/err"
state | cmp -s - "$tmp/before" || fail "an import that would not validate wrote files"

# --- Round trip of the second study: export --qdpx, import into its guideline alone, same segments -------
rm -rf "$tmp/ws"; mkdir -p "$tmp/ws/guidelines"; cp "$FIXTURES"/fieldwork/guidelines/*.yaml "$tmp/ws/guidelines/"
# The import checks its result in memory: nothing is written outside the workspace (TMPDIR stays empty; it
# used to hold a copy of the whole workspace, left behind by a kill). A temp file a killed import left in
# transcripts/ is removed by this one when its process no longer runs.
sh -c 'exit 0' & dead=$!; wait "$dead"
mkdir -p "$tmp/scratch" "$tmp/ws/transcripts"
echo half >"$tmp/ws/transcripts/.E01.md.$dead.9f3a.tmp"
TMPDIR="$tmp/scratch" Q -C "$tmp/ws" import "$tmp/fw.qdpx" >"$tmp/out" 2>"$tmp/err" || fail "fieldwork round trip: $(cat "$tmp/err")"
has "imported 6 transcripts with 38 codings" "$tmp/out"
[[ -z "$(ls -A "$tmp/scratch")" ]] || fail "the import wrote to TMPDIR: $(ls -A "$tmp/scratch")"
[[ -z "$(find "$tmp/ws" -name '.*.tmp')" ]] || fail "temp files left: $(find "$tmp/ws" -name '.*.tmp')"
Q -q -C "$tmp/ws" validate || fail "the round-tripped fieldwork does not validate"
seg() { Q -C "$1" code --format json --no-suggestions 2>/dev/null | grep -v '^ *"line": [0-9]*$'; }
seg "$tmp/fw" >"$tmp/seg.orig"; seg "$tmp/ws" >"$tmp/seg.new"
cmp -s "$tmp/seg.orig" "$tmp/seg.new" || fail "fieldwork segments differ after the round trip: $(diff "$tmp/seg.orig" "$tmp/seg.new" | head)"
cmp -s "$tmp/fw/codebooks/remote-work.history.yaml" "$tmp/ws/codebooks/remote-work.history.yaml" || fail "the history changed"
Q -q -C "$tmp/ws" export --qdpx -o "$tmp/again.qdpx"
cmp -s "$tmp/fw.qdpx" "$tmp/again.qdpx" || fail "export -> import -> export changed the fieldwork project"
echo "import_checks: ok"
