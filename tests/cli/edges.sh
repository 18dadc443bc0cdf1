#!/usr/bin/env bash
# The sharp edges of issue #14 item 7, each on a copy of the fieldwork fixture (remote-work taxonomy,
# roles manager/employee/contractor, experience junior/mid/senior from tenure, coders dana and carol):
# an empty transcript is no participant; taxonomy export refuses paths that break the workspace;
# import-transcript knows Interviewer:/I:; guide shows every role's wording; guide/new-transcript/codebook
# --at; a split keeps the node's text on the successor of its codings; rank --by/--where check attributes;
# roles and levels with "did you mean"; --compare-level within the taxonomy; coder names case-insensitive;
# history provenance re-anchored by its quote.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
Q=$QUALRANK
export QUALRANK_AUTHOR=tester SOURCE_DATE_EPOCH=1746000000   # 2025-04-30
fresh() { rm -rf "$tmp/$1"; cp -r "$FIXTURES/fieldwork" "$tmp/$1"; echo "$tmp/$1"; }
# run WS EXPECTED_EXIT ARGS...: stdout to $tmp/out, stderr to $tmp/err
run() {
  local ws=$1 want=$2; shift 2
  set +e; "$Q" -C "$ws" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?; set -e
  [[ $rc -eq $want ]] || fail "'$*': exit $rc, expected $want; stderr: $(cat "$tmp/err")"
}
has_err() { grep -qF -- "$1" "$tmp/err" || fail "expected '$1' in stderr: $(cat "$tmp/err")"; }
has_out() { grep -qxF -- "$1" "$tmp/out" || fail "expected the line '$1' in stdout: $(cat "$tmp/out")"; }

# --- 1. An empty transcript (front matter only) is a warning, and no participant ----------------------------
ref=$(fresh ref)
ws=$(fresh empty)
printf -- '---\nparticipant: E03\nrole: employee\ncoder: dana\nattributes:\n  tenure: 3\n---\n' >"$ws/transcripts/E03.md"
run "$ws" 0 validate
has_err "transcripts/E03.md:1:1: warning: the participant says nothing here (no turn with text); not counted as a participant"
for args in "rank --format json --resamples 50" "rank --by experience --format json --resamples 50" "codebook --format json"; do
  run "$ref" 0 $args; cp "$tmp/out" "$tmp/ref.json"
  run "$ws" 0 $args
  cmp -s "$tmp/out" "$tmp/ref.json" || fail "$args: the empty transcript changed the output: $(diff "$tmp/ref.json" "$tmp/out" | head)"
done
grep -q '"E03"\|not set' "$tmp/out" && fail "codebook lists the empty transcript"
[[ $(jq '.participants' "$tmp/out") == 6 ]] || fail "codebook: $(jq '.participants' "$tmp/out") participants, expected 6"
run "$ref" 0 report -o out --resamples 100
run "$ws" 0 report -o out --resamples 100
# Every number the same; only the provenance lists one more input, the empty transcript.
jq 'del(.provenance)' "$ref/out/report.json" >"$tmp/ref.report.json"
jq 'del(.provenance)' "$ws/out/report.json" >"$tmp/ws.report.json"
cmp -s "$tmp/ref.report.json" "$tmp/ws.report.json" || fail "report.json changed by the empty transcript: $(diff "$tmp/ref.report.json" "$tmp/ws.report.json" | head)"
added=$(jq -r --slurpfile r "$ref/out/report.json" '.provenance.inputs | keys - ($r[0].provenance.inputs | keys) | join(",")' "$ws/out/report.json")
[[ $added == transcripts/E03.md ]] || fail "the provenance of the report with the empty transcript adds [$added]"
cmp -s "$ref/out/rankings.md" "$ws/out/rankings.md" || fail "rankings.md changed by the empty transcript"

# --- 2. taxonomy export refuses a path that makes the workspace invalid, unless --force --------------------
ws=$(fresh export)
run "$ws" 2 taxonomy export -o codebooks/v3.yaml
has_err "qualrank taxonomy export: error: not writing codebooks/v3.yaml: the workspace reads every .yaml file in codebooks/ as its taxonomy or its history"
has_err "; --force writes it anyway"
[[ ! -e "$ws/codebooks/v3.yaml" ]] || fail "export wrote codebooks/v3.yaml"
run "$ws" 2 taxonomy export -o ./codebooks/../codebooks/v3.yml
run "$ws" 2 taxonomy export -o guidelines/taxonomy.yaml
has_err "the workspace reads every .yaml file in guidelines/ as its guideline"
run "$ws" 0 validate
run "$ws" 0 taxonomy export -o reports/v2.yaml
grep -q '^ *- id: TOOL.4$' "$ws/reports/v2.yaml" || fail "export -o reports/v2.yaml: no TOOL.4"
run "$ws" 0 taxonomy export --at 1 -o codebooks/v1-copy.yaml --force
[[ -s "$ws/codebooks/v1-copy.yaml" ]] || fail "--force did not write"
run "$ws" 1 validate
has_err "more than one taxonomy"

