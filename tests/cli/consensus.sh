#!/usr/bin/env bash
# The team's final coding, whole and never stale (docs/team-coding.md), on a study of its own (tests/fixtures/streets:
# commuters and planners on cycling safety; ana codes inline, ben in .codes files). One case per failure found
# from outside: the consensus carries spans, memos and exemplar marks; an open unit keeps what every coder
# applied and report and query count alike; decisions go stale and are never dropped; reconcile never loses or
# corrupts a decision; one --coder selection everywhere.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d)
source "$(dirname "${BASH_SOURCE[0]}")/lib/tmux.sh"  # fail, and the terminal's: sock, screen, wait_for, keys
ws="$tmp/ws"; cp -r "$FIXTURES/streets" "$ws"
q() { "$QUALRANK" -C "$ws" "$@"; }
export QUALRANK_AUTHOR=lee

# --- The consensus is the coders' own work where they agree --------------------------------------------------
q reconcile C01.md --decide t2=ana --date 2026-11-20 --note "kept the lane gap" 2>"$tmp/err" || fail "decide: $(cat "$tmp/err")"
cat >"$tmp/expected" <<'X'
# qualrank consensus of transcripts/C01.md: coders ana, ben; unit turn
# written by 'qualrank reconcile': a '# decided' line records each decision, '# undecided' a unit still open; the codes lines are the consensus
t1 "the painted lane just stops before the bus stop": SAF.1 | exemplar | memo: ana: the lane ends where buses pull in; ben: lane gap at the stop
# decided t2 by lee on 2026-11-20: ana | ana: SAF.1, SAF.2 | ben: SAF.2 | hash fbbbbe88369fc42b | note: kept the lane gap
t2: SAF.1, SAF.2
t3: EVID.1, EVID.2 | memo: ana: counts versus felt danger; ben: near misses are not counted
t4: INF.1
X
diff "$tmp/expected" "$ws/transcripts/C01.consensus.codes" || fail "C01 consensus bytes (spans, memos, exemplar)"
# The walk, skipping P01's only disagreement: it stays open and keeps EVID.1, which both coders applied.
printf 's\n' | q reconcile P01.md --date 2026-11-21 >"$tmp/walk" 2>"$tmp/err" || fail "walk: $(cat "$tmp/err")"
cat >"$tmp/expected" <<'X'
# qualrank consensus of transcripts/P01.md: coders ana, ben; unit turn
# written by 'qualrank reconcile': a '# decided' line records each decision, '# undecided' a unit still open; the codes lines are the consensus
t1: SAF.2, EVID.1
# undecided t2 | ana: EVID.1, EVID.2 | ben: EVID.1
t2: EVID.1
X
diff "$tmp/expected" "$ws/transcripts/P01.consensus.codes" || fail "P01 consensus bytes (open unit keeps the agreed code)"
grep -qxF "qualrank reconcile: transcripts/P01.md: 0 decided, 1 open, 0 stale (turn units); wrote transcripts/P01.consensus.codes" "$tmp/err" ||
  fail "walk summary: $(cat "$tmp/err")"
# validate names the open unit; report and query count the same EVID.1 segments (3: C01 t3, P01 t1, P01 t2).
q validate >"$tmp/out" 2>&1 || fail "validate: $(cat "$tmp/out")"
grep -qxF "transcripts/P01.consensus.codes:4:1: warning: 1 unit(s) still open (P01#t2): each counts only the codes all its coders applied; decide them with 'qualrank reconcile transcripts/P01.md'" "$tmp/out" ||
  fail "validate open: $(cat "$tmp/out")"
[[ $(q query --code EVID.1 --format json 2>/dev/null | python3 -c 'import json,sys; print(sorted(s["id"] for s in json.load(sys.stdin)["segments"]))') == "['C01#t3', 'P01#t1', 'P01#t2']" ]] ||
  fail "query EVID.1"
