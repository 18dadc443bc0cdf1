#!/usr/bin/env bash
# Never silently stale (#36): a stage-one study on a generated corpus walked through a re-import, a plain
# re-run of the retrieval, another repository's export, a reserved source name, a sample, a skipped unit and an
# empty coder file, a late decision, a narrower re-retrieve and a rule change. At each step `qualrank status`
# (text and JSON, exit code) and the readers (corpus table, corpus sample) are checked for the exact message,
# and the numbers against an independent recomputation in Python from the workspace's files.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$(dirname "$0")/lib/expect.sh"  # expect_fail
source "$(dirname "$0")/lib/corpus_study.sh"  # fieldwork_study: ws, q, the corpus
# state STEP: the state `status --format json` gives the step.
state() { { q status --format json || true; } | python3 -c 'import json,sys; print(next((s["state"] for s in json.load(sys.stdin)["steps"] if s["step"] == sys.argv[1]), "absent"))' "$1"; }
why() { { q status --format json || true; } | python3 -c 'import json,sys; print("\n".join(next(s["why"] for s in json.load(sys.stdin)["steps"] if s["step"] == sys.argv[1])))' "$1"; }

fieldwork_study 60 --seed 3
printf 'sources:\n  atlas: [cache miss, deadlock]\n  borealis: [cache miss, {term: shard, match: substring}]\n' >"$ws/corpus/keywords.yaml"

# 1. The retrieval records its window and what it was made from.
q -q corpus retrieve --from 2023-01 --to 2025-04
python3 - "$ws" <<'PY' || fail "retrieval provenance"
import json, sys, hashlib
ws = sys.argv[1]
first = json.loads(open(f"{ws}/corpus/retrieved.jsonl").readline())["retrieval"]
man = json.load(open(f"{ws}/corpus/manifest.json"))["sources"]
assert first["from"] == "2023-01" and first["to"] == "2025-04" and first["window_from"] == "options", first
assert first["sources"] == {s: e["sha256"] for s, e in man.items()}, first["sources"]
kw = hashlib.sha256(open(f"{ws}/corpus/keywords.yaml", "rb").read()).hexdigest()
assert first["keywords"] == [{"file": "corpus/keywords.yaml", "sha256": kw}], first["keywords"]
PY
[[ $(state retrieval) == "up to date" ]] || fail "retrieval: $(state retrieval)"
[[ $(state screening) == incomplete ]] || fail "screening: $(state screening)"
rc=0; q status >/dev/null || rc=$?
[[ $rc == 1 ]] || fail "status with screening left: exit $rc"

# 2. A re-import of a newer export makes the retrieval stale: every reader that counts from it refuses.
python3 - "$tmp/gen" <<'PY'
import json, sys
d = json.load(open(f"{sys.argv[1]}/atlas.json"))
d[0]["title"] += " (edited)"
d.append(dict(d[1], number=999, url=d[1]["url"].rsplit("/", 1)[0] + "/999", title="a new cache miss", createdAt="2024-05-01T00:00:00Z"))
json.dump(d, open(f"{sys.argv[1]}/atlas2.json", "w"))
w = json.load(open(f"{sys.argv[1]}/borealis.json"))
for x in w: x["url"] = x["url"].replace("/borealis/", "/wamr/")
json.dump(w, open(f"{sys.argv[1]}/wamr.json", "w"))
PY
out=$(q corpus import "$tmp/gen/atlas2.json" --source atlas)
[[ $out == "corpus/atlas.jsonl: 1 added, 1 updated, 59 unchanged" ]] || fail "re-import: $out"
stale="corpus/retrieved.jsonl:1:1: error: stale: corpus/atlas.jsonl changed (re-imported 2025-12-01) since this retrieval; run 'qualrank corpus retrieve' (it keeps the window, 2023-01 to 2025-04)"
expect_fail 1 "$stale" q corpus table
expect_fail 1 "$stale" q corpus sample pilot --size 5
expect_fail 1 "$stale" q corpus screen --status
[[ $(state retrieval) == stale ]] || fail "retrieval after re-import: $(state retrieval)"
[[ $(why retrieval) == "corpus/atlas.jsonl changed (re-imported 2025-12-01) since the retrieval" ]] || fail "why: $(why retrieval)"
out=$(q status) || true
sed 's/^ *//' <<<"$out" | grep_q -x 'next: qualrank corpus retrieve   (keeps the window 2023-01 to 2025-04)' || fail "next command: $out"

