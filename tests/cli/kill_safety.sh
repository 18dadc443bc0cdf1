#!/usr/bin/env bash
# Crash safety under SIGKILL: `report`, `taxonomy propose`, `import` (a .qdc: a kept copy and proposals) and
# `code add` run on a fresh copy of tests/fixtures/fieldwork and are killed at moments drawn from a seeded RNG
# over each command's measured run time. After every kill: each file of the workspace holds either its old
# bytes or the complete new bytes a run to the end writes (no half-written file, no file that neither run
# has); leftovers are only hidden temp files (".NAME.PID.HEX.tmp", which no loader lists) and the history's
# lock file; `qualrank validate` passes; and a run to the end afterwards writes exactly the expected bytes
# and removes the killed run's temp files. A project import, killed the same way, leaves (once the next
# command has run) every file old or every file new.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
Q() { "$QUALRANK" "$@"; }
export SOURCE_DATE_EPOCH=1748736000 QUALRANK_AUTHOR=killer  # same bytes from every complete run
RANDOM=${KILL_SEED:-16016}                                  # seeded: the same kill moments every run
KILLS=${KILLS:-20}

base="$tmp/base"; cp -r "$FIXTURES/fieldwork" "$base"
Q -q -C "$base" validate || fail "the fixture does not validate"
# The codebook to import: the taxonomy exported, one code renamed and one added (two proposals and a copy).
Q -q -C "$base" export --qdc -o "$tmp/fw.qdc"
sed -e 's/name="TOOL.1 Chat"/name="TOOL.1 Chat and calls"/' \
    -e 's|</Codes>|<Code guid="6f1c6d7e-0000-4000-8000-00000000a001" name="Noise at home" isCodable="true"/></Codes>|' \
    "$tmp/fw.qdc" >"$tmp/edited.qdc"
grep -q 'TOOL.1 Chat and calls' "$tmp/edited.qdc" || fail "could not edit the exported codebook"

set_args() {  # set_args NAME WORKSPACE: ARGS = the command under test
  local ws=$2
  case $1 in
    report) ARGS=(-q -C "$ws" report --resamples 200) ;;
    propose) ARGS=(-q -C "$ws" taxonomy propose add --id WELL.3 --parent WELL --name "Noise at home"
                   --rationale "E01 mentions the flat" --by E01 --source transcripts/E01.md:15) ;;
    import) ARGS=(-q -C "$ws" import "$tmp/edited.qdc") ;;
    code-add) ARGS=(-q -C "$ws" code add --transcript E01.md --turn 3 --node TOOL.1) ;;
  esac
}
run_cmd() { set_args "$1" "$2"; "$QUALRANK" "${ARGS[@]}"; }

# name -> sha256 of every file, workspace-relative, sorted
digest() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum) | sed 's|  \./|  |'; }

