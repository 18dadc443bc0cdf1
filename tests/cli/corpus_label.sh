#!/usr/bin/env bash
# Labelling a corpus sample, end to end on a generated corpus (corpus_gen.py) and the fieldwork taxonomy:
# three coders label by command and from CSV (blind: each sees only their own progress); the agreement
# before reconciliation (Fleiss' kappa recomputed here by its formula); a majority reconciliation with the tie
# listed, a decision whose note has line breaks and quotes (read back by Python's csv); the exported label
# table (every cell recomputed) read back by `agreement --labels` with the same kappa; Table I whole
# (`corpus table`, JSON and text, every count recomputed from the corpus files) and in `report` (report.json's
# corpus, latex/corpus.tex); located errors writing nothing; the terminal labeller driven in tmux.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d)
source "$(dirname "${BASH_SOURCE[0]}")/lib/tmux.sh"  # fail, and the labeller's terminal: sock, screen, wait_for, keys
source "$(dirname "${BASH_SOURCE[0]}")/lib/corpus_study.sh"  # fieldwork_study: ws, q, the corpus

# The corpus, retrieved, screened (atlas#1 out by both screeners; borealis#6 by one only: kept), sampled.
fieldwork_study 40
cat >"$ws/corpus/keywords.yaml" <<'EOF'
sources:
  atlas: [cache miss, deadlock]
  borealis: [cache miss, {term: shard, match: substring}]
