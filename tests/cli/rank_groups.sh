#!/usr/bin/env bash
# Comparisons the study asks for, on the fieldwork study (roles manager/employee/contractor, experience
# junior/mid/senior from tenure): the k-group Kruskal-Wallis analysis against SciPy, the guideline's
# `compare` pairs (and their located errors), the "not compared" note, honest small samples (the smallest
# reachable p, "no item can reach significance", the flag basis, no flags below 3 participants) and the
# experience comparison of every role in report.json, index.html, rankings.md and rankings.xlsx.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
py=/usr/bin/python3
fw="$FIXTURES/fieldwork"

# 1. k groups from the transcripts. The participants' rank vectors over (TOOL.1, TOOL.2, TOOL.3), read off
# the @rank lines (top-2 answers give the unranked item rank 3): managers M01 (2,1,3), M02 (3,1,2);
# employees E01 (1,2,3), E02 (3,2,1); contractors C01 (3,1,2), C02 (1,3,2).
"$QUALRANK" -C "$fw" rank --format json --resamples 200 >"$tmp/roles.json"
# /usr/bin/python3 -c 'from scipy.stats import kruskal
# for g in ([2,3],[1,3],[3,1]),([1,1],[2,2],[1,3]),([3,2],[3,1],[2,2]): r=kruskal(*g); print(repr(r.statistic), repr(r.pvalue), repr(r.statistic/5))'
# -> 0.24999999999999703 0.8824969025845968 0.049999999999999406
#    2.333333333333333 0.31140322391459774 0.4666666666666666
#    0.5833333333333333 0.7470175003104327 0.11666666666666665
# Holm: /usr/bin/python3 -c 'from statsmodels.stats.multitest import multipletests as m; print(list(m([0.8824969025845968,0.31140322391459774,0.7470175003104327],method="holm")[1]))'
# -> [1.0, 0.9342096717437932, 1.0]
$py - "$tmp/roles.json" <<'EOF' || fail "k_groups from the transcripts"
import json, sys
q = json.load(open(sys.argv[1]))["questions"][0]
assert q["question"] == "III.R", q["question"]
# the rank vectors above give these mean ranks (checks the vectors the expected values rest on)
assert q["groups"]["manager"]["mean_rank"] == {"TOOL.1": 2.5, "TOOL.2": 1.0, "TOOL.3": 2.5}, q["groups"]["manager"]
assert q["groups"]["contractor"]["mean_rank"] == {"TOOL.1": 2.0, "TOOL.2": 2.0, "TOOL.3": 2.0}, q["groups"]["contractor"]
k = q["k_groups"]
assert k["groups"] == ["manager", "employee", "contractor"], k["groups"]
exp = {"TOOL.1": (0.24999999999999703, 0.8824969025845968, 1.0, 0.049999999999999406),
       "TOOL.2": (2.333333333333333, 0.31140322391459774, 0.9342096717437932, 0.4666666666666666),
       "TOOL.3": (0.5833333333333333, 0.7470175003104327, 1.0, 0.11666666666666665)}
assert [i["item"] for i in k["items"]] == ["TOOL.1", "TOOL.2", "TOOL.3"]
for i in k["items"]:
    assert set(i) == {"item", "kruskal_h", "p", "p_holm", "epsilon_squared"}, i
    h, p, ph, e = exp[i["item"]]
    for got, want in ((i["kruskal_h"], h), (i["p"], p), (i["p_holm"], ph), (i["epsilon_squared"], e)):
        assert abs(got - want) < 1e-9, (i, want)
