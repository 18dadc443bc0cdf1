#!/usr/bin/env bash
# qualrank code: segments of the mini fixture in every format, and of the bundled study.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$QUALRANK" -C "$FIXTURES/mini" code --format csv >"$tmp/mini.csv"
# whole turn coded by alice (@code) and bob (standoff), span coded by both, keyword suggestions apart
grep -qF 'P1#t2,P1,user,II.1,"A.1,A.1.i","alice,bob",Install friction.,"A.1,A.1.i",transcripts/P1.md:21,' "$tmp/mini.csv" || fail "P1#t2 row: $(cat "$tmp/mini.csv")"
grep -qF 'P1#t2[49:61],P1,user,II.1,A.1.i,"alice,bob",pins,,transcripts/P1.md:21,CUDA version' "$tmp/mini.csv" || fail "span row"
# Unicode-aware keyword (straße in 'Straße') and case-insensitive 'OUT OF MEMORY'
grep -qF 'P1#t3,P1,user,II.1,"B.1,B.2","alice,bob",,"A.10,B.1"' "$tmp/mini.csv" || fail "suggestions row"
[[ $(wc -l <"$tmp/mini.csv") -eq 6 ]] || fail "expected 4 segments + header (+1 continued line) in mini csv"

"$QUALRANK" -C "$FIXTURES/mini" code --format table | tail -1 | grep_q -x '4 segments' || fail "table footer"
"$QUALRANK" -C "$FIXTURES/mini" code --all --format table | tail -1 | grep_q -x '7 segments' || fail "--all includes uncoded turns"

"$QUALRANK" -C "$SOURCE_DIR" code --format json >"$tmp/study.json"
# every one of the 19 participants has coded segments; every node id exists in the taxonomy
grep -o '"participant": "[UD][0-9]*"' "$tmp/study.json" | sort -u | wc -l | grep_q -x 19 || fail "19 participants"
ids=$(grep -o '"node": "[^"]*"' "$tmp/study.json" | sed 's/.*: "//; s/"$//' | sort -u)
for id in $ids; do grep -qE "^ *- id: $id\$|^ *id: $id\$" "$SOURCE_DIR"/codebooks/llm-frameworks.yaml || fail "unknown node $id"; done
# json is stable: two runs, same bytes
"$QUALRANK" -C "$SOURCE_DIR" code --format json | cmp -s - "$tmp/study.json" || fail "code --format json not reproducible"

"$QUALRANK" code --format xml >/dev/null 2>&1 && fail "bad --format accepted"
{ "$QUALRANK" cod 2>&1 || true; } | grep_q "did you mean .code." || fail "typo suggestion"
echo "code: ok"
