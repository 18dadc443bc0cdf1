# Reference values for tests/unit/analysis_agreement_jackknife_test.cpp: a delete-one jackknife by brute force.
# Run: /usr/bin/python3 tests/unit/agreement_jackknife_reference.py   (Debian: numpy 1.24, scipy, statsmodels 0.13.5)
# For each unit (or cluster) g, Fleiss kappa (statsmodels) and nominal alpha (the coincidence matrix built pair by
# pair, Krippendorff 2011) are recomputed on the table without g; undefined values are dropped; then
# se = sqrt((n - 1) / n * sum (v - mean v)^2) (Efron & Tibshirani 1993, eq. 11.5) and theta -+ z se, upper end <= 1.
import numpy as np
from statsmodels.stats.inter_rater import fleiss_kappa
from scipy.stats import norm
codes = [0,0,-1,0, 1,1,2,1, 2,2,2,2, 2,2,2,2, 1,1,1,1, 0,1,2,3,
         3,3,3,3, 0,0,1,0, 1,1,1,1, -1,4,4,4, -1,-1,0,0, -1,2,-1,-1]
T = np.array(codes).reshape(12, 4); C = 5
def kappa(rows):
    full = [r for r in rows if (r >= 0).all()]
    if not full: return np.nan
    counts = np.array([[sum(1 for v in r if v == c) for c in range(C)] for r in full])
    with np.errstate(all='ignore'): return fleiss_kappa(counts, method='fleiss')
def alpha(rows):  # coincidence matrix o_ck (Krippendorff 2011), nominal metric
    o = np.zeros((C, C))
    for r in rows:
        v = [x for x in r if x >= 0]
        if len(v) < 2: continue
        for i in range(len(v)):
            for j in range(len(v)):
                if i != j: o[v[i], v[j]] += 1.0 / (len(v) - 1)
    n_c = o.sum(axis=1); n = n_c.sum()
    Do = o.sum() - np.trace(o); De = (n * n - (n_c ** 2).sum()) / (n - 1)
    return np.nan if De == 0 else 1 - Do / De
def jack(stat, groups):
    vals = np.array([stat([r for g2, grp in enumerate(groups) if g2 != g for r in grp]) for g in range(len(groups))])
    vals = vals[~np.isnan(vals)]; n = len(vals)
    return np.sqrt((n - 1) / n * ((vals - vals.mean()) ** 2).sum())
units = [[r] for r in T]
off = [0, 1, 3, 6, 10, 11, 12]
clusters = [list(T[off[i]:off[i+1]]) for i in range(len(off) - 1)]
z = norm.ppf(0.975)
for name, groups in (("units", units), ("clusters", clusters)):
    k, a = kappa(list(T)), alpha(list(T))
    sk, sa = jack(kappa, groups), jack(alpha, groups)
    print(name, "kappa %.15g se %.15g ci [%.15g, %.15g]" % (k, sk, k - z * sk, min(1, k + z * sk)))
    print(name, "alpha %.15g se %.15g ci [%.15g, %.15g]" % (a, sa, a - z * sa, min(1, a + z * sa)))
print("z90", norm.ppf(0.95))
