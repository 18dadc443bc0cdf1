#!/usr/bin/env bash
# corpus keywords import decodes a study's Python lists exactly as Python does (#37.8): every escape Python
# knows (\t \n \\ \' \" \a \b \f \v \r, octal, \x, \u, \U, \N{NAME} and its corrected names, a continued line), r and u
# prefixes, and a backslash Python keeps ('a\.b'). Each term is compared with Python's own ast.literal_eval of
# the same file (then trimmed of spaces, tabs and line breaks at its ends, the documented rule for terms).
# Malformed escapes are located errors, nothing written.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$ws"
q() { "$QUALRANK" -C "$ws" "$@"; }
cat >"$tmp/lists.py" <<'PYLIST'
# escapes as a study might write them
alpha_keywords = ['tab\there', 'caf\u00e9', 'na\xefve', 'a\.b', "quote\'s", 'back\\slash', r'raw\n\.x', R"raw\"q", u'uni\u00e9',
                  'oct\101\0\7', '\N{LATIN SMALL LETTER E WITH ACUTE}t\N{EM DASH}', '\U0001F600 smile', 'nl\nline', 'bell\a\b\f\v\r',
                  'long\
continued', 'd\d', "dq\"x", '\x41\x42', 'emoji \N{grinning face}', 'mixed \\n and \n', 'o\777']
beta_keywords = ["GPU", 'c++', 'half\u00BDway', r'\\', 'end\\']
PYLIST
q -q corpus keywords import "$tmp/lists.py" -o "$tmp/out.yaml"
python3 - "$tmp/lists.py" "$tmp/out.yaml" <<'PY' || fail "terms differ from Python's"
import ast, sys, yaml
tree = ast.parse(open(sys.argv[1]).read())
want = {n.targets[0].id[:-len("_keywords")]: [ast.literal_eval(e).strip(" \t\r\n") for e in n.value.elts]
        for n in tree.body if isinstance(n, ast.Assign)}
got = {k: [t if isinstance(t, str) else t["term"] for t in v] for k, v in yaml.safe_load(open(sys.argv[2]))["sources"].items()}
assert got == want, [(a, b) for k in want for a, b in zip(want[k], got.get(k, [])) if a != b] or (got, want)
assert sum(map(len, want.values())) == 26
PY
# Malformed escapes: located at the backslash, nothing written.
bad() {  # WANT LIST_LINE
  printf '%s\n' "$2" >"$tmp/bad.py"
  local rc=0 got
  got=$(q corpus keywords import "$tmp/bad.py" -o "$tmp/bad.yaml" 2>&1 >/dev/null) || rc=$?
  [[ $rc == 1 && $got == "$1" && ! -e "$tmp/bad.yaml" ]] || fail "[$2]: exit $rc, [$got], want [$1]"
}
bad "$tmp/bad.py:1:13: error: a truncated \\xXX escape" "a = ['ok', '\\x4']"
bad "$tmp/bad.py:1:8: error: a truncated \\uXXXX escape" "a = ['x\\u12']"
bad "$tmp/bad.py:1:7: error: a surrogate code point, which UTF-8 cannot hold" "a = ['\\ud800']"
bad "$tmp/bad.py:1:7: error: an escape beyond the last code point U+10FFFF" "a = ['\\U00110000']"
bad "$tmp/bad.py:1:7: error: an unknown character name 'NO SUCH THING' (Unicode's names and their corrections are read)" "a = ['\\N{NO SUCH THING}']"
# Python also reads the other aliases of NameAliases.txt; here they are an error, never another text.
bad "$tmp/bad.py:1:7: error: an unknown character name 'BYTE ORDER MARK' (Unicode's names and their corrections are read)" "a = ['\\N{BYTE ORDER MARK}']"
bad "$tmp/bad.py:1:6: error: a string prefix 'b' (only r and u are read: a list of text)" "a = [b'x']"
echo "ok: keywords_escapes"