# default comparison: the first two roles; contractor is said to be left out
assert q["comparison"]["groups"] == ["manager", "employee"]
assert [c["groups"] for c in q["comparisons"]] == [["manager", "employee"]]
assert q["not_compared"] == ["contractor"], q["not_compared"]
c = q["comparison"]
# 2 and 2 participants: /usr/bin/python3 -c 'from scipy.stats import mannwhitneyu as f; print(repr(f([1,1],[2,2]).pvalue))' -> 0.1939308522824107
assert abs(c["min_p"] - 0.1939308522824107) < 1e-12, c["min_p"]
assert c["can_reach_significance"] is False and c["flags_allowed"] is False
assert any(w.startswith("with 2 and 2 participants no item can reach p < 0.05 after Holm's correction") for w in c["warnings"]), c["warnings"]
# the employees give every item mean rank 2: rho is undefined, so there is no interval (and no CI warning)
assert c["spearman_rho"] is None and c["bootstrap_ci"]["spearman_rho"] == [None, None], c
assert not any("bootstrap CI" in w for w in c["warnings"]), c["warnings"]
# groups below 3 participants are reported, not flagged (TOOL.2: managers [1, 1], employees [2, 2], delta 1)
g2 = [g for g in q["gaps"] if g["item"] == "TOOL.2"][0]
assert g2["cliffs_delta"] == 1.0 and g2["misaligned"] is False and g2["basis"] is None, g2
EOF
"$QUALRANK" -C "$fw" rank --resamples 200 >"$tmp/roles.txt"
grep -qF "all groups (manager, employee, contractor), Kruskal-Wallis per item:" "$tmp/roles.txt" || fail "text: k groups"
grep -qF "TOOL.2  H 2.33  p 0.311  p_holm 0.934  epsilon2 0.47" "$tmp/roles.txt" || fail "text: TOOL.2 k-group line"
grep -qF "warning: with 2 and 2 participants no item can reach p < 0.05" "$tmp/roles.txt" || fail "text: unreachable warning"
grep -qF "Not compared pairwise: contractor (n = 2)" "$tmp/roles.txt" || fail "text: not compared"

# 2. A ranking table with 3 managers, 4 employees and 2 contractors (tests/fixtures/rank/fieldwork-groups.csv).
"$QUALRANK" -C "$fw" rank --table "$FIXTURES/rank/fieldwork-groups.csv" --format json --resamples 200 >"$tmp/table.json"
# /usr/bin/python3 -c 'from scipy.stats import kruskal; M=[(1,2,3),(1,3,2),(2,1,3)]; E=[(3,2,1),(3,1,2),(2,3,1),(2,1,3)]; C=[(1,2,3),(3,2,1)]
# for j in range(3): r=kruskal([x[j] for x in M],[x[j] for x in E],[x[j] for x in C]); print(repr(r.statistic), repr(r.pvalue), repr(r.statistic/8))'
# -> 3.111111111111108 0.21107208779109052 0.3888888888888885
#    0.2793650793650743 0.8696342659522598 0.03492063492063429
#    1.6571428571428564 0.43667265903363073 0.20714285714285705
# /usr/bin/python3 -c 'from statsmodels.stats.multitest import multipletests as m; print(list(m([0.21107208779109052,0.8696342659522598,0.43667265903363073],method="holm")[1]))'
# -> [0.6332162633732715, 0.8733453180672615, 0.8733453180672615]
# manager vs employee, Mann-Whitney and Cliff's delta (employee minus manager):
# /usr/bin/python3 -c 'from scipy.stats import mannwhitneyu as f; print(repr(f([1,1,2],[3,3,2,2]).pvalue), repr(f([3,2,3],[1,2,1,3]).pvalue))'
# -> 0.09223080127089152 0.26165109058823666 (TOOL.1: delta 0.8333; TOOL.3: delta -0.5833)
# smallest reachable p with 3 and 4: /usr/bin/python3 -c 'from scipy.stats import mannwhitneyu as f; print(repr(f([1,1,1],[2,2,2,2]).pvalue))' -> 0.024744672046398936
$py - "$tmp/table.json" <<'EOF' || fail "table: k groups, small samples, flag basis"
import json, sys
q = json.load(open(sys.argv[1]))["questions"][0]
k = q["k_groups"]
exp = [("TOOL.1", 3.111111111111108, 0.21107208779109052, 0.6332162633732715, 0.3888888888888885),
       ("TOOL.2", 0.2793650793650743, 0.8696342659522598, 0.8733453180672615, 0.03492063492063429),
       ("TOOL.3", 1.6571428571428564, 0.43667265903363073, 0.8733453180672615, 0.20714285714285705)]
