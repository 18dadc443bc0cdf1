// A transcript (front matter YAML + turns with inline codes, spans, memos, rankings).
#include "fuzz_target.h"
#include "qualrank/model/transcripts/transcript.h"

QUALRANK_FUZZ_TARGET(transcript) {
  using namespace qualrank;
  Diagnostics diags;
  auto t = parse_transcript(std::string(reinterpret_cast<const char*>(data), size), "transcripts/F01.md", diags);
  fuzz::check_located(diags);
  if (t && !diags.has_errors())
    for (const auto& turn : t->turns) {
      fuzz::check_utf8(turn.speaker, "a speaker");
      fuzz::check_utf8(turn.text, "a turn's text");
    }
  return 0;
}
