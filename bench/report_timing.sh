#!/usr/bin/env bash
# Times `qualrank report`: on the bundled study (target: under 1 s) and on a generated workspace of 2,000
# transcripts, about 100 MB (target: under 20 s). Usage: bench/report_timing.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
qualrank=$(cd "$build" && pwd)/qualrank
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N); echo "$e - $s" | bc; }
echo "bundled study: $(seconds "$qualrank" -C "$here/.." -q report -o "$tmp/small") s (target < 1 s)"
bash "$here/gen_workspace.sh" "$tmp/ws" 2000 1
echo "2,000 transcripts: $(seconds "$qualrank" -C "$tmp/ws" -q report -o "$tmp/ws/reports") s (target < 20 s)"
ls -la "$tmp/ws/reports"
