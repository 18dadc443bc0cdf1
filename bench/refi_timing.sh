#!/usr/bin/env bash
# Times the REFI-QDA and transcript import paths (issue 8 names no figures; these are for the record):
#  * export --qdc and --qdpx, and import of that .qdpx into a workspace with only the guideline, on the
#    bundled study and on a generated workspace of N transcripts (default 500, ~25 MB; bench/gen_workspace.sh);
#  * import-transcript of a generated two-hour WebVTT caption file (3,600 cues).
# Usage: bench/refi_timing.sh [BUILD_DIR] [N]
set -euo pipefail
build=${1:-build}
n=${2:-500}
here=$(cd "$(dirname "$0")" && pwd)
qualrank=$(cd "$build" && pwd)/qualrank
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
fresh() { mkdir -p "$1/guidelines"; cp "$here"/../guidelines/*.yaml "$1/guidelines/"; }

echo "bundled study (19 transcripts):"
echo "  export --qdc   $(seconds "$qualrank" -C "$here/.." -q export --qdc -o "$tmp/s.qdc") s"
echo "  export --qdpx  $(seconds "$qualrank" -C "$here/.." -q export --qdpx -o "$tmp/s.qdpx") s"
fresh "$tmp/s"
echo "  import .qdpx   $(seconds "$qualrank" -C "$tmp/s" -q import "$tmp/s.qdpx") s"

bash "$here/gen_workspace.sh" "$tmp/ws" "$n" 1
echo "generated workspace ($n transcripts, $(du -sh "$tmp/ws/transcripts" | cut -f1)):"
echo "  export --qdpx  $(seconds "$qualrank" -C "$tmp/ws" -q export --qdpx -o "$tmp/big.qdpx") s ($(du -h "$tmp/big.qdpx" | cut -f1))"
fresh "$tmp/big"
echo "  import .qdpx   $(seconds "$qualrank" -C "$tmp/big" -q import "$tmp/big.qdpx") s"
"$qualrank" -C "$tmp/big" -q validate >/dev/null 2>&1 || echo "  (the imported workspace does not validate)"

awk 'BEGIN {
  print "WEBVTT\n"
  for (i = 0; i < 3600; i++) {
    printf "%d\n%02d:%02d:%02d.000 --> %02d:%02d:%02d.900\n", i + 1, i / 3600, (i / 60) % 60, i % 60, i / 3600, (i / 60) % 60, i % 60
    printf "<v %s>We talked about checkpoints, CUDA versions and memory &amp; speed for cue %d.</v>\n\n", (int(i / 7) % 2 ? "Sam Lee" : "Dana"), i
  }
}' >"$tmp/long.vtt"
cp -r "$here/../tests/fixtures/mini" "$tmp/mini"
echo "import-transcript, 3,600-cue WebVTT ($(du -h "$tmp/long.vtt" | cut -f1)): $(seconds "$qualrank" -C "$tmp/mini" import-transcript "$tmp/long.vtt" --participant P9 --role user --interviewer Dana) s"
