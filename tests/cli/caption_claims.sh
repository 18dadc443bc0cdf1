#!/usr/bin/env bash
# Every caption and heading states exactly what its numbers are (issue #39): each number a caption or heading
# makes a claim about is recomputed here, in Python, from the basis the caption states, and compared with what
# the LaTeX tables, report.json, methods.md, the text output and the workbook print.
#  1. Per-code agreement (the fieldwork study, E02 coded by a second coder too, so that TOOL.2 is applied by one
#     coder to exactly one of the 8 turns): kappa, alpha and percent agreement over ALL the turns compared,
#     present/absent, as the captions now say (not "on the units coded with the code"); beside them the turns
#     any coder applied the code to and the positive agreement 2a / (2a + b + c), counted pair by pair from the
#     transcripts and the .codes files. The pooled table: percent agreement over (turn, code) pairs and the share
#     of turns with identical code sets, each named.
#  2. One percent agreement: `corpus screen --status` (three screeners, one of whom leaves documents out),
#     `corpus reconcile --status` (three coders, one leaving a document the other two agree on) and `agreement
#     --labels` on the exported label table print the same measure, the mean share of agreeing pairs over the
#     units rated by two or more, beside the share of units all agree on (over the units rated by all), each
#     under its own name; agreement.tex's label-table row and caption.
#  3. Plackett-Luce: the likelihood-ratio statistic rebuilt from the log-likelihoods the worths caption prints,
#     2 (separate - pooled); the differences table's centred log-worths recomputed from the worths, its
#     difference their difference, and the caption saying so (not "gives the item more weight"); on the bundled
#     study, an item whose worth is lower in a group while its difference is positive, which the caption warns of.
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$(dirname "$0")/lib/corpus_study.sh"  # generated_corpus
export SOURCE_DATE_EPOCH=1764547200  # 2025-12-01

# --- 1. Per-code agreement ----------------------------------------------------------------------------------
fw="$tmp/fw"; cp -r "$FIXTURES/fieldwork" "$fw"
# E02 coded by carol too, and its own coder renamed dana (E01's), so that the same two coders code both
# transcripts and every turn is rated by both: carol applies TOOL.2 to t5 alone (the code on exactly one turn).
sed -i 's/^coder: eli$/coder: dana/' "$fw/transcripts/E02.md"
cat >"$fw/transcripts/E02.carol.codes" <<'EOF'
# coder: carol (independent coding of E02.md)
t3: COM.1, COM.3
t4: COM.2
t5: TOOL.3, TOOL.2
t7: WELL.2
EOF
"$QUALRANK" -C "$fw" -q report -o "$fw/out" || fail "report on the fieldwork study"
"$QUALRANK" -C "$fw" agreement --transcripts --resamples 0 >"$tmp/transcripts.txt" || fail "agreement --transcripts"

python3 - "$fw" "$tmp/transcripts.txt" <<'PY' || fail "per-code agreement"
import glob, itertools, json, os, re, sys, zipfile
import xml.etree.ElementTree as ET
ws, text_out = sys.argv[1:3]
out = os.path.join(ws, "out")

# The coders' codes per turn, read from the transcripts (inline codes of the front matter's coder: @code lines
# and [span]{CODES}) and from the <stem>.<coder>.codes files (tN: CODES, tN "span": CODES).
def inline(path):
    text = open(path, encoding="utf-8").read()
    front = dict(re.findall(r"^(\w+): (.*)$", text.split("---")[1], re.M))
    turns, t = {}, 0
    for line in text.split("---", 2)[2].splitlines():
        if line.startswith(front["participant"] + ": "):
            t += 1
            turns.setdefault(t, set()).update(c.strip() for span in re.findall(r"\]\{([^}]*)\}", line) for c in span.split(","))
        elif line.startswith("@code ") and t:
            turns.setdefault(t, set()).update(c.strip() for c in line[6:].split(","))
    return front["participant"], front["coder"], {k: v for k, v in turns.items() if v}