# --- 3. import-transcript: Interviewer: and I: are the interviewer by default; --interviewer adds a name ---
ws=$(fresh import)
printf 'Interviewer: How does your team share progress?\n\nSam: In a weekly written update.\n\nI: And meetings?\n\nSam: One a week.\n\nDana: Thank you.\n' >"$tmp/talk.txt"
run "$ws" 0 import-transcript "$tmp/talk.txt" --participant E05 --role employee
has_err "wrote transcripts/E05.md (3 participant turns, 2 interviewer turns)"  # Dana is not named: a participant speaker
has_err "speakers Dana, Sam all become participant E05"
grep -qx 'I: How does your team share progress?' "$ws/transcripts/E05.md" || fail "Interviewer: not the interviewer: $(cat "$ws/transcripts/E05.md")"
grep -qx 'I: And meetings?' "$ws/transcripts/E05.md" || fail "I: not the interviewer"
grep -q '^E05: .*\(How does\|And meetings\)' "$ws/transcripts/E05.md" && fail "interviewer text became participant turns"
run "$ws" 0 import-transcript "$tmp/talk.txt" --participant E06 --role employee --interviewer dana
has_err "wrote transcripts/E06.md (2 participant turns, 3 interviewer turns)"
grep -qx 'I: Thank you.' "$ws/transcripts/E06.md" || fail "--interviewer dana"
run "$ws" 0 validate

# --- 4. guide without --role shows each role's wording ---------------------------------------------------------
ws=$(fresh guide)
run "$ws" 0 guide
has_out '- **II.2** (open)'
has_out '  - manager: Which meetings did you keep, and why?'
has_out '  - employee: Which meetings would you drop?'
has_out '  - contractor: Which meetings are you invited to?'
has_out '  - manager: Rank these tool themes by importance for your team.'
has_out '- **II.1** (open) How does your team share progress?'
run "$ws" 0 guide --format text
has_out '      contractor: Which two tool themes matter most to you?'
run "$ws" 0 guide --role employee
has_out '- **II.2** (open) Which meetings would you drop?'
grep -q 'Which meetings did you keep' "$tmp/out" && fail "guide --role employee shows the manager's wording"

# --- 5. guide, new-transcript and codebook take --at and say which version they used ----------------------
# version 3 renames TOOL.1 (Chat -> Team chat), an item of the ranking question III.R
run "$ws" 0 taxonomy propose rename --node TOOL.1 --name "Team chat" --rationale "the name people use"
run "$ws" 0 taxonomy accept E0003 --version-name "renamed chat"
run "$ws" 0 guide --role manager
has_out 'Taxonomy remote-work, version 3 (renamed chat)'
has_out '    - TOOL.1  Team chat'
run "$ws" 0 guide --role manager --at 1
has_out 'Taxonomy remote-work, version 1'
has_out '    - TOOL.1  Chat'
run "$ws" 0 guide --format text --at "after coding round 1"
has_out 'Taxonomy remote-work, version 2 (after coding round 1)'
has_out '        TOOL.1  Chat'
run "$ws" 1 guide --at 9
run "$ws" 0 new-transcript --participant M03 --role manager --at 1
has_err "wrote transcripts/M03.md (taxonomy remote-work, version 1)"
grep -qx '<!-- taxonomy remote-work, version 1 -->' "$ws/transcripts/M03.md" || fail "skeleton names version 1"
grep -q '^     TOOL.1  Chat$' "$ws/transcripts/M03.md" || fail "skeleton at version 1: $(cat "$ws/transcripts/M03.md")"
run "$ws" 0 new-transcript --participant M04 --role manager
grep -qx '<!-- taxonomy remote-work, version 3 (renamed chat) -->' "$ws/transcripts/M04.md" || fail "skeleton names version 3"
grep -q '^     TOOL.1  Team chat$' "$ws/transcripts/M04.md" || fail "skeleton at version 3: $(cat "$ws/transcripts/M04.md")"
run "$ws" 0 codebook --at 1 -o reports/v1.xlsx
grep -q '^qualrank codebook: .* participants, taxonomy version 1$' "$tmp/out" || fail "codebook --at 1: $(cat "$tmp/out")"
run "$ws" 0 codebook -o reports/v2.xlsx
grep -q '^qualrank codebook: .* participants, taxonomy version 3 (renamed chat)$' "$tmp/out" || fail "codebook: $(cat "$tmp/out")"
/usr/bin/python3 - "$ws/reports/v1.xlsx" "$ws/reports/v2.xlsx" <<'EOF' || fail "codebook workbooks do not name their versions"
import sys, openpyxl
for path, want in zip(sys.argv[1:], ["remote-work, version 1", "remote-work, version 3 (renamed chat)"]):
    cells = [c.value for ws in openpyxl.load_workbook(path).worksheets for row in ws.iter_rows() for c in row]
    assert want in cells, (path, want)