for i, (item, h, p, ph, e) in zip(k["items"], exp):
    assert i["item"] == item
    for got, want in ((i["kruskal_h"], h), (i["p"], p), (i["p_holm"], ph), (i["epsilon_squared"], e)):
        assert abs(got - want) < 1e-9, (i, want)
c = q["comparison"]
assert c["groups"] == ["manager", "employee"] and c["n"] == {"manager": 3, "employee": 4}, c
assert abs(c["min_p"] - 0.024744672046398936) < 1e-12 and c["can_reach_significance"] is False and c["flags_allowed"] is True
assert any(w.startswith("with 3 and 4 participants no item can reach p < 0.05 after Holm's correction; flags rest on effect size alone")
           for w in c["warnings"]), c["warnings"]
gaps = {g["item"]: g for g in q["gaps"]}
assert abs(gaps["TOOL.1"]["p"] - 0.09223080127089152) < 1e-12 and abs(gaps["TOOL.3"]["p"] - 0.26165109058823666) < 1e-12
assert abs(gaps["TOOL.1"]["cliffs_delta"] - 0.8333333333333334) < 1e-12
assert gaps["TOOL.1"]["misaligned"] and gaps["TOOL.1"]["basis"] == "effect size", gaps["TOOL.1"]
assert gaps["TOOL.3"]["misaligned"] and gaps["TOOL.3"]["basis"] == "effect size", gaps["TOOL.3"]
assert not gaps["TOOL.2"]["misaligned"] and gaps["TOOL.2"]["basis"] is None
assert q["not_compared"] == ["contractor"]
# a CI from 3 and 4 participants carries a warning
assert c["bootstrap_ci"]["spearman_rho"][0] is not None
assert any("bootstrap CI of rho resamples fewer than 5 participants in a group (manager 3, employee 4)" in w for w in c["warnings"]), c["warnings"]
EOF
"$QUALRANK" -C "$fw" rank --table "$FIXTURES/rank/fieldwork-groups.csv" --format md --resamples 200 >"$tmp/table.md"
grep -qF "> Note: with 3 and 4 participants no item can reach p < 0.05 after Holm's correction; flags rest on effect size alone" "$tmp/table.md" || fail "md: no-significance sentence"
grep -qF "flagged on effect size alone" "$tmp/table.md" || fail "md: flag basis"
grep -qF "Not compared pairwise: contractor (n = 2)" "$tmp/table.md" || fail "md: not compared"
grep -qF "| TOOL.1 Chat | 3.11 | 0.211 | 0.633 | 0.39 |" "$tmp/table.md" || fail "md: k-group row"

"$QUALRANK" -C "$fw" rank --table "$FIXTURES/rank/fieldwork-groups.csv" --resamples 200 >"$tmp/table.txt"
grep -qE '^    ! TOOL.1  gap 1.17  p_holm 0.277  delta 0.83  \[effect size\]  Chat$' "$tmp/table.txt" || fail "text: flag basis"
grep -qF "    warning: with 3 and 4 participants no item can reach p < 0.05 after Holm's correction; flags rest on effect size alone" "$tmp/table.txt" || fail "text: 3 and 4 sentence"

# --compare still chooses one pair; a group of 2 is reported, not flagged
"$QUALRANK" -C "$fw" rank --table "$FIXTURES/rank/fieldwork-groups.csv" --compare manager,contractor --format json --resamples 0 >"$tmp/mc.json"
$py - "$tmp/mc.json" <<'EOF' || fail "--compare manager,contractor"
import json, sys
q = json.load(open(sys.argv[1]))["questions"][0]
assert [c["groups"] for c in q["comparisons"]] == [["manager", "contractor"]]
assert q["not_compared"] == ["employee"]
assert q["comparison"]["flags_allowed"] is False
assert not any(g["misaligned"] for g in q["gaps"])
assert any("fewer than 3 participants (manager 3, contractor 2)" in w for w in q["comparison"]["warnings"]), q["comparison"]["warnings"]
EOF

