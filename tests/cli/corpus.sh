#!/usr/bin/env bash
# `qualrank corpus` on a generated corpus (tests/cli/corpus_gen.py: 3 sources x 667 issues in the JSON of
# `gh issue list --json number,url,title,body,createdAt,labels,comments`, with planted keyword hits) in a copy of
# the fieldwork fixture. Every number is recomputed here in python3, independently of qualrank: the documents
# per source and in the window, the retrieval (by Python regular expressions implementing the documented
# semantics), the provenance of the planted documents, the screening agreement (Cohen's and Fleiss' kappa by
# their formulas), the false-positive rate per source, and the sample size (Cochran with the finite-population
# correction) and its allocation. Then a re-import of a newer export (3 added, 2 updated, screening kept), the
# located errors, and the example study's filter_keywords ($SHARED_DIR; skipped when absent).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$ws"
q() { "$QUALRANK" -C "$ws" "$@"; }
/usr/bin/python3 "$SOURCE_DIR/tests/cli/corpus_gen.py" "$tmp/export" --per-source 667 --seed 7

# --- import ---------------------------------------------------------------------------------------------
for s in atlas borealis cirrus; do
  q corpus import "$tmp/export/$s.json" --source "$s" >"$tmp/imp.$s" 2>&1 || { cat "$tmp/imp.$s"; fail "import $s"; }
  [[ "$(cat "$tmp/imp.$s")" == "corpus/$s.jsonl: 667 added, 0 updated, 0 unchanged" ]] || { cat "$tmp/imp.$s"; fail "import counts $s"; }
done
SOURCE_DATE_EPOCH=1700000000 q corpus import "$tmp/export/atlas.json" --source atlas >"$tmp/imp.again"
[[ "$(cat "$tmp/imp.again")" == "corpus/atlas.jsonl: 0 added, 0 updated, 667 unchanged" ]] || fail "same export again: $(cat "$tmp/imp.again")"

cat >"$ws/corpus/keywords.yaml" <<'YAML'
from: 2023-01
to: 2025-04
reasons: [not-about-topic, keyword-in-code-only, duplicate]
sources:
  atlas:
    - cache miss
    - {term: QKV, case: sensitive}
    - {term: shard, match: substring}
    - stack overflow
    - zeppelin
  borealis:
    - deadlock
    - {term: GPU, case: sensitive}
    - {term: shard, match: substring}
    - cache miss
    - stack overflow
    - {term: QKV, case: sensitive}
YAML
q corpus retrieve >"$tmp/ret.txt" 2>"$tmp/ret.err" || { cat "$tmp/ret.err"; fail "retrieve"; }
q corpus retrieve --format json >"$tmp/ret.json" 2>/dev/null
# The stored files' SHA-256 is remembered in corpus/.sha256-cache while a file keeps its inode, size and times;
# an edit keeping the size is still seen (its times change), and so is the file put back.
grep -q "^$(sha256sum "$ws/corpus/atlas.jsonl" | cut -c1-64) [0-9 ]* corpus/atlas.jsonl$" "$ws/corpus/.sha256-cache" ||
  fail "hash cache: $(cat "$ws/corpus/.sha256-cache")"
cp -p "$ws/corpus/atlas.jsonl" "$tmp/atlas.keep"
/usr/bin/python3 - "$ws/corpus/atlas.jsonl" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
i = b.index(b'"title":"') + 9
b[i] = ord("Q") if b[i] != ord("Q") else ord("R")  # one ASCII byte for another: the same size
open(sys.argv[1], "r+b").write(b)
PY
[[ $(stat -c %s "$ws/corpus/atlas.jsonl") == $(stat -c %s "$tmp/atlas.keep") ]] || fail "edit kept the size"
# validate and status read the cache too (and write nothing): the edit is seen there first.
cp "$ws/corpus/.sha256-cache" "$tmp/cache.before"
for c in validate status; do
  q $c >"$tmp/$c.out" 2>&1 || true
  grep -q 'corpus/atlas.jsonl is not the file corpus/manifest.json records' "$tmp/$c.out" ||
    fail "$c: an edit keeping the size, after the cache: $(cat "$tmp/$c.out")"
