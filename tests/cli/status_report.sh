#!/usr/bin/env bash
# report.json records what it was made from (#36.1): each input's SHA-256 (recomputed here in Python, the list
# checked against the workspace's files) and the parameters; `qualrank status` says the report is stale when
# an input changed, was added or removed since, naming them, and up to date after `report` runs again.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$ws"
q() { "$QUALRANK" -C "$ws" "$@"; }
report_step() { { q status --format json || true; } | python3 -c 'import json,sys; s=[x for x in json.load(sys.stdin)["steps"] if x["step"] == "report"]; print(s[0]["state"] + "|" + "|".join(s[0]["why"]) if s else "absent")'; }

[[ $(report_step) == absent ]] || fail "a workspace without a report: $(report_step)"
q -q report --seed 7 --resamples 200
python3 - "$ws" <<'PY' || fail "provenance"
import json, sys, hashlib, os
ws = sys.argv[1]
p = json.load(open(f"{ws}/reports/report.json"))["provenance"]
assert p["parameters"] == {"seed": 7, "resamples": 200, "coder": "consensus"}, p["parameters"]
want = sorted(f"{d}/{f}" for d in ["codebooks", "guidelines", "transcripts"] for f in os.listdir(f"{ws}/{d}")
              if os.path.isfile(f"{ws}/{d}/{f}") and not f.startswith(".") and f.endswith((".yaml", ".yml", ".md", ".codes")))
assert sorted(p["inputs"]) == want, (sorted(p["inputs"]), want)
for path, h in p["inputs"].items():
    assert h == hashlib.sha256(open(f"{ws}/{path}", "rb").read()).hexdigest(), path
PY
cp "$ws/reports/report.json" "$tmp/first.json"
q -q report --seed 7 --resamples 200
cmp -s "$ws/reports/report.json" "$tmp/first.json" || fail "report.json differs on a second run"
[[ $(report_step) == "up to date|" ]] || fail "just written: $(report_step)"
echo "E02 said one more thing." >>"$ws/transcripts/E02.md"
rm "$ws/transcripts/M02.md"
[[ $(report_step) == "stale|2 input(s) changed since it was written: transcripts/E02.md changed, transcripts/M02.md removed" ]] ||
  fail "after an edit and a removal: $(report_step)"
q -q report --seed 7 --resamples 200
[[ $(report_step) == "up to date|" ]] || fail "after report again: $(report_step)"
echo "ok: status_report"
