#!/usr/bin/env bash
# Runs every benchmark built from bench/*_bench.cpp and the timing scripts bench/*_timing.sh.
# Usage: bench/run.sh [BUILD_DIR]   (the figures each issue names are printed by the benchmark itself)
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
for b in "$build"/bench/*_bench; do
  [ -x "$b" ] || continue
  echo "== $(basename "$b")"
  "$b" --benchmark_counters_tabular=true
done
for s in "$here"/*_timing.sh; do
  [ -f "$s" ] || continue
  echo "== $(basename "$s")"
  bash "$s" "$build"
done