q report -o "$tmp/rep" >/dev/null 2>&1 || fail "report"
python3 - "$tmp/rep/report.json" <<'PY' || fail "report.json"
import json, sys
r = json.load(open(sys.argv[1]))
c = r["coding"]
assert c["open_units"] == ["P01#t2"] and c["stale_units"] == [] and c["reconciled"] == ["transcripts/C01.md", "transcripts/P01.md"], c
assert c["description"] == "consensus coding: 2 transcript(s) reconciled (1 unit(s) still open, counted by the codes all their coders applied: P01#t2)", c["description"]
coded = {x["node"]: x["segments"] for x in r["coded"]["codes"]}
assert coded["EVID.1"] == 3 and coded["SAF.1"] == 2, coded
# The exemplar the coders marked survives reconciliation: the same count as with every coder's codes.
saf1 = [x for x in r["coded"]["codes"] if x["node"] == "SAF.1"][0]
assert [e["quote"] for e in saf1["exemplars"]] == ["the painted lane just stops before the bus stop"], saf1["exemplars"]
PY
grep -qF "| The coding scheme with definitions, examples and decision rules | desirable | no | of 8 codes used: 8 defined, 1 with an exemplar quote, 0 with decision rules (Codebook) |" "$tmp/rep/methods.md" ||
  fail "methods exemplar count: $(grep -F 'coding scheme' "$tmp/rep/methods.md")"
grep -qF "Coding counted: consensus coding: 2 transcript(s) reconciled (1 unit(s) still open" "$tmp/rep/methods.md" || fail "methods names the coding"
q codebook -o "$tmp/cb.xlsx" 2>"$tmp/err" >/dev/null || fail "codebook"
grep -qxF "qualrank codebook: counting consensus coding: 2 transcript(s) reconciled (1 unit(s) still open, counted by the codes all their coders applied: P01#t2)" "$tmp/err" || fail "codebook names open units: $(cat "$tmp/err")"
q saturation >/dev/null 2>"$tmp/err" || fail "saturation"
grep -qF "qualrank saturation: counting consensus coding: 2 transcript(s) reconciled (1 unit(s) still open" "$tmp/err" || fail "saturation coding: $(cat "$tmp/err")"

# --- Decisions go stale, never away ----------------------------------------------------------------------------
cp "$ws/transcripts/C01.ben.codes" "$tmp/ben"
sed -i 's/^t2: SAF.2$/t2: SAF.2, EVID.2/' "$ws/transcripts/C01.ben.codes"
q validate >"$tmp/out" 2>&1 || fail "validate stale"
grep -qxF "transcripts/C01.consensus.codes:4:1: warning: the decision on t2 (ana, by lee on 2026-11-20) is stale: ben: SAF.2 -> SAF.2, EVID.2; it is kept and counted until the team decides again ('qualrank reconcile transcripts/C01.md')" "$tmp/out" ||
  fail "stale warning: $(cat "$tmp/out")"
q reconcile --list >"$tmp/list" 2>"$tmp/err"
grep -qxF "qualrank reconcile: 1 open disagreement(s), 1 stale decision(s)" "$tmp/err" || fail "list counts: $(cat "$tmp/err")"
grep -qxF "  stale: ben: SAF.2 -> SAF.2, EVID.2" "$tmp/list" || fail "list stale: $(cat "$tmp/list")"
q report -o "$tmp/rep2" >/dev/null 2>&1 || fail "report stale"
python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["coding"]; assert c["stale_units"]==["C01#t2"], c' "$tmp/rep2/report.json" || fail "report.json stale_units"
# The coders later agree: the decision is kept (stale), not deleted.
sed -i 's/^t2: SAF.2, EVID.2$/t2: SAF.2, SAF.1/' "$ws/transcripts/C01.ben.codes"
q validate >"$tmp/out" 2>&1; grep -qxF "transcripts/C01.consensus.codes:4:1: warning: the decision on t2 (ana, by lee on 2026-11-20) is stale: ben: SAF.2 -> SAF.1, SAF.2 (the coders now agree); it is kept and counted until the team decides again ('qualrank reconcile transcripts/C01.md')" "$tmp/out" ||
  fail "agree later: $(cat "$tmp/out")"
