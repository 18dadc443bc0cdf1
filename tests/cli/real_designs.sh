#!/usr/bin/env bash
# The designs, names and texts real studies have (#38), each with its exact message or number: dates read
# strictly (a CSV with gh's own column names; non-ISO dates refused, located, or kept without a date with
# --lenient-dates); participants named like the statistics qualrank reports (Holm, Cohen, Chen, ...) are
# pseudonymised and the package is written, while a real leak of such a name is still caught.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$ws"
q() { "$QUALRANK" -C "$ws" "$@"; }
source "$(dirname "$0")/lib/expect.sh"  # expect_fail

# --- 5. Dates read strictly ----------------------------------------------------------------------------------
# pandas writes gh's createdAt as its column name; the dates are read, and the window places the issues.
printf 'number,url,title,createdAt\n1,https://example.org/a/b/issues/1,cache miss,2024-03-01T10:00:00Z\n2,https://example.org/a/b/issues/2,cache miss,2024-02-29 12:00:00+00:00\n3,https://example.org/a/b/issues/3,cache miss,2022-01-05\n' >"$tmp/gh.csv"
q -q corpus import "$tmp/gh.csv" --source a
python3 - "$ws/corpus/a.jsonl" <<'PY' || fail "createdAt not read"
import json, sys
got = [json.loads(l)["created"] for l in open(sys.argv[1])]
assert got == ["2024-03-01T10:00:00Z", "2024-02-29 12:00:00+00:00", "2022-01-05"], got
PY
printf 'sources: {}\n' >"$ws/corpus/keywords.yaml"
q -q corpus retrieve --from 2024-01 --to 2024-12
[[ $(grep -c '"doc"' "$ws/corpus/retrieved.jsonl") == 2 ]] || fail "the window: $(cat "$ws/corpus/retrieved.jsonl")"
# Anything but ISO 8601 is a located error; nothing written.
printf 'number,url,title,created_at\n4,https://example.org/a/b/issues/4,t,01/03/2024\n5,https://example.org/a/b/issues/5,t,2024-13-45T99:99:99Z\n6,https://example.org/a/b/issues/6,t,yesterday\n7,https://example.org/a/b/issues/7,t,March 2024\n8,https://example.org/a/b/issues/8,t,2024-02-30\n9,https://example.org/a/b/issues/9,t,2025-06-30T23:59:60.5-03:30\n' >"$tmp/bad.csv"
cp "$ws/corpus/a.jsonl" "$tmp/a.before"
q corpus import "$tmp/bad.csv" --source a 2>"$tmp/err" && fail "non-ISO dates accepted"
want="is not an ISO 8601 date (YYYY-MM-DD, or a date-time such as 2024-03-01T12:00:00Z); the window could not place the issue (--lenient-dates keeps it without a date, with a warning)"
cat >"$tmp/expected" <<X
$tmp/bad.csv:2:1: error: the created date '01/03/2024' $want
$tmp/bad.csv:3:1: error: the created date '2024-13-45T99:99:99Z' $want
$tmp/bad.csv:4:1: error: the created date 'yesterday' $want
$tmp/bad.csv:5:1: error: the created date 'March 2024' $want
$tmp/bad.csv:6:1: error: the created date '2024-02-30' $want
X
diff "$tmp/expected" "$tmp/err" || fail "date errors"
cmp -s "$tmp/a.before" "$ws/corpus/a.jsonl" || fail "a refused import changed the source"
# --lenient-dates: warnings, kept without a date; the valid leap second with a fraction and an offset is kept.
q corpus import "$tmp/bad.csv" --source a --lenient-dates >/dev/null 2>"$tmp/err" || fail "lenient: $(cat "$tmp/err")"
[[ $(grep -c "warning: the created date .* kept without a date (--lenient-dates); retrieval's window leaves it out" "$tmp/err") == 5 ]] || fail "lenient warnings: $(cat "$tmp/err")"
python3 - "$ws/corpus/a.jsonl" <<'PY' || fail "lenient dates stored"
import json, sys
got = {json.loads(l)["id"]: json.loads(l)["created"] for l in open(sys.argv[1])}
assert [got[str(k)] for k in range(4, 10)] == ["", "", "", "", "", "2025-06-30T23:59:60.5-03:30"], got
PY

