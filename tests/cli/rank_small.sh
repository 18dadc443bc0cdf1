#!/usr/bin/env bash
# Honest small samples on the fieldwork study (issue #23, part 3): a group below the minimum group size
# (--min-group, the guideline's min_group, default 2) shows its raw rankings and the sentence why, and takes
# part in no comparison, k-group test or Plackett-Luce model; Plackett-Luce differences for every compared
# pair; the "why the tests differ" sentence; paste-ready plurals; no "-0.00", no "p = < 0.001"; a numeric
# --by refused with a pointer to the experience levels.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
py=/usr/bin/python3
fw="$FIXTURES/fieldwork"
small="$FIXTURES/rank/fieldwork-small.csv"   # manager 3, employee 3, contractor 1
note="contractor (n = 1) has fewer than 2 participants (the minimum group size, --min-group): its raw rankings are shown, and no confidence interval, test, model or flag is computed for it, since so few answers describe individuals, not a group."

# 1. Default minimum (2): contractor (n = 1) is left out of every statistic, its ranking shown.
"$QUALRANK" -C "$fw" rank --table "$small" --format json --resamples 200 --model plackett-luce >"$tmp/small.json"
NOTE="$note" $py - "$tmp/small.json" <<'EOF' || fail "json: too small"
import json, os, sys
r = json.load(open(sys.argv[1]))
assert r["min_group"] == 2, r["min_group"]
q = r["questions"][0]
assert q["too_small"] == [{"group": "contractor", "rankings": [{"participant": "c1", "ranking": "TOOL.2 > TOOL.1 > TOOL.3"}]}], q["too_small"]
assert q["too_small_note"] == os.environ["NOTE"], q["too_small_note"]
assert [c["groups"] for c in q["comparisons"]] == [["manager", "employee"]] and q["not_compared"] == []
assert q["k_groups"] is None                      # two groups left: no Kruskal-Wallis over a group of one
assert list(q["model"]["groups"]) == ["manager", "employee"] and q["model"]["lr_test"]["groups"] == ["manager", "employee"]
assert q["model"]["overall"]["n"] == 6
# manager vs employee, TOOL.1: /usr/bin/python3 -c 'from scipy.stats import mannwhitneyu as f; r=f([1,1,2],[3,3,2]); print(repr(r.statistic), repr(r.pvalue))'
# -> 0.5 0.11014892418594699
g = [g for g in q["comparison"]["gaps"] if g["item"] == "TOOL.1"][0] if "gaps" in q["comparison"] else [g for g in q["gaps"] if g["item"] == "TOOL.1"][0]
assert g["mann_whitney_u"] == 0.5 and abs(g["p"] - 0.11014892418594699) < 1e-12, g
EOF
"$QUALRANK" -C "$fw" rank --table "$small" --format md --resamples 200 --model plackett-luce >"$tmp/small.md"
grep -qxF "$note" "$tmp/small.md" || fail "md: too-small sentence"
grep -qxF -- "- contractor, c1: TOOL.2 > TOOL.1 > TOOL.3" "$tmp/small.md" || fail "md: raw ranking"
grep -qF "(n = 1 and" "$tmp/small.md" && fail "md: a comparison with the group of one"
# paste-ready plurals (the fieldwork guideline: plurals {manager: managers, employee: employees})
grep -qF -- "- **TOOL.1 Chat**: managers rank it 1.33 on average, employees 2.67; managers give it higher priority (gap 1.33, Cliff's delta 0.89, Holm-adjusted p = 0.330; flagged on effect size alone)." "$tmp/small.md" || fail "md: plural sentence"
grep -qF "Kendall's W: manager 0.44 (p = 0.264); employee 0.44 (p = 0.264); contractor n/a (p = n/a)." "$tmp/small.md" || fail "md: Kendall's W line (no trailing ;)"
grep -qF -- "-0.00" "$tmp/small.md" && fail "md: -0.00"
# (the two groups' centred log-worths, equal here, before their difference)
grep_q -E '^\| TOOL.2 Documentation \| 0.333 \| 0.234 \| 0.234 \| -0.11 \| -0.11 \| 0.00 \| 0.88 \| 1.000 \|$' "$tmp/small.md" || fail "md: zero difference shown as 0.00"
grep -qF "= <" "$tmp/small.md" && fail "md: = <"
"$QUALRANK" -C "$fw" rank --table "$small" --resamples 0 >"$tmp/small.txt"
grep -qxF "    contractor, c1: TOOL.2 > TOOL.1 > TOOL.3" "$tmp/small.txt" || fail "text: raw ranking"

# Without the guideline's plural: "participants in role manager"
ws="$tmp/fw"; cp -r "$fw" "$ws"; g="$ws/guidelines/remote-work-interview.yaml"
sed -i '/^plurals:/d' "$g"
"$QUALRANK" -C "$ws" rank --table "$small" --format md --resamples 0 >"$tmp/noplural.md"
grep -qF -- "- **TOOL.1 Chat**: participants in role manager rank it 1.33 on average, participants in role employee 2.67; participants in role manager give it higher priority" "$tmp/noplural.md" || fail "md: participants in role X"

# 2. --min-group 1: every group analysed, the k-group test over three groups; 0 is a usage error.
"$QUALRANK" -C "$fw" rank --table "$small" --format json --resamples 0 --min-group 1 >"$tmp/one.json"
$py - "$tmp/one.json" <<'EOF' || fail "--min-group 1"
import json, sys
q = json.load(open(sys.argv[1]))["questions"][0]
assert q["too_small"] == [] and q["too_small_note"] is None
assert q["k_groups"]["groups"] == ["manager", "employee", "contractor"] and q["not_compared"] == ["contractor"]
EOF
set +e; "$QUALRANK" -C "$fw" rank --table "$small" --min-group 0 >/dev/null 2>"$tmp/err"; rc=$?; set -e
[ "$rc" = 2 ] && [ "$(cat "$tmp/err")" = "qualrank rank: error: --min-group must be 1 or more" ] || fail "--min-group 0: rc $rc $(cat "$tmp/err")"

