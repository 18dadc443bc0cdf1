#!/usr/bin/env bash
# One rule for text on a terminal (#37): the reconcile walks and their listings draw a document's or a turn's
# control characters visibly (text::terminal_safe: "^[" for ESC, "^M" for CR, tabs to the next stop of 8) and
# never pass them. An issue title holding ESC[2J (clear the screen) and a CR (back to the start of the line, over
# the "[k/N] SOURCE#ID" that says which document is decided), and a turn holding ESC c (reset the terminal),
# walked with the answers on stdin: no ESC or CR byte of the input reaches the output, the visible forms do, and
# the prefix stands whole; in tmux, the screen the decider sees keeps what was printed before the title.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${FIXTURES:?}"
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d)
source "$(dirname "${BASH_SOURCE[0]}")/lib/tmux.sh"  # fail, and a private tmux server: sock, screen, wait_for, keys
ws="$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$ws"
q() { "$QUALRANK" -C "$ws" "$@"; }
export SOURCE_DATE_EPOCH=1764547200  # 2025-12-01
# no_controls FILE WHAT: FILE holds no ESC, CR or C1 CSI (U+009B) byte.
no_controls() {
  if LC_ALL=C grep -q $'[\x1b\r]' "$1" || LC_ALL=C grep -q $'\xc2\x9b' "$1"; then
    fail "$2 passed a control character: $(od -c "$1" | head -20)"
  fi
}

# A corpus of two issues of source x: #2's title clears the screen and returns to the start of the line, with a
# tab and a C1 CSI; both labelled differently by two coders, so both are open.
cat >"$tmp/x.json" <<'EOF'
[{"number": 1, "url": "https://example.org/a/b/issues/1", "title": "plain title", "body": "b", "createdAt": "2024-01-01T00:00:00Z"},
 {"number": 2, "url": "https://example.org/a/b/issues/2", "title": "\u001b[2Jcleared\rgotcha\tend \u009b2J", "body": "\u001b[2Jbody\rover", "createdAt": "2024-01-02T00:00:00Z",
  "labels": [{"name": "\u001b[31mred"}]}]
EOF
q -q corpus import "$tmp/x.json" --source x
printf 'sources: {}\n' >"$ws/corpus/keywords.yaml"
q -q corpus retrieve
q -q corpus sample s --size 2
for d in x#1 x#2; do
  q -q corpus label --coder alice --sample s --doc "$d" --node COM.1 --note $'\e[2Jwhy\rnot'
  q -q corpus label --coder bob --sample s --doc "$d" --node TOOL.1
done
title='^[[2Jcleared^Mgotcha    end <U+009B>2J'  # the tab after "gotcha" (column 20 of the shown form) to 24

# The walk, skipping both: each document's line opens with its [k/2] x#N, the title shown, never passed.
printf 's\ns\n' | q corpus reconcile --sample s --decider dana >"$tmp/walk" 2>"$tmp/err" || fail "walk: $(cat "$tmp/err")"
no_controls "$tmp/walk" "the corpus reconcile walk"
grep -qxE "\[[12]/2\] x#2  $(sed 's/[][^$.*+?(){}|\\]/\\&/g' <<<"$title")" "$tmp/walk" || fail "walk line of x#2: $(cat -A "$tmp/walk")"
grep -qxE '\[[12]/2\] x#1  plain title' "$tmp/walk" || fail "walk line of x#1: $(cat -A "$tmp/walk")"
grep -qxF "  1) alice: COM.1 Asynchronous updates" "$tmp/walk" || fail "walk labels: $(cat -A "$tmp/walk")"
# The evidence under the title too: the body, the GitHub labels, the coder's note (#37.10).
grep -qxF "    ^[[2Jbody^Mover" "$tmp/walk" || fail "walk body: $(cat -A "$tmp/walk")"
grep -qxF "  labels: ^[[31mred" "$tmp/walk" || fail "walk GitHub labels: $(cat -A "$tmp/walk")"
grep -qxF "     note: ^[[2Jwhy^Mnot" "$tmp/walk" || fail "walk note: $(cat -A "$tmp/walk")"
# In a terminal (tmux, when there is one): the title neither clears the screen (the agreement printed before
# it stays) nor overwrites the prefix of its line.
if command -v tmux >/dev/null; then
  tmux -L "$sock" -u new-session -d -s qr -x 100 -y 24 "'$QUALRANK' -C '$ws' corpus reconcile --sample s --decider dana; sleep 60"
  wait_for "[1/2]"
  keys s Enter
  wait_for "[2/2]"
  [[ $(screen) == *"sample s: 2 documents, 2 coders (alice, bob)"* ]] || fail "the screen was cleared"
  screen | grep_q -E "^\[[12]/2\] x#2  \^\[\[2Jcleared\^Mgotcha    end <U\+009B>2J$" || fail "x#2's line on the screen"
  keys q Enter
fi
# The --status listing and the ties of --majority list the open documents, none of it passed either.
q corpus reconcile --sample s --status >"$tmp/status"
no_controls "$tmp/status" "corpus reconcile --status"
grep -qxF "  x#2  alice: COM.1; bob: TOOL.1" "$tmp/status" || fail "status: $(cat -A "$tmp/status")"
q corpus reconcile --sample s --decider dana --majority >"$tmp/ties"  # one coder of two is no majority: both ties
no_controls "$tmp/ties" "corpus reconcile --majority"
grep -qxF "  x#2  alice: COM.1; bob: TOOL.1" "$tmp/ties" || fail "ties: $(cat -A "$tmp/ties")"

# A transcript turn that resets the terminal (ESC c), returns to the start of its line (CR) and holds a tab (a
# space where the walk wraps the words) and a bell. C01 t3 (eli inline, bob in C01.bob.codes) is open.
cp "$FIXTURES/team/transcripts/C01.bob.codes" "$ws/transcripts/"
python3 - "$ws/transcripts/C01.md" <<'PY'
import sys
p = sys.argv[1]
s = open(p, encoding="utf-8").read()
turn = "C01: Only the kick-off. After that I am alone with the tickets."
assert turn in s
s = s.replace(turn, "C01: Only the kick-off.\x1bc After\rthat\tI am\x07 alone.")
open(p, "w", encoding="utf-8").write(s)
PY
q reconcile --list >"$tmp/list" 2>"$tmp/list.err" || true
no_controls "$tmp/list" "reconcile --list"
grep -qF '"Only the kick-off.^[c After^Mthat I am^G alone."' "$tmp/list" || fail "list turn: $(cat -A "$tmp/list")"
grep -qxF 'transcripts/C01.md:25: C01#t3 (II.2)' "$tmp/list" || fail "list heading: $(cat -A "$tmp/list")"
printf 's\n' | q reconcile C01.md --decider ana --date 2026-11-21 >"$tmp/twalk" 2>"$tmp/err" || fail "transcript walk: $(cat "$tmp/err")"
no_controls "$tmp/twalk" "the transcript reconcile walk"
grep -qF '"Only the kick-off.^[c After^Mthat I am^G alone."' "$tmp/twalk" || fail "walk turn: $(cat -A "$tmp/twalk")"
grep -qxF 'unit 1 of 1: transcripts/C01.md:25: C01#t3 (II.2)' "$tmp/twalk" || fail "walk heading: $(cat -A "$tmp/twalk")"
echo "ok: terminal_text"