# 3. The guideline's `compare` pairs: every pair analysed, the others named; a typo is a located error.
ws="$tmp/fw"; cp -r "$fw" "$ws"
g="$ws/guidelines/remote-work-interview.yaml"
sed -i 's/^roles: \[manager, employee, contractor\]$/&\ncompare: [[manager, contractor], [employee, contractor]]/' "$g"
"$QUALRANK" -C "$ws" rank --table "$FIXTURES/rank/fieldwork-groups.csv" --format json --resamples 0 >"$tmp/pairs.json"
$py - "$tmp/pairs.json" <<'EOF' || fail "guideline compare pairs"
import json, sys
q = json.load(open(sys.argv[1]))["questions"][0]
assert [c["groups"] for c in q["comparisons"]] == [["manager", "contractor"], ["employee", "contractor"]], q["comparisons"]
assert q["comparison"]["groups"] == ["manager", "contractor"]
assert q["not_compared"] == []
assert all(len(c["gaps"]) == 3 for c in q["comparisons"])
EOF
sed -i 's/^compare: .*/compare: [[manger, employee]]/' "$g"
line=$(grep -n '^compare:' "$g" | cut -d: -f1)
set +e
"$QUALRANK" -C "$ws" rank --format json >"$tmp/out" 2>"$tmp/err"; rc=$?
set -e
[[ $rc -eq 1 ]] || fail "unknown compare group: exit $rc"
grep -qE "remote-work-interview.yaml:$line:[0-9]+: error: unknown group 'manger' in 'compare' \(did you mean 'manager'\?\)" "$tmp/err" || fail "compare typo message: $(cat "$tmp/err")"
[[ ! -s "$tmp/out" ]] || fail "output despite the error"

# 4. report: the experience comparison of every role with two or more levels (manager: mid 3 y, senior 8 y;
# employee: junior 1 y, senior 6 y; contractor: junior 0.5 y, C02 mid from the tenure answer).
ws2="$tmp/fw2"; cp -r "$fw" "$ws2"
"$QUALRANK" -C "$ws2" report --resamples 200 -o "$tmp/rep" >/dev/null 2>"$tmp/report.err" || { cat "$tmp/report.err"; fail "report"; }
$py - "$tmp/rep/report.json" <<'EOF' || fail "report.json experience comparisons"
import json, sys
r = json.load(open(sys.argv[1]))
e = r["experience_comparisons"]
assert [(x["role"], x["title"]) for x in e] == [("manager", "manager: mid vs senior"), ("employee", "employee: junior vs senior"),
                                               ("contractor", "contractor: junior vs mid")], [(x["role"], x["title"]) for x in e]
assert e[0]["where"] == {"role": "manager"} and e[0]["by"] == "experience"
q = e[1]["questions"][0]
# junior 1 vs senior 1: below the minimum group size (2), so no comparison, test or model; raw rankings instead
assert q["comparison"] is None and q["comparisons"] == [] and q["k_groups"] is None and q["model"] is None, q
assert [(t["group"], t["rankings"]) for t in q["too_small"]] == [
    ("junior", [{"participant": "E01", "ranking": "TOOL.1 > TOOL.2"}]),
    ("senior", [{"participant": "E02", "ranking": "TOOL.3 > TOOL.2"}])], q["too_small"]
