#!/usr/bin/env bash
# Long words wrap, nothing is cut (#37.11, #37.12), driven in tmux on the screens themselves:
#  1. annotate: a turn holding a 159-character URL at 80 columns: every character of the URL is on the screen
#     (the word broken by characters onto the next lines), and the URL selected as a word is bracketed whole;
#  2. the corpus labeller scrolled to a known source line at 160 columns and resized to 80: the same source
#     line is at the top of the body (the place in the text kept, not the count of screen lines);
#  3. the labeller's help ('?') at 80 columns: every help text of its keys (as --help prints them, one a line)
#     is on the screen with its words whole, in order.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
export LANG=C.UTF-8 LC_ALL=C.UTF-8
command -v tmux >/dev/null || { echo "skip: no tmux"; exit 77; }
tmp=$(mktemp -d)
source "$(dirname "${BASH_SOURCE[0]}")/lib/tmux.sh"  # fail, screen, wait_for, keys
ws="$tmp/ws"; cp -r "$FIXTURES/fieldwork" "$ws"
q() { "$QUALRANK" -C "$ws" "$@"; }
# joined: the screen's lines without their white space, one string (a word broken over lines joins up).
joined() { screen | tr -d ' \n'; }

# 1. annotate: M01's first participant turn cites a 159-character URL.
url=$(/usr/bin/python3 -c '
u = "https://wiki.example.org/remote-handbook/"
k = 1
while len(u) < 150:
    u += "part%02d-" % k
    k += 1
u = u[:150] + "?q=END159"
assert len(u) == 159, len(u)
print(u)')
sed -i "s|^M01: Eight years, the last three with a fully remote team\.|M01: See $url for our eight years.|" "$ws/transcripts/M01.md"
grep -qF "M01: See $url for" "$ws/transcripts/M01.md" || fail "fixture: the URL turn was not written"
tmux -L "$sock" -u new-session -d -s qr -x 80 -y 24 "cd '$ws' && '$QUALRANK' annotate transcripts/M01.md; sleep 60"
wait_for "? help"
wait_for "See"
[[ $(joined) == *"See${url}forour"* ]] || fail "annotate: the URL is not on the screen whole ($url)"
keys v; wait_for "[See]"
keys l; sleep 0.3
[[ $(joined) == *"See[${url}]forour"* ]] || fail "annotate: the selected URL is not bracketed whole"
# The pieces of the selected word are highlighted (reverse video) on each of their lines.
pieces=$(tmux -L "$sock" capture-pane -p -e -t qr | grep -c $'\e\\[[0-9;]*7[0-9;]*m[^ ]*part' || true)
((pieces >= 2)) || fail "annotate: the broken URL is not highlighted on each of its lines ($pieces)"
new_server

# 2. The labeller on one long document: 300 source lines of 120 columns (one screen line each at 160 columns,
# two at 80).
/usr/bin/python3 - "$tmp/atlas.json" <<'PY'
import json, sys
body = "\n".join(("source line %04d: " % k + "the thread goes on about the build and the tests " * 3)[:120] for k in range(1, 301))
json.dump([{"number": 1, "url": "https://example.org/atlas/issues/1", "title": "Long thread", "body": body,
            "createdAt": "2024-02-11T08:00:00Z", "labels": [], "comments": []}], open(sys.argv[1], "w"))
PY
q -q corpus import "$tmp/atlas.json" --source atlas
printf 'sources:\n  atlas: [thread]\n' >"$ws/corpus/keywords.yaml"
q -q corpus retrieve
q -q corpus sample pilot --size 1 --seed 1
tmux -L "$sock" -u new-session -d -s qr -x 160 -y 24 "'$QUALRANK' -C '$ws' corpus label --coder eve --sample pilot; sleep 60"
wait_for "0 of 1 labelled"
keys /; wait_for "search: _"
keys "source line 0200:" Enter; wait_for "found 'source line 0200:'"
top() { screen | sed -n 2p; }
[[ $(top) == "source line 0199: "* ]] || fail "labeller at 160 columns: not scrolled to source line 199: $(top)"
[[ $(screen | sed -n 3p) == "source line 0200: "* ]] || fail "labeller at 160 columns: $(screen | sed -n 3p)"
# resize W: the window W columns wide, and the labeller redrawn for it (its position on the status line changes).
resize() {
  local before; before=$(screen | sed -n 23p | awk '{ print $NF }')
  tmux -L "$sock" resize-window -t qr -x "$1" -y 24
  local deadline=$((SECONDS + 10))
  until [[ $(tmux -L "$sock" display -p -t qr '#{pane_width}') == "$1" && $(screen | sed -n 23p | awk '{ print $NF }') != "$before" ]]; do
    ((SECONDS < deadline)) || fail "not redrawn at $1 columns"
    sleep 0.05
  done
  sleep 0.2
}
resize 80
[[ $(top) == "source line 0199: "* ]] || fail "labeller resized to 80 columns: the top is no longer source line 199: $(top)"
[[ $(screen | sed -n 4p) == "source line 0200: "* ]] || fail "labeller at 80 columns: source line 200 is not under 199: $(screen | sed -n 4p)"
# And back to 160: still there.
resize 160
[[ $(top) == "source line 0199: "* ]] || fail "labeller resized back to 160 columns: $(top)"
resize 80

# 3. The labeller's help at 80 columns: each page's lines, then every help text whole among their words.
keys '?'; wait_for "qualrank corpus label: keys"
help_words=""
for page in 1 2 3 4 5; do
  shown=$(screen)
  while IFS= read -r line; do
    ((${#line} <= 80)) || fail "help: a line wider than 80 columns: $line"
  done <<<"$shown"
  help_words+=" $(sed '1d;$d' <<<"$shown" | tr -s ' \n' '  ')"
  [[ $shown == *"-- more"* ]] || break
  keys Space; sleep 0.3
done
help_words=$(tr -s ' ' <<<"$help_words")
count=0
while IFS= read -r text; do
  [[ -n $text ]] || continue
  count=$((count + 1))
  [[ $help_words == *" $text"* ]] || fail "help: '$text' is not on the screen whole (a word cut?)"
done < <(q corpus label --help | /usr/bin/python3 -c '
import re, sys
rows = sys.stdin.read().split("the labeller\x27s keys")[1].splitlines()[1:]
for row in rows:  # "  KEYS  NAME  HELP": the help after the last run of 2 spaces or more
    if row.strip():
        print(re.split(r"\s{2,}", row.strip())[-1])')
((count >= 15)) || fail "help: only $count help texts read from --help"
keys q; keys q; sleep 0.3
echo "ok: tui wrap (a long URL in annotate, the labeller's place on a resize, its help at 80 columns)"