# 3. A plain re-run keeps the window the options gave, and says so; nothing outside it is retrieved.
err=$(q corpus retrieve 2>&1 >/dev/null)
[[ $err == "qualrank corpus retrieve: window 2023-01 to 2025-04, as the last retrieval was given it (--from/--to change it, --any-date drops it)" ]] || fail "plain re-run: $err"
python3 - "$ws" <<'PY' || fail "window kept"
import json, sys
ws = sys.argv[1]
created = {}
for s in ["atlas", "borealis", "cirrus"]:
    for l in open(f"{ws}/corpus/{s}.jsonl"):
        d = json.loads(l); created[f"{s}#{d['id']}"] = d["created"]
lines = open(f"{ws}/corpus/retrieved.jsonl").read().splitlines()
docs = [json.loads(l)["doc"] for l in lines[1:]]
outside = [d for d in docs if not "2023-01" <= created[d][:7] <= "2025-04"]
assert not outside, outside
in_window_cirrus = sum(1 for d, c in created.items() if d.startswith("cirrus#") and "2023-01" <= c[:7] <= "2025-04")
assert sum(1 for d in docs if d.startswith("cirrus#")) == in_window_cirrus  # cirrus has no keywords: taken whole
assert "atlas#999" in docs
PY
[[ $(state retrieval) == "up to date" ]] || fail "retrieval after re-run: $(state retrieval)"

# 4. Another repository's export under a source, and the corpus's own names, are refused; nothing written.
before=$(sha256sum "$ws/corpus/manifest.json" "$ws/corpus/borealis.jsonl")
expect_fail 1 "$tmp/gen/wamr.json:1:2: error: this export's documents are from example.org/wamr, but source 'borealis' holds documents of example.org/borealis: import it under a --source of its own (it would replace borealis's issues of the same numbers)" \
  q corpus import "$tmp/gen/wamr.json" --source borealis
expect_fail 1 "$tmp/gen/atlas.json: error: --source 'retrieved': 'retrieved' is the name of one of the corpus's own files; choose another source name" \
  q corpus import "$tmp/gen/atlas.json" --source retrieved
[[ $(sha256sum "$ws/corpus/manifest.json" "$ws/corpus/borealis.jsonl") == "$before" ]] || fail "a refused import wrote"

# 5. Screening, a sample that records its draw (N recomputed here), labels: one unit skipped, one empty coder file.
q -q corpus screen --screener sam --doc atlas#1 --false-positive duplicate 2>/dev/null || true
for d in $(sed -n '2,13p' "$ws/corpus/retrieved.jsonl" | python3 -c 'import json,sys; [print(json.loads(l)["doc"]) for l in sys.stdin]'); do
  q -q corpus screen --screener sam --doc "$d" --false-positive duplicate
  q -q corpus screen --screener tom --doc "$d" --false-positive not-about-topic
done
q -q corpus sample pilot --size 8 --seed 2
python3 - "$ws" <<'PY' || fail "sample provenance"
import json, sys, csv, glob, hashlib
ws = sys.argv[1]
docs = [json.loads(l)["doc"] for l in open(f"{ws}/corpus/retrieved.jsonl").read().splitlines()[1:]]
fp = {}
for f in glob.glob(f"{ws}/corpus/screening/*.csv"):
    for r in csv.DictReader(open(f)): fp.setdefault(r["doc"], []).append(r["decision"])