def codes_file(path):
    turns = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r'^t(\d+)(?:\s+"(?:[^"\\]|\\.)*")?:\s*([^|]*)', line)
        if m: turns.setdefault(int(m.group(1)), set()).update(c.strip() for c in m.group(2).split(",") if c.strip())
    return turns
units = {}  # (participant, turn) -> {coder: set}
coders = []
for extra in sorted(glob.glob(os.path.join(ws, "transcripts", "*.*.codes"))):
    stem, coder = os.path.basename(extra).split(".")[:2]
    who, own, turns = inline(os.path.join(ws, "transcripts", stem + ".md"))
    other = codes_file(extra)
    for c in (own, coder):
        if c not in coders: coders.append(c)
    for t in sorted(set(turns) | set(other)):
        units[(who, t)] = {own: turns.get(t, set()), coder: other.get(t, set())}
nodes = sorted({n for u in units.values() for s in u.values() for n in s})
N = len(units)
assert N == 8 and len(coders) == 2, (N, coders)

def ratings(node):  # one row per unit, the coders' present (1) / absent (0)
    return [[int(node in u[c]) for c in coders] for u in units.values()]
def fleiss(rows, k=2):
    m, n = len(rows[0]), len(rows)
    counts = [[sum(r == j for r in row) for j in range(k)] for row in rows]
    P = sum((sum(x * x for x in c) - m) / (m * (m - 1)) for c in counts) / n
    p = [sum(c[j] for c in counts) / (n * m) for j in range(k)]
    Pe = sum(x * x for x in p)
    return None if Pe == 1 else (P - Pe) / (1 - Pe)
def alpha(rows, k=2):  # Krippendorff's coincidence matrix, pair by pair
    o = [[0.0] * k for _ in range(k)]
    for row in rows:
        for a, b in itertools.permutations(row, 2): o[a][b] += 1 / (len(row) - 1)
    nc = [sum(r) for r in o]; n = sum(nc)
    De = n * n - sum(x * x for x in nc)
    return None if De == 0 else 1 - (n - 1) * (n - sum(o[j][j] for j in range(k))) / De
def percent(rows):
    return sum(sum(a == b for a, b in itertools.combinations(r, 2)) / (len(r) * (len(r) - 1) / 2) for r in rows) / len(rows)
def positive(rows):  # 2a / (2a + b + c), every coder pair of every unit
    pairs = [p for r in rows for p in itertools.combinations(r, 2)]
    a = sum(x == y == 1 for x, y in pairs); bc = sum(x != y for x, y in pairs)
    return None if 2 * a + bc == 0 else 2 * a / (2 * a + bc)
def f3(v): return "---" if v is None else ("%.3f" % v).replace("-", "$-$")
def close(a, b): return (a is None and b is None) or (a is not None and b is not None and abs(a - b) < 1e-9)

expected = {n: {"units_coded": sum(any(n in s for s in u.values()) for u in units.values()), "positive_agreement": positive(ratings(n)),
                "fleiss_kappa": fleiss(ratings(n)), "krippendorff_alpha": alpha(ratings(n)), "percent_agreement": percent(ratings(n))}
            for n in nodes}
# The case the captions used to get wrong: TOOL.2, applied by one coder to one of the 8 turns, has percent
# agreement 7/8 on all the turns and positive agreement 0.
assert expected["TOOL.2"]["units_coded"] == 1 and expected["TOOL.2"]["positive_agreement"] == 0
assert abs(expected["TOOL.2"]["percent_agreement"] - 7 / 8) < 1e-12

report = json.load(open(os.path.join(out, "report.json")))
tr = report["agreement"]["transcripts"]
assert tr["units"] == N and tr["unit"] == "turn" and sorted(tr["per_node"]) == nodes, (tr["units"], sorted(tr["per_node"]))
for n, e in expected.items():
    for k, v in e.items():
        assert close(tr["per_node"][n][k], v) if k != "units_coded" else tr["per_node"][n][k] == v, (n, k, tr["per_node"][n][k], v)

