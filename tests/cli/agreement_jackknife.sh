#!/usr/bin/env bash
# qualrank agreement on a label table of 100,000 units (free categories, 4 coders, a skewed category mix,
# 2% empty cells): from there on the intervals are jackknife normal intervals (docs/agreement.md), and every
# output says so; one unit fewer (99,999) keeps the bootstrap and the outputs it had before.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
py=/usr/bin/python3
mkdir "$tmp/ws"  # no taxonomy: free categories

# Park-Miller generator (exact in awk's doubles): a true category drawn 70/20/7/3%, each coder gives it with
# probability 0.78, else a uniform category, 2% of cells empty.
awk -v n=100000 'function r() { s = (s * 16807) % 2147483647; return s / 2147483647 }
BEGIN { s = 20261126; split("north south east west", k, " "); print "Unit,first,second,third,fourth"
  for (i = 1; i <= n; i++) {
    u = r(); t = u < 0.7 ? 1 : u < 0.9 ? 2 : u < 0.97 ? 3 : 4
    line = sprintf("u%06d", i)
    for (c = 1; c <= 4; c++) { v = r(); line = line "," (v < 0.02 ? "" : v < 0.8 ? k[t] : k[1 + int(r() * 4)]) }
    print line } }' >"$tmp/ws/big.csv"
head -n 100000 "$tmp/ws/big.csv" >"$tmp/ws/below.csv"  # header + 99,999 units
[[ $(md5sum <"$tmp/ws/big.csv") == "fc747d0fa65805849e3dfb8432a23d03  -" ]] || fail "the generated table is not the one the expected values were computed on"
opts=(--unit-col Unit --coder-cols first,second,third,fourth)

# Expected values: a leave-one-out computed with NumPy from the definitions (statsmodels' P_i and p_j for
# Fleiss over the complete units; the coincidence form of alpha), se = sqrt((n-1)/n sum (v - mean v)^2),
# theta -+ norm.ppf(0.975) se. In the folder of big.csv:
# /usr/bin/python3 -c "
# import numpy as np, pandas as pd; from scipy.stats import norm
# L = pd.read_csv('big.csv', keep_default_na=False)[['first','second','third','fourth']].values
# n = np.stack([(L == c).sum(1) for c in sorted({v for v in L.ravel() if v})], 1).astype(float); m = n.sum(1); z = norm.ppf(0.975)
# def jk(t, loo): v = loo[~np.isnan(loo)]; k = len(v); se = np.sqrt((k-1)/k*((v-v.mean())**2).sum()); return t, se, t-z*se, min(1, t+z*se)
# M = 4; F = n[m == M]; N = len(F); P = ((F**2).sum(1) - M)/(M*(M-1)); col = F.sum(0)
# fk = lambda Ps, col, N: (Ps/N - ((col/(N*M))**2).sum(-1))/(1 - ((col/(N*M))**2).sum(-1))
# kl = np.full(len(L), fk(P.sum(), col, N)); kl[m == M] = fk(P.sum() - P, col - F, N - 1)
# A = n[m >= 2]; ma = m[m >= 2]; D = (ma**2 - (A**2).sum(1))/(ma - 1); nc = A.sum(0)
# al = lambda Ds, nc: 1 - (nc.sum(-1) - 1)*Ds/(nc.sum(-1)**2 - (nc**2).sum(-1))
# aa = np.full(len(L), al(D.sum(), nc)); aa[m >= 2] = al(D.sum() - D, nc - A)
# print(jk(fk(P.sum(), col, N), kl), jk(al(D.sum(), nc), aa))"
# -> kappa 0.516181014475, se 0.00171026198566, [0.512828962579, 0.519533066371];
#    alpha 0.515669041821, se 0.00165762148818, [0.512420163404, 0.518917920238]
"$QUALRANK" -C "$tmp/ws" agreement --labels big.csv "${opts[@]}" --format json >"$tmp/big.json" || fail "100,000 units"
$py - "$tmp/big.json" <<'PY' || fail "100,000 units: $(head -c 600 "$tmp/big.json")"
import json, sys
c = json.load(open(sys.argv[1]))["confidence"]
assert list(c) == ["fleiss_kappa", "krippendorff_alpha", "method", "level", "resamples", "seed", "warning"], list(c)
assert c["method"] == "jackknife", c
for got, want in zip(c["fleiss_kappa"] + c["krippendorff_alpha"], [0.512828962579, 0.519533066371, 0.512420163404, 0.518917920238]):
    assert abs(got - want) < 1e-10, (got, want)
assert c["resamples"] == 1000 and c["seed"] == 20250101 and c["warning"] is None, c
PY
# the jackknife uses no random numbers: another seed or resample count, the same bytes
"$QUALRANK" -C "$tmp/ws" agreement --labels big.csv "${opts[@]}" --format json --seed 5 --resamples 10 >"$tmp/big-seed.json"
[[ $(sed 's/"resamples": 10,/"resamples": 1000,/; s/"seed": 5,/"seed": 20250101,/' "$tmp/big-seed.json") == "$(cat "$tmp/big.json")" ]] ||
  fail "the jackknife depends on --seed or --resamples"
# --resamples 0 still turns the intervals off
"$QUALRANK" -C "$tmp/ws" agreement --labels big.csv "${opts[@]}" --format json --resamples 0 >"$tmp/off.json"
$py -c 'import json, sys; c = json.load(open(sys.argv[1]))["confidence"]; assert c["fleiss_kappa"] == [None, None] and c["resamples"] == 0, c' "$tmp/off.json" ||
  fail "--resamples 0 on 100,000 units"

