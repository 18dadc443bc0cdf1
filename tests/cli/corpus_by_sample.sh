#!/usr/bin/env bash
# Table I with the pilot and the main sample apart (`corpus table --by-sample`, issue #42): a generated corpus
# and the fieldwork taxonomy, a pilot of 8 and a main sample of 12 drawn without the pilot's documents, two
# coders each (their labels agree, so Final_Label is theirs), both tables exported. Checks, recomputed here from
# the label tables and the stored documents: each sample's units per source, year and top-level node, in JSON
# (`by_sample`), in the text (one block per sample after the whole table) and in the workbook (a sheet per
# sample); the whole table is the sum of the two; the screening columns are shown once (in the whole table).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$(dirname "$0")/lib/corpus_study.sh"  # fieldwork_study: ws, q, the corpus
fieldwork_study 30
cat >"$ws/corpus/keywords.yaml" <<'Y'
sources:
  atlas: [cache miss, plain title]
  borealis: [cache miss, plain title]
  cirrus: [cache miss, plain title]
Y
q -q corpus retrieve 2>/dev/null
q -q corpus sample pilot --size 8 --seed 1
q -q corpus sample main --size 12 --seed 2 --exclude pilot
nodes=(COM.1 COM.2 TOOL.1 TOOL.2 WELL.1)
for s in pilot main; do
  i=0
  { echo "doc,nodes,note"; grep -v '^#' "$ws/corpus/samples/$s.txt" | while read -r d; do echo "$d,${nodes[$((i++ % 5))]},"; done; } >"$tmp/$s.csv"
  for c in ana ben; do q -q corpus label --coder "$c" --sample "$s" --from-csv "$tmp/$s.csv"; done
  q -q corpus labels export --sample "$s"
done
q corpus table --by-sample --format json >"$tmp/t.json"
q corpus table --by-sample -o "$tmp/t.xlsx" >"$tmp/t.txt"
q corpus table --sample main --by-sample --format json >"$tmp/main.json"
/usr/bin/python3 - "$ws" "$tmp/t.json" "$tmp/t.txt" "$tmp/t.xlsx" "$tmp/main.json" <<'PY' || fail "Table I by sample"
import csv, json, sys, collections, openpyxl
ws, got, text, book, main_only = sys.argv[1], json.load(open(sys.argv[2])), open(sys.argv[3]).read(), sys.argv[4], json.load(open(sys.argv[5]))
created = {}
for s in ["atlas", "borealis", "cirrus"]:
    for l in open(f"{ws}/corpus/{s}.jsonl"):
        j = json.loads(l); created[f"{s}#{j['id']}"] = j["created"][:4]
def expected(sample):
    units = collections.defaultdict(lambda: {"units": 0, "periods": collections.Counter(), "groups": collections.Counter()})
    for r in csv.DictReader(open(f"{ws}/codebooks/labels/{sample}.csv", newline="")):
        u = r["unit"] if "unit" in r else r[next(iter(r))]
        src = u.split("#")[0]
        units[src]["units"] += 1
        units[src]["periods"][created[u]] += 1
        units[src]["groups"][r["Final_Label"].split(".")[0]] += 1
    return units
assert list(got["by_sample"]) == ["main", "pilot"], list(got["by_sample"])
total = collections.Counter()
for sample, n in [("pilot", 8), ("main", 12)]:
    exp, t = expected(sample), got["by_sample"][sample]
    rows = {r["source"]: r for r in t["rows"]}
    assert sum(r["units"] for r in t["rows"]) == n, (sample, t["rows"])
    for src, e in exp.items():
        r = rows[src]
        assert r["units"] == e["units"], (sample, src, r, e)
        assert {k: v for k, v in r["periods"].items() if v} == dict(e["periods"]), (sample, src, r["periods"], e["periods"])
        assert {k: v for k, v in r["groups"].items() if v} == dict(e["groups"]), (sample, src, r["groups"], e["groups"])
        total[src] += e["units"]
    # units only: the corpus's screening columns are in the whole table
    assert "retrieved" not in t["rows"][0], t["rows"][0].keys()
    assert f"\nSample {sample} (codebooks/labels/{sample}.csv), its units apart:\n" in text, sample
whole = {r["source"]: r["units"] for r in got["rows"]}
assert all(whole[s] == total[s] for s in total), (whole, total)
assert "retrieved" in got["rows"][0], got["rows"][0].keys()
wb = openpyxl.load_workbook(book)
assert wb.sheetnames == ["Corpus", "Sample main", "Sample pilot"], wb.sheetnames
head = [c.value for c in wb["Sample pilot"][1]]
srcs = {r[0]: r for r in wb["Sample pilot"].iter_rows(min_row=2, values_only=True)}
for src, e in expected("pilot").items():
    assert srcs[src][head.index("units")] == e["units"], (src, srcs[src], head)
assert list(main_only["by_sample"]) == ["main"] and sum(r["units"] for r in main_only["rows"]) == 12, main_only["by_sample"].keys()
print("by sample: pilot 8 and main 12 units, per source, year and node as the label tables have them")
PY
# a sample without an exported table: a located error, nothing printed
rc=0; q corpus table --by-sample --sample nosuch >"$tmp/out" 2>"$tmp/err" || rc=$?
[[ $rc == 1 && ! -s "$tmp/out" ]] || fail "unknown sample: exit $rc"
grep_q -F "codebooks/labels/nosuch.csv: error: no label table of sample 'nosuch'" <"$tmp/err" || fail "unknown sample message: $(cat "$tmp/err")"
echo "ok: Table I by sample"