# agreement-nodes.tex: its caption names the basis (all 8 turns, present/absent) and the columns; each row's cells.
tex = open(os.path.join(out, "latex", "agreement-nodes.tex"), encoding="utf-8").read()
caption = re.search(r"\\caption\{(.*)\}\\label", tex).group(1)
assert "over all %d turns compared, each code present or absent per coder" % N in caption, caption
assert "$2a/(2a+b+c)$ pooled over coder pairs" in caption and "count agreeing that the code is absent too" in caption, caption
names = {n["id"]: n["name"] for n in report["taxonomy"]["nodes"]}
for n, e in expected.items():
    row = "%s %s & %d & %s & %s & %s & %s \\\\" % (n, names[n], e["units_coded"], f3(e["positive_agreement"]), f3(e["fleiss_kappa"]),
                                                 f3(e["krippendorff_alpha"]), f3(e["percent_agreement"]))
    assert row in tex, (row, tex[-1500:])

# The pooled table: percent agreement over every (turn, code) pair; all agree = the turns with identical code sets.
rows = [r for n in nodes for r in ratings(n)]
identical = sum(len({frozenset(s) for s in u.values()}) == 1 for u in units.values())
assert close(tr["percent_agreement"], percent(rows)) and close(tr["fleiss_kappa"], fleiss(rows)), tr
assert close(tr["exact_agreement"], identical / N) and tr["units_identical"] == identical, (tr["exact_agreement"], identical)
tex = open(os.path.join(out, "latex", "agreement.tex"), encoding="utf-8").read()
caption = re.search(r"\\caption\{(.*)\}\\label", tex).group(1)
assert "pairs agree, the per cent agreement: the mean share of agreeing coder pairs (per unit and code, each code present or absent" in caption, caption
assert "all agree, the share of units on which the coders applied identical sets of codes" in caption, caption
cells = re.search(r"^Transcript codings & (.*) \\\\$", tex, re.M).group(1).split(" & ")
assert cells[0] == str(N) and cells[4:] == [f3(percent(rows)), f3(identical / N)], cells

# methods.md: the same per-node rows and basis, and the identical-sets sentence.
md = open(os.path.join(out, "methods.md"), encoding="utf-8").read()
assert "Per node, over all %d turns compared, each node present or absent per coder" % N in md
assert "the coders applied identical sets of codes to %d of the %d units" % (identical, N) in md
for n, e in expected.items():
    row = "| %s | %d | %s | %s | %s | %s |" % (n, e["units_coded"], *(f3(e[k]).replace("$-$", "-") for k in
                                              ("positive_agreement", "fleiss_kappa", "krippendorff_alpha", "percent_agreement")))
    assert row in md, row
# The terminal table: the basis in the heading, the identical sets with their count.
txt = open(text_out, encoding="utf-8").read()
assert "fleiss, alpha and percent agreement over all %d turns" % N in txt, txt
assert re.search(r"Identical code sets +%.3f  \(%d of the %d turns" % (identical / N, identical, N), txt), txt
for n, e in expected.items():
    assert re.search(r"^  %s +%d +%s +%s +%s +%s$" % (re.escape(n), e["units_coded"], *(re.escape(f3(e[k]).replace("$-$", "-")) for k in
                     ("positive_agreement", "fleiss_kappa", "krippendorff_alpha", "percent_agreement"))), txt, re.M), (n, txt)
# The false claim is gone from every output.
for f in glob.glob(os.path.join(out, "latex", "*.tex")) + [os.path.join(out, "methods.md"), os.path.join(out, "index.html")]:
    body = open(f, encoding="utf-8").read()
    assert "on the units coded with the" not in body, f
html = open(os.path.join(out, "index.html"), encoding="utf-8").read()
assert "<th>Positive agreement</th>" in html and "Per code, over all %d units compared" % N in html

