#!/usr/bin/env bash
# qualrank validate on the bundled study (target: under 0.1 s), best of 5 runs.
# Usage: bench/validate_timing.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
src=$(cd "$(dirname "$0")/.." && pwd)
best=999999
for _ in 1 2 3 4 5; do
  start=$(date +%s%N)
  "$build/qualrank" -C "$src" validate 2>/dev/null
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  (( ms < best )) && best=$ms
done
echo "validate, bundled study: ${best} ms (best of 5; target < 100 ms)"