q reconcile C01.md --decide P01#t2=ben 2>/dev/null && fail "a participant not in the run accepted"
q reconcile C01.md --list >/dev/null 2>&1
grep -qF "# decided t2 by lee on 2026-11-20: ana" "$ws/transcripts/C01.consensus.codes" || fail "the decision was dropped"
# The walk asks about the stale decision again; k keeps it on the codings as they are now (new hash).
printf 'k\n\n' | q reconcile C01.md --date 2026-11-22 >"$tmp/walk" 2>"$tmp/err" || fail "walk k: $(cat "$tmp/err")"
grep -qF "  decided earlier: ana by lee on 2026-11-20 (note: kept the lane gap)" "$tmp/walk" || fail "walk shows the earlier decision: $(cat "$tmp/walk")"
grep -qxF "# decided t2 by lee on 2026-11-22: ana | ana: SAF.1, SAF.2 | ben: SAF.1, SAF.2 | hash 45dd8f7b0984ab3a | note: kept the lane gap" "$ws/transcripts/C01.consensus.codes" ||
  fail "k: $(cat "$ws/transcripts/C01.consensus.codes")"
cp "$tmp/ben" "$ws/transcripts/C01.ben.codes"
# A unit no coder codes any more: the decision stays in the file, with a warning.
sed -i '/^t2: /d' "$ws/transcripts/C01.ben.codes"; sed -i 's/^@code SAF.2, SAF.1$/@code SAF.2/' "$ws/transcripts/C01.md"
cp "$ws/transcripts/C01.md" "$tmp/c01"
python3 - "$ws/transcripts/C01.md" <<'PY'
import sys
p = sys.argv[1]; s = open(p).read().replace("@code SAF.2\n", ""); open(p, "w").write(s)
PY
q reconcile C01.md --list >/dev/null 2>"$tmp/err"
grep -qxF "transcripts/C01.consensus.codes:4:1: warning: the decision on t2 is kept, but no coder codes this unit any more" "$tmp/err" || fail "orphan: $(cat "$tmp/err")"
printf 'q\n' | q reconcile C01.md >/dev/null 2>&1 || fail "walk with an orphan"
grep -qF "# decided t2 by lee on 2026-11-22: ana" "$ws/transcripts/C01.consensus.codes" || fail "the orphan decision was dropped by a rewrite"
cp "$tmp/c01" "$ws/transcripts/C01.md"; sed -i 's/^@code SAF.2$/@code SAF.2, SAF.1/' "$ws/transcripts/C01.md"; cp "$tmp/ben" "$ws/transcripts/C01.ben.codes"
# Switching the unit type while decisions are recorded is refused; nothing written.
cp "$ws/transcripts/C01.consensus.codes" "$tmp/c01c"
if q reconcile C01.md --unit segment --decide 't3=ana' 2>"$tmp/err"; then fail "unit switch accepted"; fi
grep -qxF "transcripts/C01.consensus.codes:1:1: error: records turn units (1 decision(s)); reconciling it by segment would drop them: use --unit turn (or delete the decision lines first)" "$tmp/err" ||
  fail "unit switch: $(cat "$tmp/err")"
cmp -s "$tmp/c01c" "$ws/transcripts/C01.consensus.codes" || fail "unit switch wrote"
# A consensus file for a transcript with one coder: not counted, with a warning.
printf 't1 "roundabout": INF.1\n' >"$ws/transcripts/C02.consensus.codes"
q validate >"$tmp/out" 2>&1; grep -qxF "transcripts/C02.consensus.codes:1:1: warning: a consensus of a transcript with one coder (ana): it is not counted, the coder's own codes are (a consensus records a team's decisions on its coders' disagreements; delete the file or add a second coder)" "$tmp/out" ||
  fail "one-coder consensus: $(cat "$tmp/out")"
[[ $(q query --participant C02 --format json 2>/dev/null | python3 -c 'import json,sys; print([(s["id"], [c["node"] for c in s["codes"]]) for s in json.load(sys.stdin)["segments"] if s["codes"]])') == "[('C02#t1[4:14]', ['SAF.2'])]" ]] ||
  fail "one-coder consensus counted: $(q query --participant C02 --format json 2>/dev/null)"
rm "$ws/transcripts/C02.consensus.codes"