# agreement.xlsx, sheet "Transcript nodes" (read as XML: no spreadsheet library needed).
z = zipfile.ZipFile(os.path.join(out, "agreement.xlsx"))
ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
      "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships"}
rels = {r.get("Id"): r.get("Target") for r in ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))}
sheet = next(s for s in ET.fromstring(z.read("xl/workbook.xml")).find("m:sheets", ns) if s.get("name") == "Transcript nodes")
target = rels[sheet.get("{%s}id" % ns["r"])]
shared = ["".join(t.text or "" for t in si.iter("{%s}t" % ns["m"])) for si in ET.fromstring(z.read("xl/sharedStrings.xml"))] \
    if "xl/sharedStrings.xml" in z.namelist() else []
def value(c):
    v = c.find("m:v", ns)
    if c.get("t") == "s": return shared[int(v.text)]
    if c.get("t") == "inlineStr": return "".join(t.text or "" for t in c.iter("{%s}t" % ns["m"]))
    return None if v is None else float(v.text)
grid = {}
for c in ET.fromstring(z.read("xl/" + target.lstrip("/").replace("xl/", ""))).iter("{%s}c" % ns["m"]):
    col, row = re.match(r"([A-Z]+)(\d+)", c.get("r")).groups()
    grid.setdefault(int(row), {})[col] = value(c)
assert [grid[1][c] for c in "ABCDEFG"] == ["Node", "Name", "Units coded (by any coder)", "Positive agreement", "Fleiss' kappa",
                                           "Krippendorff's alpha", "Percent agreement"], grid[1]
for r in range(2, 2 + len(nodes)):
    e = expected[grid[r]["A"]]
    got = [grid[r].get(c) for c in "CDEFG"]
    assert got[0] == e["units_coded"] and all(close(g, e[k]) for g, k in zip(got[1:], ("positive_agreement", "fleiss_kappa",
                                              "krippendorff_alpha", "percent_agreement"))), (grid[r], e)
note = grid[3 + len(nodes)]["A"]
assert note.startswith("Kappa, alpha and percent agreement are over all %d turns" % N), note
print("per-code agreement: %d codes, %d turns" % (len(nodes), N))
PY

# --- 2. One percent agreement: screening, reconciling, label tables -------------------------------------------
cw="$tmp/corpus"; cp -r "$FIXTURES/fieldwork" "$cw"
q() { "$QUALRANK" -C "$cw" "$@"; }
generated_corpus "$cw" "$tmp/gen" 12
cat >"$cw/corpus/keywords.yaml" <<'EOF'
sources:
  atlas: [cache miss]
  borealis: [cache miss, {term: shard, match: substring}]
EOF
q -q corpus retrieve
# Three screeners; uma decides on every other document only. Document k: sam says false positive when k % 3 == 0,
# tom when k % 4 == 0, uma when k % 3 == 0 (where she decides).
python3 - "$cw" "$tmp" <<'PY'
import json, sys
ws, tmp = sys.argv[1:3]
docs = [json.loads(l)["doc"] for l in list(open(ws + "/corpus/retrieved.jsonl"))[1:]]
rules = {"sam": lambda k: k % 3 == 0, "tom": lambda k: k % 4 == 0, "uma": lambda k: k % 3 == 0}
for who, fp in rules.items():
    rows = ["doc,decision,reason,note"]
    for k, d in enumerate(docs):
        if who == "uma" and k % 2: continue
        rows.append("%s,%s,%s," % (d, "false-positive" if fp(k) else "relevant", "duplicate" if fp(k) else ""))
    open("%s/%s.csv" % (tmp, who), "w").write("\n".join(rows) + "\n")
