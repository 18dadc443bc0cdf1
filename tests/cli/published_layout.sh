#!/usr/bin/env bash
# `corpus labels export --layout published`: a stage-one study of our own (generated corpus, fieldwork
# taxonomy; imported, retrieved, screened, sampled, labelled by three coders, reconciled) exported in the
# layout studies publish: SOURCE/SOURCE.csv (Issue_URL, Label1..N, Final_Label) and SOURCE/SOURCE_YEAR.txt.
# Every byte recomputed here from the workspace's own label table and the stored documents; read back by
# `agreement --labels DIR --periods DIR` to the numbers of the workspace's table and of `corpus table`.
# With $SHARED_DIR: the example study's published files follow the same conventions (no BOM, LF, no quotes,
# the same header names) and `agreement` reads them as folders to the same numbers as file by file.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
source "$(dirname "${BASH_SOURCE[0]}")/lib/corpus_study.sh"  # fieldwork_study: ws, q, the corpus
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

fieldwork_study 40
cat >"$ws/corpus/keywords.yaml" <<'EOF'
sources:
  atlas: [cache miss, deadlock]
  borealis: [cache miss, {term: shard, match: substring}]
EOF
q -q corpus retrieve
q -q corpus screen --screener sam --doc atlas#1 --false-positive duplicate
q -q corpus screen --screener tom --doc atlas#1 --false-positive not-about-topic
q -q corpus sample pilot --size 30 --stratify source --seed 3
# Three coders: bob agrees with alice two times in three, carol with one of them; carol leaves the last out.
/usr/bin/python3 - "$ws/corpus/samples/pilot.txt" "$tmp" <<'PY'
import random, sys
docs = [l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
rng = random.Random(11)
nodes = ["COM.1", "COM.2", "TOOL.1", "TOOL.2", "WELL.1"]
for coder in ["alice", "bob", "carol"]: open("%s/%s.csv" % (sys.argv[2], coder), "w").write("doc,nodes,note\n")
for i, d in enumerate(docs):
    a = nodes[i % 5]
    b = a if rng.random() < 0.67 else rng.choice(nodes)
    c = a if rng.random() < 0.7 else b
    if i == 0: a, b, c = "COM.1", "TOOL.1", "WELL.1"
    open("%s/alice.csv" % sys.argv[2], "a").write("%s,%s,\n" % (d, a))
    open("%s/bob.csv" % sys.argv[2], "a").write("%s,%s,\n" % (d, b))
    if i < len(docs) - 1: open("%s/carol.csv" % sys.argv[2], "a").write("%s,%s,\n" % (d, c))
PY
for c in alice bob carol; do q -q corpus label --coder $c --sample pilot --from-csv "$tmp/$c.csv"; done
q -q corpus reconcile --sample pilot --decider dana --majority >/dev/null
tie=$(grep -v '^#' "$ws/corpus/samples/pilot.txt" | head -1)
q -q corpus reconcile --sample pilot --decider dana --doc "$tie" --keep bob >/dev/null
q -q corpus labels export --sample pilot

# The published layout, default folder.
out=$(q corpus labels export --layout published --sample pilot)
[[ $out == "codebooks/published: 3 sources (atlas, borealis, cirrus), 30 units, "*" files"$'\n'"  Label1: alice"$'\n'"  Label2: bob"$'\n'"  Label3: carol" ]] ||
  fail "export: $out"
head -1 "$ws/codebooks/published/atlas/atlas.csv" | cmp - <(printf 'Issue_URL,Label1,Label2,Label3,Final_Label\n') || fail "header"
/usr/bin/python3 - "$ws" <<'PY' || fail "published files"
import csv, glob, json, os, sys
ws = sys.argv[1]
pub = os.path.join(ws, "codebooks", "published")
url, created = {}, {}
for s in ["atlas", "borealis", "cirrus"]:
    for l in open(f"{ws}/corpus/{s}.jsonl", encoding="utf-8"):
        j = json.loads(l)
        url[f"{s}#{j['id']}"], created[f"{s}#{j['id']}"] = j["url"], j["created"]
rows = list(csv.reader(open(f"{ws}/codebooks/labels/pilot.csv", newline="")))
assert rows[0] == ["unit", "Label_alice", "Label_bob", "Label_carol", "Final_Label"], rows[0]
years = sorted({created[r[0]][:4] for r in rows[1:]})
years = [str(y) for y in range(int(years[0]), int(years[-1]) + 1)]
expected = {}
for s in ["atlas", "borealis", "cirrus"]:
    mine = [r for r in rows[1:] if r[0].split("#")[0] == s]
    expected[f"{s}/{s}.csv"] = "Issue_URL,Label1,Label2,Label3,Final_Label\n" + "".join(
        ",".join([url[r[0]]] + r[1:]) + "\n" for r in mine)
    for y in years:
        expected[f"{s}/{s}_{y}.txt"] = "".join(url[r[0]] + "\n" for r in mine if created[r[0]][:4] == y)
got = {os.path.relpath(p, pub): open(p, "rb").read() for p in glob.glob(f"{pub}/*/*")}
assert sorted(got) == sorted(expected), (sorted(got), sorted(expected))
for k, v in expected.items():
    assert got[k] == v.encode(), (k, got[k][:300], v[:300])
# Conventions: no BOM, no CR, no quotes; every unit a url; one row per document, every year list a subset.
for k, v in got.items():
    assert not v.startswith(b"\xef\xbb\xbf") and b"\r" not in v and b'"' not in v, k
assert sum(v.count(b"\n") - 1 for k, v in got.items() if k.endswith(".csv")) == 30
assert all(u.startswith("https://") for u in url.values())
print(len(got), "files", years)
PY
# All samples (only pilot here), another folder: the same bytes; a second run changes nothing.
q -q corpus labels export --layout published -o "$tmp/pub2"
diff -r "$ws/codebooks/published" "$tmp/pub2" || fail "-o and the default differ"
q -q corpus labels export --layout published -o "$tmp/pub2"
diff -r "$ws/codebooks/published" "$tmp/pub2" || fail "not reproducible"

# Read back: the same agreement as the workspace's table (coders renamed Label_<name> -> LabelN).
q -q agreement --labels codebooks/labels/pilot.csv --resamples 0 --group-by-level 1 --format json >"$tmp/own.json"
q -q agreement --labels codebooks/published --resamples 0 --group-by-level 1 --format json >"$tmp/pub.json"
(cd "$ws" && "$QUALRANK" -q agreement --labels codebooks/published/*/*.csv --resamples 0 --group-by-level 1 --format json >"$tmp/pub_files.json")
/usr/bin/python3 - "$tmp/own.json" "$tmp/pub.json" "$tmp/pub_files.json" "$ws/codebooks/published" <<'PY' || fail "agreement read back"
import csv, glob, json, sys
from collections import Counter
own, pub, files = (json.load(open(p)) for p in sys.argv[1:4])
# Fleiss' kappa of the published tables as published studies compute it (units every coder labelled): by its
# formula here (Fleiss 1971), and with statsmodels where it is installed (the test machines need not have it).
rows = [r for t in sorted(glob.glob(sys.argv[4] + "/*/*.csv")) for r in list(csv.reader(open(t, newline="")))[1:]]
full = [r[1:4] for r in rows if all(r[1:4])]
cats = sorted({c for r in full for c in r})
table = [[Counter(r)[c] for c in cats] for r in full]
n, N = 3, len(table)
p_j = [sum(row[j] for row in table) / (N * n) for j in range(len(cats))]
P_bar = sum((sum(x * x for x in row) - n) / (n * (n - 1)) for row in table) / N
P_e = sum(p * p for p in p_j)
k = (P_bar - P_e) / (1 - P_e)
assert abs(pub["fleiss_kappa"] - k) < 1e-12, (pub["fleiss_kappa"], k)
try:
    import numpy as np
    from statsmodels.stats.inter_rater import fleiss_kappa
    assert abs(pub["fleiss_kappa"] - fleiss_kappa(np.array(table))) < 1e-12, (pub["fleiss_kappa"], "statsmodels")
except ImportError:
    pass
assert pub == files, "a folder reads as its files"
def norm(x):
    s = json.dumps(x)
    for i, c in enumerate(["alice", "bob", "carol"], 1): s = s.replace("Label_" + c, "Label%d" % i)
    return json.loads(s)
o, p = norm(own), norm(pub)
for k in ["units", "coders", "categories", "fleiss_kappa", "krippendorff_alpha", "percent_agreement", "per_category",
          "cohen_kappa_pairs", "coder_vs_final", "groups", "dropped_units"]:
    assert k in o and o[k] == p[k], (k, o.get(k), p.get(k))
assert o["coders"] == ["Label1", "Label2", "Label3"] and o["units"] == 30, o["coders"]
print("kappa", p["fleiss_kappa"])
PY
# --periods DIR: the corpus table of the published files has the units per source, year and top-level node
# of `corpus table` (screening aside).
q -q agreement --labels codebooks/published --periods codebooks/published --resamples 0 --format json >"$tmp/periods.json"
q -q corpus table --format json >"$tmp/table.json"
/usr/bin/python3 - "$tmp/periods.json" "$tmp/table.json" <<'PY' || fail "--periods read back"
import json, sys
a, t = json.load(open(sys.argv[1]))["corpus"], json.load(open(sys.argv[2]))
t = t.get("corpus", t)
keys = ["source", "units", "periods", "no_period", "groups", "open", "ungrouped"]
def rows(x): return [{k: r[k] for k in keys if k in r} for r in x["rows"]]
assert rows(a) == rows(t), (rows(a), rows(t))
assert a["periods"] == t["periods"] and sum(r["units"] for r in a["rows"]) == 30, a["periods"]
print("periods", a["periods"])
PY

# Errors: a document without a url is refused, nothing written.
rm -rf "$tmp/pub3"
/usr/bin/python3 - "$ws/corpus/atlas.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
for j in lines: j["url"] = ""
open(sys.argv[1], "w").write("".join(json.dumps(j, ensure_ascii=False, separators=(",", ":")) + "\n" for j in lines))
PY
if out=$(q corpus labels export --layout published -o "$tmp/pub3" 2>&1); then fail "no url accepted: $out"; fi
[[ $out == *"has no url: the published layout names each document by its url"* ]] || fail "no url: $out"
[[ ! -e $tmp/pub3 ]] || fail "written after an error"
out=$(q corpus labels export --layout tree --sample pilot 2>&1) && fail "--layout tree accepted"
[[ $out == "qualrank corpus labels export: error: --layout is workspace or published, not 'tree'" ]] || fail "--layout: $out"
out=$(q corpus labels export --sample pilot -o "$tmp/x" 2>&1) && fail "-o without published accepted"
[[ $out == *"-o goes with --layout published"* ]] || fail "-o: $out"

# The example study's published files (read in place): our conventions are theirs, and folders read as files.
data="${SHARED_DIR:-/nonexistent}/reference/llm-study-data/Issue Report"
if [[ -d $data ]]; then
  /usr/bin/python3 - "$data" "$ws/codebooks/published/atlas/atlas.csv" "$ws/codebooks/published/atlas" <<'PY' || fail "shared conventions"
import glob, os, re, sys
data, ours, ourdir = sys.argv[1:4]
o = open(ours, "rb").read()
for t in glob.glob(os.path.join(data, "*", "*.csv")):
    b = open(t, "rb").read()
    head = b.split(b"\n", 1)[0]
    # Same unit and consensus names, Label<N> coders, no BOM/CR/quotes, LF at the end: as ours.
    assert re.fullmatch(rb"Issue_URL(,Label[0-9]+)+,Final_Label", head), head
    assert re.fullmatch(rb"Issue_URL(,Label[0-9]+)+,Final_Label", o.split(b"\n", 1)[0])
    for x in (b, o):
        assert not x.startswith(b"\xef\xbb\xbf") and b"\r" not in x and b'"' not in x and x.endswith(b"\n")
    assert b.split(b"\n")[1].startswith(b"https://") and o.split(b"\n")[1].startswith(b"https://")
for t in glob.glob(os.path.join(data, "*", "*_20*.txt")) + glob.glob(os.path.join(ourdir, "*.txt")):
    b = open(t, "rb").read()
    assert b == b"" or (b.endswith(b"\n") and b"\r" not in b and all(l.startswith(b"https://") for l in b.splitlines())), t
PY
  args=(); for f in "$data"/*/*.csv; do args+=(--labels "$f"); done
  "$QUALRANK" -C "$SOURCE_DIR" -q agreement "${args[@]}" --group-by-level 1 --resamples 0 --periods "$data"/*/*_20*.txt \
    --format json >"$tmp/shared_files.json" 2>/dev/null || fail "shared, file by file"
  "$QUALRANK" -C "$SOURCE_DIR" -q agreement --labels "$data"/*/ --group-by-level 1 --resamples 0 --periods "$data" \
    --format json >"$tmp/shared_dir.json" 2>/dev/null || fail "shared, as folders"
  /usr/bin/python3 - "$tmp/shared_files.json" "$tmp/shared_dir.json" <<'PY' || fail "shared folders differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["fleiss_kappa"] == b["fleiss_kappa"] and a["corpus"]["rows"] == b["corpus"]["rows"], "folders"
assert sum(r["units"] for r in a["corpus"]["rows"]) == 38742
PY
fi
echo "published_layout: ok"
