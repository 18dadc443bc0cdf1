#!/usr/bin/env bash
# The folder-level include graph of src/ and include/qualrank/ (a public header counts in the folder of its
# sources: include/qualrank/report/latex/x.h is src/report/latex). Prints one line per arrow, "from -> to (n)",
# n the number of #include lines, and fails (exit 1) when
#   * a lower layer includes a higher one (util < model < analysis < report < tui, cli), or
#   * two folders include each other (a room and its layer's root count as two folders).
# Usage: scripts/include_graph.sh [SOURCE_DIR]   (default: the repository this script is in)
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

{
  find src include/qualrank -type f \( -name '*.cpp' -o -name '*.h' \) | sed 's/^/FILE /'
  find src include/qualrank -type f \( -name '*.cpp' -o -name '*.h' \) -print0 |
    xargs -0 grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' | sed 's/^/INC /'
} | awk '
  function folder(p) {
    if (p ~ /^include\/qualrank\//) p = "src/" substr(p, 18)
    sub(/\/[^\/]*$/, "", p)
    return p
  }
  function rank(f,   l) {
    l = f; sub(/^src\//, "", l); sub(/\/.*/, "", l)
    if (l == "util") return 0; if (l == "model") return 1; if (l == "analysis") return 2
    if (l == "report") return 3; if (l == "tui" || l == "cli") return 4; return 9
  }
  $1 == "FILE" { exists[$2] = 1; next }
  $1 == "INC" {
    line = substr($0, 5); file = line; sub(/:.*/, "", file)
    inc = line; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
    dir = file; sub(/\/[^\/]*$/, "", dir)
    rel = dir "/" inc
    while (sub(/\/\.\//, "/", rel)) {}
    while (sub(/[^\/.][^\/]*\/\.\.\//, "", rel)) {}
    if (rel in exists) target = rel
    else if (("include/" inc) in exists) target = "include/" inc
    else if (file ~ /^src\/tui\// && ("src/tui/" inc) in exists) target = "src/tui/" inc  # (src/tui: an include directory)
    else next  # a system header
    from = folder(file); to = folder(target)
    if (from != to) n[from " " to]++
  }
  END {
    status = 0
    m = 0
    for (k in n) keys[++m] = k
    # insertion sort, for a stable listing without gawk
    for (i = 2; i <= m; i++) { v = keys[i]; for (j = i - 1; j > 0 && keys[j] > v; j--) keys[j + 1] = keys[j]; keys[j + 1] = v }
    for (i = 1; i <= m; i++) {
      split(keys[i], p, " ")
      printf "%s -> %s (%d)\n", p[1], p[2], n[keys[i]]
      if (rank(p[1]) < rank(p[2])) { printf "  error: %s (a lower layer) includes %s\n", p[1], p[2] > "/dev/stderr"; status = 1 }
      if ((p[2] " " p[1]) in n && p[1] < p[2]) { printf "  error: %s and %s include each other\n", p[1], p[2] > "/dev/stderr"; status = 1 }
    }
    exit status
  }'