done
cmp -s "$ws/corpus/.sha256-cache" "$tmp/cache.before" || fail "validate or status wrote the hash cache"
q corpus retrieve >/dev/null 2>"$tmp/edited.err" || true
grep -q '^corpus/manifest.json: warning: corpus/atlas.jsonl is not the file corpus/manifest.json records' "$tmp/edited.err" ||
  fail "an edit keeping the size, after the cache: $(cat "$tmp/edited.err")"
cp -p "$tmp/atlas.keep" "$ws/corpus/atlas.jsonl"
q corpus retrieve >/dev/null 2>"$tmp/restored.err" || fail "retrieve after restoring"
! grep -q 'is not the file corpus/manifest.json records' "$tmp/restored.err" || fail "the file put back: $(cat "$tmp/restored.err")"
q corpus retrieve >/dev/null 2>&1 || fail "retrieve again"

/usr/bin/python3 - "$tmp/export" "$ws" "$tmp/ret.json" "$tmp/ret.txt" "$tmp/ret.err" <<'PY' || fail "retrieval"
import json, re, sys, hashlib
exp, ws, got_json, got_txt, got_err = sys.argv[1:6]
terms = {"atlas": [("cache miss", True, False), ("QKV", True, True), ("shard", False, False), ("stack overflow", True, False), ("zeppelin", True, False)],
         "borealis": [("deadlock", True, False), ("GPU", True, True), ("shard", False, False), ("cache miss", True, False), ("stack overflow", True, False), ("QKV", True, True)]}
def rx(term, whole, case):
    body = r"[ \t\n\r\f\v]+".join(re.escape(w) for w in term.split())
    if whole: body = r"(?<!\w)" + body + r"(?!\w)"
    return re.compile(body, 0 if case else re.IGNORECASE)
expected = {"sources": []}
retrieved_lines = []
per_doc = {}
for s in ["atlas", "borealis", "cirrus"]:
    issues = json.load(open(f"{exp}/{s}.json"))
    stored = [json.loads(l) for l in open(f"{ws}/corpus/{s}.jsonl")]
    assert [d["id"] for d in stored] == [str(i) for i in range(1, 668)], "stored order"
    assert stored[0]["url"] == issues[0]["url"] and stored[0]["labels"] == [issues[0]["labels"][0]["name"]]
    assert list(stored[0].keys()) == ["id", "url", "created", "title", "body", "labels", "comments", "extra"]
    win = [i for i in issues if "2023-01" <= i["createdAt"][:7] <= "2025-04"]
    entry = {"source": s, "whole": s == "cirrus", "stored": len(issues), "in_window": len(win)}
    kw = []
    if s == "cirrus":
        entry["retrieved"] = len(win)
        for i in win: per_doc[f"{s}#{i['number']}"] = []
    else:
        pats = [rx(*t) for t in terms[s]]
        counts = [0] * len(pats)
        n = 0
        for i in win:
            fields = [("title", i["title"]), ("body", i["body"])] + [(f"comment {k+1}", c["body"]) for k, c in enumerate(i["comments"])]
            hits = []
            for t, p in enumerate(pats):
                for name, text in fields:
                    ms = list(p.finditer(text))
                    if ms: hits.append({"term": terms[s][t][0], "in": name, "at": len(text[:ms[0].start()].encode()), "count": len(ms)})
            if hits:
                n += 1
                for t in sorted({terms[s].index(next(x for x in terms[s] if x[0] == h["term"])) for h in hits}): counts[t] += 1
                per_doc[f"{s}#{i['number']}"] = hits
        entry["retrieved"] = n
        kw = [{"term": terms[s][t][0], "documents": counts[t]} for t in range(len(pats))]
    entry["keywords"] = kw
    expected["sources"].append(entry)
