#!/usr/bin/env bash
# Trust round four (#37): the findings fixed so far, each with its exact message. No exit 3: a number too large
# for a double in an export is a located error (exit 1, nothing written); a confidence whose quantile rounds to 1
# and negative numbers given to unsigned options are usage errors (exit 2), never wrapped around.
# (Completion: completion_hostile.sh.)
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$ws"
q() { "$QUALRANK" -C "$ws" "$@"; }
source "$(dirname "$0")/lib/expect.sh"  # expect_fail

# 6. A number too large for a double, in a gh JSON array and in JSON Lines.
cat >"$tmp/big.json" <<'EOF'
[{"number": 1, "url": "https://example.org/a/b/issues/1", "title": "t", "body": "b", "createdAt": "2024-01-01T00:00:00Z",
  "reactions": 1e400}]
EOF
expect_fail 1 "$tmp/big.json:2:16: error: the number '1e400' is too large for a double" q corpus import "$tmp/big.json" --source a
printf '{"number": 1, "url": "https://example.org/a/b/issues/1", "title": "t"}\n{"number": 2, "title": "u", "x": -2e999}\n' >"$tmp/big.jsonl"
expect_fail 1 "$tmp/big.jsonl:2:34: error: the number '-2e999' is too large for a double" q corpus import "$tmp/big.jsonl" --source a
[[ ! -e "$ws/corpus/manifest.json" ]] || fail "a refused import wrote the manifest"

# A corpus to sample from.
printf '[{"number": 1, "url": "https://example.org/a/b/issues/1", "title": "t", "body": "b", "createdAt": "2024-01-01T00:00:00Z"}]\n' >"$tmp/one.json"
q -q corpus import "$tmp/one.json" --source a
printf 'sources: {}\n' >"$ws/corpus/keywords.yaml"
q -q corpus retrieve
expect_fail 2 "qualrank corpus sample: error: --confidence 0.9999999999999999 is too close to 1: its z is not finite" \
  q corpus sample s1 --confidence 0.9999999999999999
expect_fail 2 $'qualrank corpus sample: error: --seed takes a whole number from 0 up, not \'-1\'\n(see \'qualrank corpus sample --help\')' \
  q corpus sample s1 --seed -1
expect_fail 2 $'qualrank corpus sample: error: --size takes a whole number from 0 up, not \'-1\'\n(see \'qualrank corpus sample --help\')' \
  q corpus sample s1 --size=-1
expect_fail 2 $'qualrank rank: error: --seed takes a whole number from 0 up, not \'-5\'\n(see \'qualrank rank --help\')' \
  q rank --seed -5
[[ ! -e "$ws/corpus/samples/s1.txt" ]] || fail "a refused sample was written"
# 9. Minor ones: a number that is not whole is named; one url twice in an export is refused; coder names the
# tables reserve, and one that differs from a coder's only in case, are refused.
printf '[{"number": 1.5, "url": "https://example.org/a/b/issues/7", "title": "t"}]\n' >"$tmp/frac.json"
expect_fail 1 "$tmp/frac.json:1:2: error: \"number\" is 1.5, not a whole number or text" q corpus import "$tmp/frac.json" --source a
printf '[{"number": 2, "url": "https://example.org/a/b/issues/2", "title": "t"},\n {"number": 3, "url": "https://example.org/a/b/issues/2", "title": "u"}]\n' >"$tmp/twice.json"
expect_fail 1 "$tmp/twice.json:2:2: error: the same url as the document at 1:2 (id 2): https://example.org/a/b/issues/2" \
  q corpus import "$tmp/twice.json" --source a
q -q corpus sample s1 --size 1
for bad in Final_Label consensus CONSENSUS unit decisions; do
  expect_fail 2 "qualrank corpus label: error: --coder '$bad': a coder name has 1 to 64 characters: letters, digits, '.', '_' and '-', not first '.' or '-', and is not '$bad' (a name the files and tables reserve)" \
    q corpus label --coder "$bad" --sample s1 --doc a#1 --node COM.1
done
q -q corpus label --coder alice --sample s1 --doc a#1 --node COM.1
expect_fail 2 "qualrank corpus label: error: --coder 'ALICE': sample s1 has the coder 'alice' (corpus/labels/s1/alice.csv), a name that differs only in case: use 'alice'" \
  q corpus label --coder ALICE --sample s1 --doc a#1 --node COM.2
[[ $(ls "$ws/corpus/labels/s1") == alice.csv ]] || fail "a refused coder wrote: $(ls "$ws/corpus/labels/s1")"

# 9. A label table with one coder is never written (it would block validate and report); status says why.
expect_fail 1 "qualrank corpus labels export: error: only alice has labelled sample s1: a label table compares coders, so it needs two (label with a second coder: 'qualrank corpus label --coder NAME --sample s1'); nothing written" \
  q corpus labels export --sample s1
[[ ! -e $ws/codebooks/labels/s1.csv ]] || fail "a one-coder label table was written"
{ q status --format json || true; } | python3 -c '
import json, sys
steps = {s["step"]: s for s in json.load(sys.stdin)["steps"]}
assert steps["labels s1"]["why"] == ["only alice has labelled: agreement and the label table need a second coder"], steps["labels s1"]
assert steps["label table s1"]["next"] == "qualrank corpus label --coder NAME --sample s1", steps["label table s1"]' || fail "status with one coder"
q validate >/dev/null 2>&1 || fail "validate with one coder's labels"

# 9. A key written twice in an issue (or in any object of an export) is a located error; nothing imported.
printf '[{"number": 7, "url": "https://example.org/a/b/issues/7", "title": "t",\n  "number": 8}]\n' >"$tmp/dup.json"
expect_fail 1 "$tmp/dup.json:2:3: error: the key \"number\" is written twice in this object (first at line 1, column 3): readers disagree on which value counts; keep one" \
  q corpus import "$tmp/dup.json" --source b
printf '{"number": 9, "url": "https://example.org/a/b/issues/9", "labels": [{"name": "x", "n\\u0061me": "y"}]}\n' >"$tmp/dup.jsonl"
expect_fail 1 "$tmp/dup.jsonl:1:83: error: the key \"name\" is written twice in this object (first at line 1, column 70): readers disagree on which value counts; keep one" \
  q corpus import "$tmp/dup.jsonl" --source b
[[ ! -e $ws/corpus/b.jsonl ]] || fail "a refused import wrote"

# 9. A NUL byte quoted by a parser's message is written \x00, never passed to the terminal.
printf 'findings:\n  - id: F1\n    claim: "a\\\x00b"\n' >"$ws/findings.yaml"
out=$(q validate 2>&1 | tr '\0' '@' | grep -a '^findings.yaml' || true)
[[ $out == 'findings.yaml:3:16: error: YAML syntax error: unknown escape character: \x00' ]] || fail "NUL in findings.yaml: $out"
rm "$ws/findings.yaml"
echo "ok: trust_round4"
