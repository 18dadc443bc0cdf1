#!/usr/bin/env bash
# End-to-end timing of `qualrank query` (issue 13: a --code + --where + --text query on 2,000 generated
# transcripts, about 100 MB, in under 0.5 s) and of `report` on the bundled study (under 1 s). Prints, per
# command, the best wall time of five runs, its CPU time (user + system: above the wall time when the
# transcripts are parsed on several threads) and peak memory, from /usr/bin/time -v. Wall times on a machine
# that others are using at the same time are worth little: compare CPU times there, or set QUALRANK_THREADS.
# Usage: bench/query_timing.sh [BUILD_DIR] [WORKSPACE]   (WORKSPACE: an existing generated workspace to reuse)
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
qualrank=$(cd "$build" && pwd)/qualrank
[[ -x $qualrank ]] || { echo "build $qualrank first"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ws=${2:-}
if [[ -z $ws ]]; then
  ws="$tmp/ws"
  bash "$here/gen_workspace.sh" "$ws" 2000 1
fi

# best of five: "wall cpu rss_mb" of the fastest run
measure() {
  local best="" line wall user sys rss
  for _ in 1 2 3 4 5; do
    /usr/bin/time -v "$@" >/dev/null 2>"$tmp/time"
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time" | awk -F: '{ print $(NF-1) * 60 + $NF }')
    user=$(sed -n 's/.*User time (seconds): //p' "$tmp/time")
    sys=$(sed -n 's/.*System time (seconds): //p' "$tmp/time")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time")
    line=$(awk -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" 'BEGIN { printf "%.2f %.2f %d", w, u + s, r / 1024 }')
    if [[ -z $best ]] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then best=$line; fi
  done
  echo "$best"
}
report() {  # report LABEL TARGET -- COMMAND...
  local label=$1 target=$2; shift 3
  read -r wall cpu rss <<<"$(measure "$@")"
  printf '%-58s wall %5ss  CPU %5ss  peak RSS %4d MB  (target: %s)\n' "$label" "$wall" "$cpu" "$rss" "$target"
}

echo "$(nproc) processors, load average $(cut -d' ' -f1-3 /proc/loadavg)"
q=(query --code A.1 --where role=user --text 'nccl timed out')
"$qualrank" -C "$ws" "${q[@]}" --count
report "query --code A.1 --where role=user --text 'nccl timed out'" "< 0.5 s" -- "$qualrank" -C "$ws" "${q[@]}"
report "  the same, one thread (QUALRANK_THREADS=1)" "-" -- env QUALRANK_THREADS=1 "$qualrank" -C "$ws" "${q[@]}"
report "query --uncoded --where role=developer --count" "-" -- "$qualrank" -C "$ws" query --uncoded --where role=developer --count
report "query --text 'checkpoint was saved' --fixed --count" "-" -- "$qualrank" -C "$ws" query --text 'checkpoint was saved' --fixed --count
report "validate (every segment built)" "-" -- "$qualrank" -C "$ws" validate
report "report on the bundled study" "< 1 s" -- "$qualrank" -C "$here/.." -q report -o "$tmp/small"
