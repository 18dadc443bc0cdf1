#!/usr/bin/env bash
# Paths and symlinks (issue #16): paths from input files (history provenance) and default output locations
# (reports/, transcripts/ID.md) must stay inside the workspace once symlinks are resolved; command-line paths
# (-o, --labels, --table) are the user's choice, relative to the workspace for every command.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
Q() { "$QUALRANK" "$@"; }
has() { grep -qxF "$1" "$2" || fail "expected the line '$1' in $2: $(cat "$2")"; }
ws="$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$ws"

# --- reports -> a folder outside: report refuses, nothing is written there ------------------------------
mkdir "$tmp/somewhere"; ln -s "$tmp/somewhere" "$ws/reports"
set +e; Q -C "$ws" report --resamples 100 >"$tmp/out" 2>"$tmp/err"; rc=$?; set -e
[[ $rc -eq 1 ]] || fail "report through a symlinked reports/: exit $rc, not 1"
has "qualrank report: error: the default output reports leads outside the workspace (through a symlink); give -o to write there on purpose" "$tmp/err"
[[ -z $(ls -A "$tmp/somewhere") ]] || fail "report wrote through the symlink: $(ls -A "$tmp/somewhere")"
set +e; Q -C "$ws" codebook >"$tmp/out" 2>"$tmp/err"; rc=$?; set -e
[[ $rc -eq 1 ]] || fail "codebook through a symlinked reports/: exit $rc, not 1"
has "qualrank codebook: error: the default output reports/codebook.xlsx leads outside the workspace (through a symlink); give -o to write there on purpose" "$tmp/err"
# given on the command line, the same place is the user's choice
Q -q -C "$ws" codebook -o reports/codebook.xlsx || fail "codebook -o reports/codebook.xlsx"
[[ -f $tmp/somewhere/codebook.xlsx ]] || fail "-o through the symlink was not written"
rm "$ws/reports"

# --- a symlink inside the workspace that stays inside is fine ------------------------------------------
mkdir "$ws/out.real"; ln -s out.real "$ws/reports"
Q -q -C "$ws" codebook || fail "codebook into reports -> out.real (inside)"
[[ -f $ws/out.real/codebook.xlsx ]] || fail "codebook.xlsx not in out.real"
rm "$ws/reports"

# --- command-line paths: relative to the workspace, ".." allowed, the same for every command ------------
Q -q -C "$ws" taxonomy export -o ../taxonomy.yaml || fail "taxonomy export -o ../taxonomy.yaml"
grep -q '^taxonomy: remote-work$' "$tmp/taxonomy.yaml" || fail "-o ../taxonomy.yaml not beside the workspace"
cat >"$ws/rankings.csv" <<'CSV'
participant,question,ranking,role
M01,III.R,TOOL.1>TOOL.2>TOOL.3,manager
M02,III.R,TOOL.2>TOOL.1>TOOL.3,manager
CSV
(cd "$tmp" && Q -C "$ws" rank --table rankings.csv --format json --resamples 50 >"$tmp/rank.json" 2>"$tmp/err") \
  || fail "rank --table relative to the workspace: $(cat "$tmp/err")"
grep -q "\"n\": 2," "$tmp/rank.json" || fail "rank --table read another file: $(head -20 "$tmp/rank.json")"

# --- provenance through a symlink to /etc is outside the workspace, never read ----------------------------
mkdir "$ws/escape"; seq 1 100000 >"$ws/escape/passwd"
Q -q -C "$ws" taxonomy propose add --id WELL.3 --parent WELL --name "Noise at home" --rationale r \
  --by E01 --source escape/passwd:99999 >/dev/null || fail "propose with a provenance inside the workspace"
Q -q -C "$ws" validate || fail "validate with escape/ a folder"
rm -r "$ws/escape"; ln -s /etc "$ws/escape"
set +e; Q -C "$ws" validate >"$tmp/out" 2>"$tmp/err"; rc=$?; set -e
[[ $rc -eq 1 ]] || fail "provenance through a symlink: exit $rc, not 1"
has "codebooks/remote-work.history.yaml:54:17: error: E0003: source 'escape/passwd:99999' is outside the workspace" "$tmp/err"
grep -q "past the end" "$tmp/err" && fail "the file behind the symlink was read"
ws2="$tmp/ws2"; cp -r "$FIXTURES/fieldwork" "$ws2"; ln -s /etc "$ws2/escape"
set +e; Q -C "$ws2" taxonomy propose add --id WELL.4 --parent WELL --name "Pets" --rationale r \
  --by E01 --source escape/hostname:1 >/dev/null 2>"$tmp/err"; rc=$?; set -e
[[ $rc -eq 1 ]] || fail "propose with a provenance through a symlink: exit $rc"
has "codebooks/remote-work.history.yaml: error: --source: source 'escape/hostname:1' is outside the workspace" "$tmp/err"
cmp -s "$ws2/codebooks/remote-work.history.yaml" "$FIXTURES/fieldwork/codebooks/remote-work.history.yaml" || fail "a refused proposal changed the history"
# --- a workspace file that is a symlink leading out is an error and never read ---------------------------
ws3="$tmp/ws3"; cp -r "$FIXTURES/fieldwork" "$ws3"; ln -s /etc/passwd "$ws3/transcripts/Z99.md"
set +e; Q -C "$ws3" validate >"$tmp/out" 2>"$tmp/err"; rc=$?; set -e
[[ $rc -eq 1 ]] || fail "a transcript symlinked to /etc/passwd: exit $rc, not 1"
has "transcripts/Z99.md: error: leads outside the workspace through a symlink; not read" "$tmp/err"
grep -q "root" "$tmp/err" && fail "the file behind the symlink was read: $(cat "$tmp/err")"
echo "paths: ok"
