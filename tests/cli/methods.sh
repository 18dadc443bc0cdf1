#!/usr/bin/env bash
# Methods evidence (fieldwork study: three roles, remote-work taxonomy): report.json's "methods" and
# reports/methods.md. The participants table, the guideline question x code matrix and each finding's support
# (segments, participants per role) are recomputed here from `qualrank code --format json`; quotes come from
# coded segments; counter-evidence; decision rules shown; findings citing an unknown or an unused code are
# located errors; the checklist says what is there and what is missing.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/study"; cp -r "$FIXTURES/fieldwork" "$ws"
q() { "$QUALRANK" -C "$ws" "$@"; }
# Decision rules: a new optional field of a node.
python3 - "$ws/codebooks/remote-work.yaml" <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
s = s.replace("      - id: COM.2\n", "      - id: COM.2\n        decision_rules: \"Code COM.2 only when a meeting is named | not for chat.\"\n", 1)
open(p, "w").write(s)
PY
q -q report -o "$tmp/none" --resamples 0 || fail "report without findings"
grep -qF "No findings.yaml: list each claim of the paper with the codes it rests on" "$tmp/none/methods.md" || fail "no-findings note"
grep -qxF "| A chain of evidence from quotations to findings | essential | no | missing: list the claims and the codes they rest on in findings.yaml (docs/findings.md) |" "$tmp/none/methods.md" || fail "checklist without findings"

cat >"$ws/findings.yaml" <<'EOF2'
findings:
  - id: F1
    claim: Meetings <b>drain</b> remote teams
    codes: [COM.2]
    counter: [WELL.2]
  - id: F2
    claim: Chat is the backbone
    codes: [COM.1]
EOF2
q -q report -o "$tmp/out" --resamples 0 || fail "report with findings"
q code --format json >"$tmp/code.json"
python3 - "$tmp/out/report.json" "$tmp/code.json" "$tmp/out/methods.md" "$ws/codebooks/remote-work.yaml" "$tmp/out/index.html" <<'PY' || fail "methods"
import html as htmlmod, json, re, sys, yaml
report = json.load(open(sys.argv[1]))
segs = json.load(open(sys.argv[2]))["segments"]
md = open(sys.argv[3]).read()
tax = yaml.safe_load(open(sys.argv[4]))
parent = {}
def walk(nodes, up):
    for n in nodes:
        parent[n["id"]] = up
        walk(n.get("children", []), n["id"])
walk(tax["nodes"], None)
def within(node, cited):
    while node:
        if node == cited: return True
        node = parent.get(node)
    return False
m = report["methods"]
# Participants: the experience level, then the background questions' attributes (tenure, team_size).
assert m["participants"]["attributes"] == ["experience", "tenure", "team_size"], m["participants"]["attributes"]
assert [r["participant"] for r in m["participants"]["rows"]] == ["C01", "C02", "E01", "E02", "M01", "M02"], m["participants"]["rows"]
assert "| C01 | contractor | junior | 0.5 | 3 |" in md, "participants row"
# Question x top-level node matrix, recomputed.
tops = [n["id"] for n in m["guide_matrix"]["nodes"]]
assert tops == ["COM", "TOOL", "WELL"], tops
for row in m["guide_matrix"]["rows"]:
    answering = [s for s in segs if s["question"] == row["question"] and s["codes"]]
    assert row["segments"] == len(answering), row
    counts = [sum(1 for s in answering if any(within(c["node"], t) for c in s["codes"])) for t in tops]
    assert row["counts"] == counts, (row, counts)
# Findings: support and counter recomputed.
f1, f2 = m["findings"]
def side(nodes):
    hit = [s for s in segs if any(within(c["node"], n) for c in s["codes"] for n in nodes)]
    roles = {}
    for s in hit: roles.setdefault(s["role"], set()).add(s["participant"])
    return len(hit), {r: len(p) for r, p in roles.items()}
