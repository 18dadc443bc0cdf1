#!/usr/bin/env bash
# README's "Start your own study": the sh block under that heading, run as written in an empty folder with the
# built binary as `qualrank`; then its results are read back (values, not only files).
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$tmp/bin" "$tmp/run"
ln -s "$QUALRANK" "$tmp/bin/qualrank"
# The first ```sh block after the heading, up to its closing fence.
awk '/^## Start your own study$/ {on=1; next}
     on && /^```sh$/ {inblock=1; next}
     inblock && /^```$/ {exit}
     inblock {print}' "$SOURCE_DIR/README.md" >"$tmp/walk.sh"
[[ $(grep -c '^qualrank ' "$tmp/walk.sh") -ge 10 ]] || fail "README section not found or too short: $(cat "$tmp/walk.sh")"
for step in 'qualrank init' 'qualrank new-transcript' 'qualrank code add' 'qualrank validate' 'qualrank query' \
            'qualrank rank' 'qualrank participants import' 'qualrank report'; do
  grep -qF "$step" "$tmp/walk.sh" || fail "the walk lacks '$step'"
done
(cd "$tmp/run" && PATH="$tmp/bin:$PATH" bash -euo pipefail "$tmp/walk.sh") >"$tmp/out" 2>"$tmp/err" || {
  cat "$tmp/out" "$tmp/err"; fail "README walk failed"; }

ws="$tmp/run/my-study"
[[ -f "$ws/codebooks/challenges.yaml" && -f "$ws/guidelines/challenges-interview.yaml" && -f "$ws/NEXT-STEPS.md" ]] || fail "init files"
grep -q '^roles: \[manager, staff\]$' "$ws/guidelines/challenges-interview.yaml" || fail "roles from --roles"
# participants import: 8 months -> 0.67 years added to P02; P01's 6 years equal to its front matter.
grep -q '^  years: 0.67$' "$ws/transcripts/P02.md" || fail "8 months not imported as 0.67"
grep -qF 'transcripts/P02.md: years: (not set) -> 0.67' "$tmp/out" || fail "change not listed"
grep -q 'dry run: nothing written' "$tmp/out" || fail "dry run summary"
# code add put CH.3 on P02's turn 1 (the answer to II.1)
grep -q '^@code CH.3$' "$ws/transcripts/P02.md" || fail "code add"
# report: the ranking of P02 reached report.json (staff group, one participant, CH.3 first).
jq -e '.rankings.questions[] | select(.question=="II.R") | .groups.staff.n == 1' "$ws/reports/report.json" >/dev/null || fail "staff ranking n"
jq -e '.rankings.questions[] | select(.question=="II.R") | .groups.staff.consensus[0] == "CH.3"' "$ws/reports/report.json" >/dev/null || fail "staff consensus"
[[ -s "$ws/reports/index.html" ]] || fail "index.html"
# Nothing of the bundled study's vocabulary in what init wrote.
if grep -riE 'issue type|framework context|llm|novice|expert|sub-theme' "$ws/codebooks" "$ws/guidelines" "$ws/NEXT-STEPS.md" >"$tmp/words"; then
  cat "$tmp/words"; fail "bundled-study words in the starter workspace"; fi
echo "readme_start: ok"