EOF
q -q corpus retrieve
q -q corpus screen --screener sam --doc atlas#1 --false-positive duplicate
q -q corpus screen --screener tom --doc atlas#1 --false-positive not-about-topic
q -q corpus screen --screener sam --doc borealis#6 --false-positive duplicate
q -q corpus screen --screener tom --doc borealis#6 --relevant
q -q corpus sample pilot --size 30 --stratify source --seed 3
mapfile -t docs < <(grep -v '^#' "$ws/corpus/samples/pilot.txt")  # after the lines that record the draw
[[ ${#docs[@]} == 30 ]] || fail "sample of ${#docs[@]}"

# Three coders' labels, generated: bob gives alice's label two times in three; carol gives alice's or bob's
# (so a majority), and leaves the last document out, where bob agrees with alice; the first document is a
# three-way tie: the one open disagreement without a majority.
/usr/bin/python3 - "$ws/corpus/samples/pilot.txt" "$tmp" <<'PY'
import random, sys
docs = [l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
rng = random.Random(5)
nodes = ["COM.1", "COM.2", "TOOL.1", "TOOL.2", "WELL.1"]
labels = {"alice": {}, "bob": {}, "carol": {}}
for i, d in enumerate(docs):
    a = nodes[i % 5]
    b = a if rng.random() < 0.67 or i == len(docs) - 1 else rng.choice(nodes)
    c = a if rng.random() < 0.7 else b
    if i == 0: a, b, c = "COM.1", "TOOL.1", "WELL.1"
    labels["alice"][d], labels["bob"][d] = a, b
    if i < len(docs) - 1: labels["carol"][d] = c
for coder, lab in labels.items():
    open("%s/%s.csv" % (sys.argv[2], coder), "w").write("doc,nodes,note\n" + "".join("%s,%s,\n" % (d, n) for d, n in lab.items()))
PY
# alice's first three by command: a node and its ancestor, a name, an alias.
first=$(sed -n 2p "$tmp/alice.csv" | cut -d, -f1)
out=$(q corpus label --coder alice --sample pilot --doc "$first" --node COM,COM.1)
[[ $out == "alice: $first COM COM.1 (Asynchronous updates)"$'\n'"alice: 1 of 30 labelled (sample pilot)" ]] || fail "label by command: $out"
out=$(q corpus label --coder alice --sample pilot --doc "${docs[1]}" --node "Meetings")
[[ $out == "alice: ${docs[1]} COM.2 (Meetings)"$'\n'"alice: 2 of 30 labelled (sample pilot)" ]] || fail "label by name: $out"
# The ID alone when one source has it (cirrus#N is in the sample only once).
cid=$(printf '%s\n' "${docs[@]}" | grep '^cirrus#' | head -1); cid=${cid#cirrus#}
out=$(q corpus label --coder alice --sample pilot --doc "$cid" --node async)
[[ $out == "alice: cirrus#$cid COM.1 (Asynchronous updates)"$'\n'"alice: 3 of 30 labelled (sample pilot)" ]] || fail "label by id and alias: $out"
# --remove, then labelled again.
out=$(q corpus label --coder alice --sample pilot --doc "cirrus#$cid" --remove)
[[ $out == "alice: cirrus#$cid no longer labelled"$'\n'"alice: 2 of 30 labelled (sample pilot)" ]] || fail "--remove: $out"
q -q corpus label --coder alice --sample pilot --doc "cirrus#$cid" --node COM.1
# The rest from CSV; a later label of a document replaces the earlier one.
out=$(q corpus label --coder alice --sample pilot --from-csv "$tmp/alice.csv")
[[ $out == "alice: 30 labels recorded (27 new, 3 replaced)"$'\n'"alice: 30 of 30 labelled (sample pilot)" ]] || fail "alice's CSV: $out"
# Blind: bob's command prints bob's progress, nothing of alice's.
out=$(q corpus label --coder bob --sample pilot --from-csv "$tmp/bob.csv")
[[ $out == "bob: 30 labels recorded (30 new, 0 replaced)"$'\n'"bob: 30 of 30 labelled (sample pilot)" ]] || fail "bob: $out"
out=$(q corpus label --coder carol --sample pilot --from-csv "$tmp/carol.csv")
[[ $out == "carol: 29 labels recorded (29 new, 0 replaced)"$'\n'"carol: 29 of 30 labelled (sample pilot)" ]] || fail "carol: $out"
# alice's file is her CSV, each row recording the draw it was made on (the sample list's SHA-256, 16 digits).
stamp=$(sha256sum "$ws/corpus/samples/pilot.txt" | cut -c1-16)
/usr/bin/python3 - "$tmp/alice.csv" "$ws/corpus/labels/pilot/alice.csv" "$stamp" <<'PY' || fail "alice's file is not her CSV"
import csv, sys
mine = list(csv.DictReader(open(sys.argv[1], newline="")))
kept = list(csv.DictReader(open(sys.argv[2], newline="")))
assert [(r["doc"], r["nodes"], r["note"]) for r in mine] == [(r["doc"], r["nodes"], r["note"]) for r in kept]
assert all(r["sample"] == sys.argv[3] for r in kept), kept
PY

# Errors: located, exit 1 (input) or 2 (usage), nothing written.
expect() {  # expect RC MESSAGE CMD...
  local rc=$1 msg=$2; shift 2
  local before; before=$(sha256sum "$ws"/corpus/labels/pilot/*.csv)
  set +e; "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?; set -e
  [[ $got == "$rc" ]] || fail "exit $got, not $rc: $* ($(cat "$tmp/err"))"
  grep -qxF -- "$msg" "$tmp/err" || fail "message of $*: $(cat "$tmp/err")"
  [[ $before == "$(sha256sum "$ws"/corpus/labels/pilot/*.csv)" ]] || fail "$* wrote"
}
expect 1 "--node: error: unknown taxonomy node 'COMM.1' (did you mean 'COM.1'?)" q corpus label --coder alice --sample pilot --doc "$first" --node COMM.1
expect 1 "qualrank corpus label: error: 'TOOL' and 'COM.1' are not on one path from the root: a label is one node and, optionally, its ancestors" \
  q corpus label --coder alice --sample pilot --doc "$first" --node COM.1,TOOL
expect 1 "qualrank corpus label: error: 'atlas#999' is not a document of the sample (corpus/samples/pilot.txt)" \
  q corpus label --coder alice --sample pilot --doc atlas#999 --node COM.1
printf 'doc,nodes\n%s,COM.1\natlas#999,COM.1\n%s,TOOLS.1\n' "${docs[0]}" "${docs[1]}" >"$tmp/bad.csv"
expect 1 "$tmp/bad.csv:3:1: error: 'atlas#999' is not a document of sample pilot (corpus/samples/pilot.txt)" \
  q corpus label --coder alice --sample pilot --from-csv "$tmp/bad.csv"
grep -qxF "$tmp/bad.csv:4:1: error: unknown taxonomy node 'TOOLS.1' (did you mean 'TOOL.1'?)" "$tmp/err" || fail "second error: $(cat "$tmp/err")"
expect 2 "qualrank corpus label: error: --coder 'decisions': a coder name has 1 to 64 characters: letters, digits, '.', '_' and '-', not first '.' or '-', and is not 'decisions' (a name the files and tables reserve)" \
  q corpus label --coder decisions --sample pilot --doc "$first" --node COM.1
expect 2 "qualrank corpus label: error: give --doc SOURCE#ID --node ID or --from-csv FILE (the labeller needs a terminal)" \
  q corpus label --coder alice --sample pilot </dev/null
# --help lists the labeller's keys from its action table.
q corpus label --help | grep_q -xF "  u             undo             undo the last label change (and go to its document)" || fail "--help keys: $(q corpus label --help)"

# Agreement before reconciliation: Fleiss' kappa by its formula (Fleiss 1971), over the documents all three
# labelled, categories = the label's node; the tie and the majorities.
/usr/bin/python3 - "$ws" "$tmp/expected.json" <<'PY'
import csv, json, sys, collections
ws, out = sys.argv[1:3]
coders = ["alice", "bob", "carol"]
lab = {c: {r["doc"]: r["nodes"].split()[-1] for r in csv.DictReader(open(f"{ws}/corpus/labels/pilot/{c}.csv"))} for c in coders}
docs = [l.strip() for l in open(f"{ws}/corpus/samples/pilot.txt") if l.strip() and not l.startswith("#")]
full = [d for d in docs if all(d in lab[c] for c in coders)]
cats = sorted({lab[c][d] for c in coders for d in full})
m, N = 3, len(full)
n = [[sum(lab[c][d] == k for c in coders) for k in cats] for d in full]
P = sum((sum(x * x for x in row) - m) / (m * (m - 1)) for row in n) / N
p = [sum(row[j] for row in n) / (N * m) for j in range(len(cats))]
Pe = sum(x * x for x in p)
kappa = (P - Pe) / (1 - Pe)
agreeing = sum(1 for row in n if max(row) == m)
# Percent agreement (docs/agreement.md): the mean share of agreeing coder pairs over the documents two or more
# coders labelled (the last one too, which carol left: as `agreement --labels` counts it on the exported table).
two = [[lab[c][d] for c in coders if d in lab[c]] for d in docs]
two = [g for g in two if len(g) >= 2]
pairs = sum(sum(g[i] == g[j] for i in range(len(g)) for j in range(i + 1, len(g))) / (len(g) * (len(g) - 1) / 2) for g in two) / len(two)
open_ = []; majority = {}; ties = []; partial = 0
for d in docs:
    given = {c: lab[c][d] for c in coders if d in lab[c]}
    some_only = 0 < len(given) < len(coders)  # labelled by some coders only: open too
    if len(set(given.values())) < 2 and not some_only: continue
    partial += some_only and len(set(given.values())) < 2
    open_.append(d)
    votes = collections.Counter(given.values())
    best = [k for k, v in votes.items() if 2 * v > len(given)]
    if best: majority[d] = best[0]
    else: ties.append(d)
json.dump({"kappa": kappa, "P": P, "pairs": pairs, "two": len(two), "N": N, "agreeing": agreeing, "open": open_, "majority": majority, "ties": ties,
           "partial": partial, "labels": lab}, open(out, "w"))

PY
read -r kappa pbar two share units agreeing open ties partial < <(/usr/bin/python3 -c "
import json; e = json.load(open('$tmp/expected.json'))
print('%.4f %.4f %d %.4f %d %d %d %d %d' % (e['kappa'], e['pairs'], e['two'], e['agreeing'] / e['N'], e['N'], e['agreeing'], len(e['open']), len(e['ties']), e['partial']))")
[[ $partial == 1 ]] || fail "the generated labels should leave one document to some coders only, not $partial"
[[ $ties == 1 ]] || fail "the generated labels should have one tie, not $ties"
out=$(q corpus reconcile --sample pilot --status)
line2="agreement before reconciliation, over the $units documents every coder labelled: $agreeing alike (all agree: $share), Fleiss' kappa $kappa"
[[ $(sed -n 2p <<<"$out") == "$line2" ]] || fail "status: $out (expected: $line2)"
line3="percent agreement (mean share of agreeing coder pairs, over the $two documents two or more coders labelled): $pbar"
[[ $(sed -n 3p <<<"$out") == "$line3" ]] || fail "status line 3: $out (expected: $line3)"
[[ $(sed -n 4p <<<"$out") == "disagreements: $((open - partial)), decided 0, open $open (1 of them labelled by some coders only)" ]] || fail "status line 4: $out"
q corpus reconcile --sample pilot --status --format json >"$tmp/status.json"
/usr/bin/python3 - "$tmp/status.json" "$tmp/expected.json" <<'PY' || fail "status json"
import json, sys
got, e = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert abs(got["fleiss_kappa"] - e["kappa"]) < 1e-12, (got["fleiss_kappa"], e["kappa"])
assert got["labelled_by_all"] == e["N"] and got["coders"] == ["alice", "bob", "carol"], got
assert got["labelled_by_two"] == e["two"] and abs(got["percent_agreement"] - e["pairs"]) < 1e-12, got
assert got["agreeing"] == e["agreeing"] and abs(got["all_agree"] - e["agreeing"] / e["N"]) < 1e-15, got
assert [o["doc"] for o in got["open"]] == e["open"], (got["open"], e["open"])
assert got["partial"] == e["partial"], got["partial"]
PY
# Majority: every open disagreement with a majority decided, the tie listed and left open.
tie=$(/usr/bin/python3 -c "import json; print(json.load(open('$tmp/expected.json'))['ties'][0])")
[[ $tie == "${docs[0]}" ]] || fail "the tie is $tie"
out=$(q corpus reconcile --sample pilot --decider dana --majority | tail -2)
[[ $out == "decided by majority: $((open - 1)); no majority (not decided): 1"$'\n'"  $tie  alice: COM.1; bob: TOOL.1; carol: WELL.1" ]] || fail "majority: $out"
# The tie walked on standard input: an answer that is none, an unknown node (its error, asked again), another
# label with a note; then decided again by --doc, with a note of two lines, a comma and quotes.
# (The document's evidence between its [1/1] line and the labels, url to body, is walk_evidence.sh's.)
out=$(printf 'x\no WEL.1\no WELL.1\nfrom the walk\n' | q corpus reconcile --sample pilot --decider erin |
  awk '/^\[1\/1\] /{print; skip=1; next} skip && /^  1\) /{skip=0} !skip' | tail -7)
expected="[1/1] $tie  $(/usr/bin/python3 -c "
import json, sys
for l in open('$ws/corpus/${tie%%#*}.jsonl'):
    j = json.loads(l)
    if j['id'] == '${tie#*#}': print(j['title'])")
  1) alice: COM.1 Asynchronous updates
  2) bob: TOOL.1 Chat
  3) carol: WELL.1 Isolation
keep 1-3, o NODE[,NODE] other, s skip, q quit: keep 1-3, o NODE[,NODE] other, s skip, q quit: unknown taxonomy node 'WEL.1' (did you mean 'WELL.1'?)
keep 1-3, o NODE[,NODE] other, s skip, q quit: note (Enter for none): decided: WELL.1 (Isolation) [other]
decided 1 of 1 open documents"
[[ $out == "$expected" ]] || fail "the walk: $out"
grep -qxF "$tie,WELL.1,other,erin,2025-12-01,from the walk,alice=COM.1; bob=TOOL.1; carol=WELL.1,$stamp" "$ws/corpus/labels/pilot/decisions.csv" || fail "walked decision: $(cat "$ws/corpus/labels/pilot/decisions.csv")"
note=$'bob\'s reading: the "thread" is\nabout tools, not updates'
out=$(q corpus reconcile --sample pilot --decider dana --doc "$tie" --keep bob --note "$note" | tail -1)
[[ $out == "$tie: TOOL.1 (Chat) [coder:bob] (replaces the earlier decision)" ]] || fail "--keep: $out"
/usr/bin/python3 - "$ws/corpus/labels/pilot/decisions.csv" "$tmp/expected.json" "$tie" "$note" <<'PY' || fail "decisions.csv"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
e = json.load(open(sys.argv[2])); tie, note = sys.argv[3], sys.argv[4]
by = {r["doc"]: r for r in rows}
assert set(by) == set(e["majority"]) | {tie}, (sorted(by), e["majority"])
for d, k in e["majority"].items():
    assert by[d]["nodes"] == k and by[d]["how"] == "majority" and by[d]["decider"] == "dana" and by[d]["date"] == "2025-12-01", by[d]
assert by[tie]["nodes"] == "TOOL.1" and by[tie]["how"] == "coder:bob" and by[tie]["note"] == note, by[tie]
PY

# The exported label table (the last document, labelled alike by two of three coders, has no Final_Label),
# every cell recomputed; agreement --labels reads it with the same kappa.
out=$(q corpus labels export --sample pilot)
# 30 with a Final_Label: the document carol left was decided by the majority of those who labelled it.
[[ $out == "codebooks/labels/pilot.csv: 30 units, 3 coders (alice, bob, carol), 30 labelled, 30 with a Final_Label" ]] || fail "export: $out"
/usr/bin/python3 - "$ws" "$tmp/expected.json" <<'PY' || fail "exported table"
import csv, json, sys
ws, e = sys.argv[1], json.load(open(sys.argv[2]))
rows = list(csv.reader(open(f"{ws}/codebooks/labels/pilot.csv", newline="")))
assert rows[0] == ["unit", "Label_alice", "Label_bob", "Label_carol", "Final_Label"], rows[0]
dec = {r["doc"]: r["nodes"].split()[-1] for r in csv.DictReader(open(f"{ws}/corpus/labels/pilot/decisions.csv", newline=""))}
docs = [l.strip() for l in open(f"{ws}/corpus/samples/pilot.txt") if l.strip() and not l.startswith("#")]
assert [r[0] for r in rows[1:]] == docs, "units in sample order"
for r in rows[1:]:
    d = r[0]
    cells = [e["labels"][c].get(d, "") for c in ["alice", "bob", "carol"]]
    given = [x for x in cells if x]
    final = dec.get(d) or (given[0] if len(given) == 3 and len(set(given)) == 1 else "")
    assert r[1:] == cells + [final], (r, cells, final)
PY
q -q agreement --labels codebooks/labels/pilot.csv --resamples 0 --format json >"$tmp/agreement.json"
/usr/bin/python3 -c "
import json; a = json.load(open('$tmp/agreement.json')); e = json.load(open('$tmp/expected.json'))
assert abs(a['fleiss_kappa'] - e['kappa']) < 1e-12, (a['fleiss_kappa'], e['kappa'])
# one percent agreement: the same number and units as reconcile --status
assert abs(a['percent_agreement'] - e['pairs']) < 1e-12 and a['pairable_units'] == e['two'], (a['percent_agreement'], e['pairs'])
assert abs(a['all_agree'] - e['agreeing'] / e['N']) < 1e-15 and a['units_all_agree'] == e['agreeing'], a['all_agree']" || fail "agreement --labels kappa and percent agreement"

# Table I whole: per source stored, in the retrieval's window, retrieved, screened, screened out (both screeners,
# unanimous), kept, FP rate; the units per year of creation and top-level node of Final_Label; and both averages
# of the FP rate, named (pooled over the sources, and the mean of the sources' rates).
q corpus table --format json >"$tmp/table.json"
q corpus table -o "$tmp/table1.xlsx" >"$tmp/table.txt"
/usr/bin/python3 - "$ws" "$tmp/table.json" "$tmp/table.txt" <<'PY' || fail "Table I"
import csv, json, sys, collections
ws, got, text = sys.argv[1], json.load(open(sys.argv[2])), open(sys.argv[3]).read()
retrieved = collections.Counter(json.loads(l)["source"] for l in list(open(f"{ws}/corpus/retrieved.jsonl"))[1:])
fp = collections.defaultdict(list)
for s in ["sam", "tom"]:
    for r in csv.DictReader(open(f"{ws}/corpus/screening/{s}.csv", newline="")): fp[r["doc"]].append(r["decision"])
out = collections.Counter(d.split("#")[0] for d, v in fp.items() if all(x == "false-positive" for x in v))
ret_docs = {json.loads(l)["doc"] for l in list(open(f"{ws}/corpus/retrieved.jsonl"))[1:]}
screened = collections.Counter(d.split("#")[0] for d in fp if d in ret_docs)
window = json.loads(open(f"{ws}/corpus/retrieved.jsonl").readline())["retrieval"]
lo, hi = window.get("from", ""), window.get("to", "")
created, stored, in_window = {}, collections.Counter(), collections.Counter()
for s in ["atlas", "borealis", "cirrus"]:
    for l in open(f"{ws}/corpus/{s}.jsonl"):
        j = json.loads(l); created[f"{s}#{j['id']}"] = j["created"][:4]
        stored[s] += 1
        c = j["created"]
        in_window[s] += (not lo or c[:len(lo)] >= lo) and (not hi or c[:len(hi)] <= hi)
units = collections.defaultdict(lambda: {"units": 0, "periods": collections.Counter(), "groups": collections.Counter(), "open": 0})
for r in csv.DictReader(open(f"{ws}/codebooks/labels/pilot.csv", newline="")):
    u = units[r["unit"].split("#")[0]]
    u["units"] += 1; u["periods"][created[r["unit"]]] += 1
    if r["Final_Label"]: u["groups"][r["Final_Label"].split(".")[0]] += 1
    else: u["open"] += 1
assert got["rule"] == "unanimous" and [r["source"] for r in got["rows"]] == ["atlas", "borealis", "cirrus"], got["rows"]
assert out == {"atlas": 1}, out
for r in got["rows"]:
    s = r["source"]
    assert r["retrieved"] == retrieved[s] and r["screened_out"] == out[s] and r["kept"] == retrieved[s] - out[s], r
    assert (r["stored"], r["in_window"], r["screened"]) == (stored[s], in_window[s], screened[s]), (r, stored[s], in_window[s], screened[s])
    assert abs(r["fp_rate"] - out[s] / retrieved[s]) < 1e-15, r
    assert r["units"] == units[s]["units"], r
    assert {k: v for k, v in r["periods"].items() if v} == dict(units[s]["periods"]), (r["periods"], units[s]["periods"])
    assert {k: v for k, v in r["groups"].items() if v} == dict(units[s]["groups"]), (r["groups"], units[s]["groups"])
    assert r["open"] == units[s]["open"] and r["ungrouped"] == 0 and r["no_period"] == 0, r
t = got["total"]
assert t["retrieved"] == sum(retrieved.values()) and t["screened_out"] == 1 and t["units"] == 30, t
assert (t["stored"], t["in_window"], t["screened"]) == (sum(stored.values()), sum(in_window.values()), sum(screened.values())), t
pooled = 1 / sum(retrieved.values())
mean = sum(out[s] / retrieved[s] for s in retrieved) / len(retrieved)
assert abs(got["fp_rate_pooled"] - pooled) < 1e-15 and abs(got["fp_rate_mean_of_sources"] - mean) < 1e-15, (got["fp_rate_pooled"], pooled, got["fp_rate_mean_of_sources"], mean)
assert f"False-positive rate of the total row: pooled (all sources' screened out / retrieved) {100 * pooled:.2f} %; mean of the {len(retrieved)} sources' rates {100 * mean:.2f} %." in text, text
assert t["open"] == sum(u["open"] for u in units.values()) == 0 and t["ungrouped"] == 0, t  # every unit decided (the partial one by majority)
# The text table: the same numbers in the same columns.
lines = text.splitlines()
assert lines[1].split()[:12] == ["source", "stored", "in", "window", "retrieved", "screened", "screened", "out", "kept", "FP", "rate", "units"], lines[1]
a = lines[2].split()
assert a[:9] == ["atlas", str(stored["atlas"]), str(in_window["atlas"]), str(retrieved["atlas"]), str(screened["atlas"]), "1",
                 str(retrieved["atlas"] - 1), "%.4f" % (1 / retrieved["atlas"]), str(units["atlas"]["units"])], a
print("ok")
PY
# The workbook's sheet Corpus: the same numbers (integers; the FP rate a number with 3 decimals).
/usr/bin/python3 - "$tmp/table1.xlsx" "$tmp/table.json" <<'PY' || fail "Table I workbook"
import json, sys, openpyxl
ws = openpyxl.load_workbook(sys.argv[1])["Corpus"]
t = json.load(open(sys.argv[2]))
cells = list(ws.iter_rows(values_only=True))
assert list(cells[0][:9]) == ["source", "stored", "in window", "retrieved", "screened", "screened out", "kept", "FP rate", "units"], cells[0]
for row, r in zip(cells[1:], t["rows"] + [t["total"]]):
    assert list(row[:9]) == [r["source"], r["stored"], r["in_window"], r["retrieved"], r["screened"], r["screened_out"], r["kept"], r["fp_rate"], r["units"]], (row, r)
n = len(t["rows"]) + 2
assert (cells[n][0], cells[n][7]) == ("FP rate, pooled (total row)", t["fp_rate_pooled"]), cells[n]
assert (cells[n + 1][0], cells[n + 1][7]) == ("FP rate, mean of the sources' rates", t["fp_rate_mean_of_sources"]), cells[n + 1]
assert ws.cell(row=2, column=8).number_format == "0.000", ws.cell(row=2, column=8).number_format
PY
# docs/corpus.md shows this very table.
awk '/^## Table I: `corpus table`/ { on = 1; next } on && /^```$/ { if (in_block) exit; in_block = 1; next } in_block' \
  "$SOURCE_DIR/docs/corpus.md" | diff - "$tmp/table.txt" || fail "docs/corpus.md's Table I differs from corpus table's"
# report: report.json's corpus is the same table; latex/corpus.tex prints it.
q -q report 2>"$tmp/report.err" || fail "report: $(cat "$tmp/report.err")"
/usr/bin/python3 -c "
import json; r = json.load(open('$ws/reports/report.json'))['corpus']; t = json.load(open('$tmp/table.json'))
assert r == t, (r, t)" || fail "report.json's corpus"
row=$(/usr/bin/python3 -c "
import json; t = json.load(open('$tmp/table.json')); r = t['rows'][0]
cells = [r['stored'], r['in_window'], r['retrieved'], r['screened'], r['screened_out'], r['kept'], '%.3f' % r['fp_rate'],
         r['units']] + [r['periods'][p] for p in t['periods']]
# (the LaTeX table has corpus table's columns; the caption names the window and both FP averages)
print('atlas & ' + ' & '.join(map(str, cells)) + ' & ')")
grep -qF "$row" "$ws/reports/latex/corpus.tex" || fail "latex row '$row': $(grep atlas "$ws/reports/latex/corpus.tex")"
window=$(/usr/bin/python3 -c "import json; print(json.load(open('$tmp/table.json'))['window'])")
grep -qF "documents stored, in the window ($window)" "$ws/reports/latex/corpus.tex" || fail "latex caption: no window '$window'"

# The terminal labeller in tmux (80x24): label two documents, undo the second, quit, reopen: it resumes at the
# undone one; the saved bytes and the progress line.
command -v tmux >/dev/null || { echo "note: no tmux; the terminal labeller is not checked"; echo "ok: corpus label"; exit 0; }
tmux -L "$sock" -u new-session -d -s qr -x 80 -y 24 "'$QUALRANK' -C '$ws' corpus label --coder eve --sample pilot; sleep 60"
wait_for "0 of 30 labelled"
[[ $(screen | head -1) == "corpus label  eve  sample pilot  [1/30]  0 of 30 labelled" ]] || fail "header: $(screen | head -1)"
screen | grep_q -xF "label: (none)" || fail "no label line: $(screen)"
keys c; wait_for "filter (id, name or alias)"
keys COM.2; wait_for "COM.2_"
keys Enter; wait_for "1 of 30 labelled"
[[ $(screen | tail -1) == "${docs[0]}: COM.2 (Meetings); 1 of 30 labelled" ]] || fail "message: $(screen | tail -1)"
screen | grep_q -F "[2/30]" || fail "not moved on: $(screen | head -1)"
keys Enter; wait_for "filter (id, name or alias)"
keys WELL.1 Enter; wait_for "2 of 30 labelled"
keys u; wait_for "undone: ${docs[1]} unlabelled again; 1 of 30 labelled"
keys q; sleep 0.5
printf 'doc,nodes,note,sample\n%s,COM.2,,%s\n' "${docs[0]}" "$(sha256sum "$ws/corpus/samples/pilot.txt" | cut -c1-16)" | cmp - "$ws/corpus/labels/pilot/eve.csv" || fail "eve's file: $(cat "$ws/corpus/labels/pilot/eve.csv")"
new_server
tmux -L "$sock" -u new-session -d -s qr -x 80 -y 24 "'$QUALRANK' -C '$ws' corpus label --coder eve --sample pilot; sleep 60"
wait_for "1 of 30 labelled"
[[ $(screen | head -1) == "corpus label  eve  sample pilot  [2/30]  1 of 30 labelled" ]] || fail "resumed at: $(screen | head -1)"
[[ $(screen | sed -n 2p) == "${docs[1]}  "* ]] || fail "the document shown: $(screen | sed -n 2p)"
keys q; sleep 0.3
echo "ok: corpus label"
