#!/usr/bin/env bash
# qualrank suggest: code suggestions for uncoded turns and their cross-validation, on the suggest fixture
# (nurse and carer roles), the mini fixture and the bundled study.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
q() { "$QUALRANK" "$@"; }
# expect CODE CMD...: runs CMD, checks its exit code, keeps stderr in $tmp/err
expect() { local want=$1; shift; local rc=0; "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?; [[ $rc -eq $want ]] || fail "exit $rc, not $want: $* ($(cat "$tmp/err"))"; }

# Checks the public JSON shape of `suggest --format json` and the --top bound ($2).
check_suggestions() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1])); top = int(sys.argv[2])
assert list(d) == ["suggestions", "trained_on"], list(d)
t = d["trained_on"]
assert list(t) == ["segments", "coded_segments"] and 0 < t["segments"] <= t["coded_segments"], t
for s in d["suggestions"]:
    assert list(s) == ["segment", "participant", "source", "codes", "keyword"], list(s)
    assert list(s["source"]) == ["file", "line"] and s["source"]["line"] > 0, s
    assert s["segment"].startswith(s["participant"] + "#t"), s
    assert len(s["codes"]) <= top, s
    conf = [c["confidence"] for c in s["codes"]]
    assert all(list(c) == ["node", "confidence"] for c in s["codes"]), s
    assert all(0 <= x <= 1 for x in conf) and conf == sorted(conf, reverse=True), s
    assert all(isinstance(k, str) for k in s["keyword"]), s
EOF
}

# Checks the JSON shape of `suggest --evaluate --format json`: $2 folds, $3 seed.
check_evaluation() {
  python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ["folds", "seed", "codes", "micro", "macro"]: assert k in d, k
assert d["folds"] == int(sys.argv[2]) and d["seed"] == int(sys.argv[3]), (d["folds"], d["seed"])
assert d["codes"], "no code scored"
for code, c in d["codes"].items():
    assert list(c)[:4] == ["support", "precision", "recall", "f1"], list(c)
    assert c["support"] >= d["min_support"], (code, c)
    assert c["true_positives"] + c["false_negatives"] == c["support"], (code, c)
    assert all(0 <= c[k] <= 1 for k in ["precision", "recall", "f1"]), (code, c)
for avg in ["micro", "macro"]:
    assert list(d[avg]) == ["precision", "recall", "f1"] and all(0 <= v <= 1 for v in d[avg].values()), d[avg]
tp = sum(c["true_positives"] for c in d["codes"].values()); fp = sum(c["false_positives"] for c in d["codes"].values())
assert abs(d["micro"]["precision"] - (tp / (tp + fp) if tp + fp else 0)) < 1e-3, d["micro"]
assert all(n < d["min_support"] for n in d["too_rare"].values()), d["too_rare"]
EOF
}

fx="$FIXTURES/suggest"
# --- the suggest fixture: 5 participants (nurses, carers), 15 coded segments, 5 uncoded open turns
q -C "$fx" suggest --format json >"$tmp/fx.json"
check_suggestions "$tmp/fx.json" 3 || fail "fixture suggestion shape"
python3 - "$tmp/fx.json" <<'EOF' || fail "fixture suggestions"
import json, sys
s = {x["segment"]: x for x in json.load(open(sys.argv[1]))["suggestions"]}
assert sorted(s) == ["C1#t4", "C2#t3", "N1#t5", "N2#t5", "N3#t3"], sorted(s)
assert s["N2#t5"]["codes"][0]["node"] == "S.1", s["N2#t5"]       # family helps -> Family help
assert s["C2#t3"]["codes"][0]["node"] == "S.2", s["C2#t3"]       # physiotherapist, social worker
assert s["C1#t4"]["codes"][0]["node"] == "B.1", s["C1#t4"]       # no time, rush
assert s["C1#t4"]["keyword"] == ["B.1"] and s["N1#t5"]["keyword"] == [], s
assert s["C1#t4"]["source"] == {"file": "transcripts/C1.md", "line": 19}, s["C1#t4"]
assert all(len(x["codes"]) == 3 for x in s.values())
EOF
q -C "$fx" suggest >"$tmp/fx.txt"
grep -qE '^transcripts/C1\.md:19  C1  C1#t4$' "$tmp/fx.txt" || fail "table turn header: $(cat "$tmp/fx.txt")"
grep -qE '^ +keyword  B\.1  Time pressure$' "$tmp/fx.txt" || fail "table keyword line"
grep -qE '^ +0\.[0-9][0-9]  S\.1  Family help$' "$tmp/fx.txt" || fail "table code line"
grep -q '^5 uncoded turns\. Learned 5 codes from 15 coded segments' "$tmp/fx.txt" || fail "table footer"

