#!/usr/bin/env bash
# Times `qualrank report`: on the bundled study (target: under 0.5 s) and on a generated workspace of 2,000
# transcripts, about 95 MB (issue #22's target: under 2 s wall and 600 MB peak). Prints wall and CPU seconds
# and the peak resident memory (/usr/bin/time). Usage: bench/report_timing.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
qualrank=$(cd "$build" && pwd)/qualrank
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
measure() { /usr/bin/time -f "%e s wall, %U s user + %S s system, peak %M KB" "$@" 2>&1 >/dev/null | tail -1; }
echo "bundled study: $(measure "$qualrank" -C "$here/.." -q report -o "$tmp/small") (target < 0.5 s)"
bash "$here/gen_workspace.sh" "$tmp/ws" 2000 1
# Three runs, every one printed: the first reads transcripts just written (the figure the target is for).
for run in 1 2 3; do
  echo "2,000 transcripts, run $run: $(measure "$qualrank" -C "$tmp/ws" -q report -o "$tmp/ws/reports") (target < 2 s, < 600 MB)"
done
"$qualrank" -C "$tmp/ws" -v report -o "$tmp/ws/reports" 2>&1 >/dev/null | grep ' s  ' || true
ls -la "$tmp/ws/reports"
