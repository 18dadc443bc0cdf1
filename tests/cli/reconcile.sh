#!/usr/bin/env bash
# qualrank reconcile on a study with three coders of one transcript (fieldwork + tests/fixtures/team: dana
# inline, carol and frank in .codes files on E01; eli and bob on C01): the disagreements it walks are the ones
# `agreement --transcripts` counts; --decide and the terminal walk record decisions (who, when, what, note) in
# the consensus file; agreement before reconciliation is unchanged; analyses count the consensus by default,
# --coder all / NAME on request, and the report says which; broken consensus files are located errors.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/ws"; mkdir "$ws"; cp -r "$FIXTURES"/fieldwork/{codebooks,guidelines,transcripts} "$ws/"
cp "$FIXTURES"/team/transcripts/*.codes "$ws/transcripts/"
q() { "$QUALRANK" -C "$ws" "$@"; }

q agreement --transcripts --disagreements 100 --format json >"$tmp/agreement.before.json"
# The disagreements listed are agreement's: same units (E01 t2 t3 t4 t6, C01 t3).
q reconcile --list >"$tmp/list" 2>"$tmp/list.err"
grep -qxF "qualrank reconcile: 5 open disagreement(s)" "$tmp/list.err" || fail "list summary: $(cat "$tmp/list.err")"
python3 - "$tmp/agreement.before.json" "$tmp/list" <<'PY' || fail "reconcile's disagreements differ from agreement's"
import json, re, sys
a = json.load(open(sys.argv[1]))
listed = re.findall(r"^transcripts/\S+:\d+: (\S+) ", open(sys.argv[2]).read(), re.M)
assert sorted(listed) == sorted(d["unit"] for d in a["disagreements"]), (listed, [d["unit"] for d in a["disagreements"]])
assert a["coders"] == ["eli", "bob", "dana", "carol", "frank"], a["coders"]
PY
grep -qxF "  frank: WELL.2" "$tmp/list" && grep -qxF "  dana: -" "$tmp/list" || fail "list of E01 t6: $(cat "$tmp/list")"
[[ ! -e $ws/transcripts/E01.consensus.codes ]] || fail "--list wrote"

# --decide for every kind of decision on E01.
q reconcile E01.md --decide t2=union --decide t3=carol --decide t4=neither --decide 't6=codes:WELL.2,Access and security' \
  --note "team meeting 3" --decider ana --date 2026-11-20 2>"$tmp/err" || fail "decide: $(cat "$tmp/err")"
grep -qxF "qualrank reconcile: transcripts/E01.md: 4 decided, 0 open, 0 stale (turn units); wrote transcripts/E01.consensus.codes" "$tmp/err" || fail "decide summary: $(cat "$tmp/err")"
# The kept codes carry the coders' memos and exemplar marks (dana's memo of t2 with the union, carol's exemplar
# of t3 with her codes); each decision records a hash of the coders' codings of the unit.
cat >"$tmp/expected" <<'X'
# qualrank consensus of transcripts/E01.md: coders dana, carol, frank; unit turn
# written by 'qualrank reconcile': a '# decided' line records each decision, '# undecided' a unit still open; the codes lines are the consensus
# decided t2 by ana on 2026-11-20: union | dana: COM.1.a, WELL.1 | carol: COM.1.a | frank: COM.1.a, WELL.1 | hash 6d5aa1a555fb6dc7 | note: team meeting 3
t2: COM.1.a, WELL.1 | memo: A junior reads silence in the thread as disapproval.
# decided t3 by ana on 2026-11-20: carol | dana: COM.2, WELL.1 | carol: COM.2 | frank: COM.2 | hash fdb47cd6be1617a6 | note: team meeting 3
t3: COM.2 | exemplar
# decided t4 by ana on 2026-11-20: neither | dana: TOOL.1, TOOL.2.a | carol: TOOL.1 | frank: TOOL.1 | hash 73183a5dd6925179 | note: team meeting 3
# decided t6 by ana on 2026-11-20: codes:WELL.2,TOOL.3 | dana: - | carol: WELL.2 | frank: WELL.2 | hash 039cbd2d9ecff440 | note: team meeting 3
t6: WELL.2, TOOL.3
X
diff "$tmp/expected" "$ws/transcripts/E01.consensus.codes" || fail "consensus file bytes"
# A choice that is no coder, and a unit without a disagreement, are refused; nothing changes.
cp "$ws/transcripts/E01.consensus.codes" "$tmp/keep"
if q reconcile C01.md --decide t3=zoe 2>"$tmp/err"; then fail "unknown coder accepted"; fi
grep -qxF "transcripts/C01.md:25: error: 'zoe' is no coder of transcripts/C01.md (eli, bob), nor union, neither or codes:ID,ID" "$tmp/err" || fail "zoe: $(cat "$tmp/err")"
if q reconcile C01.md --decide t2=bob 2>"$tmp/err"; then fail "a unit without disagreement accepted"; fi
grep -qxF "transcripts/C01.md:19: error: --decide t2: the coders agree on t2: nothing to decide; the units left to decide are t3" "$tmp/err" || fail "t2: $(cat "$tmp/err")"
if q reconcile C01.md --decide t3=bobb 2>"$tmp/err"; then fail "a coder's typo accepted"; fi
grep -qxF "transcripts/C01.md:25: error: 'bobb' is no coder of transcripts/C01.md (eli, bob), nor union, neither or codes:ID,ID; did you mean 'bob'?" "$tmp/err" || fail "bobb: $(cat "$tmp/err")"
if q reconcile C01.md --decide t99=bob 2>"$tmp/err"; then fail "a unit that does not exist accepted"; fi
grep -qxF "transcripts/C01.md: error: --decide t99: no unit 't99' in transcripts/C01.md (a participant turn tN that some coder coded); the units left to decide are t3" "$tmp/err" || fail "t99: $(cat "$tmp/err")"
[[ ! -e $ws/transcripts/C01.consensus.codes ]] || fail "a refused reconcile wrote"

# The terminal walk (lines on stdin): C01 t3, keep bob's, with a note; agreed units are copied with their memos
# and exemplar marks. Keys are the workspace's coders in name order (bob a, carol b, dana c, eli d, frank e).
printf '\nx\na\nbob was right\n' | q reconcile C01.md --decider ana --date 2026-11-21 >"$tmp/walk" 2>"$tmp/err" || fail "walk: $(cat "$tmp/err")"
# an empty answer and one it does not take both say what it takes; the decision is confirmed
grep -qF "> an answer is needed: a/d (a coder's codes), u, n, o ID, s or q" "$tmp/walk" || fail "empty answer: $(cat "$tmp/walk")"
grep -qF "> 'x' is not a choice: a/d (a coder's codes), u, n, o ID, s or q" "$tmp/walk" || fail "x: $(cat "$tmp/walk")"
grep -qF "> decided t3: bob's codes (saved in transcripts/C01.consensus.codes)" "$tmp/walk" || fail "no confirmation: $(cat "$tmp/walk")"
grep -qxF "  d) eli: COM.2 Meetings; WELL.1 Isolation" "$tmp/walk" && grep -qF "  a) bob: COM.2" "$tmp/walk" && grep -qF "'x' is not a choice" "$tmp/walk" &&
  grep -qF "decide: a/d keep that coder's codes, u union, n neither, o ID[,ID] other codes, s skip, q stop > " "$tmp/walk" || fail "walk screen: $(cat "$tmp/walk")"
[[ $(cat "$ws/transcripts/C01.consensus.codes") == *$'t2: COM.1, WELL.1 | memo: Efficiency and isolation come together for contractors.\n# decided t3 by ana on 2026-11-21: bob | eli: COM.2, WELL.1 | bob: COM.2 | hash d4b419936b45f034 | note: bob was right\nt3: COM.2\nt4: TOOL.2 | exemplar' ]] ||
  fail "walk file: $(cat "$ws/transcripts/C01.consensus.codes")"
# Nothing left: a second run decides nothing and writes nothing.
q reconcile --list 2>"$tmp/err" >/dev/null; grep -qxF "qualrank reconcile: 0 open disagreement(s)" "$tmp/err" || fail "open after: $(cat "$tmp/err")"

# Agreement before reconciliation is unchanged (the consensus is not a coder).
q validate >/dev/null 2>&1 || fail "validate: $(q validate 2>&1 | head -3)"
q agreement --transcripts --disagreements 100 --format json | cmp -s - "$tmp/agreement.before.json" || fail "agreement changed after reconciling"

# Analyses: the consensus by default, a coder or all on request.
count() { q query "$@" --format json | python3 -c 'import json,sys; print(sorted(s["id"] for s in json.load(sys.stdin)["segments"]))'; }
[[ $(count --code TOOL --participant E01) == "['E01#t6']" ]] || fail "consensus: E01 TOOL = $(count --code TOOL --participant E01)"
[[ $(count --code TOOL --participant E01 --coder dana) == "['E01#t4']" ]] || fail "dana: $(count --code TOOL --participant E01 --coder dana)"
[[ $(count --code TOOL --participant E01 --coder consensus) == "['E01#t6']" ]] || fail "--coder consensus"
q report -o "$tmp/rep" >/dev/null 2>&1 || fail "report"
python3 - "$tmp/rep/report.json" <<'PY' || fail "report.json coding"
import json, sys
r = json.load(open(sys.argv[1]))
c = r["coding"]
assert c["selection"] == "consensus" and c["reconciled"] == ["transcripts/C01.md", "transcripts/E01.md"] and c["unreconciled"] == [], c
assert c["description"] == "consensus coding: 2 transcript(s) reconciled", c
PY
grep -qF "Counted: consensus coding: 2 transcript(s) reconciled." "$tmp/rep/index.html" || fail "HTML does not say which coding"
# The agreement section's per-node table shows report.json's figures, and the disagreement list its units.
python3 - "$tmp/rep/report.json" "$tmp/rep/index.html" <<'PY' || fail "HTML agreement tables"
import json, re, sys
r = json.load(open(sys.argv[1])); html = open(sys.argv[2]).read()
t = r["agreement"]["transcripts"]
for node, f in t["per_node"].items():
    cells = ["n/a" if f[k] is None else "%.3f" % f[k] for k in ("positive_agreement", "fleiss_kappa")]
    assert re.search(r"<tr><td>%s</td><td class=\"num\">%d</td><td class=\"num\">%s</td><td class=\"num\">%s</td>" %
                     (re.escape(node), f["units_coded"], *map(re.escape, cells)), html), (node, cells)
for d in t["disagreements"]:
    assert "<tr><td>%s</td><td>%s:%d</td>" % (d["unit"], d["file"], d["line"]) in html, d["unit"]
PY
/usr/bin/python3 - "$tmp/rep/codebook.xlsx" <<'PY' || fail "the codebook does not say which coding it counts"
import openpyxl, sys
rows = {r[0]: r[1] for r in openpyxl.load_workbook(sys.argv[1])["About"].iter_rows(values_only=True)}
assert rows["Coding counted"] == "consensus coding: 2 transcript(s) reconciled", rows.get("Coding counted")
PY
q codebook --coder dana -o "$tmp/dana.xlsx" 2>"$tmp/err" >/dev/null || fail "codebook --coder dana"
grep -qxF "qualrank codebook: counting the codes of coder dana only" "$tmp/err" || fail "codebook message: $(cat "$tmp/err")"
# Agreement per coding round: E01 reconciled on 2026-11-20, C01 on 2026-11-21; each round's figures are those
# of agreement --transcripts on a copy holding only that round's second coders.
cp -r "$ws" "$tmp/only-e01"; rm "$tmp/only-e01/transcripts/C01.bob.codes"
"$QUALRANK" -C "$tmp/only-e01" agreement --transcripts --resamples 0 --format json >"$tmp/e01.json"
python3 - "$tmp/rep/report.json" "$tmp/e01.json" <<'PY' || fail "agreement rounds"
import json, sys
rounds = json.load(open(sys.argv[1]))["agreement"]["rounds"]
e01 = json.load(open(sys.argv[2]))
assert [(r["round"], r["transcripts"]) for r in rounds] == [("2026-11-20", ["transcripts/E01.md"]), ("2026-11-21", ["transcripts/C01.md"])], rounds
assert rounds[0]["units"] == e01["units"] == 4, (rounds[0], e01["units"])
for k in ("fleiss_kappa", "krippendorff_alpha", "percent_agreement"):
    assert abs(rounds[0][k] - e01[k]) < 1e-12, (k, rounds[0][k], e01[k])
PY
grep -qF "<h3>Per coding round, before reconciliation</h3>" "$tmp/rep/index.html" || fail "no rounds table in the HTML"
grep -qxF "A reconciled round's figures compare the codes its consensus files record each coder had when the team met; later edits change them only through a new decision." "$tmp/rep/methods.md" ||
  fail "methods does not say the rounds are frozen"
# A finished round is frozen: frank's edit after the meeting (t2 now as carol's, t6 dropped) changes neither its
# figures nor its units; the open round and a new decision do see it. The edit makes the decisions of t2 and t6
# stale; deciding them again records frank's new codes, and the round's figures then are agreement's on them.
cp "$ws/transcripts/E01.frank.codes" "$tmp/frank.keep"; cp "$ws/transcripts/E01.consensus.codes" "$tmp/e01-consensus.keep"
printf '# coder: frank\nt2: COM.1.a\nt3: COM.2\nt4: TOOL.1\n' >"$ws/transcripts/E01.frank.codes"
q report -o "$tmp/rep-edit" >/dev/null 2>&1 || fail "report after frank's edit"
python3 - "$tmp/rep/report.json" "$tmp/rep-edit/report.json" <<'PY' || fail "a finished round changed with a coder's later edit"
import json, sys
before, after = (json.load(open(p))["agreement"]["rounds"] for p in sys.argv[1:3])
assert before == after, (before, after)
PY
q reconcile E01.md --decide t2=union --decide t6=codes:WELL.2 --decider ana --date 2026-11-25 2>"$tmp/err" >/dev/null || fail "decide again: $(cat "$tmp/err")"
q report -o "$tmp/rep-again" >/dev/null 2>&1 || fail "report after the new decisions"
cp -r "$ws" "$tmp/only-e01-again"; rm "$tmp/only-e01-again/transcripts/C01.bob.codes"
"$QUALRANK" -C "$tmp/only-e01-again" agreement --transcripts --resamples 0 --format json >"$tmp/e01-again.json" 2>/dev/null
python3 - "$tmp/rep-again/report.json" "$tmp/e01-again.json" "$tmp/e01.json" <<'PY' || fail "the round after a new decision"
import json, sys
rounds = json.load(open(sys.argv[1]))["agreement"]["rounds"]
now, then = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
assert rounds[0]["round"] == "2026-11-20", rounds[0]  # the round keeps its first decision's date
for k in ("fleiss_kappa", "krippendorff_alpha", "percent_agreement"):
    assert abs(rounds[0][k] - now[k]) < 1e-12, (k, rounds[0][k], now[k])
assert abs(now["fleiss_kappa"] - then["fleiss_kappa"]) > 1e-3, (now["fleiss_kappa"], then["fleiss_kappa"])
PY
cp "$tmp/frank.keep" "$ws/transcripts/E01.frank.codes"; cp "$tmp/e01-consensus.keep" "$ws/transcripts/E01.consensus.codes"
q report -o "$tmp/rep-all" --coder all >/dev/null 2>&1 || fail "report --coder all"
python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["coding"]; assert c["selection"]=="all" and c["description"].startswith("every coder"), c' "$tmp/rep-all/report.json" || fail "--coder all"

# Broken consensus files: located errors in validate.
printf 't9: COM.1\n' >>"$ws/transcripts/C01.consensus.codes"
q validate >"$tmp/out" 2>&1 && fail "t9 accepted"
grep -qF "transcripts/C01.consensus.codes:7:1: error: transcript transcripts/C01.md has no participant turn t9" "$tmp/out" || fail "t9: $(cat "$tmp/out")"
sed -i '/^t9: COM.1$/d' "$ws/transcripts/C01.consensus.codes"
cp "$tmp/keep" "$ws/transcripts/E01.consensus.codes"
printf '# decided t5 by ana: union\n' >>"$ws/transcripts/E01.consensus.codes"
if q reconcile E01.md --list >/dev/null 2>"$tmp/err"; then fail "bad decision line accepted"; fi
grep -qF "transcripts/E01.consensus.codes:10:1: error: a decision line reads '# decided UNIT by NAME on YYYY-MM-DD: DECISION" "$tmp/err" || fail "bad line: $(cat "$tmp/err")"
echo "ok: reconcile"
