#!/usr/bin/env bash
# The terminal coder's memory (issue #37 item 13): `annotate` of a 3 KB transcript in a workspace that also
# holds a 5 MB one (13,500 sections, every third participant turn coded), run in tmux until the study has
# loaded (the `S` pane waits for it), then quit. Prints the peak resident memory (GNU time). The requirement:
# the memory of the transcript shown, not of the study: well under the 5 MB transcript's parse.
# Measured (2-core development machine): 38 MB with nothing coded in the large transcript (CODE_EVERY=0);
# every third turn coded (9,000 segments): 76 MB when the suggester trained on all of them, 58 MB since it
# trains on at most 4,000 (suggest's --max-training); every turn (27,000): 162 MB before, 95 MB after. What
# still grows with the study is the study's segments themselves (the `S` pane lists them).
# Usage: bench/annotate_memory_timing.sh [BUILD_DIR]   (QUALRANK=path overrides BUILD_DIR/qualrank; CODE_EVERY=N
# codes every N-th participant turn of the large transcript, 0 none)
set -euo pipefail
build=${1:-build}
bin=${QUALRANK:-$build/qualrank}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }
[ -x /usr/bin/time ] || { echo "SKIP: /usr/bin/time is not installed"; exit 0; }
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d)
sock=qr-annmem-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT
ws=$tmp/ws
mkdir -p "$ws"/{codebooks,guidelines,transcripts}
cat >"$ws/codebooks/bench.yaml" <<'Y'
taxonomy: bench
title: A small taxonomy
nodes:
  - id: A
    name: Questions
    definition: Questions.
    children:
      - id: A.1
        name: Installation
        definition: Installing things.
        keywords: [pip install, wheel]
  - id: B
    name: Defects
    definition: Defects.
    children:
      - id: B.1
        name: Memory
        definition: Out of memory.
        keywords: [out of memory]
Y
cat >"$ws/guidelines/bench.yaml" <<'Y'
guideline: bench-interview
taxonomy: bench
roles: [user]
parts:
  - id: II
    title: Questions
    questions:
      - id: II.1
        kind: open
        text: What questions do you have?
Y
python3 - "$ws" "${CODE_EVERY:-3}" <<'P'
import sys
ws, every = sys.argv[1], int(sys.argv[2])
def transcript(p, sections, every=3):
    out = [f"---\nparticipant: {p}\nrole: user\ncoder: alice\n---\n\n## II.1 Questions\n\n"]
    turns = 0
    for s in range(sections):
        out.append(f"I: What happened next in part {s}?\n\n")
        for _ in range(2):
            turns += 1
            out.append(f"{p}: In part {s} the pip install of the wheel failed again, and how do I know which version is "
                       f"right when the cluster runs out of memory on turn {turns}? Nobody said.\n")
            if every and turns % every == 0: out.append("@code A.1\n")
            out.append("\n")
    return "".join(out)
open(f"{ws}/transcripts/P1.md", "w").write(transcript("P1", 8))
open(f"{ws}/transcripts/P2.md", "w").write(transcript("P2", 13500, every))
P
tmux -L "$sock" -u new-session -d -s m -x 80 -y 24 \
  "cd '$ws' && /usr/bin/time -f '%M %e' -o '$tmp/time' '$bin' annotate transcripts/P1.md; echo \$? >'$tmp/rc'"
wait_for() {
  local deadline=$((SECONDS + 120))
  while ((SECONDS < deadline)); do
    tmux -L "$sock" capture-pane -p -t m | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  echo "timed out waiting for: $1" >&2
  tmux -L "$sock" capture-pane -p -t m >&2
  exit 1
}
wait_for "? help"
tmux -L "$sock" send-keys -t m G k Tab S  # t15 is coded: S lists its code's segments, once the study is there
wait_for "segments coded A.1"
tmux -L "$sock" send-keys -t m q
sleep 0.3
tmux -L "$sock" send-keys -t m q
for _ in $(seq 100); do [ -s "$tmp/rc" ] && break; sleep 0.1; done
read -r kb secs <"$tmp/time"
printf 'annotate a %s-byte transcript beside a %s-byte one: peak RSS %d MB, %.1f s in all\n' \
  "$(wc -c <"$ws/transcripts/P1.md")" "$(wc -c <"$ws/transcripts/P2.md")" $((kb / 1024)) "$secs"
