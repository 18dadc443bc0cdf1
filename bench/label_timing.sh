#!/usr/bin/env bash
# Timing of the corpus labeller's model (issue 30: a key answered in under 50 ms with 100,000 documents in the
# corpus). Generates three sources of issues in gh's JSON (tests/cli/corpus_gen.py; 100,000 documents in all),
# imports them, retrieves by two keywords, draws a sample of 5,000 (stratified), has coder "bench" label every
# other document of it (corpus label --from-csv), then runs bench/label_bench.cpp on that workspace: opening,
# and per key the action and the layout of the document for an 80-column screen (no terminal).
# Usage: bench/label_timing.sh [BUILD_DIR] [ISSUES_PER_SOURCE] [SAMPLE]   (defaults: build 33334 5000)
# BUILD_DIR must have been configured with -DQUALRANK_BUILD_BENCH=ON (target label_bench).
set -euo pipefail
build=${1:-build}
per=${2:-33334}
size=${3:-5000}
here=$(cd "$(dirname "$0")" && pwd)
qualrank=$(cd "$build" && pwd)/qualrank
bench=$(cd "$build" && pwd)/bench/label_bench
[[ -x $qualrank && -x $bench ]] || { echo "build $qualrank and $bench first (cmake --build $build --target qualrank label_bench)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ws="$tmp/ws"; cp -r "$here/../tests/fixtures/fieldwork" "$ws"
python3 "$here/../tests/cli/corpus_gen.py" "$tmp/export" --per-source "$per" --seed 3
for s in atlas borealis cirrus; do "$qualrank" -q -C "$ws" corpus import "$tmp/export/$s.json" --source "$s"; done
printf 'sources:\n  atlas: [cache miss, deadlock]\n  borealis: [cache miss, deadlock]\n' >"$ws/corpus/keywords.yaml"
"$qualrank" -q -C "$ws" corpus retrieve
"$qualrank" -q -C "$ws" corpus sample main --size "$size" --stratify source --seed 1
grep -v '^#' "$ws/corpus/samples/main.txt" | awk 'BEGIN { print "doc,nodes,note" } NR % 2 == 1 { print $0 ",TOOL.1," }' >"$tmp/half.csv"
"$qualrank" -q -C "$ws" corpus label --coder bench --sample main --from-csv "$tmp/half.csv"
echo "corpus: $(cat "$ws"/corpus/{atlas,borealis,cirrus}.jsonl | wc -l) documents, $(du -sh "$ws/corpus" | cut -f1); sample: $(grep -vc '^#' "$ws/corpus/samples/main.txt")"
LABEL_BENCH_WORKSPACE="$ws" "$bench" --benchmark_min_time=0.2
