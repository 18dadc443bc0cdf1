#!/usr/bin/env bash
# End-to-end timing of the real binary on generated label tables (issue 6: 40,000 x 7 in under 100 ms,
# 1,000,000 x 10 in under 3 s and 1 GB). Prints wall time, CPU time (user + system: above the wall time
# when the bootstrap runs on two threads) and peak memory from /usr/bin/time -v, for the default options
# (--resamples 1000: from 100,000 units on, jackknife intervals instead of the bootstrap; docs/agreement.md)
# and with the intervals off (--resamples 0).
# Usage: bench/agreement_timing.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
bench="$build/bench/agreement_bench"
qualrank="$build/qualrank"
[[ -x $bench && -x $qualrank ]] || { echo "build $bench and $qualrank first"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/ws"  # no taxonomy: free categories
for size in "40000 7" "1000000 10"; do
  set -- $size
  table="$tmp/labels-$1x$2.csv"
  "$bench" --write-table "$table" "$1" "$2"
  for resamples in 0 1000; do
    /usr/bin/time -v "$qualrank" -C "$tmp/ws" agreement --labels "$table" --resamples "$resamples" --format json \
      >/dev/null 2>"$tmp/time"
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time")
    user=$(sed -n 's/.*User time (seconds): //p' "$tmp/time")
    sys=$(sed -n 's/.*System time (seconds): //p' "$tmp/time")
    printf '%8s units x %2s coders, %s MB CSV, --resamples %4s: wall %s, CPU %ss, peak RSS %d MB\n' "$1" "$2" \
      "$(awk -v b="$(stat -c %s "$table")" 'BEGIN { printf "%.1f", b / 1e6 }')" "$resamples" "$wall" \
      "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" "$(( rss / 1024 ))"
  done
done
