#!/usr/bin/env bash
# The terminal labeller shows what is there (#37.4), driven in tmux (80x24) on a small imported corpus: a tab
# in a body is laid out to the next multiple of 8 columns (`col1    col2`) and an ESC shows as "^["; a label
# recorded by command while the labeller is open shows after the next key, "next unlabelled" skips it and a
# label made in the labeller does not silently replace one made elsewhere since; the search prompt starts
# empty (a second search finds its own word, not the two typed together), n and '.' repeat it, N backward,
# and the view scrolls to the first occurrence with the position on the status line; g goes to a document
# by its position or id. The keys are annotate's where they mean the same (docs/keys.md).
set -euo pipefail
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
long = "\n".join("line %d of the thread" % k + (" where the tokenizer breaks" if k == 40 else "") for k in range(1, 61))
json.dump([issue(1, "Tabbed thread", "col1\tcol2\tcol3\n\tindented\nan \x1b[2J escape"),
           issue(2, "Cuda thread", "the cuda kernel fails"),
           issue(3, "Long thread", long)], open(sys.argv[1], "w"))
PY
q -q corpus import "$tmp/atlas.json" --source atlas
printf 'sources:\n  atlas: [thread]\n' >"$ws/corpus/keywords.yaml"
q -q corpus retrieve
q -q corpus sample pilot --size 3 --seed 1

tmux -L "$sock" -u new-session -d -s qr -x 80 -y 24 "'$QUALRANK' -C '$ws' corpus label --coder eve --sample pilot; sleep 60"
wait_for "0 of 3 labelled"
expected="corpus label  eve  sample pilot  [1/3]  0 of 3 labelled
atlas#1  Tabbed thread
https://example.org/atlas/issues/1  2024-02-11
label: (none)
matched: thread

col1    col2    col3
        indented
an ^[[2J escape"
[[ $(screen | head -9) == "$expected" ]] || fail "the tabbed document: $(screen | head -9 | cat -A)"
[[ $(screen | sed -n 23p) == "$(printf '%-69s%s' "c label  A add  x clear  u undo  U unlabelled  ]/[ next/prev" "all 8 lines")" ]] || fail "status line: $(screen | sed -n 23p)"

# Recorded by command while the labeller shows atlas#1: shown after the next key (], then [ back).
q -q corpus label --coder eve --sample pilot --doc atlas#1 --node COM.2
keys ']'; wait_for "[2/3]"
keys '['; wait_for "[1/3]"
[[ $(screen | sed -n 1p) == "corpus label  eve  sample pilot  [1/3]  1 of 3 labelled" ]] || fail "progress: $(screen | head -1)"
[[ $(screen | sed -n 4p) == "label: COM.2 Meetings" ]] || fail "the label recorded by command: $(screen | sed -n 4p)"
# Next unlabelled skips atlas#2 once it is labelled by command: from atlas#1 to atlas#3.
q -q corpus label --coder eve --sample pilot --doc atlas#2 --node TOOL.1
keys U; wait_for "[3/3]"
[[ $(screen | sed -n 1p) == "corpus label  eve  sample pilot  [3/3]  2 of 3 labelled" ]] || fail "next unlabelled: $(screen | head -1)"
# atlas#3 labelled by command while it is shown: labelling it here says so and keeps the other label; the
# second time replaces it.
q -q corpus label --coder eve --sample pilot --doc atlas#3 --node WELL.1
stamp=$(sha256sum "$ws/corpus/samples/pilot.txt" | cut -c1-16)  # each label records the draw it was made on
keys c; wait_for "filter (id, name or alias)"
keys COM.1 Enter; wait_for "labelled elsewhere since"
[[ $(screen | tail -1) == "atlas#3: labelled elsewhere since: WELL.1; press c again to replace it" ]] || fail "message: $(screen | tail -1)"
[[ $(screen | sed -n 4p) == "label: WELL.1 Isolation" ]] || fail "the label made elsewhere: $(screen | sed -n 4p)"
grep -qxF "atlas#3,WELL.1,,$stamp" "$ws/corpus/labels/pilot/eve.csv" || fail "replaced: $(cat "$ws/corpus/labels/pilot/eve.csv")"
keys Enter; wait_for "filter (id, name or alias)"
keys COM.1 Enter; wait_for "atlas#3: COM.1"
grep -qxF "atlas#3,COM.1,,$stamp" "$ws/corpus/labels/pilot/eve.csv" || fail "not replaced the second time: $(cat "$ws/corpus/labels/pilot/eve.csv")"

# g goes to a document by its position or id; Home to the first.
keys g; wait_for "go to document (1-3 or SOURCE#ID): _"
keys 2 Enter; wait_for "at atlas#2 [2/3]"
keys g; wait_for "go to document"; keys -l atlas#3; keys Enter; wait_for "at atlas#3 [3/3]"
# Search: /cuda, then /tokenizer (the prompt starts empty); the view at the first occurrence.
keys Home; wait_for "[1/3]"
keys /; wait_for "search: _"
keys cuda Enter; wait_for "found 'cuda' in atlas#2"
keys /; wait_for "search: _"
keys tokenizer Enter; wait_for "found 'tokenizer' in atlas#3"
[[ $(screen | sed -n 2p) == "line 39 of the thread" ]] || fail "not scrolled to the occurrence: $(screen | sed -n 2p)"
[[ $(screen | sed -n 3p) == "line 40 of the thread where the tokenizer breaks" ]] || fail "the occurrence: $(screen | sed -n 3p)"
[[ $(screen | sed -n 23p) == *"   line 44/65" ]] || fail "position: $(screen | sed -n 23p)"
# Every title holds "thread": n the next document holding it, N the previous (both wrap), '.' as n.
keys /; wait_for "search: _"; keys thread Enter; wait_for "found 'thread' in atlas#1"
keys n; wait_for "found 'thread' in atlas#2"
keys N; wait_for "found 'thread' in atlas#1"
keys N; wait_for "found 'thread' in atlas#3"
keys .; wait_for "found 'thread' in atlas#1"
keys G; keys Space Space Space; sleep 0.3
[[ $(screen | sed -n 23p) == *"   END" ]] || fail "position at the end: $(screen | sed -n 23p)"
keys q; sleep 0.3
echo "ok: corpus labeller view"
