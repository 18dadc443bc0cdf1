#!/usr/bin/env bash
# Frictions a newcomer met in stage one (#42.4): an input file named from a subfolder (as the shell completes it)
# is found there; a missing one says where it was looked for; a name both folders hold is refused, naming both;
# a CSV's errors come in line order (the checks run in several passes); corpus import takes the same rule.
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$(dirname "$0")/lib/expect.sh"  # expect_fail
# qualrank run from the subfolder incoming/ of the workspace, as a researcher in that folder would
from_incoming() { (cd "$ws/incoming" && "$QUALRANK" "$@"); }
"$QUALRANK" init "$tmp/ws" --stage-one >/dev/null 2>&1 || fail "init --stage-one"
ws=$tmp/ws
/usr/bin/python3 "$SOURCE_DIR/tests/cli/corpus_gen.py" "$tmp/gen" --per-source 20 >/dev/null
mkdir -p "$ws/incoming"
cp "$tmp/gen/atlas.json" "$ws/incoming/atlas.json"
# corpus import from a subfolder, the file named as the shell completes it there
from_incoming -q corpus import atlas.json --source atlas || fail "corpus import from a subfolder"
printf 'sources:\n  atlas: [cache miss, deadlock]\n' >"$ws/corpus/keywords.yaml"
"$QUALRANK" -C "$ws" -q corpus retrieve || fail "retrieve"
first=$(sed -n 2p "$ws/corpus/retrieved.jsonl" | jq -r .doc)
# --from-csv from the subfolder: found there; its errors in line order, all of them, nothing recorded
printf 'doc,decision,reason,note\natlas#999,relevant,,\n%s,false-positive,dupliate,\n%s,maybe,,\n' "$first" "$first" >"$ws/incoming/ann.csv"
expect_fail 1 "ann.csv:2:1: error: 'atlas#999' is not a retrieved document (corpus/retrieved.jsonl)
ann.csv:3:1: error: unknown reason 'dupliate'; did you mean 'duplicate'? (reasons: not-about-topic, keyword-in-code-only, duplicate)
ann.csv:4:1: error: decision is 'relevant' or 'false-positive', not 'maybe'" from_incoming corpus screen --screener sam --from-csv ann.csv
[[ ! -e "$ws/corpus/screening/sam.csv" ]] || fail "a refused CSV recorded decisions"
printf 'doc,decision,reason,note\n%s,false-positive,duplicate,\n' "$first" >"$ws/incoming/ann.csv"
from_incoming -q corpus screen --screener sam --from-csv ann.csv || fail "good CSV from the subfolder"
grep -qF "$first,false-positive,duplicate," "$ws/corpus/screening/sam.csv" || fail "decision not recorded"
# a missing file: where it was looked for
expect_fail 1 "nothere.csv: error: cannot read the file: no such file: looked in the workspace ($ws/nothere.csv) and in the current folder ($ws/incoming/nothere.csv)" \
  from_incoming corpus screen --screener sam --from-csv nothere.csv
# the same name in both folders, different files: refused, naming both
printf 'doc,decision,reason,note\n' >"$ws/ann.csv"
expect_fail 1 "ann.csv: error: cannot read the file: both $ws/ann.csv (from the workspace) and $ws/incoming/ann.csv (from the current folder) exist; give the one meant with its full path" \
  from_incoming corpus screen --screener sam --from-csv ann.csv
# from the workspace itself, the workspace's file (one file, no question)
(cd "$ws" && "$QUALRANK" -q corpus screen --screener tom --from-csv ann.csv) || fail "the workspace's own file"
# The other input files given on the command line follow the same rule: corpus retrieve --keywords ...
printf 'sources:\n  atlas: [deadlock]\n' >"$ws/incoming/kw.yaml"
from_incoming -q corpus retrieve --keywords kw.yaml 2>/dev/null || fail "retrieve --keywords from the subfolder"
head -1 "$ws/corpus/retrieved.jsonl" | jq -e '.retrieval.keywords | map(.file) == ["incoming/kw.yaml"]' >/dev/null || fail "retrieve: keyword file recorded: $(head -1 "$ws/corpus/retrieved.jsonl")"
expect_fail 1 "nokw.yaml: error: no such file: looked in the workspace ($ws/nokw.yaml) and in the current folder ($ws/incoming/nokw.yaml)" \
  from_incoming corpus retrieve --keywords nokw.yaml
# ... package --names (a names list in the subfolder)
printf 'name,pseudonym\nsam,S1\n' >"$ws/incoming/names.csv"
expect_fail 1 "nonames.csv: error: no such file: looked in the workspace ($ws/nonames.csv) and in the current folder ($ws/incoming/nonames.csv)" \
  from_incoming package -o "$tmp/pkg" --names nonames.csv
[[ ! -e $tmp/pkg ]] || fail "package written without its names list"
echo "ok: stage-one frictions"