assert r["rankings_by_experience"]["where"] == {"role": "manager"}
assert r["rankings"]["questions"][0]["k_groups"]["groups"] == ["manager", "employee", "contractor"]
EOF
html="$tmp/rep/index.html"
grep -qF '<a href="#experience">Experience comparison</a>' "$html" || fail "html: nav link"
grep -qF '<h3 class="exp-title">manager: mid vs senior</h3>' "$html" || fail "html: manager title"
grep -qF '<h3 class="exp-title">employee: junior vs senior</h3>' "$html" || fail "html: employee title"
grep -qiE "novice|expert" "$html" && fail "html: bundled-study words"
grep -qF "no item can reach p &lt; 0.05 after Holm&#39;s correction" "$html" || grep_q -F "no item can reach p &lt; 0.05 after Holm's correction" "$html" || fail "html: no-significance sentence"
grep -qF "Not compared pairwise: contractor (n = 2)" "$html" || fail "html: not compared"
grep -qF "<th>ε²</th>" "$html" || fail "html: k-group table"
md="$tmp/rep/rankings.md"
grep -qF "# Experience comparison, manager: mid vs senior" "$md" || fail "md: manager experience heading"
grep -qF "# Experience comparison, employee: junior vs senior" "$md" || fail "md: employee experience heading"
grep -qiE "novice|expert" "$md" && fail "md: bundled-study words"
if $py -c 'import openpyxl' 2>/dev/null; then
  $py - "$tmp/rep/rankings.xlsx" <<'EOF' || fail "rankings.xlsx"
import openpyxl, sys
wb = openpyxl.load_workbook(sys.argv[1])
assert "Experience" in wb.sheetnames, wb.sheetnames
vals = [[c for c in row] for row in wb["Experience"].iter_rows(values_only=True)]
titles = [r[0] for r in vals if r[0] and ": " in str(r[0]) and " vs " in str(r[0])]
assert titles == ["manager: mid vs senior", "employee: junior vs senior", "contractor: junior vs mid"], titles
q = wb["III.R"]
rows = [r for r in q.iter_rows(values_only=True)]
warn = [r[1] for r in rows if r[0] == "Warning"]
assert any(w.startswith("with 2 and 2 participants no item can reach p < 0.05 after Holm's correction") for w in warn), warn
kg = [r for r in rows if r[0] == "TOOL.2" and isinstance(r[2], float) and abs(r[2] - 2.333333333333333) < 1e-9]
assert kg and abs(kg[0][3] - 0.31140322391459774) < 1e-9, kg
EOF
fi
# 5. Agreement CIs from fewer than 5 units carry a warning (fieldwork: E01 coded by eli and carol, 4 turns).
"$QUALRANK" -C "$fw" agreement --transcripts --resamples 200 >"$tmp/agr.txt"
grep -qF "warning: the 95% CIs resample only 4 turns; with fewer than 5 they are unstable and too narrow" "$tmp/agr.txt" || fail "agreement text warning"
"$QUALRANK" -C "$fw" agreement --transcripts --resamples 200 --format json >"$tmp/agr.json"
$py - "$tmp/agr.json" "$tmp/rep/report.json" <<'EOF' || fail "agreement json warning"
import json, sys
want = "the 95% CIs resample only 4 turns; with fewer than 5 they are unstable and too narrow"
a = json.load(open(sys.argv[1]))
conf = a["confidence"]
assert conf["warning"] == want, conf
r = json.load(open(sys.argv[2]))
assert r["agreement"]["transcripts"]["confidence"]["warning"] == want, r["agreement"]["transcripts"]["confidence"]
EOF
grep -qF "⚠ the 95% CIs resample only 4 turns" "$html" || fail "html: agreement CI warning"
if $py -c 'import openpyxl' 2>/dev/null; then
  $py - "$tmp/rep/agreement.xlsx" <<'EOF' || fail "agreement.xlsx warning"
import openpyxl, sys
wb = openpyxl.load_workbook(sys.argv[1])
rows = [r for ws in wb.worksheets for r in ws.iter_rows(values_only=True) if r and r[0] == "Warning"]
assert rows and rows[0][1].startswith("the 95% CIs resample only 4 turns"), rows
EOF
fi
echo "rank_groups: ok"