got = json.load(open(got_json))
for e, g in zip(expected["sources"], got["sources"]):
    for k in e: assert e[k] == g[k], (e["source"], k, e[k], g[k])
assert got["retrieved"] == sum(e["retrieved"] for e in expected["sources"])
# Every retrieved document with its provenance, in source then id order.
lines = [json.loads(l) for l in open(f"{ws}/corpus/retrieved.jsonl")]
assert lines[0]["retrieval"]["to"] == "2025-04", lines[0]  # the first line: what the retrieval was made from
lines = lines[1:]
assert [l["doc"] for l in lines] == list(per_doc), "retrieved set and order"
for l in lines:
    assert l["matches"] == per_doc[l["doc"]], (l["doc"], l["matches"], per_doc[l["doc"]])
# The planted ones, spelled out.
byname = {l["doc"]: l for l in lines}
assert byname["atlas#1"]["matches"] == [{"term": "cache miss", "in": "title", "at": 0, "count": 1}], byname["atlas#1"]
assert byname["atlas#2"]["matches"] == [{"term": "cache miss", "in": "body", "at": 28, "count": 2}]  # after 'Größe über': bytes
assert byname["atlas#3"]["matches"] == [{"term": "QKV", "in": "comment 2", "at": 4, "count": 1}]
assert "atlas#4" not in byname and "borealis#4" not in byname       # qkv / Qkv: wrong case
assert "borealis#5" not in byname                                    # deadlocked: not a whole word
assert byname["atlas#6"]["matches"] == [{"term": "shard", "in": "body", "at": 2, "count": 1}]  # resharding
assert byname["atlas#7"]["matches"] == [{"term": "stack overflow", "in": "body", "at": 2, "count": 1}]
assert "atlas#8" not in byname and "borealis#8" not in byname
# Text: the whole source said so; the unmatched keyword named as a located warning.
txt = open(got_txt).read()
win_c = expected["sources"][2]["in_window"]
assert f"source cirrus has no keyword list: all {win_c} documents in the window taken whole" in txt, txt
err = open(got_err).read()
assert err == "corpus/keywords.yaml:10:7: warning: 'zeppelin' (source atlas) matches no document\n", repr(err)
# The manifest: counts and hashes of the stored files.
m = json.load(open(f"{ws}/corpus/manifest.json"))
for s in ["atlas", "borealis", "cirrus"]:
    e = m["sources"][s]
    assert e["documents"] == 667 and e["file"] == f"corpus/{s}.jsonl" and e["from"] == f"{s}.json"
    assert e["sha256"] == hashlib.sha256(open(f"{ws}/corpus/{s}.jsonl", "rb").read()).hexdigest()
assert m["sources"]["atlas"]["imported"] == "2023-11-14"  # SOURCE_DATE_EPOCH=1700000000
json.dump(list(per_doc), open(f"{ws}/../retrieved_ids.json", "w"))
PY

# --- screening: two screeners, planted false positives --------------------------------------------------
/usr/bin/python3 - "$tmp" <<'PY'
import json, random, sys
tmp = sys.argv[1]
ids = json.load(open(f"{tmp}/retrieved_ids.json"))
rng = random.Random(11)
a, b = [], []
for d in ids:
    r = rng.random()
    if r < 0.55:       # both screen it
        fa = rng.random() < 0.2
        fb = fa if rng.random() < 0.85 else not fa
        a.append((d, fa)); b.append((d, fb))
    elif r < 0.7:
        a.append((d, rng.random() < 0.3))
    elif r < 0.8:
        b.append((d, rng.random() < 0.3))