# --- 4. Keywords next to text written without spaces (Chinese, Japanese, Korean, Thai) --------------------------
python3 - "$tmp/cjk.json" <<'PY'
import json, sys
titles = ["支持LLM推理加速", "LLM을 사용한 추론", "LLMを使った推論", "LLMs are big", "llm inference", "ÜberLLM x", "คำLLMไทย", "推理LLM"]
json.dump([{"number": k + 1, "url": "https://example.org/w/r/issues/%d" % (k + 1), "title": t, "body": "", "createdAt": "2024-01-01"}
           for k, t in enumerate(titles)], open(sys.argv[1], "w"), ensure_ascii=False)
PY
cj="$tmp/cj"; cp -r "$FIXTURES/fieldwork" "$cj"
"$QUALRANK" -C "$cj" -q corpus import "$tmp/cjk.json" --source w
printf 'sources:\n  w: [llm, {term: "推理", match: word}]\n' >"$cj/corpus/keywords.yaml"
"$QUALRANK" -C "$cj" -q corpus retrieve --any-date
got=$(python3 -c 'import json,sys; print(" ".join(json.loads(l)["doc"] + ":" + ",".join(sorted({m["term"] for m in json.loads(l)["matches"]})) for l in list(open(sys.argv[1]))[1:]))' "$cj/corpus/retrieved.jsonl")
[[ $got == "w#1:llm,推理 w#2:llm w#3:llm w#5:llm w#7:llm w#8:llm,推理" ]] || fail "CJK whole words: $got"

# --- 6. Stage one stands alone: init --stage-one, one's own taxonomy, every corpus command, report ----------------
st="$tmp/st"
"$QUALRANK" init "$st" --stage-one --taxonomy runtime 2>"$tmp/err" || fail "init --stage-one: $(cat "$tmp/err")"
[[ $(cd "$st" && find . -type f | sort | tr '\n' ' ') == "./NEXT-STEPS.md ./codebooks/runtime.yaml ./corpus/keywords.yaml " ]] || fail "init --stage-one files: $(cd "$st" && find . -type f)"
s() { "$QUALRANK" -C "$st" "$@"; }
cat >"$st/codebooks/runtime.yaml" <<'Y'
taxonomy: runtime
title: Issue kinds of a WebAssembly runtime
levels: [Kind, Subkind]
nodes:
  - id: PERF
    name: Performance
    children:
      - {id: PERF.1, name: Slow start}
  - id: CRASH
    name: Crashes
Y
s -q validate || fail "validate a stage-one study"
python3 "$(dirname "$0")/corpus_gen.py" "$tmp/stgen" --per-source 30 --seed 4 >/dev/null
s -q corpus import "$tmp/stgen/atlas.json" --source atlas
s -q corpus retrieve --any-date
s -q corpus sample main --size 4 --seed 1
mapfile -t sdocs < <(grep -v '^#' "$st/corpus/samples/main.txt")
for d in "${sdocs[@]}"; do s -q corpus label --coder ann --sample main --doc "$d" --node PERF.1; s -q corpus label --coder bob --sample main --doc "$d" --node "$([[ $d == "${sdocs[0]}" ]] && echo CRASH || echo PERF.1)"; done
s -q corpus reconcile --sample main --decider dana --doc "${sdocs[0]}" --keep bob
s -q corpus labels export --sample main 2>/dev/null
s corpus table --format json >"$tmp/st.json" || fail "corpus table in a stage-one study"
python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["total"]; assert t["units"] == 4 and t["groups"] == {"PERF": 3, "CRASH": 1} and t["open"] == 0, t' "$tmp/st.json" || fail "stage-one Table I: $(cat "$tmp/st.json")"
s -q report -o "$tmp/st-rep" 2>/dev/null || fail "report in a stage-one study"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["corpus"]["total"]["units"] == 4, r.get("corpus")' "$tmp/st-rep/report.json" || fail "the report's Table I"
# A transcript needs a guideline: said, located.
printf -- '---\nparticipant: P1\nrole: user\n---\nP1: hello\n' >"$st/transcripts/P1.md"
s validate 2>"$tmp/err" && fail "a transcript without a guideline validated"
grep -qxF "guidelines/: error: no guideline found (a .yaml file in guidelines/)" "$tmp/err" || fail "transcript without guideline: $(cat "$tmp/err")"

