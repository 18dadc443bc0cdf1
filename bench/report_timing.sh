#!/usr/bin/env bash
# Times `qualrank report`: on the bundled study (target: under 0.5 s) and on a generated workspace of 2,000
# transcripts, about 95 MB (issue #22's target: under 2 s wall and 600 MB peak). Prints wall and CPU seconds
# and the peak resident memory (/usr/bin/time). With REFERENCE=/path/to/qualrank (a build from before a change),
# also runs both binaries three times each, alternating, on the 2,000-transcript workspace and prints each one's
# median wall, CPU (user + system) and peak memory (bench/report_identical.sh checks that their outputs are the
# same bytes). Usage: [REFERENCE=/path/to/old/qualrank] bench/report_timing.sh [BUILD_DIR]
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
if [[ -n ${REFERENCE:-} ]]; then
  # One run: appends "wall cpu peak_kb" to FILE.
  timed() { /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$2" -C "$tmp/ws" -q report -o "$tmp/ws/reports" >/dev/null
            awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/time" >>"$1"; }
  median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
  : >"$tmp/ref"; : >"$tmp/new"
  for _ in 1 2 3; do timed "$tmp/ref" "$REFERENCE"; timed "$tmp/new" "$qualrank"; done
  for f in ref new; do
    label=$([[ $f == ref ]] && echo "reference $REFERENCE" || echo "this build $qualrank")
    echo "median of 3, $label: $(cut -d' ' -f1 "$tmp/$f" | median) s wall, $(cut -d' ' -f2 "$tmp/$f" | median) s CPU, peak $(cut -d' ' -f3 "$tmp/$f" | median) KB"
  done
fi
ls -la "$tmp/ws/reports"