for name, rows in (("alice", a), ("bob", b)):
    with open(f"{tmp}/{name}.csv", "w") as f:
        f.write("doc,decision,reason,note\n")
        for d, fp in rows:
            f.write(f"{d},{'false-positive' if fp else 'relevant'},{'keyword-in-code-only' if fp else ''},\n")
json.dump({"alice": a, "bob": b}, open(f"{tmp}/screen.json", "w"))
PY
q corpus screen --screener alice --from-csv "$tmp/alice.csv" >"$tmp/sa.out" || fail "screen alice"
q corpus screen --screener bob --from-csv "$tmp/bob.csv" >"$tmp/sb.out" || fail "screen bob"
grep -q "^bob has screened " "$tmp/sb.out" || fail "bob's progress"
grep -q alice "$tmp/sb.out" && fail "blind: bob's command names alice"
# One decision by command, replacing an earlier one; then back.
first=$(/usr/bin/python3 -c "import json;print(json.load(open('$tmp/screen.json'))['alice'][0][0])")
q corpus screen --screener alice --doc "$first" --false-positive duplicate --note "same as #1" >"$tmp/one.out"
[[ "$(head -1 "$tmp/one.out")" == "alice: $first false-positive (duplicate) (replaces the earlier decision)" ]] || fail "one decision: $(cat "$tmp/one.out")"
grep -qF "$first,false-positive,duplicate,same as #1" "$ws/corpus/screening/alice.csv" || fail "decision stored"
q corpus screen --screener alice --from-csv "$tmp/alice.csv" >/dev/null
rc=0; q corpus screen --screener alice --doc "$first" --false-positive duplicat 2>"$tmp/bad.err" || rc=$?
[[ $rc == 2 ]] || fail "unknown reason exit $rc"
[[ "$(cat "$tmp/bad.err")" == "qualrank corpus screen: error: unknown reason 'duplicat'; did you mean 'duplicate'? (reasons: not-about-topic, keyword-in-code-only, duplicate)" ]] || fail "reason message: $(cat "$tmp/bad.err")"
cmp -s "$ws/corpus/screening/alice.csv" <(cat "$tmp/alice.csv") || true
q corpus screen --status --format json >"$tmp/status.json"
q corpus screen --status --rule majority --format json >"$tmp/status_maj.json"
q corpus screen --status >"$tmp/status.txt"

/usr/bin/python3 - "$tmp" <<'PY' || fail "screening status"
import json, sys
tmp = sys.argv[1]
ids = json.load(open(f"{tmp}/retrieved_ids.json"))
sc = json.load(open(f"{tmp}/screen.json"))
A = {d: fp for d, fp in sc["alice"]}; B = {d: fp for d, fp in sc["bob"]}
both = [d for d in ids if d in A and d in B]
# Cohen's kappa by hand: p_o, p_e from the marginals.
n = len(both)
po = sum(A[d] == B[d] for d in both) / n
pa1 = sum(A[d] for d in both) / n; pb1 = sum(B[d] for d in both) / n
pe = pa1 * pb1 + (1 - pa1) * (1 - pb1)
cohen = (po - pe) / (1 - pe)
# Fleiss' kappa by hand (m = 2 raters): P_i = (sum_j n_ij^2 - m) / (m (m - 1)).
m = 2
P = sum(((A[d] + B[d]) ** 2 + (2 - A[d] - B[d]) ** 2 - m) / (m * (m - 1)) for d in both) / n
p1 = sum(A[d] + B[d] for d in both) / (n * m)
Pe = p1 ** 2 + (1 - p1) ** 2
fleiss = (P - Pe) / (1 - Pe)
def excluded(rule):
    out = set()
    for d in ids:
        votes = [v for v in (A.get(d), B.get(d)) if v is not None]
        if not votes: continue
        fp = sum(votes)
        if (fp == len(votes)) if rule == "unanimous" else (2 * fp > len(votes)): out.add(d)
    return out