# --- 3. Canonical equivalence: a decomposed "Zoë" (e + U+0308) is "Zoë" in query and code add ------------------
nf="$tmp/nf"; cp -r "$FIXTURES/fieldwork" "$nf"
python3 - "$nf/transcripts/E02.md" <<'PY'
import sys
p = sys.argv[1]; s = open(p, encoding="utf-8").read()
s = s.replace("E02: Five of us, plus two contractors.", "E02: Five of us, plus Zoe\u0308 from the vendor and two contractors.")
s = s.replace("E02: The retro.", "E02: The retro with Zo\u00eb.")
open(p, "w", encoding="utf-8").write(s)
PY
n() { "$QUALRANK" -C "$nf" "$@"; }
ids() { n query "$@" --format json 2>/dev/null | python3 -c 'import json,sys; print(" ".join(sorted(s["id"] for s in json.load(sys.stdin)["segments"])))'; }
[[ $(ids --text 'Zoë' --fixed --all) == "E02#t2 E02#t4" ]] || fail "query --fixed Zoë: $(ids --text 'Zoë' --fixed --all)"
[[ $(ids --text "Zoe$(printf '\u0308')" --fixed --all) == "E02#t2 E02#t4" ]] || fail "query --fixed decomposed Zoë"
[[ $(ids --text 'zoë' --all) == "E02#t2 E02#t4" ]] || fail "query --text (regex) zoë: $(ids --text 'zoë' --all)"
[[ -z $(ids --text 'Zoe' --fixed --all) ]] || fail "Zoe matched the decomposed Zoë: $(ids --text 'Zoe' --fixed --all)"
n -q code add --transcript E02.md --turn 2 --span 'Zoë from the vendor' --node COM.1 || fail "code add --span with the other form"
grep -qF "plus [Zoe$(printf '\u0308') from the vendor]{COM.1} and" "$nf/transcripts/E02.md" || fail "the span not written as the text spells it: $(grep vendor "$nf/transcripts/E02.md")"
n -q validate || fail "validate after code add"