for f, nodes, counter in ((f1, ["COM.2"], ["WELL.2"]), (f2, ["COM.1"], [])):
    n, roles = side(nodes)
    assert f["support"]["segments"] == n and f["support"]["participants_by_role"] == roles, (f["id"], f["support"], n, roles)
    assert f["support"]["nodes"] == nodes
    for qt in f["support"]["quotes"]:
        assert any(s["text"].startswith(qt["quote"].rstrip("…")) and s["participant"] == qt["participant"] for s in segs), qt
    assert len(f["support"]["quotes"]) == min(5, n)
    cn, croles = side(counter) if counter else (0, {})
    assert f["counter"]["segments"] == cn and f["counter"]["participants_by_role"] == croles, f["counter"]
assert f2["support"]["segments"] == 9, f2["support"]  # COM.1 on 7 codings, COM.1.a on 3; one segment carries both
# The Markdown: the claim escaped (no raw HTML), its numbers, the decision rule with '|' escaped.
assert "### F1: Meetings \\<b\\>drain\\</b\\> remote teams" in md, "claim heading"
assert f"Rests on COM.2: {f1['support']['segments']} coded segments from" in md
assert "Code COM.2 only when a meeting is named \\| not for chat." in md, "decision rules"
assert "| A chain of evidence from quotations to findings | essential | yes | 2 findings with their quotes and participants (Chain of evidence) |" in md
# Agreement per node: every node of report.json, with all its measures, over all the units (as the text says).
per = report["agreement"]["transcripts"]["per_node"]
assert per, "the fixture has double-coded transcripts"
f3 = lambda v: "n/a" if v is None else "%.3f" % v
assert "Per node, over all %d turns compared, each node present or absent per coder" % report["agreement"]["transcripts"]["units"] in md
for node, v in per.items():
    row = f"| {node} | {v['units_coded']} | {f3(v['positive_agreement'])} | {f3(v['fleiss_kappa'])} | {f3(v['krippendorff_alpha'])} | {f3(v['percent_agreement'])} |"
    assert row in md, row
# index.html's Methods evidence: the same findings and checklist, escaped (the claim's <b> is text).
page = open(sys.argv[5]).read()
sec = page[page.index('<h2 id="methods">'):]
divs = re.findall(r'<div class="finding" data-finding="([^"]*)" data-segments="(\d+)"><p><b>([^<]*)</b>', sec)
assert [(a, int(b)) for a, b, _ in divs] == [(f["id"], f["support"]["segments"]) for f in m["findings"]], divs
assert htmlmod.unescape(divs[0][2]) == "F1: Meetings <b>drain</b> remote teams", divs[0][2]
assert "<b>drain</b>" not in sec
rows = re.findall(r'<tr(?: class="flag")?><td>([^<]*)</td><td>(essential|desirable|extraordinary)</td><td>(yes|no)</td>', sec)
assert [(htmlmod.unescape(i), l, y == "yes") for i, l, y in rows] == [(c["item"], c["level"], c["supported"]) for c in m["checklist"]], rows
assert len(re.findall(r'<blockquote>', sec)) == len(m["findings"][0]["support"]["quotes"]) + len(m["findings"][1]["support"]["quotes"])
print("ok")
PY
# A finding citing an unknown code, or a code no segment carries (TOOL.3 once its two codings are moved to
# TOOL.1): located errors, nothing written.
sed -i 's/^@code TOOL\.3$/@code TOOL.1/' "$ws/transcripts/E02.md" "$ws/transcripts/M01.md"
cat >"$ws/findings.yaml" <<'EOF2'
findings:
  - id: F1
    claim: x
    codes: [COM2, TOOL.3]
EOF2
set +e; q validate >"$tmp/v.out" 2>&1; rc=$?; set -e
[[ $rc == 1 ]] || fail "validate accepted bad findings ($rc)"
grep -qxF "findings.yaml:4:13: error: finding 'F1': unknown taxonomy node 'COM2' (did you mean 'COM.2'?)" "$tmp/v.out" || fail "unknown code: $(cat "$tmp/v.out")"
grep -qxF "findings.yaml:4:19: error: finding 'F1' rests on 'TOOL.3', but no segment is coded with it or below it (a claim rests on coded data: code the quotes, or cite the codes they carry)" "$tmp/v.out" || fail "unused code: $(cat "$tmp/v.out")"
set +e; q -q report -o "$tmp/bad" >/dev/null 2>&1; rc=$?; set -e
[[ $rc == 1 && ! -e $tmp/bad ]] || fail "report with bad findings wrote something ($rc)"
echo "ok: methods evidence"