# text: the interval says how it was made
"$QUALRANK" -C "$tmp/ws" agreement --labels big.csv "${opts[@]}" >"$tmp/big.txt"
[[ $(sed -n 2,3p "$tmp/big.txt") == "  Fleiss' kappa         0.516  95% CI [0.513, 0.520] (jackknife)
  Krippendorff's alpha  0.516  95% CI [0.512, 0.519] (jackknife)" ]] || fail "text: $(head -4 "$tmp/big.txt")"
# LaTeX: the caption names the method
"$QUALRANK" -C "$tmp/ws" agreement --labels big.csv "${opts[@]}" --format latex >"$tmp/big.tex"
grep -qF "its 95\\% jackknife confidence interval, when computed)" "$tmp/big.tex" || fail "latex caption: $(grep caption "$tmp/big.tex" | head -1)"
# workbook: a row under the figures
"$QUALRANK" -C "$tmp/ws" agreement --labels big.csv "${opts[@]}" -o big.xlsx >/dev/null
$py - "$tmp/ws/big.xlsx" <<'PY' || fail "workbook"
import openpyxl, sys
rows = [[c.value for c in r] for r in openpyxl.load_workbook(sys.argv[1])["Summary"].iter_rows()]
assert rows[4] == ["Interval method", "jackknife (normal interval; bootstrap resamples and seed not used)", None, None], rows[4]
assert abs(rows[1][2] - 0.512828962579) < 1e-10 and abs(rows[2][3] - 0.518917920238) < 1e-10, rows[1:3]
PY

# 99,999 units: the bootstrap, as before (its interval close to the jackknife's: within 10% of its width)
"$QUALRANK" -C "$tmp/ws" agreement --labels below.csv "${opts[@]}" --format json >"$tmp/below.json" || fail "99,999 units"
$py - "$tmp/below.json" <<'PY' || fail "99,999 units: $(head -c 600 "$tmp/below.json")"
import json, sys
c = json.load(open(sys.argv[1]))["confidence"]
assert c["method"] == "bootstrap", c
for (lo, hi), (jlo, jhi) in [(c["fleiss_kappa"], (0.512828962579, 0.519533066371)), (c["krippendorff_alpha"], (0.512420163404, 0.518917920238))]:
    assert abs(lo - jlo) < 0.1 * (hi - lo) and abs(hi - jhi) < 0.1 * (hi - lo), (lo, hi, jlo, jhi)
PY
"$QUALRANK" -C "$tmp/ws" agreement --labels below.csv "${opts[@]}" >"$tmp/below.txt"
! grep -q jackknife "$tmp/below.txt" || fail "99,999 units: the text names the jackknife"
"$QUALRANK" -C "$tmp/ws" agreement --labels below.csv "${opts[@]}" --format latex | grep_q -F "its 95\\% bootstrap confidence interval" ||
  fail "99,999 units: latex caption"
"$QUALRANK" -C "$tmp/ws" agreement --labels below.csv "${opts[@]}" -o below.xlsx >/dev/null
$py -c 'import openpyxl, sys; rows = [r[0].value for r in openpyxl.load_workbook(sys.argv[1])["Summary"].iter_rows()]; assert "Interval method" not in rows, rows' \
  "$tmp/ws/below.xlsx" || fail "99,999 units: workbook"

# qualrank report on a study (the fieldwork fixture) with the same table under its taxonomy's codes and a
# consensus column: report.json says which method each part used, index.html notes the jackknife, and the
# LaTeX caption names each part's method.
cp -r "$FIXTURES/fieldwork" "$tmp/study"
mkdir -p "$tmp/study/codebooks/labels"
awk -F, 'BEGIN { OFS = ","; split("north south east west", k, " "); split("COM.1 COM.2 COM.3 TOOL", code, " ") }
  NR == 1 { print "Unit,Label_1,Label_2,Label_3,Label_4,Final_Label"; next }
  { for (i = 2; i <= 5; i++) for (j = 1; j <= 4; j++) if ($i == k[j]) $i = code[j]; print $0, "COM.1" }' "$tmp/ws/big.csv" \
  >"$tmp/study/codebooks/labels/big.csv"
"$QUALRANK" -C "$tmp/study" report -o out --resamples 50 >/dev/null 2>"$tmp/report.err" || fail "report: $(cat "$tmp/report.err")"
$py - "$tmp/study/out/report.json" <<'PY' || fail "report.json"
import json, sys
a = json.load(open(sys.argv[1]))["agreement"]
assert a["labels"]["confidence"]["method"] == "jackknife", a["labels"]["confidence"]
assert a["transcripts"]["confidence"]["method"] == "bootstrap", a["transcripts"]["confidence"]
assert abs(a["labels"]["confidence"]["fleiss_kappa"][0] - 0.512828962579) < 1e-10, a["labels"]["confidence"]
PY
[[ $(grep -o '<p class="note">The intervals are jackknife[^<]*</p>' "$tmp/study/out/index.html") == \
  '<p class="note">The intervals are jackknife normal intervals (used instead of the bootstrap from 100,000 units on).</p>' ]] ||
  fail "index.html: no jackknife note"
[[ $(grep -c 'The intervals are jackknife' "$tmp/study/out/index.html") == 1 ]] || fail "index.html: the note is not on the label tables only"
grep -qF "its 95\% confidence interval (jackknife for label tables, bootstrap for transcript codings), when computed)" \
  "$tmp/study/out/latex/agreement.tex" || fail "report latex caption: $(grep caption "$tmp/study/out/latex/agreement.tex")"
echo "agreement_jackknife: ok"