for path, rule in ((f"{tmp}/status.json", "unanimous"), (f"{tmp}/status_maj.json", "majority")):
    g = json.load(open(path))
    assert g["rule"] == rule and g["retrieved"] == len(ids)
    assert g["screeners"] == [{"screener": "alice", "screened": len(A)}, {"screener": "bob", "screened": len(B)}]
    assert g["screened_by_all"] == n and g["agreeing"] == sum(A[d] == B[d] for d in both)
    # Two screeners: all agree (a share of documents) and percent agreement (of screener pairs) are both p_o.
    assert abs(g["all_agree"] - po) < 1e-15 and g["screened_by_two"] == n and abs(g["percent_agreement"] - po) < 1e-12, g
    assert abs(g["cohen_kappa"] - cohen) < 1e-12, (g["cohen_kappa"], cohen)
    assert abs(g["fleiss_kappa"] - fleiss) < 1e-12, (g["fleiss_kappa"], fleiss)
    ex = excluded(rule)
    assert g["excluded"] == len(ex) and set(g["excluded_docs"]) == ex
    for src in g["sources"]:
        r = [d for d in ids if d.startswith(src["source"] + "#")]
        e = [d for d in ex if d.startswith(src["source"] + "#")]
        assert src["retrieved"] == len(r) and src["excluded"] == len(e)
        assert abs(src["fp_rate"] - len(e) / len(r)) < 1e-15, (src, len(e) / len(r))
txt = open(f"{tmp}/status.txt").read()
assert "Cohen's kappa: %.4f\n" % cohen in txt, txt
assert "decided alike by every screener (all agree: %.1f%%)\n" % (100 * po) in txt, txt
assert "percent agreement (mean share of agreeing screener pairs, over the %d documents screened by two or more): %.4f\n" % (n, po) in txt, txt
assert "Fleiss' kappa: %.4f\n" % fleiss in txt, txt
json.dump(sorted(excluded("unanimous")), open(f"{tmp}/excluded.json", "w"))
PY

# --- sample ---------------------------------------------------------------------------------------------
q corpus sample pilot --stratify source --seed 42 >"$tmp/pilot.out" || fail "sample"
cp "$ws/corpus/samples/pilot.txt" "$tmp/pilot.1"
q corpus sample pilot --stratify source --seed 42 >/dev/null 2>&1 && fail "an existing sample replaced without --force"
q corpus sample pilot --stratify source --seed 42 --force >/dev/null
cmp -s "$ws/corpus/samples/pilot.txt" "$tmp/pilot.1" || fail "same seed, different sample"
q corpus sample rest --exclude pilot --seed 5 --margin 0.08 --confidence 0.9 >"$tmp/rest.out" || fail "second sample"
/usr/bin/python3 - "$tmp" "$ws" <<'PY' || fail "sample size"
import json, math, sys
from statistics import NormalDist
tmp, ws = sys.argv[1:3]
ids = json.load(open(f"{tmp}/retrieved_ids.json"))
ex = set(json.load(open(f"{tmp}/excluded.json")))
pop = [d for d in ids if d not in ex]
N = len(pop)
z = NormalDist().inv_cdf(0.975)
n0 = z * z * 0.25 / 0.05 ** 2
n = math.ceil(n0 / (1 + (n0 - 1) / N))
pilot = [l for l in open(f"{ws}/corpus/samples/pilot.txt").read().split("\n") if l and not l.startswith("#")]
assert len(pilot) == n and len(set(pilot)) == n and set(pilot) <= set(pop), (len(pilot), n)
# Largest remainders by hand.
strata = {s: [d for d in pop if d.startswith(s + "#")] for s in ["atlas", "borealis", "cirrus"]}
quota = {s: n * len(v) / N for s, v in strata.items()}
alloc = {s: math.floor(q) for s, q in quota.items()}
for s in sorted(strata, key=lambda s: -(quota[s] - alloc[s]))[: n - sum(alloc.values())]: alloc[s] += 1
for s in strata: assert sum(d.startswith(s + "#") for d in pilot) == alloc[s], (s, alloc)
out = open(f"{tmp}/pilot.out").read()
assert f"corpus/samples/pilot.txt: {n} of {N} documents (seed 42)\n" in out, out
assert "n0 = z^2 p (1 - p) / e^2 = %.4f\n" % n0 in out, out
for s in strata: assert any(l.split()[:3] == [s, str(len(strata[s])), str(alloc[s])] for l in out.splitlines()), (s, out)
# The second sample: from what is not in the pilot, 90% and e = 0.08.
rest = [l for l in open(f"{ws}/corpus/samples/rest.txt").read().split("\n") if l and not l.startswith("#")]
N2 = N - n
z2 = NormalDist().inv_cdf(0.95)
n02 = z2 * z2 * 0.25 / 0.08 ** 2
assert len(rest) == math.ceil(n02 / (1 + (n02 - 1) / N2)), len(rest)
assert not set(rest) & set(pilot) and set(rest) <= set(pop)
PY