# --- Reconcile never loses or corrupts a decision ---------------------------------------------------------------
# A typo in 'o' is checked when typed and asked again; the decision then lands.
printf 'o\nEVID.9, INF1\nEVID.1, INF.1\nsee memo\n' | q reconcile P01.md --date 2026-11-23 >"$tmp/walk" 2>"$tmp/err" || fail "walk o: $(cat "$tmp/err")"
grep -qF "unknown taxonomy node 'EVID.9' (did you mean 'EVID.1'?)" "$tmp/walk" && grep -qxF "  unknown taxonomy node 'INF1' (did you mean 'INF.1'?)" "$tmp/walk" ||
  fail "o typo: $(cat "$tmp/walk")"
grep -qxF "# decided t2 by lee on 2026-11-23: codes:EVID.1,INF.1 | ana: EVID.1, EVID.2 | ben: EVID.1 | hash cd1a0ca5acb3d988 | note: see memo" "$ws/transcripts/P01.consensus.codes" ||
  fail "o decision: $(cat "$ws/transcripts/P01.consensus.codes")"
# Each decision is saved as it is made: a run killed at the next prompt keeps the first one.
sed -i 's/^t3: .*/t3: EVID.1/; s/^t4: INF.1$/t4: SAF.2/' "$ws/transcripts/C01.ben.codes"
# (in a terminal, as a person would: tmux; Ctrl-C at the second unit's prompt)
tmux -L "$sock" -u new-session -d -s qr -x 80 -y 24 "cd '$ws' && QUALRANK_AUTHOR=lee exec '$QUALRANK' reconcile C01.md --date 2026-11-24"
tmux -L "$sock" set-option -t qr remain-on-exit on >/dev/null
wait_for "C01#t2 (A.1)"  # stale again (ben's t2 is back to SAF.2): kept
keys k Enter; wait_for "note (Enter for 'kept the lane gap') >"
keys Enter
wait_for "C01#t3 (A.2)"
keys a Enter; wait_for "note (Enter for none) >"
keys -l first; keys Enter
wait_for "C01#t4 (A.2)"
keys C-c
dead() { [[ $(tmux -L "$sock" display-message -p -t qr '#{pane_dead}') == 1 ]]; }
for _ in $(seq 100); do dead && break; sleep 0.05; done
dead || fail "Ctrl-C did not stop reconcile"
tmux -L "$sock" kill-server 2>/dev/null || true
grep -qF "# decided t3 by lee on 2026-11-24: ana | ana: EVID.1, EVID.2 | ben: EVID.1" "$ws/transcripts/C01.consensus.codes" || fail "Ctrl-C lost the first decision: $(cat "$ws/transcripts/C01.consensus.codes")"
grep -qxF "# undecided t4 | ana: INF.1 | ben: SAF.2" "$ws/transcripts/C01.consensus.codes" || fail "open t4 after Ctrl-C: $(cat "$ws/transcripts/C01.consensus.codes")"
# Notes are escaped: line breaks and '|' cannot make lines of their own; the next run reads the note back.
q reconcile C01.md --decide t4=ben --date 2026-11-25 --note $'line one\nt9: EVID.1\n# decided t1 by x on 2026-01-01: neither | a\\b' 2>"$tmp/err" || fail "note: $(cat "$tmp/err")"
grep -qxF '# decided t4 by lee on 2026-11-25: ben | ana: INF.1 | ben: SAF.2 | hash 165f5f8b06c1e2dd | note: line one\nt9: EVID.1\n# decided t1 by x on 2026-01-01: neither \| a\\b' "$ws/transcripts/C01.consensus.codes" ||
  fail "escaped note: $(cat "$ws/transcripts/C01.consensus.codes")"
! grep -q "^t9" "$ws/transcripts/C01.consensus.codes" || fail "a note made a codes line"
q reconcile --list 2>"$tmp/err" >/dev/null; grep -qxF "qualrank reconcile: 0 open disagreement(s)" "$tmp/err" || fail "the next run did not read its own file"
# Names that would change how a line reads are refused; so is codes: with no id, and an ambiguous --decide.
for bad in 'lee|x' 'lee: x' $'lee\nx' ' lee'; do
  set +e
  q reconcile P01.md --decide t2=ana --decider "$bad" 2>"$tmp/err"; rc=$?
  set -e
  [[ $rc -eq 2 ]] || fail "decider '$bad' accepted ($rc)"
