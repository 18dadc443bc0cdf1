#!/usr/bin/env bash
# A ranking table at its 100,000-row limit (issue #40 item 3: within 1 s with the default intervals): 100,000
# participants in two roles rank three items (seeded shuffles), `rank --table` with the default 10,000
# bootstrap resamples and with --resamples 0; whole-process wall and CPU seconds and peak memory (GNU time),
# median of three runs each. Groups of more than 2,000 are resampled as counts per distinct answer
# (stats::bootstrap_spearman), so the intervals cost little more than the table.
# Usage: bench/rank_table_timing.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
bin=${QUALRANK:-$build/qualrank}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$tmp/table.csv" <<'P'
import random, sys
random.seed(1)
items = ["A.1", "A.2", "A.10"]
with open(sys.argv[1], "w") as f:
    f.write("participant,question,ranking,role\n")
    for i in range(100000):
        r = items[:]
        random.shuffle(r)
        f.write(f"P{i},Q,{' > '.join(r)},{'nurse' if i % 2 else 'carer'}\n")
P
for mode in default 0; do
  args=(); [[ $mode == 0 ]] && args=(--resamples 0)
  for run in 1 2 3; do
    /usr/bin/time -f '%e %U %S %M' -o "$tmp/t$run" "$bin" -C "$here/tests/fixtures/mini" rank --table "$tmp/table.csv" "${args[@]}" --format json >/dev/null
  done
  sort -n "$tmp"/t1 "$tmp"/t2 "$tmp"/t3 | sed -n 2p | awk -v m="$mode" '{ printf "rank --table (100,000 rows), resamples %s: wall %.2f s, CPU %.2f s, peak %d MB (median of 3)\n", (m == "0" ? "0" : "10000 (default)"), $1, $2 + $3, $4 / 1024 }'
done