# --- re-import: a newer export, 3 added and 2 updated; screening kept -------------------------------------
cp -r "$ws/corpus/screening" "$tmp/screening.before"
/usr/bin/python3 - "$tmp/export/atlas.json" "$tmp/atlas-new.json" <<'PY'
import json, sys
issues = json.load(open(sys.argv[1]))
issues[10]["body"] += "\n\nedit: still happens"
issues[20]["title"] = "Renamed"
for n in (668, 669, 670):
    issues.append({"number": n, "url": f"https://example.org/atlas/issues/{n}", "title": f"new {n}", "body": "cache miss",
                   "createdAt": "2025-03-01T00:00:00Z", "labels": [], "comments": []})
json.dump(issues, open(sys.argv[2], "w"))
PY
q corpus import "$tmp/atlas-new.json" --source atlas >"$tmp/reimp"
[[ "$(cat "$tmp/reimp")" == "corpus/atlas.jsonl: 3 added, 2 updated, 665 unchanged" ]] || fail "re-import: $(cat "$tmp/reimp")"
diff -r "$tmp/screening.before" "$ws/corpus/screening" >/dev/null || fail "re-import changed screening"
[[ $(wc -l <"$ws/corpus/atlas.jsonl") == 670 ]] || fail "670 stored"
tail -1 "$ws/corpus/atlas.jsonl" | grep_q '^{"id":"670",' || fail "sorted by id"
sed -n 21p "$ws/corpus/atlas.jsonl" | grep_q '"title":"Renamed"' || fail "updated title"