done
grep -qxF "qualrank reconcile: error: --decider ' lee' starts or ends with white space" "$tmp/err" || fail "decider space: $(cat "$tmp/err")"
set +e
q reconcile P01.md --decide t2=ana --decider 'lee|x' 2>"$tmp/err"; rc=$?
set -e
[[ $rc -eq 2 ]] && grep -qxF "qualrank reconcile: error: --decider 'lee|x' contains '|' (it would change how the decision line reads)" "$tmp/err" || fail "decider |: $rc $(cat "$tmp/err")"
cp -r "$FIXTURES/streets" "$tmp/ws2"
q2() { "$QUALRANK" -C "$tmp/ws2" "$@"; }
set +e
q2 reconcile P01.md --decide 't2=codes:' 2>"$tmp/err"; rc=$?
set -e
[[ $rc -eq 2 ]] && grep -qxF "qualrank reconcile: error: --decide t2=codes:: codes: needs at least one id (choose neither for no codes)" "$tmp/err" || fail "codes: empty: $rc $(cat "$tmp/err")"
set +e
q2 reconcile --decide t2=ana 2>"$tmp/err"; rc=$?
set -e
[[ $rc -eq 2 ]] && grep -qxF "qualrank reconcile: error: --decide t2: 2 transcripts are reconciled (transcripts/C01.md, transcripts/P01.md); name one (qualrank reconcile FILE --decide ...) or write PARTICIPANT#t2; nothing written" "$tmp/err" ||
  fail "ambiguous --decide: $rc $(cat "$tmp/err")"
compgen -G "$tmp/ws2/transcripts/*.consensus.codes" >/dev/null && fail "an ambiguous --decide wrote"
# One bad decision among good ones writes nothing for any transcript.
if q2 reconcile --decide C01#t2=ana --decide P01#t2=zoe 2>"$tmp/err"; then fail "zoe accepted"; fi
grep -qxF "transcripts/P01.md:17: error: 'zoe' is no coder of transcripts/P01.md (ana, ben), nor union, neither or codes:ID,ID" "$tmp/err" || fail "zoe: $(cat "$tmp/err")"
compgen -G "$tmp/ws2/transcripts/*.consensus.codes" >/dev/null && fail "a failed --decide wrote C01's consensus"
q2 reconcile --decide C01#t2=ana --decide P01#t2=union --date 2026-11-20 2>/dev/null || fail "two transcripts at once"
[[ -f $tmp/ws2/transcripts/C01.consensus.codes && -f $tmp/ws2/transcripts/P01.consensus.codes ]] || fail "two transcripts at once wrote both"
# Without $USER (and $LOGNAME, $QUALRANK_AUTHOR) the decider is the account's name, never "unknown".
cp -r "$FIXTURES/streets" "$tmp/ws3"
env -u USER -u LOGNAME -u QUALRANK_AUTHOR "$QUALRANK" -C "$tmp/ws3" reconcile P01.md --decide t2=ben --date 2026-11-20 2>/dev/null || fail "no USER"
grep -qF "# decided t2 by $(id -un) on 2026-11-20: ben" "$tmp/ws3/transcripts/P01.consensus.codes" || fail "decider without USER: $(cat "$tmp/ws3/transcripts/P01.consensus.codes")"
# A segment unit whose words hold " by " and " on " reads back.
cat >>"$tmp/ws3/transcripts/C02.md" <<'X'

C02: I ride [by the river on Sundays]{INF.1, SAF.1}, and by the canal on the way home.
X
printf 't2 "by the river on Sundays": INF.1\n' >"$tmp/ws3/transcripts/C02.ben.codes"
"$QUALRANK" -C "$tmp/ws3" reconcile C02.md --unit segment --decide 't2 "by the river on Sundays"=ben' --date 2026-11-24 2>/dev/null || fail "segment decide"
grep -qxF '# decided t2 "by the river on Sundays" by lee on 2026-11-24: ben | ana: SAF.1, INF.1 | ben: INF.1 | hash cca738ee53d190a6' "$tmp/ws3/transcripts/C02.consensus.codes" ||
  fail "segment line: $(cat "$tmp/ws3/transcripts/C02.consensus.codes")"