# --- 7. Warnings said once: routine ones summarised, important ones always; no name offered to the transcripts ---
wn="$tmp/wn"; cp -r "$FIXTURES/fieldwork" "$wn"
for f in "$wn"/transcripts/*.md; do printf '\n%s:\n' "$(basename "$f" .md)" >>"$f"; done   # 6 empty turns
w() { "$QUALRANK" -C "$wn" "$@"; }
w query --code COM >/dev/null 2>"$tmp/err" || fail "query with routine warnings"
[[ $(grep -c ': warning: empty participant turn$' "$tmp/err") == 5 ]] || fail "routine warnings shown: $(cat "$tmp/err")"
grep -qxF "qualrank: note: 1 more warning about the workspace not shown: 'qualrank validate' lists them all" "$tmp/err" || fail "summary: $(cat "$tmp/err")"
w -q query --code COM >/dev/null 2>"$tmp/err"; [[ ! -s $tmp/err ]] || fail "--quiet: $(cat "$tmp/err")"
w validate 2>&1 | grep -c ': warning: empty participant turn$' | grep_q -x 6 || fail "validate lists every warning"
# An important one stands out, with --quiet too: an open unit of a consensus.
cp "$FIXTURES"/team/transcripts/E01.frank.codes "$wn/transcripts/"
printf 's\ns\ns\ns\n' | w reconcile E01.md --date 2026-11-20 >/dev/null 2>&1 || true
w -q query --code COM >/dev/null 2>"$tmp/err"
grep -q "^transcripts/E01.consensus.codes:[0-9]*:1: warning: [0-9]* unit(s) still open" "$tmp/err" || fail "open units hidden by --quiet: $(cat "$tmp/err")"
# participants import never offers a name column as an attribute (it suggested --map "Name=date").
printf 'participant,Name,Team size\nE01,Jonas Becker,5\n' >"$tmp/people.csv"
w participants import "$tmp/people.csv" --id-column participant --dry-run >/dev/null 2>"$tmp/err" || true
grep -q "Name" "$tmp/err" && fail "a name column offered: $(grep Name "$tmp/err")"
grep -qF "column 'Team size' is ignored (did you mean 'team_size'?" "$tmp/err" || fail "near-miss column: $(cat "$tmp/err")"

# --- 2. Participants named like a statistic ---------------------------------------------------------------------
# Every surname qualrank's outputs write (methods, tests, citations) on the names list, on the bundled study
# (three ranking questions, agreement, saturation: every table that names them), with two of them in the
# study's own text: the package is written, the study's text pseudonymised, the tool's words kept.
: "${SOURCE_DIR:?}"
bs="$tmp/bs"; mkdir "$bs"; cp -r "$SOURCE_DIR"/{codebooks,guidelines,transcripts} "$bs/"
first=$(ls "$bs/transcripts/"*.md | head -1)
python3 - "$first" <<'PY'
import re, sys
p = sys.argv[1]; s = open(p, encoding="utf-8").read()
m = re.search(r"^([A-Z0-9]+): (.+)$", s[s.index("\n---", 3) + 4:], re.M)
turn = m.group(0)
s = s.replace(turn, turn + " My colleague Holm and Dr. Chen agreed.", 1)
open(p, "w", encoding="utf-8").write(s)
PY
grep -q "My colleague Holm and Dr. Chen agreed." "$first" || fail "test setup: Holm in a transcript"
printf 'name\nHolm\nCohen\nChen\nMann\nWhitney\nKendall\nWald\nCliff\nFleiss\nSpearman\nKrippendorff\nPlackett\nLuce\nCochran\nGuest\nNamey\nEfron\n' >"$tmp/stats.csv"
"$QUALRANK" -C "$bs" package --names "$tmp/stats.csv" -o "$tmp/bspkg" >"$tmp/out" 2>"$tmp/err" || fail "package with Holm and Chen listed: $(head -3 "$tmp/err")"
grep -q "My colleague Person-[0-9]* and Dr. Person-[0-9]* agreed." "$tmp/bspkg/transcripts/$(basename "$first")" || fail "the study's Holm and Chen not replaced"
grep -rqw "Holm\|Chen" "$tmp/bspkg/transcripts" "$tmp/bspkg/codebooks" "$tmp/bspkg/guidelines" && fail "a listed name survives in the inputs"
grep -qF "Holm p" "$tmp/bspkg/reports/rankings.md" || fail "the tool's 'Holm p' was changed"
grep -qF "Guest, Namey &amp; Chen (2020" "$tmp/bspkg/reports/index.html" && grep -qF "Guest, Namey \\& Chen 2020" "$tmp/bspkg/reports/latex/saturation.tex" || fail "the citation was changed"
# A real leak of a listed surname (split by coding markup, joined in the outputs) is still refused, located.
lk="$tmp/lk"; mkdir "$lk"; cp -r "$FIXTURES/fieldwork"/{codebooks,guidelines,transcripts} "$lk/"
sed -i 's/^C02: Chat and access\.$/C02: Chat and access, says [Ho]{TOOL.3}lm./' "$lk/transcripts/C02.md"
grep -qF '[Ho]{TOOL.3}lm' "$lk/transcripts/C02.md" || fail "test setup: split name"
"$QUALRANK" -C "$lk" package --names "$tmp/stats.csv" -o "$tmp/never" >/dev/null 2>"$tmp/err" && fail "a split Holm was published"
grep -q "^exports/.*: error: still holds the listed name 'Holm' (as 'Holm'" "$tmp/err" || fail "the split leak: $(head -3 "$tmp/err")"
[[ ! -e $tmp/never ]] || fail "a package was written"
echo "ok: real_designs"