# --- located errors, nothing written ----------------------------------------------------------------------
cp "$ws/corpus/manifest.json" "$tmp/manifest.before"
printf '[\n  {"number": 1, "title": "a"},\n  {"number": 2, "title": "b"},\n  {"number": 1, "title": "c"}\n]\n' >"$tmp/dup.json"
rc=0; q corpus import "$tmp/dup.json" --source delta 2>"$tmp/dup.err" || rc=$?
[[ $rc == 1 ]] || fail "duplicate exit $rc"
[[ "$(cat "$tmp/dup.err")" == "$tmp/dup.json:4:3: error: duplicate id '1': first at $tmp/dup.json:2:3" ]] || fail "duplicate: $(cat "$tmp/dup.err")"
printf '[\n  {"number": 1,\n   "title": "a" "body": 2}\n]\n' >"$tmp/bad.json"
rc=0; q corpus import "$tmp/bad.json" --source delta 2>"$tmp/bad.err" || rc=$?
[[ $rc == 1 ]] || fail "bad JSON exit $rc"
[[ "$(cat "$tmp/bad.err")" == "$tmp/bad.json:3:22: error: not valid JSON: syntax error while parsing object - unexpected string literal; expected '}'" ]] || fail "bad JSON: $(cat "$tmp/bad.err")"
printf 'id,source,created,title,body\n1,echo,2024-01-01,t,b\n2,echo,2024-01-01,t,"b\n' >"$tmp/bad.csv"
rc=0; q corpus import "$tmp/bad.csv" 2>"$tmp/badcsv.err" || rc=$?
[[ $rc == 1 ]] || fail "bad CSV exit $rc"
cmp -s "$ws/corpus/manifest.json" "$tmp/manifest.before" || fail "a failed import wrote the manifest"
[[ ! -e "$ws/corpus/delta.jsonl" && ! -e "$ws/corpus/echo.jsonl" ]] || fail "a failed import wrote a source"
# CSV and JSON Lines import, extra fields kept.
printf 'id,source,created,title,body,severity\n7,echo,2024-01-01,Seven,"two\nlines",high\n' >"$tmp/ok.csv"
q corpus import "$tmp/ok.csv" >"$tmp/csv.out" || fail "CSV import"
[[ "$(cat "$ws/corpus/echo.jsonl")" == '{"id":"7","url":"","created":"2024-01-01","title":"Seven","body":"two\nlines","labels":[],"comments":[],"extra":{"severity":"high"}}' ]] || fail "CSV stored: $(cat "$ws/corpus/echo.jsonl")"
printf '{"number": 3, "html_url": "https://example.org/f/3", "url": "https://api.example.org/f/3", "created_at": "2024-05-01T00:00:00Z", "title": "api", "body": null, "labels": [{"name": "bug"}], "comments": 4, "state": "open"}\n' >"$tmp/api.jsonl"
q corpus import "$tmp/api.jsonl" --source foxtrot >/dev/null || fail "JSON Lines import"
[[ "$(cat "$ws/corpus/foxtrot.jsonl")" == '{"id":"3","url":"https://example.org/f/3","created":"2024-05-01T00:00:00Z","title":"api","body":"","labels":["bug"],"comments":[],"extra":{"comments":4,"state":"open","url":"https://api.example.org/f/3"}}' ]] || fail "gh api stored: $(cat "$ws/corpus/foxtrot.jsonl")"

# A broken keywords file: located, exit 1, retrieved.jsonl untouched.
cp "$ws/corpus/retrieved.jsonl" "$tmp/retrieved.before"
printf 'sources:\n  atlas:\n    - {term: x, match: substrng}\n' >"$ws/bad.yaml"
printf 'froms: 2023-01\nsources:\n' >"$ws/bad2.yaml"
for f in bad bad2; do
  rc=0; q corpus retrieve --keywords $f.yaml 2>"$tmp/$f.err" || rc=$?
  [[ $rc == 1 ]] || fail "$f.yaml exit $rc"
done
[[ "$(cat "$tmp/bad.err")" == "bad.yaml:3:24: error: match is 'word' or 'substring', not 'substrng'" ]] || fail "bad.yaml: $(cat "$tmp/bad.err")"
[[ "$(cat "$tmp/bad2.err")" == "bad2.yaml:1:1: error: unknown key 'froms'; did you mean 'from'?" ]] || fail "bad2.yaml: $(cat "$tmp/bad2.err")"
cmp -s "$ws/corpus/retrieved.jsonl" "$tmp/retrieved.before" || fail "a failed retrieve wrote retrieved.jsonl"
rc=0; q corpus retrieve --from 2025-01 --to 2024 2>"$tmp/win.err" || rc=$?
[[ $rc == 2 && "$(cat "$tmp/win.err")" == "qualrank corpus retrieve: error: the window ends (2024) before it starts (2025-01)" ]] || fail "window: $rc"
# A document that is not retrieved cannot be screened.
rc=0; q corpus screen --screener carol --doc atlas#99999 --relevant 2>"$tmp/nodoc.err" || rc=$?
[[ $rc == 1 && "$(cat "$tmp/nodoc.err")" == "qualrank corpus screen: error: 'atlas#99999' is not a retrieved document" ]] || fail "unknown doc: $rc $(cat "$tmp/nodoc.err")"
[[ ! -e "$ws/corpus/screening/carol.csv" ]] || fail "carol's file written"

