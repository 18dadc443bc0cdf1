#!/usr/bin/python3
"""Independent recomputation of `qualrank rank --model plackett-luce --format json` for a workspace whose
ranking questions mix complete answers with shorter ones (tests/fixtures/mixed-rank), with SciPy and
statsmodels (Debian: python3-scipy, python3-statsmodels). Nothing here comes from qualrank: the answers are
read from the transcripts' `@rank` lines, grouped by the front matter's `role`, and every statistic is
computed from its textbook definition or SciPy:

  ranks          tied items share the mean of their positions; items an answer leaves out share the mean of
                 the positions after the items it names (3 of 6 named: rank 5)
  mean/median    numpy; Borda = sum over answers of (k - rank)
  Kendall's W    Friedman's tie-corrected chi-square (scipy.stats.friedmanchisquare) / (m (k - 1))
  gaps           scipy.stats.mannwhitneyu (two-sided, method 'auto'), Holm (statsmodels multipletests),
                 Cliff's delta = P(b > a) - P(b < a)
  correlation    spearmanr / kendalltau of the two groups' mean-rank vectors (rho only; its p is exact in qualrank)
  Plackett-Luce  the answers as choices: each tier is chosen from every item not yet chosen (unranked items
                 included: they lose), ties by Efron's approximation; 0.5 pseudo-rankings (each item wins and
                 loses 0.5 comparisons against an item of worth 1); maximised with scipy.optimize (BFGS);
                 worths normalised to sum 1; the log-likelihood of the answers alone.

Usage: rank_mixed_reference.py WORKSPACE > expected.json
"""
import json
import math
import pathlib
import re
import sys

import numpy as np
from scipy import optimize, stats
from statsmodels.stats.multitest import multipletests

ws = pathlib.Path(sys.argv[1])
guide = (ws / "guidelines").glob("*.yaml").__next__().read_text()
tax = (ws / "codebooks").glob("*.yaml").__next__().read_text()

# Questions and their items (children of the node named in `items: {children_of: X}`), in taxonomy order.
questions = re.findall(r"- id: (\S+)\n\s+kind: ranking\n(?:.*\n)*?\s+items: \{children_of: (\S+)\}", guide)
node_ids = re.findall(r"- id: (\S+)", tax)
items_of = {q: [n for n in node_ids if re.fullmatch(re.escape(parent) + r"\.\d+", n)] for q, parent in questions}

answers = {q: {} for q, _ in questions}  # question -> role -> [tiers]
for path in sorted((ws / "transcripts").glob("*.md")):
    text = path.read_text()
    role = re.search(r"^role: (\S+)$", text, re.M).group(1)
    for q, body in re.findall(r"^## (\S+)\n((?:(?!^## ).*\n?)*)", text, re.M):
        m = re.search(r"^@rank (.+)$", body, re.M)
        if q in answers and m:
            tiers = [[x.strip() for x in tier.split("=")] for tier in m.group(1).split(">")]
            answers[q].setdefault(role, []).append(tiers)


def ranks(tiers, items):
    r, pos = {}, 0
    for tier in tiers:
        for x in tier:
            r[x] = pos + (len(tier) + 1) / 2
        pos += len(tier)
    rest = [x for x in items if x not in r]
    for x in rest:
        r[x] = pos + (len(rest) + 1) / 2
    return [r[x] for x in items]


def pl_fit(group_answers, items, pseudo=0.5):
    k = len(items)
    index = {x: i for i, x in enumerate(items)}

    def loglik(b):  # log-worths
        w = np.exp(b)
        total = 0.0
        for tiers in group_answers:
            available = set(range(k))
            for tier in tiers:
                t = [index[x] for x in tier]
                s_r = sum(w[i] for i in available)
                s_t = sum(w[i] for i in t)
                d = len(t)
                total += sum(b[i] for i in t) - sum(math.log(s_r - l / d * s_t) for l in range(d))
                available -= set(t)
        return total

    def penalised(b):
        return loglik(b) + pseudo * sum(b[i] - 2 * math.log(math.exp(b[i]) + 1) for i in range(k))

    res = optimize.minimize(lambda b: -penalised(b), np.zeros(k), method="BFGS", options={"gtol": 1e-10})
    w = np.exp(res.x)
    return {"worth": dict(zip(items, (w / w.sum()).tolist())), "log_likelihood": loglik(res.x)}


out = {}
for q, _ in questions:
    items = items_of[q]
    k = len(items)
    groups = {}
    for role, group in answers[q].items():
        R = np.array([ranks(t, items) for t in group])
        m = len(group)
        fried = stats.friedmanchisquare(*R.T)
        lengths = {}
        for t in group:
            n = sum(len(tier) for tier in t)
            lengths[str(n)] = lengths.get(str(n), 0) + 1
        groups[role] = {
            "n": m,
            "mean_rank": dict(zip(items, R.mean(axis=0).tolist())),
            "median_rank": dict(zip(items, np.median(R, axis=0).tolist())),
            "borda": dict(zip(items, (k - R).sum(axis=0).tolist())),
            "kendall_w": fried.statistic / (m * (k - 1)),
            "kendall_w_p": fried.pvalue,
            "answer_lengths": dict(sorted(lengths.items(), key=lambda kv: int(kv[0]))),
            "model": pl_fit(group, items),
        }
    a, b = list(answers[q])[:2]
    Ra = np.array([ranks(t, items) for t in answers[q][a]])
    Rb = np.array([ranks(t, items) for t in answers[q][b]])
    ps, gaps = [], {}
    for j, x in enumerate(items):
        mw = stats.mannwhitneyu(Ra[:, j], Rb[:, j])
        more = sum(int(y > z) - int(y < z) for y in Rb[:, j] for z in Ra[:, j])
        gaps[x] = {"gap": Rb[:, j].mean() - Ra[:, j].mean(), "mann_whitney_u": float(mw.statistic), "p": float(mw.pvalue),
                   "cliffs_delta": more / (len(Ra) * len(Rb))}
        ps.append(float(mw.pvalue))
    for x, h in zip(items, multipletests(ps, method="holm")[1]):
        gaps[x]["p_holm"] = float(h)
    out[q] = {"items": items, "groups": groups, "groups_compared": [a, b],
              "spearman_rho": float(stats.spearmanr(Ra.mean(axis=0), Rb.mean(axis=0)).statistic),
              "kendall_tau_b": float(stats.kendalltau(Ra.mean(axis=0), Rb.mean(axis=0)).statistic),
              "gaps": gaps}
json.dump(out, sys.stdout, indent=1, sort_keys=True)
print()
