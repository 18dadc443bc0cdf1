#!/usr/bin/env bash
# qualrank saturation on the fieldwork study (three roles, remote-work taxonomy): interview order from the
# front matter's dates (not file order), the new-codes curve checked against the codes `qualrank code --format
# json` lists, the base/run/threshold assessment recomputed here, per role, --level, the statement's words,
# a bad date located, and the usage errors.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/study"; cp -r "$FIXTURES/fieldwork" "$ws"
q() { "$QUALRANK" -C "$ws" "$@"; }

q code --format json >"$tmp/code.json" || fail "code --format json"
q saturation --base 2 --run 2 --threshold 0.2 --format json >"$tmp/sat.json" || fail "saturation json"
python3 - "$tmp/code.json" "$tmp/sat.json" <<'PY' || fail "saturation json differs from the codes"
import json, sys
segments = json.load(open(sys.argv[1]))["segments"]
sat = json.load(open(sys.argv[2]))
assert sat["parameters"] == {"base": 2, "run": 2, "threshold": 0.2}, sat["parameters"]
assert sat["reference"].startswith("Guest, Namey & Chen (2020)"), sat["reference"]
# The fixture's dates: M01 05-06, M02 05-07, E01 05-08, E02 05-12, C01 05-13, C02 05-14 (file order is C, E, M).
order = ["M01", "M02", "E01", "E02", "C01", "C02"]
rows = sat["all"]["interviews"]
assert [r["participant"] for r in rows] == order, [r["participant"] for r in rows]
codes = {p: set() for p in order}
for s in segments:
    for c in s["codes"]:
        codes[s["participant"]].add(c["node"])
def curve(ids):
    seen, out = set(), []
    for p in ids:
        new = codes[p] - seen
        seen |= codes[p]
        out.append((len(codes[p]), len(new), len(seen)))
    return out
def assess(ids, base, run, threshold):
    c = curve(ids)
    if len(ids) < base + run: return [], None
    b = c[base - 1][2]
    runs = []
    for start in range(base, len(ids) - run + 1):
        new = sum(c[k][1] for k in range(start, start + run))
        runs.append((start + 1, start + run, new))
        if new <= threshold * b + 1e-9: return runs, start
    return runs, None
got = [(r["codes"], r["new_codes"], r["cumulative"]) for r in rows]
assert got == curve(order), (got, curve(order))
assert sum(r["new_codes"] for r in rows) == len(set().union(*codes.values()))
runs, at = assess(order, 2, 2, 0.2)
assert [(r["first"], r["last"], r["new_codes"]) for r in sat["all"]["runs"]] == runs, (sat["all"]["runs"], runs)
assert sat["all"]["saturated_at"] == at, (sat["all"]["saturated_at"], at)
assert sat["all"]["base_codes"] == curve(order)[1][2]
for role, prefix in [("manager", "M"), ("employee", "E"), ("contractor", "C")]:
    ids = [p for p in order if p.startswith(prefix)]
    r = sat["roles"][role]
    assert [x["participant"] for x in r["interviews"]] == ids
    assert [(x["codes"], x["new_codes"]) for x in r["interviews"]] == [(a, b) for a, b, _ in curve(ids)], role
    assert r["runs"] == [] and r["saturated_at"] is None, role  # two interviews each: fewer than base + run
    assert r["statement"] == "Saturation (base 2, run 2, new information <= 20%) cannot be assessed: 2 interviews, fewer than base + run = 4.", r["statement"]
print(at, runs)
PY

# The statement in words, with its numbers, matches the JSON.
python3 - "$tmp/sat.json" <<'PY' || fail "statement"
import json, sys
a = json.load(open(sys.argv[1]))["all"]
r = a["runs"][-1]
words = ("Saturation (base 2, run 2, new information <= 20%) " +
         ("was reached after %d of 6 interviews" % a["saturated_at"] if a["saturated_at"] is not None else "was not reached in 6 interviews"))