# Every corpus command that writes takes the workspace lock: with its lock file a symlink, each refuses (exit 1)
# and writes nothing (import, retrieve, screen and sample used to write without it).
# An export is read by the one read policy: a FIFO is refused, never waited on.
mkfifo "$tmp/export.fifo"
rc=0; timeout 10 "$QUALRANK" -C "$ws" corpus import "$tmp/export.fifo" --source atlas 2>"$tmp/fifo.err" || rc=$?
[[ $rc == 1 && "$(cat "$tmp/fifo.err")" == "$tmp/export.fifo: error: not a regular file (a FIFO); qualrank reads only regular files" ]] ||
  fail "a FIFO export: exit $rc, $(cat "$tmp/fifo.err")"
sums() { find "$ws" -type f ! -name .qualrank.lock -print0 | sort -z | xargs -0 sha256sum; }
sums >"$tmp/before.sums"
rm -f "$ws/.qualrank.lock"; ln -s "$tmp/outside.lock" "$ws/.qualrank.lock"
for words in "corpus import $tmp/export/atlas.json --source atlas" "corpus retrieve" \
             "corpus screen --screener carol --doc $first --relevant" "corpus sample lockless --size 5 --seed 1" \
             "corpus label --coder carol --sample pilot --doc $first --node COM.1"; do
  rc=0; q $words >/dev/null 2>"$tmp/lock.err" || rc=$?
  [[ $rc == 1 && "$(cat "$tmp/lock.err")" == "qualrank $(cut -d' ' -f1-2 <<<"$words"): error: .qualrank.lock is a symlink; remove it (qualrank never follows it)" ]] ||
    fail "$words with a symlinked lock: exit $rc, $(cat "$tmp/lock.err")"
done
[[ ! -e $tmp/outside.lock ]] || fail "the lock's target was created"
rm "$ws/.qualrank.lock"
sums | cmp -s - "$tmp/before.sums" || fail "a command wrote with the lock refused"

# --- the example study's keyword lists -------------------------------------------------------------------
kw="${SHARED_DIR:-/nonexistent}/reference/llm-study-data/filter_keywords"
if [[ ! -f $kw ]]; then echo "SKIP: no \$SHARED_DIR study data"; exit 77; fi
q corpus keywords import "$kw" -o "$tmp/study.yaml" >"$tmp/kw.out" 2>"$tmp/kw.err" || fail "keywords import"
expected_kw=$(printf '%s\n' "$tmp/study.yaml: 3 sources" "  source      terms  listed" "  tensorflow     74      74" "  mindspore      84      85" "  pytorch        72      86")
[[ "$(cat "$tmp/kw.out")" == "$expected_kw" ]] || { cat "$tmp/kw.out"; fail "per-source term counts"; }
[[ $(grep -c ": warning: '.*' is listed twice in " "$tmp/kw.err") == 15 ]] || fail "15 repeats reported"
grep -q "^$kw:27:27: warning: 'bfloat16' is listed twice in mindspore_keywords (first on line 22); kept once$" "$tmp/kw.err" || { cat "$tmp/kw.err"; fail "repeat located"; }
/usr/bin/python3 - "$tmp/study.yaml" "$kw" <<'PY' || fail "imported terms"
import ast, re, sys, yaml
got = yaml.safe_load(open(sys.argv[1]))["sources"]
for m in re.finditer(r"(\w+)_keywords\s*=\s*\[(.*?)\]", open(sys.argv[2]).read(), re.S):
    terms = list(dict.fromkeys(t.strip() for t in ast.literal_eval("[" + m.group(2) + "]")))
    assert got[m.group(1)] == terms, m.group(1)
PY
echo "corpus: ok"