EOF

# --- 6. split: the successor of the codings keeps the node's text and labels; the others get a name -------
ws=$(fresh split)
run "$ws" 0 taxonomy propose split --node TOOL.3 --into "TOOL.5:Remote access,TOOL.6:Permissions" --codings-to TOOL.5 --rationale "two things"
has_out 'E0003'
has_err "E0003: TOOL.5 keeps the definition, inclusion, exclusion, aliases and keywords of TOOL.3 (with its codings and children); TOOL.6 gets only a name"
run "$ws" 0 taxonomy accept E0003
run "$ws" 0 taxonomy show --format json
run "$ws" 0 taxonomy export -o reports/latest.yaml
/usr/bin/python3 - "$ws/reports/latest.yaml" <<'EOF' || fail "split: the successors' text"
import sys, yaml
nodes = {}
def walk(ns):
    for n in ns or []:
        nodes[n["id"]] = n
        walk(n.get("children"))
walk(yaml.safe_load(open(sys.argv[1]))["nodes"])
five, six = nodes["TOOL.5"], nodes["TOOL.6"]
assert five.get("definition") == "VPN, single sign-on, laptops and permissions.", five
assert five.get("aliases") == ["vpn"] and five.get("keywords") == ["vpn", "password", "sign-on"], five
assert not six.get("definition") and not six.get("aliases") and not six.get("keywords"), six
assert "TOOL.3" not in nodes
EOF
run "$ws" 0 code --format json
run "$ws" 0 taxonomy propose split --node WELL.2 --into "WELL.3:Evenings,WELL.4:Weekends" --codings-to recode --rationale "two"
has_err "E0004: the successors WELL.3, WELL.4 get only their names; the definition, inclusion, exclusion, aliases and keywords of WELL.2 retire with it"

# --- 7. rank --by / --where: an unknown attribute or value is a usage error with "did you mean" ------------
ws=$(fresh rank)
run "$ws" 2 rank --by nosuchattr
has_err "qualrank rank: error: --by: no participant has an attribute 'nosuchattr' (attributes: "
[[ -s "$tmp/out" ]] && fail "rank --by nosuchattr printed a result"
run "$ws" 2 rank --by tenur
has_err "qualrank rank: error: --by: no participant has an attribute 'tenur' (did you mean 'tenure'?)"
run "$ws" 2 rank --where role=managr
has_err "qualrank rank: error: --where: no participant has role = 'managr' (did you mean 'manager'?)"
run "$ws" 2 rank --where experiance=junior
has_err "--where: no participant has an attribute 'experiance' (did you mean 'experience'?)"
run "$ws" 0 rank --by experience --where role=employee --resamples 0 --format json
# employees: E01 (tenure 1: junior) and E02 (tenure 6: senior), one answer each
[[ $(jq -c '.questions[0].groups | map_values(.n)' "$tmp/out") == '{"junior":1,"senior":1}' ]] ||
  fail "rank --by experience --where role=employee: $(jq -c '.questions[0].groups | map_values(.n)' "$tmp/out")"

# --- 8. roles and experience levels with "did you mean" wherever they are given ----------------------------
run "$ws" 2 guide --role managr
has_err "qualrank guide: error: unknown role 'managr' (did you mean 'manager'?)"
run "$ws" 2 new-transcript --participant X1 --role employe
has_err "qualrank new-transcript: error: unknown role 'employe' (did you mean 'employee'?)"
run "$ws" 2 import-transcript "$tmp/talk.txt" --participant X2 --role contractr
has_err "qualrank import-transcript: error: unknown role 'contractr' (did you mean 'contractor'?)"
run "$ws" 2 new-transcript --participant X1 --role boss
has_err "unknown role 'boss' (the guideline's roles: manager, employee, contractor)"
ws=$(fresh frontmatter)
sed -i 's/^role: employee$/role: employe/' "$ws/transcripts/E02.md"
sed -i 's/^  tenure: 1$/  tenure: 1\n  experience: senoir/' "$ws/transcripts/E01.md"
run "$ws" 1 validate
has_err "transcripts/E02.md:3:7: error: unknown role 'employe' (did you mean 'employee'?)"
has_err "transcripts/E01.md:8:15: error: unknown experience level 'senoir' (did you mean 'senior'?)"

