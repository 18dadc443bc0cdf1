#!/usr/bin/env bash
# The package says what the workspace says (#36.6): on a study with three coders and recorded decisions whose
# coder and memo words are on the names list, the package's methods.md and validate report exactly the
# workspace's stale decisions (none, then one); on a stage-one study the package carries the corpus (sources,
# manifest, retrieval, screening, samples, labels, decisions) pseudonymised, its Table I equals the
# workspace's, every recorded hash still matches (status in the package: nothing stale), and verify re-makes it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export SOURCE_DATE_EPOCH=1764547200

# --- Decisions survive pseudonymisation ------------------------------------------------------------------------
ws="$tmp/ws"; mkdir "$ws"; cp -r "$FIXTURES"/fieldwork/{codebooks,guidelines,transcripts} "$ws/"
cp "$FIXTURES"/team/transcripts/*.codes "$ws/transcripts/"
q() { "$QUALRANK" -C "$ws" "$@"; }
q reconcile E01.md --decide t2=union --decide t3=carol --decide t4=neither --decide 't6=codes:WELL.2' --decider ana \
  --date 2026-11-20 2>/dev/null
printf 'name\ncarol\nfrank\nvanish\n' >"$tmp/names.csv"   # two coders, and a word of carol's memo on t4
stale_line() { grep -o 'consensus coding: .*' "$1" | head -1; }
q package --names ../names.csv -o "$tmp/pkg1" >/dev/null 2>"$tmp/err" || fail "package: $(cat "$tmp/err")"
q report -o "$tmp/rep1" >/dev/null 2>&1
[[ $(stale_line "$tmp/pkg1/reports/methods.md") == "$(stale_line "$tmp/rep1/methods.md")" ]] || fail "package methods: $(stale_line "$tmp/pkg1/reports/methods.md") vs $(stale_line "$tmp/rep1/methods.md")"
grep -q "stale" "$tmp/err" && fail "package warns of stale decisions: $(cat "$tmp/err")"
[[ $("$QUALRANK" -C "$tmp/pkg1" validate 2>&1 | grep -c 'is stale') == 0 ]] || fail "package validate: $("$QUALRANK" -C "$tmp/pkg1" validate 2>&1)"
# One decision stale in the workspace (frank changed t3 since): exactly that one in the package.
sed -i 's/^t3: COM.2$/t3: COM.2, WELL.1/' "$ws/transcripts/E01.frank.codes"
q report -o "$tmp/rep2" >/dev/null 2>&1
stale_line "$tmp/rep2/methods.md" | grep_q -F "1 decision(s) stale (made before the coders changed their codings: E01\\#t3)" || fail "workspace: $(stale_line "$tmp/rep2/methods.md")"
q package --names ../names.csv -o "$tmp/pkg2" >/dev/null 2>"$tmp/err" || fail "package 2: $(cat "$tmp/err")"
[[ $(stale_line "$tmp/pkg2/reports/methods.md") == "$(stale_line "$tmp/rep2/methods.md")" ]] || fail "package methods 2: $(stale_line "$tmp/pkg2/reports/methods.md")"
[[ $("$QUALRANK" -C "$tmp/pkg2" validate 2>&1 | grep -c 'is stale') == 1 ]] || fail "package validate 2: $("$QUALRANK" -C "$tmp/pkg2" validate 2>&1)"
grep -q "carol\|frank\|vanish" "$tmp/pkg2/transcripts/"*.codes && fail "a listed name survives in the package's codings"
(cd "$tmp/pkg2" && "$QUALRANK" package verify . >/dev/null 2>"$tmp/err") || fail "verify 2: $(cat "$tmp/err")"

# --- The corpus travels, pseudonymised, with Table I ----------------------------------------------------------
cs="$tmp/cs"; cp -r "$FIXTURES/fieldwork" "$cs"
c() { "$QUALRANK" -C "$cs" "$@"; }
python3 "$SOURCE_DIR/tests/cli/corpus_gen.py" "$tmp/gen" --per-source 40 --seed 5 >/dev/null
# A reporter's name and e-mail address in two issues: the stored sources change when pseudonymised.
python3 - "$tmp/gen" <<'PY'
import json, sys
d = json.load(open(f"{sys.argv[1]}/atlas.json"))
d[0]["body"] += " reported by Margit Holzer <margit@example.net>"
d[3]["title"] += " (Margit Holzer)"
json.dump(d, open(f"{sys.argv[1]}/atlas.json", "w"))
PY
for s in atlas borealis; do c -q corpus import "$tmp/gen/$s.json" --source "$s"; done
printf 'sources:\n  atlas: [cache miss, deadlock]\n  borealis: [cache miss, {term: shard, match: substring}]\n' >"$cs/corpus/keywords.yaml"
c -q corpus retrieve --from 2023-01 --to 2025-04
mapfile -t ret < <(python3 -c 'import json,sys; [print(json.loads(l)["doc"]) for l in list(open(sys.argv[1]))[1:]]' "$cs/corpus/retrieved.jsonl")
for d in "${ret[@]:0:3}"; do c -q corpus screen --screener sam --doc "$d" --false-positive duplicate; c -q corpus screen --screener tom --doc "$d" --false-positive duplicate; done
c -q corpus sample pilot --size 6 --seed 2
mapfile -t docs < <(grep -v '^#' "$cs/corpus/samples/pilot.txt")
for d in "${docs[@]}"; do c -q corpus label --coder ann --sample pilot --doc "$d" --node COM.1 --note "Margit says so"; done
for d in "${docs[@]}"; do c -q corpus label --coder bob --sample pilot --doc "$d" --node "$([[ $d == "${docs[1]}" ]] && echo COM.2 || echo COM.1)"; done
c -q corpus reconcile --sample pilot --decider dana --doc "${docs[1]}" --keep bob --note "Margit agreed"
c -q corpus labels export --sample pilot 2>/dev/null
c status >/dev/null 2>&1 || true
printf 'name\nMargit Holzer\nMargit\nann\n' >"$tmp/cnames.csv"
c package --names ../cnames.csv -o "$tmp/cpkg" >"$tmp/out" 2>"$tmp/err" || fail "corpus package: $(cat "$tmp/err")"
for f in corpus/manifest.json corpus/keywords.yaml corpus/atlas.jsonl corpus/borealis.jsonl corpus/retrieved.jsonl \
         corpus/screening/sam.csv corpus/samples/pilot.txt corpus/labels/pilot/bob.csv corpus/labels/pilot/decisions.csv codebooks/labels/pilot.csv \
         reports/latex/corpus.tex; do
  [[ -f $tmp/cpkg/$f ]] || fail "the package lacks $f: $(cd "$tmp/cpkg" && find corpus codebooks -type f | sort | tr '\n' ' ')"
done
# retrieve's hash cache (this machine's inode numbers) is the workspace's, not the package's
[[ -f $cs/corpus/.sha256-cache && ! -e $tmp/cpkg/corpus/.sha256-cache ]] || fail "the hash cache: $(ls -a "$cs/corpus" "$tmp/cpkg/corpus")"
grep -rqi "margit\|Label_ann" "$tmp/cpkg/corpus" "$tmp/cpkg/codebooks" "$tmp/cpkg/reports" && fail "a listed name survives: $(grep -rli "margit\|Label_ann" "$tmp/cpkg" | head -3)"
cmp -s "$cs/corpus/atlas.jsonl" "$tmp/cpkg/corpus/atlas.jsonl" && fail "the stored source was not pseudonymised"
c report -o "$tmp/crep" >/dev/null 2>&1 || fail "workspace report"
python3 - "$tmp/crep/report.json" "$tmp/cpkg/reports/report.json" "$tmp/cpkg" <<'PY' || fail "Table I or hashes in the package"
import json, sys, hashlib
ws, pk, root = (json.load(open(p)) for p in sys.argv[1:3]) , None, sys.argv[3]
ws, pk = ws
assert ws["corpus"] == pk["corpus"], (ws["corpus"], pk["corpus"])
# Every recorded hash is that of the package's own file.
man = json.load(open(f"{root}/corpus/manifest.json"))["sources"]
for s, e in man.items():
    assert e["sha256"] == hashlib.sha256(open(f"{root}/corpus/{s}.jsonl", "rb").read()).hexdigest(), s
first = json.loads(open(f"{root}/corpus/retrieved.jsonl").readline())["retrieval"]
assert first["sources"] == {s: e["sha256"] for s, e in man.items()}, first["sources"]
PY
# status in the package: every step as in the workspace (nothing made stale by the pseudonymisation).
states() { { "$QUALRANK" -C "$1" status --format json 2>/dev/null || true; } | python3 -c 'import json,sys; [print(s["step"], "=", s["state"]) for s in json.load(sys.stdin)["steps"] if s["step"] != "report"]'; }
[[ $(states "$tmp/cpkg") == "$(states "$cs")" ]] || fail "status in the package: $(diff <(states "$cs") <(states "$tmp/cpkg"))"
states "$tmp/cpkg" | grep_q stale && fail "stale in the package: $(states "$tmp/cpkg")"
[[ $(states "$tmp/cpkg" | grep -c "up to date") -ge 5 ]] || fail "too few steps up to date: $(states "$tmp/cpkg")"
(cd "$tmp/cpkg" && "$QUALRANK" package verify . >/dev/null 2>"$tmp/err") || fail "verify corpus package: $(cat "$tmp/err")"

# --- status knows the package: up to date after `qualrank package`, stale after an input changes -------------
pstate() { { "$QUALRANK" -C "$1" status --format json 2>/dev/null || true; } | python3 -c 'import json,sys; s=[x for x in json.load(sys.stdin)["steps"] if x["step"]=="package"]; print(s[0]["state"] + "|" + "|".join(s[0]["why"]) if s else "absent")'; }
[[ $(pstate "$ws") == absent ]] || fail "a package step without a package: $(pstate "$ws")"
q package --names ../names.csv >/dev/null 2>&1 || fail "package into package/"
[[ $(pstate "$ws") == "up to date|" ]] || fail "package step after packaging: $(pstate "$ws")"
python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["made_from"]; assert m["inputs"] == len(json.load(open(sys.argv[1]))["inputs"]) and len(m["sha256"]) == 64, m' "$ws/package/qualrank-package.json" ||
  fail "made_from: $(jq -c .made_from "$ws/package/qualrank-package.json")"
n=$(jq '.made_from.inputs' "$ws/package/qualrank-package.json")
printf '\n' >>"$ws/transcripts/E01.md"
[[ $(pstate "$ws") == "stale|the workspace's inputs changed since the package was made ($n input(s) then, $n now)" ]] || fail "package step after an edit: $(pstate "$ws")"
echo "ok: package_consistent"
