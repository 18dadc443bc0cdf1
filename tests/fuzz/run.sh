#!/usr/bin/env bash
# Runs libFuzzer targets built by `make fuzz-build`: each for SECONDS, with the limits qualrank promises for
# any input (2 s, 512 MiB), inputs up to FUZZ_MAX_LEN bytes (256 KiB; the big hostile cases are make_hostile.py's), seeded from the fixtures (seeds.sh) and the regression corpus.
# The growing corpus is kept in FUZZ_DIR/corpus/<target>/ (reused by the next run); a crash, hang or memory
# blow-up is written to FUZZ_DIR/findings/<target>/ and the run goes on with the next target. Extra libFuzzer
# flags: FUZZ_ARGS. Exit status 1 when any target found something.
# Usage: tests/fuzz/run.sh FUZZ_DIR SECONDS TARGET...
set -uo pipefail
dir=${1:?usage: run.sh FUZZ_DIR SECONDS TARGET...}
seconds=${2:?usage: run.sh FUZZ_DIR SECONDS TARGET...}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
seeds=$dir/seeds-$$  # per run, so that two runs can go on side by side
trap 'rm -rf "$seeds"' EXIT
"$here/seeds.sh" "$seeds"
# ASan keeps freed memory in a quarantine (256 MiB by default) and its allocator keeps freed pages, so after
# several hundred thousand inputs a target's RSS nears -rss_limit_mb with no input needing much: fuzz_findings
# reached 512 MB after 620,000 inputs, while the same parser replayed on 30,000 inputs under massif (ordinary
# build) keeps a flat heap of 1-2 MB (nothing grows across calls). A smaller quarantine keeps the limit about
# the input. A caller's ASAN_OPTIONS wins.
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=32}
found=0
for target in "$@"; do
  bin=$dir/tests/fuzz/fuzz_$target
  [ -x "$bin" ] || { echo "run.sh: no fuzz target $bin (make fuzz-build)" >&2; exit 2; }
  mkdir -p "$dir/corpus/$target" "$dir/findings/$target" "$here/regressions/$target"
  echo "== fuzz_$target: $seconds s" >&2
  # shellcheck disable=SC2086
  "$bin" "$dir/corpus/$target" "$seeds/$target" "$here/regressions/$target" \
    -max_total_time="$seconds" -rss_limit_mb=512 -malloc_limit_mb=512 -timeout=2 -max_len="${FUZZ_MAX_LEN:-262144}" \
    -len_control=100 -artifact_prefix="$dir/findings/$target/" -print_final_stats=1 ${FUZZ_ARGS:-} \
    > "$dir/findings/$target.log" 2>&1
  status=$?
  grep -E '^stat::(number_of_executed_units|peak_rss_mb|new_units_added)' "$dir/findings/$target.log" | tr '\n' ' ' >&2
  echo >&2
  if [ $status -ne 0 ]; then
    found=1
    echo "fuzz_$target FOUND something (exit $status); see $dir/findings/$target.log and:" >&2
    ls "$dir/findings/$target" >&2
  fi
done
exit $found
