#!/usr/bin/env bash
# `qualrank corpus retrieve` against `LC_ALL=C grep -c -i -w -F -f TERMS` over the same stored files (issue 40:
# retrieval at least twice as fast as grep). Builds the corpus of bench/corpus_timing.sh (three sources of
# tests/cli/corpus_gen.py issues with long bodies, 74 terms per source), writes each source's terms to a plain
# file (one a line, for grep -F -f), and times both as whole processes, median of five runs: retrieve once over
# the three sources, grep once per source run one after another in one bash process. Prints both medians (wall
# and CPU user + system: on a shared machine CPU time is the steadier figure), MB/s and the ratio grep / retrieve.
# grep does less: it counts lines with a match and moves on at the first one; retrieve finds every occurrence of
# every term in the title, body and comments (decoded JSON, Unicode case folding and word boundaries, NFC).
# Two more greps for comparison, timed alike: grep -o (every occurrence, as retrieve finds them) and grep -c
# with 74 terms found nowhere (so that, like retrieve, it reads every byte of every line).
# With REFERENCE=/path/to/qualrank (a build from before a change), also checks that corpus/retrieved.jsonl and
# the outputs of `corpus retrieve` and `corpus table` are byte-identical to that build's.
# Usage: bench/retrieve_vs_grep.sh [BUILD_DIR] [ISSUES_PER_SOURCE]   (default 20000: ~150 MB)
set -euo pipefail
build=${1:-build}
per=${2:-20000}
here=$(cd "$(dirname "$0")" && pwd)
qualrank=$(cd "$build" && pwd)/qualrank
[[ -x $qualrank ]] || { echo "build $qualrank first"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ws="$tmp/ws"; mkdir -p "$ws/codebooks"
python3 "$here/../tests/cli/corpus_gen.py" "$tmp/export" --per-source "$per" --seed 3 --body-words 300
for s in atlas borealis cirrus; do "$qualrank" -q -C "$ws" corpus import "$tmp/export/$s.json" --source "$s"; done
python3 - "$ws/corpus/keywords.yaml" "$tmp/terms.txt" "$tmp/nowhere.txt" <<'PY'
import sys
words = ["cache miss", "deadlock", "stack overflow", "segfault", "out of memory", "race condition", "memory leak",
         "null pointer", "timeout", "retry", "backoff", "connection reset", "handshake", "certificate", "proxy",
         "config file", "environment variable", "permission denied", "file not found", "disk full", "checksum",
         "migration", "schema", "index", "query plan", "slow query", "transaction", "rollback", "lock wait",
         "replica", "failover", "leader election", "heartbeat", "load balancer", "rate limit", "quota",
         "scheduler", "cron", "worker pool", "thread pool", "event loop", "callback", "promise", "coroutine",
         "serialization", "deserialization", "encoding", "unicode", "locale", "time zone", "daylight saving",
         "regression", "flaky test", "build failure", "linker error", "compile error", "warning flood",
         "dependency conflict", "version pin", "lockfile", "package manager", "docker image", "container",
         "kubernetes", "heap corruption"]
special = [("QKV", "case: sensitive"), ("TLS", "case: sensitive"), ("DNS", "case: sensitive"),
           ("OOM", "case: sensitive"), ("API", "case: sensitive"), ("CLI", "case: sensitive"),
           ("shard", "match: substring"), ("cache", "match: substring"), ("sync", "match: substring")]
assert len(words) + len(special) == 74
with open(sys.argv[1], "w") as f:
    f.write("sources:\n")
    for s in ["atlas", "borealis", "cirrus"]:
        f.write(f"  {s}:\n" + "".join(f"    - {w!r}\n" for w in words)
                + "".join(f"    - {{term: {t}, {o}}}\n" for t, o in special))
with open(sys.argv[2], "w") as f:  # the same terms for every source: one file serves the three greps
    f.write("".join(t + "\n" for t in words + [t for t, _ in special]))
# 74 terms found nowhere (random letters, seeded; the corpus's words are English): grep -c must then read every
# byte of every line, as retrieve does.
import random
random.seed(40)
with open(sys.argv[3], "w") as f:
    f.write("".join("".join(random.choice("bcdfghjklmnpqrstvwxz") for _ in range(random.randint(6, 14))) + "\n" for _ in range(74)))
PY
files=("$ws"/corpus/atlas.jsonl "$ws"/corpus/borealis.jsonl "$ws"/corpus/cirrus.jsonl)
bytes=$(cat "${files[@]}" | wc -c)
# One timed run of a command line: prints "wall cpu" (seconds).
timed() {
  # (to a file: GNU grep writing to /dev/null stops at its first match)
  /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >"$tmp/out" 2>&1
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$tmp/time"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
: >"$tmp/r"; : >"$tmp/g"; : >"$tmp/o"; : >"$tmp/n"
for _ in 1 2 3 4 5; do
  timed "$qualrank" -q -C "$ws" corpus retrieve >>"$tmp/r"
  timed bash -c 'for f in "$@"; do LC_ALL=C grep -c -i -w -F -f "'"$tmp/terms.txt"'" "$f" || true; done' _ "${files[@]}" >>"$tmp/g"
  # For comparison only: grep -o prints every occurrence (retrieve finds every one; grep -c leaves a line at its first)
  timed bash -c 'for f in "$@"; do LC_ALL=C grep -o -i -w -F -f "'"$tmp/terms.txt"'" "$f" || true; done' _ "${files[@]}" >>"$tmp/o"
  # And grep -c with 74 terms found nowhere: every byte read, as retrieve reads every byte.
  timed bash -c 'for f in "$@"; do LC_ALL=C grep -c -i -w -F -f "'"$tmp/nowhere.txt"'" "$f" || true; done' _ "${files[@]}" >>"$tmp/n"
done
[[ $(sort -u "$tmp/out") == 0 ]] || { echo "the terms meant to be found nowhere were found: $(tr '\n' ' ' <"$tmp/out")"; exit 1; }
rw=$(cut -d' ' -f1 "$tmp/r" | median); rc=$(cut -d' ' -f2 "$tmp/r" | median)
gw=$(cut -d' ' -f1 "$tmp/g" | median); gc=$(cut -d' ' -f2 "$tmp/g" | median)
ow=$(cut -d' ' -f1 "$tmp/o" | median); oc=$(cut -d' ' -f2 "$tmp/o" | median)
nw=$(cut -d' ' -f1 "$tmp/n" | median); nc=$(cut -d' ' -f2 "$tmp/n" | median)
echo "$(nproc) processors, load average $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v b="$bytes" -v rw="$rw" -v rc="$rc" -v gw="$gw" -v gc="$gc" -v ow="$ow" -v oc="$oc" -v nw="$nw" -v nc="$nc" -v n="$(($(wc -l <"$ws/corpus/retrieved.jsonl") - 1))" 'BEGIN {
  mb = b / 1e6
  printf "%.1f MB of stored issue JSON, 3 sources x 74 terms; median of 5 runs (wall, CPU user+sys)\n", mb
  printf "  corpus retrieve: wall %.2fs (%.0f MB/s)  CPU %.2fs (%.0f MB/s)  %d retrieved\n", rw, mb / rw, rc, mb / rc, n
  printf "  grep -c -i -w -F: wall %.2fs (%.0f MB/s)  CPU %.2fs (%.0f MB/s)\n", gw, mb / gw, gc, mb / gc
  printf "  grep / retrieve: wall %.2fx  CPU %.2fx   (target: wall >= 2x)\n", gw / rw, gc / rc
  printf "  (grep -o -i -w -F, every occurrence: wall %.2fs  CPU %.2fs; grep -o / retrieve: wall %.2fx)\n", ow, oc, ow / rw
  printf "  (grep -c with 74 terms found nowhere, every byte read: wall %.2fs  CPU %.2fs; that grep / retrieve: wall %.2fx)\n", nw, nc, nw / rw }'
if [[ -n ${REFERENCE:-} ]]; then
  # The same workspace through the reference build and this one: every output byte for byte.
  for q in "$REFERENCE" "$qualrank"; do
    tag=$([[ $q == "$REFERENCE" ]] && echo ref || echo new)
    "$q" -C "$ws" corpus retrieve >"$tmp/$tag.retrieve.out" 2>&1
    cp "$ws/corpus/retrieved.jsonl" "$tmp/$tag.retrieved.jsonl"
    "$q" -C "$ws" corpus retrieve --format json >"$tmp/$tag.retrieve.json" 2>&1 || true
    "$q" -C "$ws" corpus table >"$tmp/$tag.table.out" 2>&1 || true
  done
  for f in retrieve.out retrieved.jsonl retrieve.json table.out; do
    cmp "$tmp/ref.$f" "$tmp/new.$f" || { echo "outputs differ from $REFERENCE: $f"; exit 1; }
  done
  echo "  outputs byte-identical to $REFERENCE (retrieved.jsonl, corpus retrieve, corpus table)"
fi