assert a["statement"].startswith(words), a["statement"]
assert ("%d-%d" % (r["first"], r["last"])) in a["statement"] and ("base's %d (%.1f%%)" % (a["base_codes"], r["ratio"] * 100)) in a["statement"], a["statement"]
PY

# The table: one row per interview in date order, the statement last in its block.
q saturation --base 2 --run 2 --threshold 0.2 >"$tmp/sat.txt" || fail "saturation table"
[[ "$(sed -n 3p "$tmp/sat.txt" | awk '{print $1, $2, $3}')" == "1 M01 manager" ]] || fail "first row: $(sed -n 3p "$tmp/sat.txt")"
[[ "$(sed -n 8p "$tmp/sat.txt" | awk '{print $1, $2, $3}')" == "6 C02 contractor" ]] || fail "last row: $(sed -n 8p "$tmp/sat.txt")"
grep -qF "$(jq -r .all.statement "$tmp/sat.json")" "$tmp/sat.txt" || fail "table statement"

# --level 1 counts each code's root: the cumulative count ends at the number of distinct roots coded.
q saturation --level 1 --format json >"$tmp/l1.json" || fail "level 1"
python3 - "$tmp/code.json" "$tmp/l1.json" <<'PY' || fail "level 1 counts"
import json, sys
segments = json.load(open(sys.argv[1]))["segments"]
sat = json.load(open(sys.argv[2]))
roots = {c["node"].split(".")[0] for s in segments for c in s["codes"]}
assert sat["level"] == 1 and sat["all"]["interviews"][-1]["cumulative"] == len(roots), (sat["all"]["interviews"][-1], roots)
assert sat["parameters"] == {"base": 4, "run": 2, "threshold": 0.05}
PY

# Without dates the order is file order.
sed -i '/^date: /d' "$ws"/transcripts/*.md
[[ "$(q saturation --format json | jq -r '[.all.interviews[].participant] | join(",")')" == "C01,C02,E01,E02,M01,M02" ]] || fail "file order"

# A date that is not an ISO calendar date is a located error (validate too), and nothing is printed on stdout.
sed -i 's/^coder: eli$/coder: eli\ndate: 2025-02-30/' "$ws/transcripts/C02.md"
line=$(grep -n '^date: 2025-02-30' "$ws/transcripts/C02.md" | cut -d: -f1)
set +e; q saturation >"$tmp/out" 2>"$tmp/err"; rc=$?; set -e
[[ $rc == 1 && ! -s "$tmp/out" ]] || fail "bad date: rc $rc"
grep -qxF "transcripts/C02.md:$line:7: error: date '2025-02-30' is not a date YYYY-MM-DD (the interview's day; it orders the saturation curve)" "$tmp/err" || fail "bad date message: $(cat "$tmp/err")"
set +e; q validate >/dev/null 2>&1; rc=$?; set -e
[[ $rc == 1 ]] || fail "validate accepts a bad date"

# Usage errors exit 2 with their message.
cp -r "$FIXTURES/fieldwork/transcripts/C02.md" "$ws/transcripts/C02.md"
set +e; q saturation --threshold 1.5 2>"$tmp/err"; rc=$?; set -e
[[ $rc == 2 ]] && grep -qxF "qualrank saturation: error: --threshold must lie between 0 and 1 (0.05 = 5%)" "$tmp/err" || fail "threshold: $rc $(cat "$tmp/err")"
set +e; q saturation --base 0 2>"$tmp/err"; rc=$?; set -e
[[ $rc == 2 ]] && grep -qxF "qualrank saturation: error: --base and --run must be at least 1" "$tmp/err" || fail "base: $rc $(cat "$tmp/err")"
set +e; q saturation --level 9 2>"$tmp/err"; rc=$?; set -e
[[ $rc == 2 ]] && grep -qF "qualrank saturation: error: --level must be between 0 and 3" "$tmp/err" || fail "level: $rc $(cat "$tmp/err")"
echo ok
