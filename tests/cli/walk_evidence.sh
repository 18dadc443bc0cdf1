#!/usr/bin/env bash
# The reconcile walks show the evidence (#37.10): `corpus reconcile` prints for each open document its url and
# date, its GitHub labels, the start of its body (wrapped to 80 columns off a terminal, "… (N more lines)")
# and each coder's label as "ID Name" with the coder's note; `reconcile` prints "unit k of N", the turn before
# the unit (the interviewer's question), each coder's codes as "ID Name" and each coder's memo. Both walks take
# "o ID[,ID]" on one line (#37.12), and the transcript walk still takes "o" then the ids on the next prompt.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$ws"
q() { "$QUALRANK" -C "$ws" "$@"; }
export SOURCE_DATE_EPOCH=1764547200  # 2025-12-01
# has FILE LINE: FILE holds LINE exactly.
has() { grep -qxF -- "$2" "$1" || fail "no line '$2' in: $(cat -A "$1")"; }

# --- corpus reconcile: one open document, a body of 20 short lines and one long one (wrapped at 80 columns).
long=$(printf 'word%.0s ' $(seq 1 30))
body="first line of the body"
for i in $(seq 2 20); do body+="\\nline $i"; done
body+="\\n$long"
cat >"$tmp/x.json" <<EOF
[{"number": 7, "url": "https://example.org/a/b/issues/7", "title": "Recorded demos replace the call",
  "body": "$body", "createdAt": "2024-03-05T10:00:00Z", "labels": [{"name": "bug"}, {"name": "needs triage"}]}]
EOF
q -q corpus import "$tmp/x.json" --source x
printf 'sources: {}\n' >"$ws/corpus/keywords.yaml"
q -q corpus retrieve
q -q corpus sample s --size 1
q -q corpus label --coder alice --sample s --doc x#7 --node COM.1 --note "they post updates, not calls"
q -q corpus label --coder bob --sample s --doc x#7 --node TOOL.1
printf 's\n' | q corpus reconcile --sample s --decider dana >"$tmp/walk" 2>"$tmp/err" || fail "walk: $(cat "$tmp/err")"
has "$tmp/walk" "[1/1] x#7  Recorded demos replace the call"
has "$tmp/walk" "  https://example.org/a/b/issues/7  2024-03-05"
has "$tmp/walk" "  labels: bug, needs triage"
has "$tmp/walk" "    first line of the body"
has "$tmp/walk" "    line 12"
# 21 body lines; the last (30 words of 5 characters) wraps into 2 of at most 75 columns: 12 shown, 10 more.
has "$tmp/walk" "    … (10 more lines)"
grep -qxF "    line 13" "$tmp/walk" && fail "a 13th body line shown: $(cat "$tmp/walk")"
has "$tmp/walk" "  1) alice: COM.1 Asynchronous updates"
has "$tmp/walk" "     note: they post updates, not calls"
has "$tmp/walk" "  2) bob: TOOL.1 Chat"
# `o ID` on one line records the decision (as before).
printf 'o WELL.1\nread the body\n' | q corpus reconcile --sample s --decider dana >"$tmp/walk2" 2>"$tmp/err" || fail "walk 2: $(cat "$tmp/err")"
has "$tmp/walk2" "decided 1 of 1 open documents"
grep -qxF "x#7,WELL.1,other,dana,2025-12-01,read the body,alice=COM.1; bob=TOOL.1,$(sha256sum "$ws/corpus/samples/s.txt" | cut -c1-16)" "$ws/corpus/labels/s/decisions.csv" || fail "decision: $(cat "$ws/corpus/labels/s/decisions.csv")"

# --- reconcile: C01 t3 (eli inline COM.2, WELL.1; bob in C01.bob.codes COM.2), with a memo by each.
cp "$FIXTURES/team/transcripts/C01.bob.codes" "$ws/transcripts/"
printf 't3: COM.2 | memo: only the kick-off is a meeting\n' >>"$ws/transcripts/C01.bob.codes"
sed -i '/^t3: COM.2$/d' "$ws/transcripts/C01.bob.codes"
python3 - "$ws/transcripts/C01.md" <<'PY'
import sys
p = sys.argv[1]
s = open(p, encoding="utf-8").read()
s = s.replace("@code COM.2, WELL.1\n", "@code COM.2, WELL.1\n@memo Alone with the tickets: isolation.\n", 1)
open(p, "w", encoding="utf-8").write(s)
PY
q validate >/dev/null 2>"$tmp/err" || fail "validate: $(cat "$tmp/err")"
printf 's\n' | q reconcile C01.md --decider ana >"$tmp/tw" 2>"$tmp/err" || fail "transcript walk: $(cat "$tmp/err")"
has "$tmp/tw" "unit 1 of 1: transcripts/C01.md:25: C01#t3 (II.2)"
has "$tmp/tw" "    I: Which meetings are you invited to?"
has "$tmp/tw" '    "Only the kick-off. After that I am alone with the tickets."'
has "$tmp/tw" "  a) bob: COM.2 Meetings"
has "$tmp/tw" "     memo COM.2: only the kick-off is a meeting"
has "$tmp/tw" "  d) eli: COM.2 Meetings; WELL.1 Isolation"
has "$tmp/tw" "     memo COM.2, WELL.1: Alone with the tickets: isolation."
if grep -qs "^# decided" "$ws/transcripts/C01.consensus.codes"; then fail "a skip decided"; fi
# `o ID,ID` on one line: a typo first (asked again, the unit shown once), then the codes; the decision recorded.
printf 'o WEL.1\no WELL.1, COM.1\nfrom one line\n' | q reconcile C01.md --decider ana --date 2026-11-21 >"$tmp/tw2" 2>"$tmp/err" ||
  fail "o on one line: $(cat "$tmp/err")"
grep -qF "did you mean 'WELL.1'" "$tmp/tw2" || fail "typo: $(cat "$tmp/tw2")"
[[ $(grep -c "^unit 1 of 1: " "$tmp/tw2") == 1 ]] || fail "unit shown again: $(cat "$tmp/tw2")"
grep -qF "# decided t3 by ana on 2026-11-21: codes:WELL.1,COM.1 | eli: COM.2, WELL.1 | bob: COM.2 | hash " "$ws/transcripts/C01.consensus.codes" &&
  grep -qF "| note: from one line" "$ws/transcripts/C01.consensus.codes" || fail "consensus: $(cat "$ws/transcripts/C01.consensus.codes")"
# `o` alone, then the ids on the next prompt, still works (C01 t3 decided above: E01's t3 instead).
cp "$FIXTURES/team/transcripts/E01.frank.codes" "$ws/transcripts/"
printf 's\no\nCOM.2\nsecond prompt\n' | q reconcile E01.md --decider ana --date 2026-11-21 >"$tmp/tw3" 2>"$tmp/err" ||
  fail "o then ids: $(cat "$tmp/err")"
grep -qF "codes (ids or names, comma-separated; Enter to go back) > " "$tmp/tw3" || fail "no codes prompt: $(cat "$tmp/tw3")"
grep -qE "^# decided t[0-9]+ by ana on 2026-11-21: codes:COM.2 \|.*\| note: second prompt$" "$ws/transcripts/E01.consensus.codes" ||
  fail "E01 consensus: $(cat "$ws/transcripts/E01.consensus.codes")"
echo "walk_evidence: ok"