out = {d for d, v in fp.items() if all(x == "false-positive" for x in v)}
pop = [d for d in docs if d not in out]
head = dict(l[2:].split(": ", 1) for l in open(f"{ws}/corpus/samples/pilot.txt").read().splitlines() if l.startswith("# "))
assert head["rule"] == "unanimous" and head["seed"] == "2" and head["size"] == "8", head
assert int(head["population"]) == len(pop), (head["population"], len(pop))
assert head["population sha256"] == hashlib.sha256("".join(d + "\n" for d in pop).encode()).hexdigest()
PY
mapfile -t docs < <(grep -v '^#' "$ws/corpus/samples/pilot.txt")
[[ ${#docs[@]} == 8 ]] || fail "sample of ${#docs[@]}"
for d in "${docs[@]}"; do q -q corpus label --coder ann --sample pilot --doc "$d" --node COM.1; done
for d in "${docs[@]:1}"; do q -q corpus label --coder bob --sample pilot --doc "$d" --node "$([[ $d == "${docs[2]}" ]] && echo COM.2 || echo COM.1)"; done
printf 'doc,nodes,note\n' >"$ws/corpus/labels/pilot/eve.csv"   # the labeller opened and quit
[[ $(state "labels pilot") == incomplete ]] || fail "labels: $(state "labels pilot")"
[[ $(why "labels pilot") == "bob has not labelled 1 document" ]] || fail "labels why: $(why "labels pilot")"
[[ $(why "decisions pilot") == $'1 disagreement not decided\n1 document labelled by some coders only, no decision: open in Table I' ]] || fail "decisions why: $(why "decisions pilot")"
err=$(q corpus labels export --sample pilot 2>&1 >/dev/null)
[[ $err == "corpus/labels/pilot/eve.csv: warning: holds no label: not counted as a coder of sample pilot (label with 'qualrank corpus label --coder eve --sample pilot', or remove the file)" ]] || fail "empty coder: $err"
head -1 "$ws/codebooks/labels/pilot.csv" | grep_q -x 'unit,Label_ann,Label_bob,Final_Label' || fail "eve counted as a coder: $(head -1 "$ws/codebooks/labels/pilot.csv")"

# Table I as recomputed here: retrieved, screened out (unanimous) and kept per source.
q corpus table --format json >"$tmp/t1.json"
python3 - "$ws" "$tmp/t1.json" <<'PY' || fail "Table I"
import json, sys, csv, glob
ws, got = sys.argv[1], json.load(open(sys.argv[2]))
docs = [json.loads(l)["doc"] for l in open(f"{ws}/corpus/retrieved.jsonl").read().splitlines()[1:]]
fp = {}
for f in glob.glob(f"{ws}/corpus/screening/*.csv"):
    for r in csv.DictReader(open(f)): fp.setdefault(r["doc"], []).append(r["decision"])
for row in got["rows"]:
    s = row["source"]
    ret = [d for d in docs if d.startswith(s + "#")]
    out = [d for d in ret if d in fp and all(x == "false-positive" for x in fp[d])]
    assert (row["retrieved"], row["screened_out"], row["kept"]) == (len(ret), len(out), len(ret) - len(out)), (row, len(ret), len(out))
PY
# open_units N: Table I's open column, per source and in total, is what the coders' files and decisions.csv give
# (recomputed here from them, not from the label table): sampled units without a decision whose non-empty
# coders did not all give one label; N is the expected total.
open_units() {
  q corpus table --format json >"$tmp/t1.json"
  python3 - "$ws" "$tmp/t1.json" "$1" <<'PY' || fail "Table I's open column"
import json, sys, csv, glob, collections, os
ws, got, expected = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3])
sample = [l for l in open(f"{ws}/corpus/samples/pilot.txt").read().splitlines() if l and not l.startswith("#")]
coders = {}
for f in glob.glob(f"{ws}/corpus/labels/pilot/*.csv"):
    if os.path.basename(f) == "decisions.csv": continue
    rows = {r["doc"]: r["nodes"] for r in csv.DictReader(open(f, newline=""))}
    if rows: coders[f] = rows
decided = set()
if os.path.exists(f"{ws}/corpus/labels/pilot/decisions.csv"):
    decided = {r["doc"] for r in csv.DictReader(open(f"{ws}/corpus/labels/pilot/decisions.csv", newline=""))}
deepest = lambda nodes: nodes.split()[-1]
opened = collections.Counter()
for d in sample:
    labels = [deepest(c[d]) if d in c else None for c in coders.values()]
    if d not in decided and (None in labels or len(set(labels)) > 1): opened[d.split("#")[0]] += 1
for row in got["rows"]:
    assert row["open"] == opened[row["source"]], (row["source"], row["open"], opened)
assert got["total"]["open"] == sum(opened.values()) == expected, (got["total"]["open"], sum(opened.values()), expected)
PY
}
# kappa_check: the agreement before reconciliation `corpus reconcile --status` gives (units every coder labelled,
# those alike, Fleiss' and Cohen's kappa) is what the coders' files and decisions.csv give, recomputed here
# (statsmodels when installed, else the formulas): a decided document counts the labels its decision records
# (the round is frozen), every other document the coders' labels now.
kappa_check() {
  q corpus reconcile --sample pilot --status --format json >"$tmp/k.json"
  python3 - "$ws" "$tmp/k.json" <<'PY' || fail "kappa at this step"
import json, sys, csv, glob, os
ws, got = sys.argv[1], json.load(open(sys.argv[2]))
sample = [l for l in open(f"{ws}/corpus/samples/pilot.txt").read().splitlines() if l and not l.startswith("#")]
coders = {}
for f in sorted(glob.glob(f"{ws}/corpus/labels/pilot/*.csv")):
    if os.path.basename(f) == "decisions.csv": continue
    rows = {r["doc"]: r["nodes"].split()[-1] for r in csv.DictReader(open(f, newline=""))}
    if rows: coders[os.path.basename(f)[:-4]] = rows
names = sorted(coders)
assert got["coders"] == names, (got["coders"], names)
if os.path.exists(f"{ws}/corpus/labels/pilot/decisions.csv"):
    for r in csv.DictReader(open(f"{ws}/corpus/labels/pilot/decisions.csv", newline="")):
        if not r.get("labels") or r["doc"] not in sample: continue
        met = dict(p.strip().split("=", 1) for p in r["labels"].split(";"))
        for c in names:
            if c in met: coders[c][r["doc"]] = met[c].split()[-1]
            else: coders[c].pop(r["doc"], None)
units = [[coders[c][d] for c in names] for d in sample if all(d in coders[c] for c in names)]
assert got["labelled_by_all"] == len(units), (got["labelled_by_all"], len(units))
assert got["agreeing"] == sum(len(set(u)) == 1 for u in units)
cats = sorted({x for u in units for x in u})
table = [[u.count(k) for k in cats] for u in units]
def fleiss(rows):
    N, m = len(rows), sum(rows[0])
    P = sum((sum(v * v for v in r) - m) / (m * (m - 1)) for r in rows) / N
    p = [sum(r[j] for r in rows) / (N * m) for j in range(len(rows[0]))]
    Pe = sum(v * v for v in p)
    return float("nan") if Pe == 1 else (P - Pe) / (1 - Pe)
def cohen(x, y):
    n = len(x); po = sum(a == b for a, b in zip(x, y)) / n
    pe = sum((x.count(k) / n) * (y.count(k) / n) for k in cats)
    return float("nan") if pe == 1 else (po - pe) / (1 - pe)
try:
    import numpy as np
    from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa
    if len(cats) > 1:
        f_sm = fleiss_kappa(np.array(table))
        assert abs(f_sm - fleiss(table)) < 1e-12, (f_sm, fleiss(table))
        if len(names) == 2:
            t = np.zeros((len(cats), len(cats)))
            for a, b in units: t[cats.index(a), cats.index(b)] += 1
            assert abs(cohens_kappa(t).kappa - cohen([u[0] for u in units], [u[1] for u in units])) < 1e-12
except ImportError:
    pass
want = fleiss(table) if units else float("nan")
def same(a, b): return (a is None and b != b) or (a is not None and abs(a - b) < 1e-9)
assert same(got["fleiss_kappa"], want), (got["fleiss_kappa"], want)
if len(names) == 2:
    assert same(got["cohen_kappa"], cohen([u[0] for u in units], [u[1] for u in units]) if units else float("nan")), got["cohen_kappa"]
PY
}
open_units 2   # the unit bob skipped and the disagreement
kappa_check

# 6. A decision after the export: Table I refuses the stale table, status names it; a new export mends it.
q -q corpus reconcile --sample pilot --decider dana --doc "${docs[2]}" --keep bob --note late
expect_fail 1 "codebooks/labels/pilot.csv:1:1: error: stale: the labels or decisions of sample pilot changed since this table was exported; run 'qualrank corpus labels export --sample pilot'" \
  q corpus table
[[ $(state "label table pilot") == stale ]] || fail "label table: $(state "label table pilot")"
q -q corpus labels export --sample pilot 2>/dev/null
[[ $(state "label table pilot") == "up to date" ]] || fail "label table after export: $(state "label table pilot")"
open_units 1   # the disagreement is decided; the skipped unit stays open
kappa_check

# 7. A rule other than the sample's is refused; the sample's own is the default.
expect_fail 1 "corpus/samples/pilot.txt:1:1: error: sample pilot was drawn under the screening rule 'unanimous'; Table I under 'majority' would count units that rule treats otherwise: give --rule unanimous" \
  q corpus table --rule majority
expect_fail 1 "corpus/samples/pilot.txt: error: --exclude pilot names the sample --force replaces: its documents would be left out of its own redraw" \
  q corpus sample pilot --force --exclude pilot

# 8. A narrower re-retrieve: the units no longer retrieved are named, never counted; the sample is stale.
q -q corpus retrieve --from 2024-01 --to 2024-12 2>/dev/null
python3 - "$ws" "${docs[@]}" >"$tmp/gone" <<'PY'
import json, sys
ws, sample = sys.argv[1], sys.argv[2:]
docs = {json.loads(l)["doc"] for l in open(f"{ws}/corpus/retrieved.jsonl").read().splitlines()[1:]}
gone = [d for d in sample if d not in docs]
print(len(gone)); print(", ".join(gone[:5]) + (", ..." if len(gone) > 5 else ""))
PY
n=$(sed -n 1p "$tmp/gone"); list=$(sed -n 2p "$tmp/gone")
(( n > 0 )) || fail "the narrower window left every sampled unit"
expect_fail 1 "corpus/retrieved.jsonl: error: $n labelled unit(s) are not retrieved documents ($list): the retrieval changed since their sample was drawn; retrieve again as it was, or draw the sample again" \
  q corpus table
[[ $(state "sample pilot") == stale ]] || fail "sample after a narrower retrieval: $(state "sample pilot")"
why "sample pilot" | grep_q '^the population changed since the draw (N [0-9]* then, [0-9]* now: the retrieval or the screening changed)$' || fail "sample why: $(why "sample pilot")"
# validate reads corpus/ too: the stale sample is a warning located at its list.
out=$(q validate 2>&1) || fail "validate: $out"
grep -q '^corpus/samples/pilot.txt: warning: stale: the population changed since the draw (N [0-9]* then, [0-9]* now: the retrieval or the screening changed); run '"'"'qualrank corpus sample pilot --force --seed 2 --rule unanimous --size 8'"'"'$' <<<"$out" ||
  fail "validate on a stale sample: $out"

# 9. A stored source edited by hand: no longer the file the manifest records; status and validate say so.
sed -i '1s/"title":"/"title":"EDITED /' "$ws/corpus/cirrus.jsonl"
[[ $(state "corpus sources") == stale ]] || fail "an edited source: $(state "corpus sources")"
why "corpus sources" | grep_q '^corpus/cirrus.jsonl is not the file corpus/manifest.json records (SHA-256 [0-9a-f]\{12\}\.\.\., recorded [0-9a-f]\{12\}\.\.\.): edited by hand or corrupted since its import$' ||
  fail "why: $(why "corpus sources")"
q validate >"$tmp/v" 2>&1 || true  # (to a file: grep -q would close the pipe early under pipefail)
grep -q "^corpus/manifest.json: warning: stale: corpus/cirrus.jsonl is not the file" "$tmp/v" || fail "validate on an edited source: $(cat "$tmp/v")"
# 10. While the retrieval is stale, a sample is not called up to date: its population cannot be checked.
q -q corpus import "$tmp/gen/atlas.json" --source atlas
[[ $(state retrieval) == stale && $(state "sample pilot") == stale ]] || fail "after a re-import: $(state retrieval), $(state "sample pilot")"
[[ $(why "sample pilot") == "its population cannot be checked while the retrieval is stale (above)" ]] || fail "sample why: $(why "sample pilot")"

# 11. The sample drawn again (another seed) over labels: those of documents it no longer holds are said when it
#     is drawn, by status and by validate (at their lines), never counted, and can be removed.
q -q corpus retrieve 2>/dev/null
old_docs=("${docs[@]}")
err=$(q corpus sample pilot --force --seed 5 --size 8 2>&1 >/dev/null)
mapfile -t docs < <(grep -v '^#' "$ws/corpus/samples/pilot.txt")
python3 - "$ws" "$err" <<'PY' || fail "redraw over labels"
import csv, glob, os, re, sys
ws, err = sys.argv[1], sys.argv[2]
sample = {l for l in open(f"{ws}/corpus/samples/pilot.txt").read().splitlines() if l and not l.startswith("#")}
outside = []
for f in sorted(glob.glob(f"{ws}/corpus/labels/pilot/*.csv")):
    for k, r in enumerate(csv.DictReader(open(f, newline="")), start=2):
        if r["doc"] not in sample: outside.append((os.path.relpath(f, ws), k, r["doc"]))
assert outside, "the redraw kept every labelled document: choose another seed"
assert err == f"corpus/samples/pilot.txt: warning: {len(outside)} label(s) or decision(s) in corpus/labels/pilot/ are of documents this draw does not hold: kept in their files, not counted ('qualrank status' lists them)", err
open(sys.argv[1] + "/../outside", "w").write("\n".join(f"{f}:{k}:{d}" for f, k, d in outside))
PY
[[ $(state "labels pilot") == stale ]] || fail "labels after the redraw: $(state "labels pilot")"
n_out=$(wc -l <"$tmp/outside"); n_out=$((n_out + 1))
# (each label records the draw it was made on, so the reason is known, not guessed)
why "labels pilot" | grep_q "^$n_out labels\? or decisions\? of documents not in sample pilot (made on an earlier draw: the sample was drawn again since), not counted: " || fail "labels why: $(why "labels pilot")"
q validate >"$tmp/v" 2>&1 || true
IFS=: read -r f line doc < <(head -1 "$tmp/outside")
grep -qxF "$f:$line:1: warning: stale: $doc is not in sample pilot (made on an earlier draw: the sample was drawn again since): this line is not counted; label the sample's documents, or remove it with 'qualrank corpus label --coder NAME --sample pilot --doc SOURCE#ID --remove'" "$tmp/v" ||
  fail "validate on labels outside the sample: $(grep 'not in sample' "$tmp/v")"
if [[ $f != */decisions.csv ]]; then
  coder=$(basename "$f" .csv)
  q -q corpus label --coder "$coder" --sample pilot --doc "$doc" --remove || fail "removing $coder's label of $doc outside the sample"
  q validate >"$tmp/v" 2>&1 || true
  grep -qF "$f:$line:1: warning: stale: $doc " "$tmp/v" && fail "the removed label is still said"
fi

# 12. Each label records the draw it was made on, each decision the coders' labels it was made on. A coder's
#     edit after the decision makes the decision stale: status, validate, reconcile --status and the export say
#     so (never the labels themselves outside reconcile); the walk shows it again and k keeps it, made anew.
for d in "${docs[@]}"; do q -q corpus label --coder ann --sample pilot --doc "$d" --node COM.1; done
for d in "${docs[@]}"; do q -q corpus label --coder bob --sample pilot --doc "$d" --node "$([[ $d == "${docs[0]}" ]] && echo COM.2 || echo COM.1)"; done
kappa_check
q -q corpus reconcile --sample pilot --decider dana --doc "${docs[0]}" --keep ann --note met
python3 - "$ws" "${docs[0]}" <<'PY' || fail "what the decision and the labels record"
import csv, glob, hashlib, os, sys
ws, doc = sys.argv[1], sys.argv[2]
stamp = hashlib.sha256(open(f"{ws}/corpus/samples/pilot.txt", "rb").read()).hexdigest()[:16]
sample = {l for l in open(f"{ws}/corpus/samples/pilot.txt").read().splitlines() if l and not l.startswith("#")}
labels = {}
for f in sorted(glob.glob(f"{ws}/corpus/labels/pilot/*.csv")):
    c = os.path.basename(f)[:-4]
    if c == "decisions": continue
    for r in csv.DictReader(open(f, newline="")):
        if r["doc"] in sample:
            assert r["sample"] == stamp, (c, r)  # labelled on this draw
            labels.setdefault(r["doc"], []).append(f"{c}={r['nodes']}")
        else:
            assert r["sample"] not in ("", stamp), (c, r)  # an earlier draw's
rows = {r["doc"]: r for r in csv.DictReader(open(f"{ws}/corpus/labels/pilot/decisions.csv", newline=""))}
d = rows[doc]
assert (d["nodes"], d["how"], d["decider"], d["note"]) == ("COM.1", "coder:ann", "dana", "met"), d
assert d["labels"] == "; ".join(labels[doc]) == "ann=COM.1; bob=COM.2", (d["labels"], labels[doc])
assert d["sample"] == stamp, d
PY
[[ $(state "decisions pilot") == "up to date" ]] || fail "decisions before the late edit: $(state "decisions pilot"): $(why "decisions pilot")"
kappa_check   # decided: the round as the coders had it
cp "$tmp/k.json" "$tmp/k-met.json"
q -q corpus label --coder bob --sample pilot --doc "${docs[0]}" --node COM.1   # after the meeting
kappa_check
# The round is frozen: the edit after the decision leaves the agreement before reconciliation as it was.
python3 - "$tmp/k-met.json" "$tmp/k.json" <<'PY' || fail "a late edit changed the round's agreement"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for k in ("labelled_by_all", "agreeing", "fleiss_kappa", "cohen_kappa", "disagreements", "decided"): assert a[k] == b[k], (k, a[k], b[k])
PY
[[ $(state "decisions pilot") == stale ]] || fail "decisions after a late edit: $(state "decisions pilot")"
[[ $(why "decisions pilot") == "1 decision made on labels that changed since: ${docs[0]} (bob's label changed)" ]] || fail "decisions why: $(why "decisions pilot")"
line=$(grep -n "^${docs[0]}," "$ws/corpus/labels/pilot/decisions.csv" | cut -d: -f1)
q validate >"$tmp/v" 2>&1 || true
grep -qxF "corpus/labels/pilot/decisions.csv:$line:1: warning: stale: the decision on ${docs[0]} was made on labels that changed since (bob's label changed); it still counts as decided: 'qualrank corpus reconcile --sample pilot --decider NAME' shows it again (k keeps it)" "$tmp/v" ||
  fail "validate on a stale decision: $(grep decisions.csv "$tmp/v")"
q corpus reconcile --sample pilot --status >"$tmp/r" 2>&1
grep -qxF "  ${docs[0]}  stale: bob's label changed (COM.2 then, COM.1 now)" "$tmp/r" || fail "reconcile --status: $(cat "$tmp/r")"
grep -q ', stale 1 (decided on labels that changed since: the walk shows them again)$' "$tmp/r" || fail "reconcile --status count: $(cat "$tmp/r")"
q corpus labels export --sample pilot >/dev/null 2>"$tmp/e" || true
grep -qF "corpus/labels/pilot/decisions.csv:$line:1: warning: stale: the decision on ${docs[0]} was made" "$tmp/e" || fail "export: $(cat "$tmp/e")"
# Blind: bob's own command says nothing of it.
q corpus label --coder bob --sample pilot --doc "${docs[1]}" --node COM.1 >"$tmp/b" 2>&1
grep -q 'decision\|ann' "$tmp/b" && fail "a coder's command tells of the others: $(cat "$tmp/b")"
printf 'k\n' | q corpus reconcile --sample pilot --decider erin >"$tmp/w" 2>&1 || fail "walk: $(cat "$tmp/w")"
grep -qxF "  since then: bob's label changed (COM.2 then, COM.1 now)" "$tmp/w" || fail "walk shows the change: $(cat "$tmp/w")"
grep -qF "q quit: kept: COM.1 (Asynchronous updates) [coder:ann]" "$tmp/w" || fail "walk kept: $(cat "$tmp/w")"
[[ $(state "decisions pilot") == "up to date" ]] || fail "decisions after k: $(state "decisions pilot"): $(why "decisions pilot")"
kappa_check   # made anew on the labels as they are: now counted as they are
python3 - "$ws" "${docs[0]}" <<'PY' || fail "the kept decision"
import csv, sys
ws, doc = sys.argv[1], sys.argv[2]
d = {r["doc"]: r for r in csv.DictReader(open(f"{ws}/corpus/labels/pilot/decisions.csv", newline=""))}[doc]
assert (d["nodes"], d["how"], d["decider"], d["note"], d["labels"]) == ("COM.1", "coder:ann", "erin", "met", "ann=COM.1; bob=COM.1"), d
PY
echo "ok: stale"
