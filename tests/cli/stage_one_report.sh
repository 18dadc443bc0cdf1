#!/usr/bin/env bash
# Stage one in the report (#42): a study of issue reports on a generated corpus (corpus_gen.py) and the
# fieldwork taxonomy — imported, retrieved by keywords in a window (one keyword is markup that must stay text),
# screened by two screeners, a pilot sample of a given size and a main sample by Cochran's formula drawn apart
# from it, the pilot labelled by two coders and reconciled (by majority, by keeping a coder's label, by another
# label, one left open) — then `qualrank report`. Every number of report.json's stage_one and Table I, of
# index.html's Stage one section (parsed as HTML) and of methods.md's stage-one paragraph is checked against a
# recomputation in Python from the workspace's files (Cohen's and Fleiss' kappa by statsmodels when installed,
# else by their formulas here; Cochran's z by scipy when installed, else the stored 1.959963984540054).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
source "$(dirname "${BASH_SOURCE[0]}")/lib/corpus_study.sh"  # fieldwork_study: ws, q, the corpus
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
python3() { if [[ -x /usr/bin/python3 ]]; then /usr/bin/python3 "$@"; else command python3 "$@"; fi; }  # the one with scipy and statsmodels

fieldwork_study 120 --seed 11
cat >"$ws/corpus/keywords.yaml" <<'YAML'
from: 2023-01
to: 2025-04
sources:
  atlas: [cache miss, deadlock, "<script>alert(1)</script>"]
  borealis: [cache miss, {term: shard, match: substring}, GPU]
YAML
q -q corpus retrieve 2>"$tmp/retrieve.err"
[[ $(cat "$tmp/retrieve.err") == "corpus/keywords.yaml:4:33: warning: '<script>alert(1)</script>' (source atlas) matches no document" ]] ||
  fail "retrieve: $(cat "$tmp/retrieve.err")"

# Two screeners, generated: sam screens the first 40 retrieved documents, tom the first 36 (and agrees with sam
# four times in five).
python3 - "$ws" "$tmp" <<'PY'
import json, random, sys
ws, tmp = sys.argv[1:3]
docs = [json.loads(l)["doc"] for l in open(f"{ws}/corpus/retrieved.jsonl").read().splitlines()[1:]]
rng = random.Random(8)
reasons = ["not-about-topic", "keyword-in-code-only", "duplicate"]
sam, tom = [], []
for i, d in enumerate(docs[:40]):
    a = ("false-positive", rng.choice(reasons)) if rng.random() < 0.3 else ("relevant", "")
    sam.append((d,) + a)
    if i < 36:
        b = a if rng.random() < 0.8 else (("relevant", "") if a[0] == "false-positive" else ("false-positive", rng.choice(reasons)))
        if b[0] == "false-positive" and rng.random() < 0.3: b = ("false-positive", rng.choice(reasons))
        tom.append((d,) + b)
for name, rows in [("sam", sam), ("tom", tom)]:
    open(f"{tmp}/{name}.csv", "w").write("doc,decision,reason,note\n" + "".join(f"{d},{x},{r},\n" for d, x, r in rows))
PY
q -q corpus screen --screener sam --from-csv "$tmp/sam.csv"
q -q corpus screen --screener tom --from-csv "$tmp/tom.csv"
q -q corpus sample pilot --size 12 --stratify source --seed 3
q -q corpus sample main --exclude pilot --stratify source --seed 4

