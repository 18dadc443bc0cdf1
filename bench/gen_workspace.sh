#!/usr/bin/env bash
# Generates a large workspace for benchmarks: the bundled taxonomy and guideline, and N transcripts
# (default 2,000 of about 50 kB each, ~100 MB) with coded turns, span codes, memos, keyword-rich text and
# valid rankings for every ranking question. Usage: bench/gen_workspace.sh OUT_DIR [N] [SEED]
set -euo pipefail
out=${1:?usage: gen_workspace.sh OUT_DIR [N] [SEED]}
n=${2:-2000}
seed=${3:-1}
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out/codebooks" "$out/guidelines" "$out/transcripts"
cp "$src"/codebooks/llm-frameworks.yaml "$out/codebooks/"
cp "$src"/guidelines/*.yaml "$out/guidelines/"
ids=$(grep -oE '^ *- id: [A-C](\.[0-9]+)?(\.[ivx]+)?$' "$src/codebooks/llm-frameworks.yaml" | sed 's/.*id: //' | tr '\n' ' ')
awk -v n="$n" -v seed="$seed" -v out="$out/transcripts" -v ids="$ids" '
function pick(arr, k) { return arr[int(rand() * k) + 1] }
function shuffle_top(arr, k, top,    i, j, t, s) {
  for (i = 1; i <= k; i++) tmp[i] = arr[i]
  for (i = k; i > 1; i--) { j = int(rand() * i) + 1; t = tmp[i]; tmp[i] = tmp[j]; tmp[j] = t }
  s = tmp[1]; for (i = 2; i <= top; i++) s = s " > " tmp[i]
  return s
}
BEGIN {
  srand(seed)
  nid = split(ids, all, " ")
  for (i = 1; i <= nid; i++) {
    if (all[i] ~ /^A\.[0-9]+$/) a[++na] = all[i]
    else if (all[i] ~ /^B\.[0-9]+$/) b[++nb] = all[i]
    else if (all[i] ~ /^C\.[0-9]+$/) c[++nc] = all[i]
    if (all[i] ~ /\.[ivx]+$/) sub_[++ns] = all[i]
  }
  nw = split("the model training run failed after the checkpoint was saved and memory usage kept growing on every GPU while NCCL timed out during all reduce so we pinned the CUDA version and reinstalled the wheel with pip install which fixed the OOM for now but quantization still broke inference outputs in bf16 and the documentation never explained how gradient accumulation interacts with the learning rate schedule", words, " ")
  for (p = 1; p <= n; p++) {
    id = sprintf("P%05d", p); role = (p % 3 == 0) ? "developer" : "user"
    file = out "/" id ".md"
    printf "---\nparticipant: %s\nrole: %s\ncoder: gen\nattributes:\n  years: %.1f\n  frameworks: PyTorch\n---\n", id, role, rand() * 8 > file
    split("II.1 III.1 IV.1", open_q, " ")
    for (q = 1; q <= 3; q++) {
      printf "\n## %s\n\nI: Tell me more.\n", open_q[q] > file
      for (t = 1; t <= 55; t++) {
        line = id ":"
        len = 30 + int(rand() * 25)
        for (w = 1; w <= len; w++) line = line " " words[int(rand() * nw) + 1]
        if (t % 4 == 0) line = line " and [the CUDA version]{" pick(sub_, ns) "} again."
        print line > file
        if (t % 2 == 0) printf "@code %s, %s\n", pick(sub_, ns), pick(sub_, ns) > file
        if (t % 10 == 0) print "@memo A generated research insight for the benchmark." > file
      }
    }
    top = (role == "user") ? 3 : 0
    printf "\n## II.R\n\n%s: My order.\n@rank %s\n", id, shuffle_top(a, na, top ? top : na) > file
    printf "\n## III.R\n\n%s: My order.\n@rank %s\n", id, shuffle_top(c, nc, top ? top : nc) > file
    printf "\n## IV.R\n\n%s: My order.\n@rank %s\n", id, shuffle_top(b, nb, nb) > file
    close(file)
  }
}'
echo "generated $n transcripts in $out/transcripts ($(du -sm "$out/transcripts" | cut -f1) MB)"
