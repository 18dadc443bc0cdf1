#!/usr/bin/env bash
# The corpus table (`agreement --periods`): units per source x period x top-level node of the consensus label.
# 1. The example study's published data ($SHARED_DIR, read in place): every cell recomputed here from the
#    label tables and the per-year id lists, the group columns headed by the taxonomy's names, the kappa per
#    top-level node as the paper gives it (0.757, 0.755, 0.717), and the workbook's Corpus sheet.
# 2. A study of our own (fieldwork taxonomy; sources forum and tickets; periods 2024-H1, 2024-H2) with
#    hand-counted cells, and the located problems: a misnamed list, an unknown source, a unit in two periods,
#    ids not in the table, units in no list.
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}" "${SHARED_DIR:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
data="$SHARED_DIR/reference/llm-study-data/Issue Report"

if [[ -d $data ]]; then
  args=(); for f in "$data"/*/*.csv; do args+=(--labels "$f"); done
  "$QUALRANK" -C "$SOURCE_DIR" -q agreement "${args[@]}" --group-by-level 1 --resamples 0 --periods "$data"/*/*_20*.txt \
    --format json -o "$tmp/table1.xlsx" >"$tmp/t1.json" 2>/dev/null || fail "agreement --periods on the example study"
  "$QUALRANK" -C "$SOURCE_DIR" -q agreement "${args[@]}" --group-by-level 1 --resamples 0 --periods "$data"/*/*_20*.txt \
    >"$tmp/t1.txt" 2>/dev/null || fail "table"
  /usr/bin/python3 - "$data" "$tmp/t1.json" "$tmp/t1.txt" "$tmp/table1.xlsx" "$SOURCE_DIR/codebooks" <<'PY' || fail "Table I"
import csv, glob, json, os, sys, yaml, openpyxl
data, got, text, book, codebooks = sys.argv[1:6]
j = json.load(open(got))
corpus = j["corpus"]
# Independently: each row of SOURCE.csv is a unit; its period is the year file listing its URL; its type the
# first part of Final_Label.
expected = {}
for table in sorted(glob.glob(os.path.join(data, "*", "*.csv"))):
    source = os.path.splitext(os.path.basename(table))[0]
    year_of = {}
    for lst in glob.glob(os.path.join(data, source, source + "_20*.txt")):
        year = os.path.splitext(os.path.basename(lst))[0].rsplit("_", 1)[1]
        for line in open(lst):
            if line.strip(): year_of[line.strip()] = year
    rows = list(csv.DictReader(open(table, newline="", encoding="utf-8")))
    e = {"units": len(rows), "periods": {}, "groups": {}}
    for r in rows:
        y = year_of[r["Issue_URL"]]
        e["periods"][y] = e["periods"].get(y, 0) + 1
        t = r["Final_Label"].split(".")[0]
        e["groups"][t] = e["groups"].get(t, 0) + 1
    expected[source] = e
got_rows = {r["source"]: r for r in corpus["rows"]}
assert sorted(got_rows) == sorted(expected), sorted(got_rows)
for s, e in expected.items():
    r = got_rows[s]
    assert r["units"] == e["units"] and r["no_period"] == 0 and r["ungrouped"] == 0, (s, r)
    assert r["periods"] == {y: e["periods"].get(y, 0) for y in ["2023", "2024", "2025"]}, (s, r["periods"], e["periods"])
    assert r["groups"] == {t: e["groups"].get(t, 0) for t in ["A", "B", "C"]}, (s, r["groups"], e["groups"])
assert corpus["total"]["units"] == 38742, corpus["total"]
assert corpus["periods"] == ["2023", "2024", "2025"]
# Headers from the taxonomy's names.
tax = yaml.safe_load(open(os.path.join(codebooks, [f for f in os.listdir(codebooks) if f.endswith(".yaml") and "history" not in f][0])))
names = {n["id"]: n["name"] for n in tax["nodes"]}
assert corpus["groups"] == [{"id": k, "name": names[k]} for k in ["A", "B", "C"]], corpus["groups"]
header = [l for l in open(text) if l.strip().startswith("source") and "2023" in l][0].split()
assert header[:5] == ["source", "units", "2023", "2024", "2025"], header
assert " ".join(header[5:]) == " ".join(f"{k} {names[k]}" for k in ["A", "B", "C"]), header
# Fleiss' kappa per top-level node, as the paper reports it.
g = j["groups"]
assert ["%.3f" % g[k]["fleiss_kappa"] for k in ["A", "B", "C"]] == ["0.757", "0.755", "0.717"], g
assert g["A"]["name"] == names["A"]
# The workbook's Corpus sheet: the same numbers, integers.
ws = openpyxl.load_workbook(book)["Corpus"]
cells = list(ws.iter_rows(values_only=True))
assert list(cells[0]) == ["source", "units", "2023", "2024", "2025"] + [f"{k} {names[k]}" for k in ["A", "B", "C"]], cells[0]
for row in cells[1:-1]:
    e = expected[row[0]]
    assert list(row[1:]) == [e["units"]] + [e["periods"].get(y, 0) for y in ["2023", "2024", "2025"]] + [e["groups"].get(t, 0) for t in "ABC"], row
assert cells[-1][0] == "total" and cells[-1][1] == 38742
assert ws.cell(row=2, column=2).number_format == "0", ws.cell(row=2, column=2).number_format
print("ok")
PY
else
  echo "note: $data absent; the example study's Table I is not checked"
fi

# 2. A small study of our own, counted by hand.
ws="$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$ws"
mkdir "$ws/lists"
cat >"$ws/forum.csv" <<'CSV'
unit,coder_a,coder_b,final
f1,COM.1,COM.1,COM.1
f2,COM.2,TOOL.1,COM.2
f3,TOOL.2,TOOL.2,TOOL.2
f4,WELL.1,WELL.1,WELL.1
CSV
cat >"$ws/tickets.csv" <<'CSV'
unit,coder_a,coder_b,final
t1,TOOL.1,TOOL.1,TOOL.1
t2,TOOL.3,TOOL.3,TOOL.3
t3,COM.3,COM.3,COM.3
CSV
printf 'f1\nf2\n\n' >"$ws/lists/forum_2024-H1.txt"
printf 'f3\nf4\n' >"$ws/lists/forum_2024-H2.txt"
printf 't1\n' >"$ws/lists/tickets_2024-H1.txt"
printf 't2\nt3\n' >"$ws/lists/tickets_2024-H2.txt"
q() { "$QUALRANK" -C "$ws" "$@"; }
q -q agreement --labels forum.csv tickets.csv --resamples 0 --periods "$ws"/lists/*.txt >"$tmp/own.txt" 2>"$tmp/own.err" || fail "own study: $(cat "$tmp/own.err")"
# forum: H1 f1 f2, H2 f3 f4; COM f1 f2, TOOL f3, WELL f4. tickets: H1 t1, H2 t2 t3; COM t3, TOOL t1 t2.
cat >"$tmp/own.expected" <<'EOT'
Units per source, period and Area (of the consensus label)
  source   units  2024-H1  2024-H2  COM Communication  TOOL Tooling  WELL Wellbeing
  forum        4        2        2                  2             1               1
  tickets      3        1        2                  1             2               0
  total        7        3        4                  3             3               1
EOT
sed -n '/^Units per source, period/,$p' "$tmp/own.txt" >"$tmp/own.table"
diff "$tmp/own.expected" "$tmp/own.table" || fail "own study's table"
[[ ! -s $tmp/own.err ]] || fail "own study printed: $(cat "$tmp/own.err")"
# Problems, located.
expect() {  # expect RC LINE CMD...
  local rc=$1 msg=$2; shift 2
  set +e; "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?; set -e
  [[ $got == "$rc" ]] || fail "exit $got, not $rc: $* ($(cat "$tmp/err"))"
  grep -qxF -- "$msg" "$tmp/err" || fail "message of $*: $(cat "$tmp/err")"
}
printf 'f1\n' >"$ws/lists/forum.txt"
expect 1 "$ws/lists/forum.txt: error: a period list is named SOURCE_PERIOD.txt (e.g. pytorch_2024.txt), SOURCE as the label table's file name" \
  q agreement --labels forum.csv tickets.csv --resamples 0 --periods lists/forum.txt
printf 'x1\n' >"$ws/lists/blog_2024-H1.txt"
expect 1 "$ws/lists/blog_2024-H1.txt: error: lists units of source 'blog', but no label table is named blog (the sources: forum, tickets)" \
  q agreement --labels forum.csv tickets.csv --resamples 0 --periods lists/blog_2024-H1.txt
printf 'f9\nf1\n' >"$ws/lists/forum_2025.txt"
expect 1 "$ws/lists/forum_2025.txt:2:1: error: unit 'f1' is listed in period 2024-H1 too ($ws/lists/forum_2024-H1.txt); a unit belongs to one period" \
  q agreement --labels forum.csv tickets.csv --resamples 0 --periods lists/forum_2024-H1.txt lists/forum_2025.txt
printf 'f9\nf1\n' >"$ws/lists/forum_2024-H1.txt"
expect 0 "$ws/lists/forum_2024-H1.txt:1:1: warning: 1 listed id is not in the label table of forum, the first 'f9'" \
  q agreement --labels forum.csv tickets.csv --resamples 0 --periods lists/forum_2024-H1.txt lists/forum_2024-H2.txt lists/tickets_2024-H1.txt lists/tickets_2024-H2.txt
grep -qxF "forum.csv: warning: 1 of its 4 units are in no period list (forum_PERIOD.txt)" "$tmp/err" || fail "no-period warning: $(cat "$tmp/err")"
grep -qE "^  forum +4 +1 +2 +1 +2 +1 +1$" "$tmp/out" || fail "(no period) column: $(cat "$tmp/out")"
echo "ok: corpus table"
