#!/usr/bin/env bash
# qualrank init: a new workspace that validates and reports as written, with the roles asked for; never overwrites.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}" "${SOURCE_DIR:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# The fieldwork study's roles, into a folder that does not exist yet.
"$QUALRANK" -C "$tmp" init remote --roles manager,employee,contractor --taxonomy remote-work 2>"$tmp/init.err"
ws="$tmp/remote"
for f in codebooks/remote-work.yaml guidelines/remote-work-interview.yaml transcripts/.keep NEXT-STEPS.md; do
  [[ -f "$ws/$f" ]] || fail "missing $f"
  grep -qF "  $f" "$tmp/init.err" || fail "$f not listed as written"
done
g="$ws/guidelines/remote-work-interview.yaml"
grep -qx 'roles: \[manager, employee, contractor\]' "$g" || fail "roles"
grep -qx 'taxonomy: remote-work' "$g" || fail "guideline names the taxonomy"
for r in manager employee contractor; do
  grep -qx "          $r: Thinking of your work as $r, what makes it harder than it needs to be?" "$g" || fail "open question for $r"
  grep -qx "          $r: Rank these challenges by how much they matter to you as $r." "$g" || fail "ranking question for $r"
done
"$QUALRANK" -C "$ws" validate >"$tmp/v" 2>&1 || { cat "$tmp/v"; fail "init workspace does not validate"; }
"$QUALRANK" -C "$ws" guide --role contractor --format md >"$tmp/guide"
grep -qF -- '- **II.R** (ranking) Rank these challenges by how much they matter to you as contractor.' "$tmp/guide" || fail "guide shows the role's ranking question"
grep -qF 'rank every one of the 3 items' "$tmp/guide" || fail "ranking over the 3 example challenges"
grep -qF -- '- **I.1** (background)' "$tmp/guide" || fail "background part"
# report runs on the empty workspace, and after a transcript is added.
"$QUALRANK" -q -C "$ws" report >"$tmp/r0" 2>&1 || { cat "$tmp/r0"; fail "report on the new workspace"; }
[[ -s "$ws/reports/report.json" ]] || fail "report.json"
"$QUALRANK" -C "$ws" new-transcript --participant M01 --role manager --attr years=7 2>/dev/null
# A skeleton not filled in yet is not a participant (a warning says so); once M01 says something, it is.
"$QUALRANK" -C "$ws" validate >"$tmp/v1" 2>&1 || { cat "$tmp/v1"; fail "validate after new-transcript"; }
grep -q "transcripts/M01.md:1:1: warning: the participant says nothing here" "$tmp/v1" || { cat "$tmp/v1"; fail "no warning for the empty skeleton"; }
sed -i '0,/^M01: *$/s//M01: Deadlines, mostly. There is never enough time./' "$ws/transcripts/M01.md"
"$QUALRANK" -C "$ws" validate >"$tmp/v2" 2>&1 || { cat "$tmp/v2"; fail "validate after new-transcript"; }
grep -q "says nothing" "$tmp/v2" && { cat "$tmp/v2"; fail "M01 says something now"; }
"$QUALRANK" -q -C "$ws" report >"$tmp/r1" 2>&1 || { cat "$tmp/r1"; fail "report after new-transcript"; }
jq -e '.codebook.participants | length == 1' "$ws/reports/report.json" >/dev/null 2>&1 \
  || jq -e '[.. | objects | select(has("participant")) | .participant] | index("M01") != null' "$ws/reports/report.json" >/dev/null \
  || fail "M01 not in report.json"

# Never overwrites: any file it would write, or another taxonomy, stops it; nothing changes.
before=$(cd "$ws" && find . -type f -not -path './reports/*' | sort | xargs md5sum)
set +e
"$QUALRANK" -C "$ws" init 2>"$tmp/again.err"; rc=$?
set -e
[[ $rc == 1 ]] || fail "init into an existing workspace exit $rc"
grep -qF 'holds a workspace' "$tmp/again.err" && grep -qF '  codebooks/remote-work.yaml' "$tmp/again.err" \
  && grep -qF '  guidelines/remote-work-interview.yaml' "$tmp/again.err" || { cat "$tmp/again.err"; fail "conflicts not listed"; }
[[ "$(cd "$ws" && find . -type f -not -path './reports/*' | sort | xargs md5sum)" == "$before" ]] || fail "existing files changed"
[[ ! -e "$ws/codebooks/study.yaml" ]] || fail "wrote a second taxonomy"
mkdir -p "$tmp/half"; echo "# mine" >"$tmp/half/NEXT-STEPS.md"
set +e
"$QUALRANK" init "$tmp/half" 2>"$tmp/half.err"; rc=$?
set -e
[[ $rc == 1 ]] && grep -qx '  NEXT-STEPS.md' "$tmp/half.err" || fail "an existing NEXT-STEPS.md must stop init"
[[ "$(cat "$tmp/half/NEXT-STEPS.md")" == "# mine" && ! -e "$tmp/half/codebooks" ]] || fail "init wrote beside a conflict"

# DIR defaults to the current folder (here via -C); default roles and taxonomy name.
mkdir "$tmp/here"
"$QUALRANK" -q -C "$tmp/here" init
grep -qx 'roles: \[group-a, group-b\]' "$tmp/here/guidelines/study-interview.yaml" || fail "default roles"
"$QUALRANK" -C "$tmp/here" validate >/dev/null 2>&1 || fail "default workspace validates"

# Bad names are usage errors; nothing written.
set +e
"$QUALRANK" init "$tmp/bad1" --roles 'a b,c' 2>"$tmp/bad1.err"; rc1=$?
"$QUALRANK" init "$tmp/bad2" --roles x,X 2>"$tmp/bad2.err"; rc2=$?
"$QUALRANK" init "$tmp/bad3" --taxonomy ../up 2>"$tmp/bad3.err"; rc3=$?
set -e
[[ $rc1 == 2 && $rc2 == 2 && $rc3 == 2 ]] || fail "bad names exit $rc1 $rc2 $rc3"
grep -qF "role 'a b' may contain only" "$tmp/bad1.err" && grep -qF "role 'X' is given twice" "$tmp/bad2.err" \
  && grep -qF "taxonomy name '../up'" "$tmp/bad3.err" || fail "bad-name messages"
[[ ! -e "$tmp/bad1" && ! -e "$tmp/bad2" && ! -e "$tmp/bad3" ]] || fail "wrote despite bad names"
# No words of the bundled study in what init writes.
if grep -riE 'issue type|framework|llm|novice|expert|sub-theme' "$ws/codebooks" "$ws/guidelines" "$ws/NEXT-STEPS.md" >"$tmp/words"; then
  cat "$tmp/words"; fail "bundled-study words"; fi
"$QUALRANK" init --help >"$tmp/help"
grep -qF -- '--roles' "$tmp/help" && grep -qF -- '--taxonomy' "$tmp/help" || fail "--help"
"$QUALRANK" help >"$tmp/list"
for c in init participants; do
  line=$(grep -E "^  $c " "$tmp/list")
  grep -qxF "$line" "$SOURCE_DIR/README.md" || fail "README's command list lacks: $line"
done
echo "init: ok"
