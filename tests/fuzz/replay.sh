#!/usr/bin/env bash
# Replays, through every fuzz target of REPLAY_BIN (qualrank_fuzz_replay), its seeds (the fixtures), its
# regression corpus tests/fuzz/regressions/<target>/ and the hostile inputs make_hostile.py generates into
# HOSTILE_DIR (the big ones are generated, not committed). With the ordinary build each input must also be
# read within 2 s of CPU time and the whole run within 512 MiB (REPLAY_LIMITS=0 turns that off, as under ASan).
# Usage: tests/fuzz/replay.sh REPLAY_BIN HOSTILE_DIR
set -euo pipefail
bin=${1:?usage: replay.sh REPLAY_BIN HOSTILE_DIR}
hostile=${2:?usage: replay.sh REPLAY_BIN HOSTILE_DIR}
here=$(cd "$(dirname "$0")" && pwd)
"$here/seeds.sh" "$hostile.seeds"
python3 "$here/make_hostile.py" "$hostile"
if [ "${REPLAY_LIMITS:-1}" = 1 ]; then
  export QUALRANK_REPLAY_MAX_CPU_MS=2000 QUALRANK_REPLAY_MAX_RSS_MB=512
fi
for target in $("$bin" --list); do
  dirs=("$hostile.seeds/$target")
  [ -d "$here/regressions/$target" ] && dirs+=("$here/regressions/$target")
  [ -d "$hostile/$target" ] && dirs+=("$hostile/$target")
  "$bin" "$target" "${dirs[@]}"
done
