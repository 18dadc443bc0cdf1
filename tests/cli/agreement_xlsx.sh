#!/usr/bin/env bash
# qualrank agreement -o FILE.xlsx: the workbook holds the same tables as the JSON (read back with openpyxl).
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}"
py=/usr/bin/python3
if [[ ! -x $py ]] || ! $py -c "import openpyxl" 2>/dev/null; then
  echo "skip: $py with openpyxl is needed to read the workbook"
  exit 77
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$QUALRANK" -q -C "$SOURCE_DIR" agreement --group-by-level 1 --disagreements 3 --transcripts \
  --labels codebooks/labels/issue-reports-sample.csv codebooks/labels/issue-reports-followup.csv -o "$tmp/agreement.xlsx"
"$QUALRANK" -C "$SOURCE_DIR" agreement --group-by-level 1 --disagreements 3 --transcripts --format json \
  --labels codebooks/labels/issue-reports-sample.csv codebooks/labels/issue-reports-followup.csv >"$tmp/agreement.json"

$py - "$tmp/agreement.xlsx" "$tmp/agreement.json" <<'EOF' || fail "workbook content"
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
j = json.load(open(sys.argv[2]))
labels, transcripts = j["labels"], j["transcripts"]
expected = ["Summary", "Coder pairs", "Per category", "Coder vs consensus", "Groups", "Sources", "Disputed units",
            "Transcripts", "Transcript nodes", "Transcript pairs", "Transcript disputes"]
assert wb.sheetnames == expected, wb.sheetnames
s = wb["Summary"]
assert s["A2"].value == "Fleiss' kappa" and abs(s["B2"].value - labels["fleiss_kappa"]) < 1e-12, (s["A2"].value, s["B2"].value)
assert abs(s["C2"].value - labels["confidence"]["fleiss_kappa"][0]) < 1e-12
assert abs(s["B3"].value - labels["krippendorff_alpha"]) < 1e-12
pairs = list(wb["Coder pairs"].iter_rows(min_row=2, values_only=True))
assert len(pairs) == len(labels["cohen_kappa_pairs"]) == 21
for row, p in zip(pairs, labels["cohen_kappa_pairs"]):
    assert row[0] == p["a"] and row[1] == p["b"] and abs(row[2] - p["kappa"]) < 1e-12, (row, p)
groups = {r[0]: r for r in wb["Groups"].iter_rows(min_row=2, values_only=True)}
for g, v in labels["groups"].items():
    assert groups[g][2] == v["units"] and abs(groups[g][3] - v["fleiss_kappa"]) < 1e-12, (g, groups[g], v)
assert groups["A"][1] == "Question", groups["A"]
sources = {r[0]: r for r in wb["Sources"].iter_rows(min_row=2, values_only=True)}
assert sources["issue-reports-sample"][1:] == (60, 20, 15, 25), sources
cats = {r[0]: r[2] for r in wb["Per category"].iter_rows(min_row=2, values_only=True)}
assert set(cats) == set(labels["per_category"]), cats
disputed = list(wb["Disputed units"].iter_rows(min_row=2, values_only=True))
assert [d[0] for d in disputed] == [d["unit"] for d in labels["disagreements"]], disputed
# unit ids like 'mindspore#853' and every text cell are strings, never formulas
assert all(c.data_type == "s" for r in wb["Disputed units"].iter_rows(min_row=2, max_col=2) for c in r)
rows = list(wb["Transcript nodes"].iter_rows(min_row=1, values_only=True))
assert rows[0][:4] == ("Node", "Name", "Units coded (by any coder)", "Positive agreement"), rows[0]
nodes = {r[0]: r for r in rows[1:1 + len(transcripts["per_node"])]}
assert set(nodes) == set(transcripts["per_node"]), nodes
for n, v in transcripts["per_node"].items():
    assert nodes[n][2] == v["units_coded"] and (nodes[n][3] is None if v["positive_agreement"] is None else abs(nodes[n][3] - v["positive_agreement"]) < 1e-12), (n, nodes[n], v)
# under the table, a blank row and the note saying over which units kappa, alpha and percent agreement are
assert rows[1 + len(nodes)] == (None,) * len(rows[0]) or not any(rows[1 + len(nodes)]), rows[1 + len(nodes)]
assert rows[2 + len(nodes)][0].startswith("Kappa, alpha and percent agreement are over all %d turns" % transcripts["units"]), rows[2 + len(nodes)]
t = wb["Transcripts"]
assert abs(t["B2"].value - transcripts["fleiss_kappa"]) < 1e-12
EOF
echo "agreement_xlsx: ok"
