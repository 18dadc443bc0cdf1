#!/usr/bin/env bash
# Text typed with decomposed accents (NFD: "Zoe" + U+0308) matches text written precomposed (NFC: "Zoë") and
# the reverse (#38.3) in the corpus: `corpus retrieve` keywords (an NFC and an NFD 'café' each retrieve the
# NFC and the NFD documents; 'cafe' is not found in "cafe" + U+0301; whole word and `match: substring` as
# before), and the labeller's search ('/Zoë' finds a body written "Zoe" + U+0308 and marks it, an NFD query
# finds NFC text, case-insensitively beyond ASCII), driven in tmux (80x24).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
export LANG=C.UTF-8 LC_ALL=C.UTF-8
command -v tmux >/dev/null || { echo "skip: no tmux"; exit 77; }
tmp=$(mktemp -d)
source "$(dirname "${BASH_SOURCE[0]}")/lib/tmux.sh"  # fail, screen, wait_for, keys
ws="$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$ws"
q() { "$QUALRANK" -C "$ws" "$@"; }

/usr/bin/python3 - "$tmp/atlas.json" <<'PY'
import json, sys
def issue(n, title, body):
    return {"number": n, "url": "https://example.org/atlas/issues/%d" % n, "title": title, "body": body,
            "createdAt": "2024-02-1%dT08:00:00Z" % n, "labels": [], "comments": []}
json.dump([issue(1, "Plain thread", "nothing to see"),
           issue(2, "Composed note", "we met at the caf\u00e9 on Monday"),               # NFC
           issue(3, "Decomposed thread", "we met Zoe\u0308 at the cafe\u0301 today"),   # NFD
           issue(4, "Plain cafe", "the cafe is open"),
           issue(5, "Plural", "two cafe\u0301s nearby"),                                  # NFD, inside a word
           issue(6, "Composed thread", "Chlo\u00e9 wrote it")],                          # NFC
          open(sys.argv[1], "w"), ensure_ascii=False)
PY
q -q corpus import "$tmp/atlas.json" --source atlas

nfc=$'caf\xc3\xa9' nfd=$'cafe\xcc\x81'  # café composed (U+00E9) and decomposed (e + U+0301)
[[ $(printf %s "$nfc" | od -An -tx1 | tr -d ' \n') == 636166c3a9 ]] || fail "the NFC keyword's bytes"
retrieved() {  # the ids retrieved with keyword file $1, space-separated
  q -q corpus retrieve --keywords "$1" || fail "retrieve with $1"
  /usr/bin/python3 -c 'import json,sys; print(" ".join(d["doc"] for d in map(json.loads, open(sys.argv[1])) if "doc" in d))' "$ws/corpus/retrieved.jsonl"
}
printf 'sources:\n  atlas: ["%s"]\n' "$nfc" >"$tmp/nfc.yaml"
printf 'sources:\n  atlas: ["%s"]\n' "$nfd" >"$tmp/nfd.yaml"
printf 'sources:\n  atlas: [{term: "%s", match: substring}]\n' "$nfc" >"$tmp/nfc_sub.yaml"
printf 'sources:\n  atlas: [{term: "%s", match: substring}]\n' "$nfd" >"$tmp/nfd_sub.yaml"
printf 'sources:\n  atlas: [cafe]\n' >"$tmp/plain.yaml"
got=$(retrieved "$tmp/nfc.yaml"); [[ $got == "atlas#2 atlas#3" ]] || fail "NFC keyword: $got"
got=$(retrieved "$tmp/nfd.yaml"); [[ $got == "atlas#2 atlas#3" ]] || fail "NFD keyword: $got"
got=$(retrieved "$tmp/nfc_sub.yaml"); [[ $got == "atlas#2 atlas#3 atlas#5" ]] || fail "NFC keyword, substring: $got"
got=$(retrieved "$tmp/nfd_sub.yaml"); [[ $got == "atlas#2 atlas#3 atlas#5" ]] || fail "NFD keyword, substring: $got"
got=$(retrieved "$tmp/plain.yaml"); [[ $got == "atlas#4" ]] || fail "'cafe' is not the start of 'cafe' + U+0301: $got"
# Where it matched: the byte offset in the body as stored (an NFD body: after "Zoe" + U+0308, 3 bytes).
q -q corpus retrieve --keywords "$tmp/nfc.yaml"
/usr/bin/python3 - "$ws/corpus/retrieved.jsonl" <<'PY' || fail "the match's place: $(cat "$ws/corpus/retrieved.jsonl")"
import json, sys
lines = {d["doc"]: d for d in map(json.loads, open(sys.argv[1])) if "doc" in d}
m = lines["atlas#3"]["matches"]
body = "we met Zoe\u0308 at the cafe\u0301 today"
assert len(m) == 1 and m[0]["in"] == "body" and m[0]["count"] == 1, m
assert m[0]["at"] == len(body[:body.index("cafe")].encode()), m  # bytes of the body as stored
PY

# The labeller: the documents with 'thread' in their title (atlas#1, #3, #6).
printf 'sources:\n  atlas: [thread]\n' >"$ws/corpus/keywords.yaml"
q -q corpus retrieve
q -q corpus sample pilot --size 3 --seed 1
tmux -L "$sock" -u new-session -d -s qr -x 80 -y 24 "'$QUALRANK' -C '$ws' corpus label --coder eve --sample pilot; sleep 60"
wait_for "0 of 3 labelled"
marked() {  # the screen with its attributes: exactly $1 drawn in bold reverse video, then $2 drawn plain
  tmux -L "$sock" capture-pane -p -e -t qr | grep_q -E $'\e\\[([0-9;]*;)?1;7m'"$1"$'\e\\[0m(\e\\[[0-9;]*m)*'"$2"
}
zoe_nfd=$'Zoe\xcc\x88'
keys /; wait_for "search: _"
keys -l "Zoë"; keys Enter; wait_for "found 'Zoë' in atlas#3"
[[ $(screen) == *"we met $zoe_nfd at the"* ]] || fail "the NFD body is not shown"
marked "$zoe_nfd" " at the" || fail "the match is not marked: $(tmux -L "$sock" capture-pane -p -e -t qr | grep -a 'we met' | od -c | head -5)"
# An NFD query finds NFC text, and marks it.
keys /; wait_for "search: _"
keys -l $'Chloe\xcc\x81'; keys Enter; wait_for "in atlas#6"
marked $'Chlo\xc3\xa9' " wrote" || fail "the NFC match of an NFD query is not marked"
# Case-insensitive beyond ASCII (ZOË finds Zoe + U+0308); 'Zoe' is not the start of "Zoe" + U+0308.
keys Home; wait_for "[1/3]"
keys /; wait_for "search: _"
keys -l "ZOË"; keys Enter; wait_for "in atlas#3"
marked "$zoe_nfd" " at the" || fail "ZOË is not marked"
keys /; wait_for "search: _"
keys -l "Zoe"; keys Enter; wait_for "'Zoe' is in no document of the sample"
keys q; sleep 0.3
echo "ok: NFC matching in corpus retrieve and the labeller"
