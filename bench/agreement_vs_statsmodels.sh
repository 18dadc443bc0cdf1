#!/usr/bin/env bash
# `qualrank agreement` against statsmodels at equal work (issue 40: at least 20x), on the example study's
# published label tables (../shared/reference/llm-study-data/Issue Report/*/*.csv: 11 sources, 38,742 units,
# 7 coders, 18 categories) or on the tables given. Equal work: what `agreement --resamples 0` computes, in
# Python with Debian's numpy and statsmodels (the csv module reads the tables, as the study's own kappa.py) — Fleiss' kappa overall (statsmodels fleiss_kappa) and per category
# (the category against the rest), the units per source, Krippendorff's alpha (nominal, by its formula: statsmodels has
# none), percent agreement, the all-agree share, Cohen's kappa of every coder pair and of every coder against
# the consensus column (statsmodels cohens_kappa on the pair's contingency table). The Python side also checks
# that its numbers are qualrank's (to 1e-9), so the two did the same work. The Python is vectorised numpy
# (counts by bincount), not a loop per unit: a fair opponent.
# Both timed as whole processes, median of 7 runs; the Python script also prints its compute time alone (after
# its imports). Usage: bench/agreement_vs_statsmodels.sh [BUILD_DIR] [LABEL.csv ...]
set -euo pipefail
build=${1:-build}
shift || true
here=$(cd "$(dirname "$0")" && pwd)
qualrank=$(cd "$build" && pwd)/qualrank
[[ -x $qualrank ]] || { echo "build $qualrank first"; exit 1; }
if (($# == 0)); then
  shopt -s nullglob
  set -- "$here/../../shared/reference/llm-study-data/Issue Report"/*/*.csv
  (($#)) || { echo "no label tables given and ../shared/reference/llm-study-data is not there"; exit 1; }
fi
/usr/bin/python3 -c 'import numpy, statsmodels' 2>/dev/null || { echo "needs Debian's python3-numpy and python3-statsmodels"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/ws"  # no taxonomy: free categories
cat >"$tmp/same_work.py" <<'PY'
import csv, json, sys, time
from collections import Counter
import numpy as np
from statsmodels.stats.inter_rater import fleiss_kappa, cohens_kappa
t0 = time.perf_counter()
coders, units, finals, sources = None, [], [], []
for path in sys.argv[2:]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        head = next(rows)
        cols = [i for i, h in enumerate(head) if h.startswith("Label") or h.startswith("coder")]
        final = head.index("Final_Label") if "Final_Label" in head else None
        coders = coders or [head[i] for i in cols]
        for r in rows:
            if not r: continue
            units.append([r[i].strip() for i in cols])
            finals.append(r[final].strip() if final is not None else "")
            sources.append(path)
cats = sorted({c for u in units for c in u if c})
index = {c: i for i, c in enumerate(cats)}
codes = np.array([[index[c] for c in u] for u in units])  # every coder rated every unit in these tables
n, m = codes.shape
K = len(cats)
table = np.bincount((np.arange(n)[:, None] * K + codes).ravel(), minlength=n * K).reshape(n, K)
out = {"fleiss_kappa": fleiss_kappa(table, method="fleiss")}
# Krippendorff's alpha, nominal, all units pairable: 1 - D_o / D_e from the coincidences.
total = n * m
pairs = (table * (table - 1)).sum() / (m - 1)
p = table.sum(axis=0)
out["krippendorff_alpha"] = 1 - (total - 1) * (total - pairs) / (total * total - (p * p).sum())
out["percent_agreement"] = float(((table * (table - 1)).sum(axis=1) / (m * (m - 1))).mean())
out["all_agree"] = float((table.max(axis=1) == m).mean())
out["per_category"] = {c: fleiss_kappa(np.stack([table[:, k], m - table[:, k]], axis=1), method="fleiss")
                       for c, k in index.items()}
src = np.array(sources)
out["sources"] = {s: int((src == s).sum()) for s in dict.fromkeys(sources)}  # units per source
def cohen(a, b):
    ct = np.bincount(a * K + b, minlength=K * K).reshape(K, K).astype(float)
    return cohens_kappa(ct, return_results=False)
out["cohen_kappa_pairs"] = [cohen(codes[:, i], codes[:, j]) for i in range(m) for j in range(i + 1, m)]
fin = np.array([index.get(c, -1) for c in finals])
ok = fin >= 0
out["coder_vs_final"] = [cohen(codes[ok, j], fin[ok]) for j in range(m)]
elapsed = time.perf_counter() - t0
if sys.argv[1] != "-":  # check against qualrank's own JSON
    q = json.load(open(sys.argv[1]))
    def close(a, b, what):
        assert abs(a - b) < 1e-9, (what, a, b)
    for k in ("fleiss_kappa", "krippendorff_alpha", "percent_agreement", "all_agree"):
        close(out[k], q[k], k)
    for c, v in out["per_category"].items(): close(v, q["per_category"][c]["fleiss_kappa"], c)
    assert sorted(out["sources"].values()) == sorted(v["units"] for v in q["sources"].values()), "units per source"
    for a, b in zip(out["cohen_kappa_pairs"], [p["kappa"] for p in q["cohen_kappa_pairs"]]): close(a, b, "pair")
    qf = [v["cohen_kappa"] for v in q["coder_vs_final"].values()]
    for a, b in zip(out["coder_vs_final"], qf): close(a, b, "coder vs final")
    print("statsmodels and qualrank agree on %d numbers; statsmodels' compute alone (after imports): %.3f s"
          % (4 + len(cats) + len(out["sources"]) + len(out["cohen_kappa_pairs"]) + m, elapsed))
PY
"$qualrank" -C "$tmp/ws" -q agreement --labels "$@" --resamples 0 --format json >"$tmp/q.json" 2>/dev/null
/usr/bin/python3 "$tmp/same_work.py" "$tmp/q.json" "$@"
# One timed run: prints the wall seconds.
timed() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f\n", e - s }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
q=$(for i in 1 2 3 4 5 6 7; do timed "$qualrank" -C "$tmp/ws" -q agreement --labels "$@" --resamples 0 --format json; done | median)
p=$(for i in 1 2 3 4 5 6 7; do timed /usr/bin/python3 "$tmp/same_work.py" - "$@"; done | median)
awk -v q="$q" -v p="$p" 'BEGIN { printf "qualrank agreement --resamples 0: %.1f ms; statsmodels, same work: %.1f ms (whole processes, median of 7): %.1fx (target: 20x)\n", q * 1000, p * 1000, p / q }'