# --top and --transcript
q -C "$fx" suggest --top 1 --format json >"$tmp/top1.json"
check_suggestions "$tmp/top1.json" 1 || fail "--top 1"
python3 -c 'import json,sys; assert all(len(s["codes"]) == 1 for s in json.load(open(sys.argv[1]))["suggestions"])' "$tmp/top1.json" || fail "--top 1 gives one code"
for t in transcripts/N2.md N2.md "$fx/transcripts/N2.md"; do
  q -C "$fx" suggest --transcript "$t" --format json >"$tmp/n2.json"
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["suggestions"]; assert [x["segment"] for x in s] == ["N2#t5"], s' "$tmp/n2.json" || fail "--transcript $t"
done
expect 2 q -C "$fx" suggest --transcript nobody.md
grep -q "no transcript 'nobody.md'" "$tmp/err" || fail "unknown transcript message"

# --evaluate: 5 participants; the same bytes twice; another seed assigns other folds
q -C "$fx" suggest --evaluate --format json >"$tmp/ev1.json"
q -C "$fx" suggest --evaluate --format json >"$tmp/ev2.json"
cmp -s "$tmp/ev1.json" "$tmp/ev2.json" || fail "--evaluate not reproducible"
check_evaluation "$tmp/ev1.json" 5 20250101 || fail "evaluation shape"
q -C "$fx" suggest --evaluate --folds 2 --seed 7 --format json >"$tmp/ev3.json"
check_evaluation "$tmp/ev3.json" 2 7 || fail "evaluation shape, 2 folds"
expect 1 q -C "$fx" suggest --evaluate --folds 6
grep -q "5 participants have coded segments, fewer than the 6 folds; use --folds 5 or fewer" "$tmp/err" || fail "folds > participants message: $(cat "$tmp/err")"
[[ ! -s "$tmp/out" ]] || fail "output despite the error"
q -C "$fx" suggest --evaluate >"$tmp/ev.txt"
grep -q '^5-fold cross-validation by participant (seed 20250101): 5 participants, 15 coded segments\.$' "$tmp/ev.txt" || fail "table title: $(cat "$tmp/ev.txt")"
grep -qE '^S\.1 +[0-9]+ +[01]\.[0-9][0-9] +[01]\.[0-9][0-9] +[01]\.[0-9][0-9]  Family help$' "$tmp/ev.txt" || fail "table row"
grep -qE '^micro +[01]\.[0-9][0-9]' "$tmp/ev.txt" || fail "micro row"

# --- usage errors exit 2, input errors 1
expect 2 q -C "$fx" suggest --format xml
expect 2 q -C "$fx" suggest --top 0
expect 2 q -C "$fx" suggest --folds 3
expect 2 q -C "$fx" suggest --evaluate --top 2
expect 2 q -C "$fx" suggest --evaluate --transcript N1.md
expect 2 q -C "$fx" suggest --evaluate --folds 1
expect 2 q -C "$fx" suggest --min-support 0
expect 1 q -C "$fx" suggest --at 99
expect 1 q -C "$fx" suggest --evaluate --min-support 4
grep -q "no code has 4 or more coded segments: nothing to evaluate" "$tmp/err" || fail "nothing to evaluate message"
# nothing learnable: a warning, and only the keyword suggestions
expect 0 q -C "$fx" suggest --min-support 4 --format json
grep -q "warning: no code has 4 or more coded segments yet" "$tmp/err" || fail "nothing learnable warning"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["suggestions"]; assert len(s) == 5 and all(x["codes"] == [] for x in s) and any(x["keyword"] for x in s), s' "$tmp/out" || fail "keyword suggestions only"
# a bounded training set (--max-training): trained on a sample of 10 of the 15 coded segments, said so
expect 0 q -C "$fx" suggest --max-training 10 --format json
python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["trained_on"]; assert t == {"segments": 10, "coded_segments": 15}, t' "$tmp/out" || fail "--max-training json"
python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["trained_on"]; assert t == {"segments": 15, "coded_segments": 15}, t' "$tmp/fx.json" || fail "trained on all 15"
expect 0 q -C "$fx" suggest --max-training 10
grep_q -F 'Learned 5 codes from 10 coded segments (a sample of the 15 there are: training is bounded; docs/suggest.md)' <"$tmp/out" || fail "--max-training footer"
expect 2 q -C "$fx" suggest --max-training -1
expect 0 q suggest --help
grep_q -F -- "--max-training" <"$tmp/out" || fail "--help names --max-training"
grep -q -- "--min-support" "$tmp/out" && grep -q "never suggested" "$tmp/out" || fail "--help"
q help | grep_q -E '^  suggest +propose codes' || fail "help lists suggest"