for cmd in report propose import code-add; do
  # The complete new state, and the command's run time (ns).
  ref="$tmp/ref-$cmd"; rm -rf "$ref"; cp -r "$base" "$ref"
  run_cmd "$cmd" "$ref" >/dev/null 2>"$tmp/err" || fail "$cmd to its end: $(cat "$tmp/err")"
  digest "$base" >"$tmp/old.sums"; digest "$ref" >"$tmp/new.sums"
  cmp -s "$tmp/old.sums" "$tmp/new.sums" && fail "$cmd changed nothing"
  # Up to three rounds of KILLS kills, until at least two of a round land before the end: the run time is
  # measured while other tests run beside this one, and a round measured at a busy moment puts most of its
  # kill moments after the end of the runs that follow (a fresh-clone `make test` once saw 1 of 20). Every
  # kill of every round is checked all the same.
  for round in 1 2 3; do
    # The run time: the shortest of three runs on fresh copies (the first run above warmed the caches; one slow
    # run on a busy machine would put most kill moments after the end).
    span=
    for _ in 1 2 3; do
      rm -rf "$tmp/timing"; cp -r "$base" "$tmp/timing"
      t0=$(date +%s%N); run_cmd "$cmd" "$tmp/timing" >/dev/null 2>&1; t1=$(date +%s%N)
      t=$(( (t1 - t0) / 1000 ))  # microseconds
      if [[ -z $span ]] || (( t < span )); then span=$t; fi
    done
    (( span > 0 )) || span=1
    killed=0
    for ((k = 0; k < KILLS; k++)); do
      ws="$tmp/ws"; rm -rf "$ws"; cp -r "$base" "$ws"
      delay_us=$(( (RANDOM * 32768 + RANDOM) % (span + 1) ))  # over the measured run time
      set_args "$cmd" "$ws"
      "$QUALRANK" "${ARGS[@]}" >/dev/null 2>&1 &  # (the binary itself, so that the kill reaches it)
      pid=$!
      sleep "$(printf '%d.%06d' $((delay_us / 1000000)) $((delay_us % 1000000)))"
      if kill -KILL "$pid" 2>/dev/null; then killed=$((killed + 1)); fi
      wait "$pid" 2>/dev/null || true
      digest "$ws" >"$tmp/now.sums"
      while read -r sum name; do
        grep -qxF "$sum  $name" "$tmp/old.sums" && continue
        grep -qxF "$sum  $name" "$tmp/new.sums" && continue
        base_name=${name##*/}
        [[ $base_name == .*.tmp ]] && continue                       # a temp file the kill left: hidden, ignored
        [[ /$name == */.*.tmp/* ]] && continue                       # in a workbook's hidden scratch folder
        [[ $base_name == *.history.yaml.lock ]] && continue          # the history's advisory lock file
        fail "$cmd killed after ${delay_us} us: $name is neither the old nor the new bytes"
      done <"$tmp/now.sums"
      # A file the complete run keeps must not be gone (the old bytes, the new, never nothing).
      while read -r sum name; do
        grep -q "  $name\$" "$tmp/now.sums" || grep_q "  $name\$" "$tmp/new.sums" || fail "$cmd killed after ${delay_us} us: $name vanished"
      done <"$tmp/old.sums"
      Q -q -C "$ws" validate 2>"$tmp/err" || fail "$cmd killed after ${delay_us} us: validate: $(cat "$tmp/err")"
      # Leftovers trip nothing: unless the killed run got to its end, a run to the end now gives the complete new
      # bytes (temp files and the lock aside).
      clean() { grep -v -e '/\.[^/]*\.tmp$' -e '^[0-9a-f]*  \.[^/]*\.tmp$' -e '\.[^/]*\.tmp/' -e '\.lock$' || true; }
      clean <"$tmp/new.sums" >"$tmp/new-nolock.sums"
      digest "$ws" | clean >"$tmp/after.sums"
      if ! cmp -s "$tmp/after.sums" "$tmp/new-nolock.sums"; then  # (the kill came before the end)
        run_cmd "$cmd" "$ws" >/dev/null 2>"$tmp/err" || fail "$cmd killed after ${delay_us} us, then run again: $(cat "$tmp/err")"
        digest "$ws" | clean >"$tmp/after.sums"
        # ... and removes the temp files the killed run left where it writes (their process is gone).
        left=$(find "$ws" -name '.*.tmp')
        [[ -z $left ]] || fail "$cmd killed after ${delay_us} us, then run again: temp files left: $left"
      fi
      cmp -s "$tmp/after.sums" "$tmp/new-nolock.sums" ||
        fail "$cmd killed after ${delay_us} us, then run again: $(diff "$tmp/new-nolock.sums" "$tmp/after.sums" | head -5)"
    done
    echo "kill_safety: $cmd: round $round: $KILLS runs over ${span} us, $killed killed before their end"
    # (how many kills land before the end varies with the machine's load; a few must. A run that ended but
    # was not yet reaped still takes the signal, so the count is an upper bound.)
    (( killed >= 2 )) && break
  done
  (( killed >= 2 )) || fail "$cmd: only $killed of $KILLS runs were killed before their end in each of 3 rounds (delays too long?)"
done
# A project import writes its files as one change (files::StagedFiles with a journal): after a kill and the
# next command (which finishes a write killed during its renames), the workspace holds every file old or every
# file new, never a mix, and no journal is left.
gbase="$tmp/gbase"; mkdir -p "$gbase/guidelines"; cp "$FIXTURES"/fieldwork/guidelines/*.yaml "$gbase/guidelines/"
Q -q -C "$base" export --qdpx -o "$tmp/fw.qdpx"
ref="$tmp/ref-project"; cp -r "$gbase" "$ref"
Q -q -C "$ref" import "$tmp/fw.qdpx" || fail "the project import to its end"
span=
for _ in 1 2 3; do
  rm -rf "$tmp/timing"; cp -r "$gbase" "$tmp/timing"
  t0=$(date +%s%N); Q -q -C "$tmp/timing" import "$tmp/fw.qdpx"; t1=$(date +%s%N)
  t=$(( (t1 - t0) / 1000 ))
  if [[ -z $span ]] || (( t < span )); then span=$t; fi
done
(( span > 0 )) || span=1
set_clean() { grep -v -e '/\.[^/]*\.tmp$' -e '^[0-9a-f]*  \.[^/]*\.tmp$' -e '\.[^/]*\.tmp/' -e '\.lock$' || true; }  # (temp files anywhere)
digest "$gbase" | set_clean >"$tmp/old.sums"; digest "$ref" | set_clean >"$tmp/new.sums"
states_old=0 states_new=0
for ((k = 0; k < KILLS; k++)); do
  ws="$tmp/ws"; rm -rf "$ws"; cp -r "$gbase" "$ws"
  delay_us=$(( (RANDOM * 32768 + RANDOM) % (span + 1) ))
  "$QUALRANK" -q -C "$ws" import "$tmp/fw.qdpx" >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '%d.%06d' $((delay_us / 1000000)) $((delay_us % 1000000)))"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  Q -C "$ws" validate >/dev/null 2>&1 || true  # any command finishes an interrupted write first
  digest "$ws" | set_clean >"$tmp/now.sums"
  if cmp -s "$tmp/now.sums" "$tmp/old.sums"; then states_old=$((states_old + 1))
  elif cmp -s "$tmp/now.sums" "$tmp/new.sums"; then states_new=$((states_new + 1))
  else fail "project import killed after ${delay_us} us: neither every file old nor every file new: $(diff "$tmp/old.sums" "$tmp/now.sums" | head -5)"
  fi
  [[ -z "$(find "$ws" -maxdepth 1 -name '.qualrank-staged.*')" ]] || fail "project import killed after ${delay_us} us: a journal was left"
done
echo "kill_safety: project import: $KILLS runs over ${span} us: $states_old all old, $states_new all new"
# The moment a random kill rarely hits, made certain: killed after 1, 3 and 5 of its renames, the import leaves
# a mix until the next command, which finishes it (every file new, the journal gone).
for after in 1 3 5; do
  ws="$tmp/ws"; rm -rf "$ws"; cp -r "$gbase" "$ws"
  set +e; QUALRANK_TEST_KILL_AFTER_RENAMES=$after "$QUALRANK" -q -C "$ws" import "$tmp/fw.qdpx" >/dev/null 2>&1; rc=$?; set -e
  (( rc == 137 )) || fail "QUALRANK_TEST_KILL_AFTER_RENAMES=$after: exit $rc, not killed"
  digest "$ws" | set_clean >"$tmp/now.sums"
  cmp -s "$tmp/now.sums" "$tmp/old.sums" && fail "killed after $after renames: nothing was renamed"
  cmp -s "$tmp/now.sums" "$tmp/new.sums" && fail "killed after $after renames: everything was renamed"
  [[ -n "$(find "$ws" -maxdepth 1 -name '.qualrank-staged.*')" ]] || fail "killed after $after renames: no journal"
  Q -C "$ws" validate >"$tmp/out" 2>"$tmp/err" || fail "killed after $after renames, then validate: $(cat "$tmp/err")"
  grep -qE "^qualrank: finished an interrupted write: [0-9]+ files renamed into place$" "$tmp/err" ||
    fail "killed after $after renames, then validate said: $(cat "$tmp/err")"
  digest "$ws" | set_clean >"$tmp/now.sums"
  cmp -s "$tmp/now.sums" "$tmp/new.sums" || fail "killed after $after renames, then finished: $(diff "$tmp/new.sums" "$tmp/now.sums" | head -5)"
  [[ -z "$(find "$ws" -name '.*.tmp' -o -maxdepth 1 -name '.qualrank-staged.*')" ]] || fail "killed after $after renames: leftovers"
done
echo "kill_safety: ok"