"$QUALRANK" -C "$tmp/ws3" reconcile --list 2>"$tmp/err" >/dev/null; grep -qxF "qualrank reconcile: 2 open disagreement(s)" "$tmp/err" || fail "segment round trip (C02 t1, C01 t2): $(cat "$tmp/err")"
# Keys are the workspace's coders by name, the same in every transcript; quotes whole, wrapped at words.
printf 'q\n' | "$QUALRANK" -C "$tmp/ws2" reconcile >"$tmp/walk" 2>/dev/null || true
cp -r "$FIXTURES/streets" "$tmp/ws4"
printf 's\ns\n' | "$QUALRANK" -C "$tmp/ws4" reconcile >"$tmp/walk" 2>/dev/null || fail "walk keys"
[[ $(grep -c "^  a) ana: " "$tmp/walk") == 2 && $(grep -c "^  b) ben: " "$tmp/walk") == 2 ]] || fail "keys: $(cat "$tmp/walk")"
grep -qxF '    "We count crashes by junction, and we read the reports riders send on the' "$tmp/walk" && grep -qxF '    app."' "$tmp/walk" ||
  fail "quote wrapping: $(cat "$tmp/walk")"

# --- One coder selection everywhere ------------------------------------------------------------------------------
for cmd in "report -o $tmp/r-carol" "codebook -o $tmp/carol.xlsx" "query --code SAF" "saturation" "rank" "package -o $tmp/p-carol"; do
  set +e
  q $cmd --coder bem >/dev/null 2>"$tmp/err"; rc=$?
  set -e
  name=${cmd%% *}
  [[ $rc -eq 2 ]] || fail "$name --coder bem exit $rc"
  grep -qF "qualrank $name: error: --coder: no coder 'bem' in this workspace (did you mean 'ben'?); its coders: ana, ben (or consensus, all)" "$tmp/err" || fail "$name --coder bem: $(cat "$tmp/err")"
done
[[ ! -e $tmp/r-carol && ! -e $tmp/p-carol ]] || fail "report or package --coder bem wrote"
q query --code SAF --coder all --format json >/dev/null 2>&1 || fail "query --coder all refused"
# saturation counts what the report counts (the consensus) by default; --coder NAME that coder's codes.
q report -o "$tmp/rep3" >/dev/null 2>&1 || fail "report 3"
q saturation --format json >"$tmp/sat.json" 2>/dev/null || fail "saturation json"
q saturation --coder ben --format json >"$tmp/sat-ben.json" 2>/dev/null || fail "saturation --coder ben"
python3 - "$tmp/sat.json" "$tmp/rep3/report.json" "$tmp/sat-ben.json" <<'PY' || fail "saturation selection"
import json, sys
sat, rep, ben = (json.load(open(p)) for p in sys.argv[1:])
assert sat["all"]["interviews"] == rep["saturation"]["all"]["interviews"], (sat["all"]["interviews"], rep["saturation"]["all"]["interviews"])
codes = {i["participant"]: i["codes"] for i in ben["all"]["interviews"]}
assert codes == {"C01": 3, "C02": 0, "P01": 2}, codes  # ben: C01 SAF.1, SAF.2, EVID.1; P01 SAF.2, EVID.1
PY
set +e
q code add --transcript C02.md --turn 1 --node INF.1 --coder consensus 2>"$tmp/err"; rc=$?
set -e
[[ $rc -eq 2 ]] && grep -qF "qualrank code add: error: --coder consensus: the consensus is written only by 'qualrank reconcile'" "$tmp/err" || fail "code add --coder consensus: $rc $(cat "$tmp/err")"
[[ ! -e $ws/transcripts/C02.consensus.codes ]] || fail "code add --coder consensus wrote"
echo "ok: consensus"
