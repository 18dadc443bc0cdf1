#!/usr/bin/env bash
# Builds the seed corpus of every fuzz target from the test fixtures and the bundled study: OUTDIR/<target>/
# holds symbolic links to the existing files (nothing is copied or committed twice).
# Usage: tests/fuzz/seeds.sh OUTDIR
set -euo pipefail
out=${1:?usage: seeds.sh OUTDIR}
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
mkdir -p "$out"
# seed TARGET find-arguments...: links every matching file under the fixtures and the bundled study.
seed() {
  local target=$1
  shift
  mkdir -p "$out/$target"
  local n=0 f
  while IFS= read -r -d '' f; do
    n=$((n + 1))
    ln -s "$f" "$out/$target/$n-$(basename "$f")"
  done < <(find "$src/tests/fixtures" "$src/codebooks" "$src/guidelines" "$src/transcripts" -type f \( "$@" \) \
             -print0 | sort -z)
}
seed taxonomy -path '*/codebooks/*.yaml' -not -name '*.history.yaml'
seed guideline -path '*/guidelines/*.yaml'
seed findings -name 'findings*.yaml'
seed periods -path '*/corpus/*_*.txt'
seed history -name '*.history.yaml'
seed transcript -name '*.md' -path '*transcripts/*'
seed standoff -name '*.codes'
seed labels -path '*/agreement/*.csv'
seed ranking -path '*rank*' -name '*.csv'
seed codebook_table -path '*/codebook/*' -name '*.csv'
seed webvtt -name '*.vtt'
seed srt -name '*.srt'
seed plain_text -path '*/import-transcript/*' -name '*.txt'
seed docx -name '*.docx'
seed qdc -name '*.qdc' -o -name '*.qde'
seed qdpx -name '*.qdpx'
seed participants -path '*/participants/*'
seed yaml -name '*.yaml'
seed names -name '*.md' -path '*transcripts/*' -o -name 'names*.csv'
seed corpus_export -path '*/corpus-export/*' \( -name '*.json' -o -name '*.jsonl' -o -name '*.csv' \)
seed corpus_store -path '*/corpus-export/*'
for d in "$out"/*/; do
  [ -n "$(ls -A "$d")" ] || echo "seeds.sh: no seed for $(basename "$d")" >&2
done