PY
for s in sam tom uma; do q -q corpus screen --screener "$s" --from-csv "$tmp/$s.csv"; done
q corpus screen --status --format json >"$tmp/screen.json" || fail "screen --status json"
q corpus screen --status >"$tmp/screen.txt" || fail "screen --status"
q -q corpus sample pilot --size 12 --seed 3
# Three coders: bob agrees with alice on two documents in three, carol with alice or bob and leaves the last
# document out (alice and bob give it the same label).
python3 - "$cw/corpus/samples/pilot.txt" "$tmp" <<'PY'
import random, sys
docs = [l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
rng = random.Random(11)
nodes = ["COM.1", "COM.2", "TOOL.1", "TOOL.2", "WELL.1"]
out = {"alice": [], "bob": [], "carol": []}
for i, d in enumerate(docs):
    a = nodes[i % 5]
    b = a if i % 3 or i == len(docs) - 1 else nodes[(i + 1) % 5]
    c = rng.choice([a, b, nodes[(i + 2) % 5]])
    out["alice"].append((d, a)); out["bob"].append((d, b))
    if i < len(docs) - 1: out["carol"].append((d, c))
for who, rows in out.items():
    open("%s/%s.labels.csv" % (sys.argv[2], who), "w").write("doc,nodes,note\n" + "".join("%s,%s,\n" % r for r in rows))
PY
for c in alice bob carol; do q -q corpus label --coder "$c" --sample pilot --from-csv "$tmp/$c.labels.csv"; done
q corpus reconcile --sample pilot --status --format json >"$tmp/reconcile.json" || fail "reconcile --status json"
q corpus reconcile --sample pilot --status >"$tmp/reconcile.txt" || fail "reconcile --status"
q -q corpus labels export --sample pilot
q agreement --labels codebooks/labels/pilot.csv --resamples 0 --format json >"$tmp/labels.json" || fail "agreement --labels json"
q agreement --labels codebooks/labels/pilot.csv --resamples 0 --format latex >"$tmp/labels.tex" || fail "agreement --labels latex"

python3 - "$cw" "$tmp" <<'PY' || fail "one percent agreement"
import csv, itertools, json, re, sys
ws, tmp = sys.argv[1:3]
def figures(rows):
    """rows: per unit, the ratings given (any number). The two shares, each over its own units."""
    two = [r for r in rows if len(r) >= 2]
    percent = sum(sum(a == b for a, b in itertools.combinations(r, 2)) / (len(r) * (len(r) - 1) / 2) for r in two) / len(two)
    return two, percent
# Screening: over the retrieved documents, the screeners' decisions.
docs = [json.loads(l)["doc"] for l in list(open(ws + "/corpus/retrieved.jsonl"))[1:]]
dec = {s: {r["doc"]: r["decision"] for r in csv.DictReader(open("%s/corpus/screening/%s.csv" % (ws, s)))} for s in ("sam", "tom", "uma")}
rows = [[dec[s][d] for s in dec if d in dec[s]] for d in docs]
all3 = [r for r in rows if len(r) == 3]
two, percent = figures(rows)
alike = sum(len(set(r)) == 1 for r in all3)
g = json.load(open(tmp + "/screen.json"))
assert g["screened_by_all"] == len(all3) and g["agreeing"] == alike and abs(g["all_agree"] - alike / len(all3)) < 1e-15, g
assert g["screened_by_two"] == len(two) and abs(g["percent_agreement"] - percent) < 1e-12, (g["percent_agreement"], percent)
assert abs(g["all_agree"] - g["percent_agreement"]) > 0.01, "three screeners: the two shares should differ here"
txt = open(tmp + "/screen.txt").read()
assert "by all: %d, of which %d decided alike by every screener (all agree: %.1f%%)\n" % (len(all3), alike, 100 * alike / len(all3)) in txt, txt
assert "percent agreement (mean share of agreeing screener pairs, over the %d documents screened by two or more): %.4f\n" % (len(two), percent) in txt, txt
# Reconciling and the label table: the coders' labels (deepest node), before any decision.
sample = [l.strip() for l in open(ws + "/corpus/samples/pilot.txt") if l.strip() and not l.startswith("#")]
lab = {c: {r["doc"]: r["nodes"].split()[-1] for r in csv.DictReader(open("%s/corpus/labels/pilot/%s.csv" % (ws, c)))} for c in ("alice", "bob", "carol")}
rows = [[lab[c][d] for c in lab if d in lab[c]] for d in sample]
all3 = [r for r in rows if len(r) == 3]
two, percent = figures(rows)
alike = sum(len(set(r)) == 1 for r in all3)
assert len(two) == len(all3) + 1, "carol leaves one document to the other two"
r = json.load(open(tmp + "/reconcile.json"))
assert r["labelled_by_all"] == len(all3) and r["agreeing"] == alike and abs(r["all_agree"] - alike / len(all3)) < 1e-15, r
assert r["labelled_by_two"] == len(two) and abs(r["percent_agreement"] - percent) < 1e-12, (r["percent_agreement"], percent)
txt = open(tmp + "/reconcile.txt").read()
assert "over the %d documents every coder labelled: %d alike (all agree: %.4f)" % (len(all3), alike, alike / len(all3)) in txt, txt
assert "percent agreement (mean share of agreeing coder pairs, over the %d documents two or more coders labelled): %.4f\n" % (len(two), percent) in txt, txt
a = json.load(open(tmp + "/labels.json"))
assert a["pairable_units"] == len(two) and abs(a["percent_agreement"] - percent) < 1e-12, (a["percent_agreement"], percent)
assert a["units"] - a["dropped_units"] == len(all3) and a["units_all_agree"] == alike and abs(a["all_agree"] - alike / len(all3)) < 1e-15, a
assert a["percent_agreement"] == r["percent_agreement"], "one measure, one number"
# agreement.tex's label-table row and caption.
tex = open(tmp + "/labels.tex", encoding="utf-8").read()
caption = re.search(r"\\caption\{(Inter-coder agreement, pooled.*)\}\\label\{tab:agreement\}", tex).group(1)
assert "pairs agree, the per cent agreement: the mean share of agreeing coder pairs (per unit, over the units with two or more ratings)" in caption, caption
assert "all agree, the share of units on which every coder gave the same label, of the units rated by every coder" in caption, caption
cells = re.search(r"^Label tables & (.*) \\\\$", tex, re.M).group(1).split(" & ")
assert cells[0] == str(len(sample)) and cells[-2:] == ["%.3f" % percent, "%.3f" % (alike / len(all3))], cells
print("one percent agreement: screening %.4f, labels %.4f (all agree %.4f)" % (g["percent_agreement"], percent, alike / len(all3)))
PY

# --- 3. Plackett-Luce: the LR statistic and the differences -------------------------------------------------
"$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/bundled" || fail "report on the bundled study"
python3 - "$fw/out" "$tmp/bundled" <<'PY' || fail "Plackett-Luce captions"
import glob, json, math, os, re, sys
def num(s): return float(s.replace("$-$", "-"))
def slug(s): return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-") or "item"
flipped = []
checked = 0
for out in sys.argv[1:]:
    report = json.load(open(os.path.join(out, "report.json")))
    analyses = [("rank", report["rankings"])] + [("rank-" + slug(e["role"]) + "-" + slug(e["by"]), e) for e in report["experience_comparisons"]]
    for prefix, an in analyses:
        for q in an["questions"]:
            m = q.get("model")
            if not m or not m.get("lr_test"): continue
            stem = prefix + "-" + slug(q["question"])
            tex = open(os.path.join(out, "latex", stem + "-worths.tex"), encoding="utf-8").read()
            cap = re.search(r"\\caption\{(.*)\}\\label", tex).group(1)
            lr = m["lr_test"]
            # chi^2 = 2 (separate - pooled) = S: rebuilt from the printed numbers, which are the JSON's.
            f = re.search(r"\$\\chi\^2\$ = 2\\,\((\S+) \$-\$ \((\S+)\)\) = (\S+), df = (\d+)", cap)
            assert f, cap
            sep, pooled, stat = num(f.group(1)), num(f.group(2)), num(f.group(3))
            assert abs(2 * (sep - pooled) - stat) <= 0.005 + 0.002, (stem, sep, pooled, stat)
            assert abs(sep - lr["log_likelihood_separate"]) <= 5e-4 and abs(pooled - lr["log_likelihood_pooled"]) <= 5e-4, (stem, lr)
            assert abs(stat - lr["statistic"]) <= 0.005 and abs(2 * (lr["log_likelihood_separate"] - lr["log_likelihood_pooled"]) - lr["statistic"]) < 1e-9
            # each group's log-likelihood printed, and their sum
            listed = cap.split("of one worth vector per group (")[1].split(") and of one for all groups")[0].split("; ")
            assert listed[-1] == "sum " + f.group(1), listed
            per = {g: num(v) for g, v in (x.rsplit(" ", 1) for x in listed[:-1])}
            assert set(per) == set(lr["groups"]) and abs(sum(per.values()) - sep) <= 0.002 * len(per), (stem, per, sep)
            assert all(abs(per[g] - lr["log_likelihoods"][g]) <= 5e-4 for g in per), (per, lr["log_likelihoods"])
            if m["pseudo_rankings"] > 0:
                assert "penalised log-likelihoods (rankings plus pseudo-rankings)" in cap, cap
                assert "fitted with every group's pseudo-rankings, %.1f per item" % (m["pseudo_rankings"] * len(lr["groups"])) in cap, cap
                assert lr["pseudo_rankings_pooled"] == m["pseudo_rankings"] * len(lr["groups"])
            # The differences: centred log-worth c = log w - mean log w, recomputed from each group's worths.
            for pair in m["pairs"]:
                a, b = pair["groups"]
                dt = open(os.path.join(out, "latex", stem + "-worths-" + slug(b) + "-vs-" + slug(a) + ".tex"), encoding="utf-8").read()
                dcap = re.search(r"\\caption\{(.*)\}\\label", dt).group(1)
                assert "item differences on the centred log-worth $c$" in dcap and "that of %s minus that of %s" % (b, a) in dcap, dcap
                assert "It is not the difference of the worths" in dcap and "gives the item more weight" not in dcap, dcap
                def centred(g):
                    logs = {i: math.log(m["groups"][g]["items"][i]["worth"]) for i in q["items"]}
                    mean = sum(logs.values()) / len(logs)
                    return {i: v - mean for i, v in logs.items()}
                ca, cb = centred(a), centred(b)
                for d in pair["item_differences"]:
                    i = d["item"]
                    assert abs(d["centred_log_worth"][a] - ca[i]) < 1e-6 and abs(d["centred_log_worth"][b] - cb[i]) < 1e-6, (i, d, ca[i], cb[i])
                    assert abs(d["difference"] - (cb[i] - ca[i])) < 1e-6, (i, d)
                    row = re.search(r"^%s [^&]*& (.*) \\\\$" % re.escape(i), dt, re.M).group(1).split(" & ")
                    assert all(abs(num(x) - v) <= 0.005 + 1e-9 for x, v in zip(row[:3], (ca[i], cb[i], d["difference"]))), (i, row)
                    wa, wb = m["groups"][a]["items"][i]["worth"], m["groups"][b]["items"][i]["worth"]
                    if (wb - wa) * d["difference"] < 0: flipped.append((stem, i, a, b))
                checked += 1
assert checked >= 4, checked
# The bundled study's III.R: C.3's worth is lower among developers than among users, its difference positive.
assert ("rank-iii-r", "C.3", "user", "developer") in flipped, flipped
print("Plackett-Luce: %d comparisons; items whose worths and difference part in sign: %d" % (checked, len(flipped)))
PY
echo "caption claims: ok"
