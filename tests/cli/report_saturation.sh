#!/usr/bin/env bash
# Saturation in `qualrank report` (fieldwork study: three roles, interview order from front-matter dates):
# report.json's "saturation" is what `qualrank saturation --format json` says (same coding, default
# parameters); the chart in index.html draws exactly report.json's numbers (bar heights = new codes, points =
# distinct codes so far, the dashed line at saturated_at); the statement and each role's are printed.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/study"; cp -r "$FIXTURES/fieldwork" "$ws"
q() { "$QUALRANK" -C "$ws" "$@"; }

q -q report -o "$tmp/out" --resamples 0 || fail "report"
q saturation --format json >"$tmp/sat.json" || fail "saturation json"
python3 - "$tmp/out/report.json" "$tmp/sat.json" "$tmp/out/index.html" <<'PY' || fail "report saturation"
import html, json, re, sys
report = json.load(open(sys.argv[1]))
sat = json.load(open(sys.argv[2]))
page = open(sys.argv[3]).read()
r = report["saturation"]
assert r == sat, "report.json's saturation differs from qualrank saturation's"
assert r["parameters"] == {"base": 4, "run": 2, "threshold": 0.05}, r["parameters"]
rows = r["all"]["interviews"]
# The fixture's dates order the interviews: M01 05-06, M02 05-07, E01 05-08, E02 05-12, C01 05-13, C02 05-14.
assert [x["participant"] for x in rows] == ["M01", "M02", "E01", "E02", "C01", "C02"], rows
# The curve adds up: cumulative = running sum of new codes.
total = 0
for x in rows:
    total += x["new_codes"]
    assert x["cumulative"] == total, x
section = page[page.index('<h2 id="saturation">'):page.index('<h2 id="agreement">') if '<h2 id="agreement">' in page else len(page)]
bars = re.findall(r'<rect class="sat-new" data-interview="(\d+)" data-id="([^"]*)" data-new="(\d+)"', section)
assert [(int(a), html.unescape(b), int(c)) for a, b, c in bars] == [(x["number"], x["participant"], x["new_codes"]) for x in rows], bars
points = re.findall(r'<circle class="sat-cum" data-interview="(\d+)" data-cumulative="(\d+)"', section)
assert [(int(a), int(b)) for a, b in points] == [(x["number"], x["cumulative"]) for x in rows], points
# Bar heights are proportional to the new codes (one scale for bars and line).
heights = [float(h) for h in re.findall(r'<rect class="sat-new"[^>]* height="([0-9.]+)"', section)]
unit = max(heights) / max(x["new_codes"] for x in rows)
for h, x in zip(heights, rows):
    assert abs(h - unit * x["new_codes"]) < 0.2, (h, x)
reached = r["all"]["saturated_at"]
if reached is None:
    assert 'class="sat-reached"' not in section
else:
    assert f"saturation after {reached}</text>" in section
shown = re.search(r'<p class="sat-statement"><b>(.*?)</b></p>', section).group(1)
assert html.unescape(shown) == r["all"]["statement"], shown
assert r["all"]["statement"].startswith("Saturation (base 4, run 2, new information <= 5%) was reached after 4 of 6 interviews"), r["all"]["statement"]
roles = dict(re.findall(r'<li data-role="([^"]*)">[^:]*: (.*?)</li>', section))
assert {k: html.unescape(v) for k, v in roles.items()} == {k: v["statement"] for k, v in r["roles"].items()}, roles
assert sorted(roles) == ["contractor", "employee", "manager"], roles
print("ok")
PY
echo "ok: saturation in the report"