# --- 9. --compare-level beyond the taxonomy's depth ------------------------------------------------------------
ws=$(fresh agree)
run "$ws" 2 agreement --transcripts --compare-level 7 --resamples 0
has_err "qualrank agreement: error: --compare-level 7 is deeper than the taxonomy (3 levels)"
run "$ws" 0 agreement --transcripts --compare-level 3 --resamples 0 --format json
[[ $(jq '.compare_level' "$tmp/out") == 3 ]] || fail "compare-level 3"

# --- 10. coder names compare case-insensitively, with one display form ----------------------------------------
run "$ws" 0 agreement --transcripts --resamples 0 --format json; cp "$tmp/out" "$tmp/agree-ref.json"
run "$ws" 0 code --format json; cp "$tmp/out" "$tmp/code-ref.json"
sed -i 's/^coder: dana$/coder: DANA/' "$ws/transcripts/M01.md"
mv "$ws/transcripts/E01.carol.codes" "$ws/transcripts/E01.CAROL.codes"
cp "$ws/transcripts/E01.CAROL.codes" "$ws/transcripts/E02.carol.codes"
sed -i 's/^t4 .*$//; s/^t6: .*$//' "$ws/transcripts/E02.carol.codes"
run "$ws" 0 validate
has_err "transcripts/M01.md:21:7: warning: coder 'DANA' is written 'dana' elsewhere; counted as one coder 'dana'"
has_err "transcripts/E02.carol.codes:2:5: warning: coder 'carol' is written 'CAROL' elsewhere; counted as one coder 'CAROL'"
run "$ws" 0 agreement --transcripts --resamples 0 --format json
[[ $(jq -c '.coders' "$tmp/out") == '["dana","CAROL","eli"]' ]] || fail "agreement coders: $(jq -c '.coders' "$tmp/out")"
coders() { jq -c '[.. | objects | .coder? // empty | strings] | unique' "$tmp/out"; }
run "$ws" 0 query --coder CaRoL --format json; cp "$tmp/out" "$tmp/q1.json"
run "$ws" 0 query --coder carol --format json
cmp -s "$tmp/out" "$tmp/q1.json" || fail "query --coder depends on the case"
[[ $(jq '.segments | length' "$tmp/out") -ge 4 ]] || fail "query --coder carol: $(jq '.segments | length' "$tmp/out") segments"
run "$ws" 0 code --format json
[[ $(coders) == '["CAROL","dana","eli"]' ]] || fail "code: coders $(coders)"

# --- 11. history provenance re-anchored by its quote when the transcript was edited above it ----------------
ws=$(fresh prov)
run "$ws" 0 taxonomy propose redefine --node COM.2 --definition "Live calls." --by E01 --source transcripts/E01.md:25 --rationale "voices"
grep -qF "quote: \"None, honestly. The calls are the only time I hear my colleagues' voices.\"" "$ws/codebooks/remote-work.history.yaml" ||
  grep_q -F "quote: None, honestly. The calls are the only time I hear my colleagues' voices." "$ws/codebooks/remote-work.history.yaml" ||
  fail "no quote recorded: $(tail -12 "$ws/codebooks/remote-work.history.yaml")"
sed -i '11a\
\
Notes added later: the call was cut off twice.\
Second line of notes.' "$ws/transcripts/E01.md"
grep -n "None, honestly" "$ws/transcripts/E01.md" | grep_q '^28:' || fail "the quoted line did not move to line 28"
run "$ws" 0 taxonomy log --format json
[[ $(jq -r '[.. | objects | select(.participant? == "E01" and (.source? // "" | startswith("transcripts/E01.md:2")))] | map(.source) | join(" ")' "$tmp/out") == "transcripts/E01.md:28" ]] ||
  fail "source not re-anchored: $(jq -c '[.. | objects | select(.participant? == "E01")]' "$tmp/out")"
has_err "note: E0003: source 'transcripts/E01.md:25' re-anchored to transcripts/E01.md:28 by its quote"
sed -i 's/None, honestly. The calls are/Honestly none. The calls are/' "$ws/transcripts/E01.md"
run "$ws" 0 validate
has_err "warning: E0003: source 'transcripts/E01.md:25' no longer points into the turn it quoted (\"None, honestly. The calls are the only time I hear my col...\"), and transcripts/E01.md holds the quote nowhere"

echo "edges: ok"