# Two coders label the pilot: bob gives alice's label two times in three and leaves the last document out.
python3 - "$ws/corpus/samples/pilot.txt" "$tmp" <<'PY'
import random, sys
docs = [l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
rng = random.Random(5)
nodes = ["COM.1", "COM.2", "TOOL.1", "TOOL.2", "WELL.1"]
a = {d: nodes[i % 5] for i, d in enumerate(docs)}
b = {d: (a[d] if rng.random() < 0.67 else rng.choice(nodes)) for d in docs[:-1]}
for coder, lab in [("alice", a), ("bob", b)]:
    open(f"{sys.argv[2]}/{coder}.csv", "w").write("doc,nodes,note\n" + "".join(f"{d},{n},\n" for d, n in lab.items()))
PY
q -q corpus label --coder alice --sample pilot --from-csv "$tmp/alice.csv"
q -q corpus label --coder bob --sample pilot --from-csv "$tmp/bob.csv"
# Reconciliation: the document bob left out by majority (alice's, the only label); the first two disagreements
# by keeping bob's and by another label; the rest left open.
q -q corpus reconcile --sample pilot --decider dana --majority >/dev/null
mapfile -t open_docs < <(q corpus reconcile --sample pilot --status --format json | python3 -c '
import json, sys
print("\n".join(o["doc"] for o in json.load(sys.stdin)["open"]))')
(( ${#open_docs[@]} >= 3 )) || fail "the generated labels should leave at least 3 disagreements, not ${#open_docs[@]}"
q -q corpus reconcile --sample pilot --decider dana --doc "${open_docs[0]}" --keep bob
q -q corpus reconcile --sample pilot --decider erin --doc "${open_docs[1]}" --node WELL.1
q -q corpus labels export --sample pilot >/dev/null

q -q report 2>"$tmp/report.err" || fail "report: $(cat "$tmp/report.err")"
[[ ! -s $tmp/report.err ]] || fail "report printed: $(cat "$tmp/report.err")"
rep="$ws/reports"

python3 - "$ws" "$rep" <<'PY' || fail "stage one"
import collections, csv, html.parser, json, math, re, sys
ws, rep = sys.argv[1:3]
R = json.load(open(f"{rep}/report.json"))
S, T = R["stage_one"], R["corpus"]
sources = ["atlas", "borealis", "cirrus"]

# --- Independently, from the files. ---
lines = open(f"{ws}/corpus/retrieved.jsonl").read().splitlines()
prov = json.loads(lines[0])["retrieval"]
ret = [json.loads(l) for l in lines[1:]]
docs = [r["doc"] for r in ret]
lo, hi = prov.get("from", ""), prov.get("to", "")
stored, in_window = collections.Counter(), collections.Counter()
for s in sources:
    for l in open(f"{ws}/corpus/{s}.jsonl"):
        c = json.loads(l)["created"]
        stored[s] += 1
        in_window[s] += (not lo or c[:len(lo)] >= lo) and (not hi or c[:len(hi)] <= hi)
retrieved = collections.Counter(d.split("#")[0] for d in docs)
# Per keyword: the documents whose matches name it; the terms as keywords.yaml lists them.
listed = {"atlas": ["cache miss", "deadlock", "<script>alert(1)</script>"], "borealis": ["cache miss", "shard", "GPU"]}
per_kw = {s: [(t, sum(1 for r in ret if r["source"] == s and any(m["term"] == t for m in r["matches"]))) for t in ts] for s, ts in listed.items()}
# Screening: unanimous exclusion; agreement over the documents both screened.
dec = {}
for name in ["sam", "tom"]:
    dec[name] = {r["doc"]: (r["decision"], r["reason"]) for r in csv.DictReader(open(f"{ws}/corpus/screening/{name}.csv", newline=""))}
screened_docs = [d for d in docs if any(d in dec[n] for n in dec)]
excluded = [d for d in docs if any(d in dec[n] for n in dec) and all(dec[n][d][0] == "false-positive" for n in dec if d in dec[n])]
both = [d for d in docs if all(d in dec[n] for n in dec)]
agree = sum(dec["sam"][d][0] == dec["tom"][d][0] for d in both)
x = [int(dec["sam"][d][0] == "false-positive") for d in both]
y = [int(dec["tom"][d][0] == "false-positive") for d in both]
def cohen(x, y):
    cats = sorted(set(x) | set(y)); n = len(x)
    po = sum(a == b for a, b in zip(x, y)) / n
    pe = sum((x.count(k) / n) * (y.count(k) / n) for k in cats)
    return (po - pe) / (1 - pe)
def fleiss(rows):  # rows: per unit, counts per category
    N, m = len(rows), sum(rows[0])
    P = sum((sum(v * v for v in r) - m) / (m * (m - 1)) for r in rows) / N
    p = [sum(r[j] for r in rows) / (N * m) for j in range(len(rows[0]))]
    Pe = sum(v * v for v in p)
    return (P - Pe) / (1 - Pe), p, N, m
try:
    from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa
    import numpy as np
    def sm_cohen(x, y):
        cats = sorted(set(x) | set(y)); t = np.zeros((len(cats), len(cats)))
        for a, b in zip(x, y): t[cats.index(a), cats.index(b)] += 1
        return cohens_kappa(t).kappa
    def sm_fleiss(rows): return fleiss_kappa(np.array(rows))
    print("statsmodels: kappas recomputed by statsmodels.stats.inter_rater")
except ImportError:
    sm_cohen, sm_fleiss = cohen, lambda rows: fleiss(rows)[0]
    print("note: no statsmodels; kappas by their formulas here")
s_cohen = sm_cohen(x, y)
s_fleiss = sm_fleiss([[sum(1 - v for v in (a, b)), sum((a, b))] for a, b in zip(x, y)])
assert abs(s_cohen - cohen(x, y)) < 1e-12
excluded_by_reason = collections.Counter()
for d in excluded:
    rs = {dec[n][d][1] for n in dec if d in dec[n]}
    excluded_by_reason[rs.pop() if len(rs) == 1 else "reasons differ"] += 1
fp_decisions = collections.Counter(v[1] for n in dec for d, v in dec[n].items() if v[0] == "false-positive" and d in set(docs))
out = collections.Counter(d.split("#")[0] for d in excluded)
screened = collections.Counter(d.split("#")[0] for d in screened_docs)
pooled = len(excluded) / len(docs)
mean = sum(out[s] / retrieved[s] for s in sources) / 3
# Samples: N = retrieved less excluded (less the pilot for main); Cochran's n.
def sample(name):
    return [l.strip() for l in open(f"{ws}/corpus/samples/{name}.txt") if l.strip() and not l.startswith("#")]
pilot, main = sample("pilot"), sample("main")
N_pilot = len(docs) - len(excluded)
N_main = N_pilot - len(pilot)
try:
    from scipy.stats import norm
    z = norm.ppf(0.975)
except ImportError:
    z = 1.959963984540054  # scipy.stats.norm.ppf(0.975)
assert abs(z - 1.959963984540054) < 1e-12
n0 = z * z * 0.25 / 0.0025
n_main = min(N_main, math.ceil(n0 / (1 + (n0 - 1) / N_main) - 1e-9))
assert len(main) == n_main, (len(main), n_main)
assert not set(main) & set(pilot) and not set(main) & set(excluded)
# Labels of the pilot: Cohen's and Fleiss' kappa over the documents both labelled, per category Fleiss (1971).
lab = {c: {r["doc"]: r["nodes"].split()[-1] for r in csv.DictReader(open(f"{ws}/corpus/labels/pilot/{c}.csv", newline=""))} for c in ["alice", "bob"]}
full = [d for d in pilot if all(d in lab[c] for c in lab)]
cats = sorted({lab[c][d] for c in lab for d in full})
rows = [[sum(lab[c][d] == k for c in lab) for k in cats] for d in full]
l_fleiss = sm_fleiss(rows)
_, p, Nf, m = fleiss(rows)
per_cat = {k: 1 - sum(r[j] * (m - r[j]) for r in rows) / (Nf * m * (m - 1) * p[j] * (1 - p[j])) for j, k in enumerate(cats)}
l_cohen = sm_cohen([lab["alice"][d] for d in full], [lab["bob"][d] for d in full])
l_agree = sum(lab["alice"][d] == lab["bob"][d] for d in full)
disagreements = sum(1 for d in full if lab["alice"][d] != lab["bob"][d])
decisions = list(csv.DictReader(open(f"{ws}/corpus/labels/pilot/decisions.csv", newline="")))
how = collections.Counter("coder" if r["how"].startswith("coder:") else r["how"] for r in decisions)
deciders = collections.Counter(r["decider"] for r in decisions)
decided = {r["doc"] for r in decisions}
open_ = sum(1 for d in pilot if d not in decided and (d in lab["alice"] or d in lab["bob"]) and not (d in full and lab["alice"][d] == lab["bob"][d]))
assert how == {"majority": 1, "coder": 1, "other": 1}, how
assert open_ == disagreements - 2 and open_ >= 1, (open_, disagreements)

# --- report.json ---
assert S["keywords"]["terms"] == 6 and S["keywords"]["files"] == [{"file": "corpus/keywords.yaml", "terms": 6}], S["keywords"]
assert S["keywords"]["window"] == {"from": "2023-01", "to": "2025-04", "text": "2023-01 to 2025-04"}, S["keywords"]["window"]
got = {r["source"]: r for r in S["retrieval"]}
for s in ["atlas", "borealis"]:
    assert [(k["term"], k["documents"]) for k in got[s]["keywords"]] == per_kw[s] and not got[s]["whole"], (got[s], per_kw[s])
assert got["cirrus"]["whole"] and got["cirrus"]["keywords"] == [] and got["cirrus"]["retrieved"] == retrieved["cirrus"]
assert all(got[s]["retrieved"] == retrieved[s] for s in sources)
sc = S["screening"]
assert sc["rule"] == "unanimous" and sc["screeners"] == [{"name": "sam", "screened": 40}, {"name": "tom", "screened": 36}], sc
assert (sc["screened"], sc["screened_by_all"], sc["agreeing"], sc["excluded"]) == (len(screened_docs), len(both), agree, len(excluded)), sc
# two screeners: percent agreement (of pairs, over the documents two decided on) is the all-agree share
assert sc["screened_by_two"] == len(both) and abs(sc["percent_agreement"] - agree / len(both)) < 1e-12, sc
assert abs(sc["percent_all_agree"] - agree / len(both)) < 1e-12 and abs(sc["cohen_kappa"] - s_cohen) < 1e-12 and abs(sc["fleiss_kappa"] - s_fleiss) < 1e-12, (sc, s_cohen, s_fleiss)
assert sc["excluded_by_reason"] == dict(sorted(excluded_by_reason.items())), (sc["excluded_by_reason"], excluded_by_reason)
assert sc["false_positive_decisions_by_reason"] == dict(sorted(fp_decisions.items())), sc
sm_, sp = S["samples"]  # the pilot first: main was drawn apart from it
assert (sm_["name"], sp["name"]) == ("pilot", "main"), [x["name"] for x in S["samples"]]
assert sp["n"] == n_main and sp["population"] == N_main and sp["seed"] == "4" and sp["size"] == "cochran" and sp["drawn_apart_from"] == ["pilot"], sp
c = sp["cochran"]
assert abs(c["z"] - z) < 1e-12 and abs(c["n0"] - n0) < 1e-9 and c["N"] == N_main and c["n"] == n_main and (c["p"], c["e"], c["confidence"]) == (0.5, 0.05, 0.95), c
assert sp["allocation"] == dict(collections.Counter(d.split("#")[0] for d in main)) and sp["labels"] is None and sp["reconciliation"] is None, sp
assert sm_["n"] == 12 and sm_["population"] == N_pilot and sm_["size"] == "12" and sm_["cochran"] is None and sm_["seed"] == "3", sm_
assert sm_["allocation"] == dict(collections.Counter(d.split("#")[0] for d in pilot)), sm_["allocation"]
L = sm_["labels"]
assert L["coders"] == ["alice", "bob"] and L["labelled"] == 12 and L["labelled_by_all"] == len(full) == 11 and L["agreeing"] == l_agree, L
assert L["labelled_by_two"] == 11 and abs(L["all_agree"] - l_agree / 11) < 1e-12 and abs(L["percent_agreement"] - l_agree / 11) < 1e-12, L
assert abs(L["fleiss_kappa"] - l_fleiss) < 1e-12 and abs(L["cohen_kappa"] - l_cohen) < 1e-12, (L, l_fleiss, l_cohen)
assert list(L["per_category"]) == cats and all(abs(L["per_category"][k] - per_cat[k]) < 1e-12 for k in cats), (L["per_category"], per_cat)
Rc = sm_["reconciliation"]
assert Rc == {"disagreements": disagreements, "disagreements_decided": 2, "decisions": 3, "by_majority": 1, "by_keeping_a_coder": 1, "by_other": 1,
              "by_decider": dict(sorted(deciders.items())), "open": open_}, (Rc, disagreements, open_)
for r in T["rows"]:
    s = r["source"]
    assert (r["stored"], r["in_window"], r["retrieved"], r["screened"], r["screened_out"], r["kept"]) == (
        stored[s], in_window[s], retrieved[s], screened[s], out[s], retrieved[s] - out[s]), (r, s)
assert abs(T["fp_rate_pooled"] - pooled) < 1e-15 and abs(T["fp_rate_mean_of_sources"] - mean) < 1e-15, T
assert pooled != mean  # the two averages differ here, so a swap would show

# --- index.html, parsed ---
class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.tables = {}; self.cur = None; self.row = None; self.cell = None; self.paras = {}; self.p = None
        self.tags = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs); self.tags.append(tag)
        if tag == "table" and a.get("class"):
            key = a["class"] + (":" + a["data-sample"] if "data-sample" in a else "")
            self.cur = self.tables.setdefault(key, [])
        elif tag == "tr" and self.cur is not None: self.row = []; self.cur.append(self.row)
        elif tag in ("td", "th") and self.row is not None: self.cell = ""
        elif tag == "p" and a.get("class"): self.p = a["class"]; self.paras[self.p] = ""
    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None: self.row.append(self.cell.strip()); self.cell = None
        elif tag == "table": self.cur = None; self.row = None
        elif tag == "p": self.p = None
    def handle_data(self, d):
        if self.cell is not None: self.cell += d
        if self.p is not None: self.paras[self.p] += d
page = Page(); text = open(f"{rep}/index.html", encoding="utf-8").read(); page.feed(text)
assert "script" not in page.tags, "markup from the keywords became a tag"
assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
t1 = page.tables["table-one"]
assert t1[0] == ["Source", "Stored", "In window", "Retrieved", "Screened", "Screened out", "Kept", "FP rate"], t1[0]
for row in t1[1:4]:
    s = row[0]
    assert row[1:] == [str(v) for v in (stored[s], in_window[s], retrieved[s], screened[s], out[s], retrieved[s] - out[s])] + ["%.4f" % (out[s] / retrieved[s])], row
tot = lambda c: sum(c[s] for s in sources)
assert t1[4] == ["total"] + [str(v) for v in (tot(stored), tot(in_window), tot(retrieved), tot(screened), tot(out), tot(retrieved) - tot(out))] + ["%.4f" % pooled], t1[4]
assert page.paras["fp-averages"] == ("False-positive rate of the total row: pooled (all sources' screened out / retrieved) %.2f %%; mean of the 3 sources' rates %.2f %%." % (100 * pooled, 100 * mean)), page.paras["fp-averages"]
kw = page.tables["keywords"]
assert kw[1:] == [[s, t, str(n)] for s in ["atlas", "borealis"] for t, n in per_kw[s]] + [["cirrus", "(no keyword list: taken whole)", str(retrieved["cirrus"])]], kw
assert ("all agree on %d (%.2f %%); Cohen's κ %.3f, Fleiss' κ %.3f. Percent agreement (the mean share of agreeing screener pairs, over the %d documents two or more screeners decided on): %.3f. Excluded: %d of %d retrieved." % (agree, 100 * agree / len(both), s_cohen, s_fleiss, len(both), agree / len(both), len(excluded), len(docs))) in page.paras["screening"], page.paras["screening"]
assert "2 screeners: sam (40 screened), tom (36 screened)." in page.paras["screening"]
samples = page.tables["samples"]
assert samples[2] == ["main", str(n_main), str(N_main), "Cochran: z = %.4f, p = 0.50, e = 0.05, N = %d, n0 = %.2f, n = %d" % (z, N_main, n0, n_main),
                      ", ".join(f"{k} {v}" for k, v in sorted(collections.Counter(d.split("#")[0] for d in main).items())), "4", "pilot"], samples[2]
assert samples[1] == ["pilot", "12", str(N_pilot), "given: 12", ", ".join(f"{k} {v}" for k, v in sorted(collections.Counter(d.split("#")[0] for d in pilot).items())), "3", "—"], samples[1]
labels = page.tables["labels"]
assert labels[0][5:7] == ["Labelled by two or more", "Percent agreement"], labels[0]
assert labels[1] == ["pilot", "alice, bob", "12", "11", str(l_agree), "11", "%.3f" % (l_agree / 11), "%.3f" % l_fleiss, "%.3f" % l_cohen], labels[1]
pc = page.tables["per-category:pilot"]
assert [r[1] for r in pc[1:]] == ["%.3f" % per_cat[k] for k in cats] and [r[0].split()[0] for r in pc[1:]] == cats, pc
rc = page.tables["reconciliation"]
assert rc[1] == ["pilot", str(disagreements), "2", "3", "1", "1", "1", ", ".join(f"{k} {v}" for k, v in sorted(deciders.items())), str(open_)], rc[1]
reasons = page.tables["reasons"]
assert {r[0]: (int(r[1]), int(r[2])) for r in reasons[1:]} == {k: (excluded_by_reason[k], fp_decisions[k]) for k in set(excluded_by_reason) | set(fp_decisions)}, reasons

# --- methods.md ---
md = open(f"{rep}/methods.md", encoding="utf-8").read()
para = md[md.index("## Stage one"):md.index("## Participants")]
want = [
    "created in the window 2023-01 to 2025-04 by 6 keywords (corpus/keywords.yaml, 6 terms)",
    "cirrus has no keyword list and was taken whole",
    "Of %d documents stored, %d lie in the window and %d were retrieved" % (tot(stored), tot(in_window), len(docs)),
    "2 screeners (sam and tom) screened %d of the retrieved documents" % len(screened_docs),
    "(rule: unanimous). Over the %d documents every screener decided on, they all agreed on %d (%.2f %%); Cohen's kappa %.3f, Fleiss' kappa %.3f. Percent agreement (the mean share of agreeing screener pairs, over the %d documents two or more screeners decided on): %.3f." % (len(both), agree, 100 * agree / len(both), s_cohen, s_fleiss, len(both), agree / len(both)),
    "the false-positive rate is %.2f %% pooled over the sources (all screened out / all retrieved) and %.2f %% as the mean of the 3 sources' rates." % (100 * pooled, 100 * mean),
    "Sample main: %d documents drawn at random (seed 4) from the N = %d kept documents not in sample pilot; its size by Cochran's formula for a proportion p = 0.50 within a margin of error e = 0.05 at 95 %% confidence (z = %.4f, n0 = %.2f, with the finite-population correction for N = %d: n = %d)" % (n_main, N_main, z, n0, N_main, n_main),
    "Sample pilot: 12 documents drawn at random (seed 3) from the N = %d kept documents; its size given (12); the pilot of sample main, drawn apart from it" % N_pilot,
    "2 coders (alice and bob) labelled it independently (12 documents labelled); before reconciliation, over the 11 documents every coder labelled, they gave the same label to %d (%.2f %%), Fleiss' kappa %.3f, Cohen's kappa %.3f; percent agreement (the mean share of agreeing coder pairs, over the 11 documents two or more coders labelled) %.3f; Fleiss' kappa per category: %s." % (
        l_agree, 100 * l_agree / 11, l_fleiss, l_cohen, l_agree / 11, ", ".join("%s %.3f" % (k, per_cat[k]) for k in cats)),
    "The coders labelled %d documents differently; the reconciliation decided 3 (2 of those, 1 labelled by some coders only or otherwise decided): 1 by the majority label, 1 by keeping one coder's label, 1 by another label; decided by %s; %d labelled document%s still open." % (
        disagreements, ", ".join(f"{k} {v}" for k, v in sorted(deciders.items())), open_, " is" if open_ == 1 else "s are"),
]
for w in want:
    assert w in para, (w, para)
assert para.index("Sample pilot:") < para.index("Sample main:"), para
assert "<script>" not in md, "markup in methods.md"
print("ok: stage one numbers (z %.6f, n0 %.4f, N %d, n %d; screening kappa %.4f; labels kappa %.4f; FP pooled %.4f, mean %.4f)" % (z, n0, N_main, n_main, s_cohen, l_fleiss, pooled, mean))
PY

# Without a corpus there is no Stage one section.
ws2="$tmp/plain"; cp -r "$FIXTURES/fieldwork" "$ws2"
"$QUALRANK" -C "$ws2" -q report 2>/dev/null || fail "report without a corpus"
! grep_q 'id="stage-one"' "$ws2/reports/index.html" || fail "a Stage one section without a corpus"
! grep_q '## Stage one' "$ws2/reports/methods.md" || fail "methods.md's stage one without a corpus"
python3 -c "import json,sys; assert 'stage_one' not in json.load(open(sys.argv[1]))" "$ws2/reports/report.json" || fail "stage_one without a corpus"
# Byte for byte: a second report writes the same files.
cp "$ws/reports/report.json" "$ws/reports/index.html" "$ws/reports/methods.md" "$tmp/"
q -q report 2>/dev/null
for f in report.json index.html methods.md; do cmp "$tmp/$f" "$ws/reports/$f" || fail "$f differs on a second run"; done
echo "ok: stage one report"