# nothing coded yet: no evaluation (exit 1), every open turn listed with its keyword suggestions
cp -r "$fx" "$tmp/uncoded" && sed -i '/^@code/d' "$tmp/uncoded"/transcripts/*.md
expect 1 q -C "$tmp/uncoded" suggest --evaluate
grep -q "needs coded segments from at least 2 participants (0 so far)" "$tmp/err" || fail "no coded segments message"
expect 0 q -C "$tmp/uncoded" suggest --format json
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["suggestions"]; assert len(s) == 20 and all(x["codes"] == [] for x in s), len(s)' "$tmp/out" || fail "nothing coded: 20 open turns"

# --- mini: 2 participants; turns answering background and ranking questions only with --all
expect 1 q -C "$FIXTURES/mini" suggest --evaluate
grep -q "2 participants have coded segments, fewer than the 5 folds; use --folds 2 or fewer" "$tmp/err" || fail "mini folds message"
q -C "$FIXTURES/mini" suggest --evaluate --folds 2 --format json >"$tmp/mini-ev.json"
check_evaluation "$tmp/mini-ev.json" 2 20250101 || fail "mini evaluation"
q -C "$FIXTURES/mini" suggest --format json >"$tmp/mini.json"
python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); assert d["suggestions"] == [] and d["trained_on"]["segments"] == d["trained_on"]["coded_segments"] > 0, d' "$tmp/mini.json" || fail "mini: no open uncoded turn"
q -C "$FIXTURES/mini" suggest --all --format json >"$tmp/mini-all.json"
check_suggestions "$tmp/mini-all.json" 3 || fail "mini --all shape"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["suggestions"]; assert [x["segment"] for x in s] == ["P1#t1", "P1#t4", "P2#t2"], s' "$tmp/mini-all.json" || fail "mini --all turns"

# --- the bundled study
q -C "$SOURCE_DIR" suggest --evaluate --format json >"$tmp/study1.json"
q -C "$SOURCE_DIR" suggest --evaluate --format json >"$tmp/study2.json"
cmp -s "$tmp/study1.json" "$tmp/study2.json" || fail "study --evaluate not reproducible"
check_evaluation "$tmp/study1.json" 5 20250101 || fail "study evaluation shape"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["participants"] == 19 and d["micro"]["f1"] > d["chance"]["micro_f1"], d["micro"]' "$tmp/study1.json" || fail "study: 19 participants, better than chance"
q -C "$SOURCE_DIR" suggest --all --top 2 --format json >"$tmp/study-all.json"
check_suggestions "$tmp/study-all.json" 2 || fail "study --all shape"
q -C "$SOURCE_DIR" suggest --all --transcript transcripts/U03.md --format json >"$tmp/u03.json"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["suggestions"]; assert s and all(x["source"]["file"] == "transcripts/U03.md" for x in s), s' "$tmp/u03.json" || fail "study --transcript"

# --- no word of the bundled study in the suggester's code or output text
if grep -niE 'issue type|framework context|llm|sub-theme|types/themes' "$SOURCE_DIR"/src/analysis/suggest/suggest*.cpp \
    "$SOURCE_DIR"/include/qualrank/analysis/suggest/suggest.h "$SOURCE_DIR"/src/report/outputs/suggest_output.cpp \
    "$SOURCE_DIR"/include/qualrank/report/outputs/suggest_output.h "$SOURCE_DIR"/src/cli/cmd_suggest.cpp; then
  fail "study-specific words in the suggester"
fi
echo "suggest: ok"