# 3. The guideline's min_group: 4 leaves every group of 3 out; a bad value is a located error.
sed -i 's/^roles: .*/&\nmin_group: 4/' "$g"
"$QUALRANK" -C "$ws" rank --table "$small" --format json --resamples 0 >"$tmp/four.json"
$py - "$tmp/four.json" <<'EOF' || fail "guideline min_group"
import json, sys
r = json.load(open(sys.argv[1])); q = r["questions"][0]
assert r["min_group"] == 4 and [t["group"] for t in q["too_small"]] == ["manager", "employee", "contractor"], q["too_small"]
assert q["comparisons"] == [] and q["k_groups"] is None
assert q["too_small_note"].startswith("manager (n = 3), employee (n = 3), contractor (n = 1) have fewer than 4 participants"), q["too_small_note"]
EOF
line=$(grep -n '^min_group:' "$g" | cut -d: -f1)
sed -i 's/^min_group: 4/min_group: many/' "$g"
set +e; "$QUALRANK" -C "$ws" validate >"$tmp/out" 2>&1; rc=$?; set -e
[ "$rc" = 1 ] && grep -qF "remote-work-interview.yaml:$line:12: error: 'min_group' is a whole number of participants, 1 or more" "$tmp/out" || fail "min_group: many: rc $rc $(cat "$tmp/out")"

# 4. A numeric --by is refused with a pointer to the experience levels.
set +e; "$QUALRANK" -C "$fw" rank --table "$small" --by tenure >/dev/null 2>"$tmp/err"; rc=$?; set -e
[ "$rc" = 2 ] || fail "--by tenure rc $rc"
[ "$(cat "$tmp/err")" = "qualrank rank: error: --by tenure: the attribute is a number (7 different values), so every value would be a group of its own; group by levels instead: --by experience (the guideline's experience levels from tenure)" ] || fail "--by tenure: $(cat "$tmp/err")"

# 5. Plackett-Luce differences for every compared pair: the second pair's difference is its groups' centred
# log-worths subtracted (recomputed here from the JSON's log-worths).
sed -i '/^min_group:/d' "$g"
sed -i 's/^roles: .*/&\ncompare: [[manager, employee], [employee, manager]]/' "$g"
"$QUALRANK" -C "$ws" rank --table "$small" --format json --resamples 0 --model plackett-luce >"$tmp/pairs.json"
$py - "$tmp/pairs.json" <<'EOF' || fail "model pairs"
import json, sys
m = json.load(open(sys.argv[1]))["questions"][0]["model"]
assert [p["groups"] for p in m["pairs"]] == [["manager", "employee"], ["employee", "manager"]], m["pairs"]
assert m["pairs"][0]["item_differences"] == m["item_differences"]
def centred(g):
    lw = [v["log_worth"] for v in m["groups"][g]["items"].values()]
    mean = sum(lw) / len(lw)
    return [x - mean for x in lw]
a, b = centred("employee"), centred("manager")
for d, x, y in zip(m["pairs"][1]["item_differences"], a, b):
    assert abs(d["difference"] - (y - x)) < 1e-9, (d, y - x)
for d1, d2 in zip(m["pairs"][0]["item_differences"], m["pairs"][1]["item_differences"]):
    assert abs(d1["difference"] + d2["difference"]) < 1e-12 and abs(d1["p_holm"] - d2["p_holm"]) < 1e-12
EOF

# 6. The likelihood-ratio test below 0.05, no per-item test after Holm: the report says what each tests.
"$QUALRANK" -C "$fw" rank --table "$FIXTURES/rank/fieldwork-opposed.csv" --format md --resamples 0 --model plackett-luce >"$tmp/opp.md"
grep -qF "do not share one set of priorities (likelihood-ratio chi-square = 14.48, df = 2, p < 0.001)." "$tmp/opp.md" || fail "md: LR sentence"
grep -qxF "Why the tests differ: the likelihood-ratio test asks whether the groups share one whole set of priorities, one test over every item and the full order of each answer; the per-item tests ask whether one item's ranks differ, each corrected for the number of items (Holm). Here the groups differ in their pattern of priorities, but no single item carries the difference on its own." "$tmp/opp.md" || fail "md: why the tests differ"
grep -qF "Why the tests differ" "$tmp/small.md" && fail "md: why-sentence without a disagreement"

# 7. The report: the note and raw rankings in index.html, no "p = <" in the headline.
ws2="$tmp/fw2"; cp -r "$fw" "$ws2"
"$QUALRANK" -C "$ws2" report --resamples 200 -o "$tmp/rep" >"$tmp/rep.out" 2>&1 || { cat "$tmp/rep.out"; fail "report"; }
grep -qF "= <" "$tmp/rep.out" && fail "report headline: = <"
grep -qF '<p class="note">junior (n = 1), senior (n = 1) have fewer than 2 participants (the minimum group size, --min-group)' "$tmp/rep/index.html" || fail "html: too-small note"
grep -qF "<li>junior, E01: TOOL.1 &gt; TOOL.2</li>" "$tmp/rep/index.html" || fail "html: raw ranking"
grep -qF '<div class="card"><b>2</b>managers</div>' "$tmp/rep/index.html" || fail "html: plural card"
grep -qF '<div class="card"><b>2</b>in role contractor</div>' "$tmp/rep/index.html" || fail "html: card without a plural"
echo "rank_small: ok"
