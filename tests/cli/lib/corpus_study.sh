# A generated corpus of issue reports for a stage-one test (tests/cli/corpus_gen.py; needs QUALRANK and SOURCE_DIR).
# generated_corpus WS GEN PER_SOURCE [corpus_gen.py options ...]: writes the exports of the three sources atlas,
# borealis and cirrus (PER_SOURCE issues each) into the folder GEN and imports each into the workspace WS.
generated_corpus() {
  local ws=$1 gen=$2 per=$3 s
  shift 3
  /usr/bin/python3 "$SOURCE_DIR/tests/cli/corpus_gen.py" "$gen" --per-source "$per" "$@" >/dev/null
  for s in atlas borealis cirrus; do "$QUALRANK" -C "$ws" -q corpus import "$gen/$s.json" --source "$s"; done
}
# fieldwork_study PER_SOURCE [corpus_gen.py options ...]: the study the stage-one tests start from: the fieldwork
# fixture copied to $tmp/ws (sets ws; needs tmp and FIXTURES), q running qualrank there, SOURCE_DATE_EPOCH fixed
# (2025-12-01), and the generated corpus imported into it (generated_corpus, exports in $tmp/gen).
fieldwork_study() {
  ws="$tmp/ws"
  cp -r "$FIXTURES/fieldwork" "$ws"
  q() { "$QUALRANK" -C "$ws" "$@"; }
  export SOURCE_DATE_EPOCH=1764547200
  generated_corpus "$ws" "$tmp/gen" "$@"
}
