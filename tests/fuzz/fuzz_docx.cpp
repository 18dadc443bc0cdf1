// A transcript source for import-transcript (.docx), read by its extension as the CLI reads it (UTF-8 check,
// UTF-16 with a byte-order mark converted, the zip archive opened with its limits).
#include "fuzz_target.h"
#include "qualrank/model/transcript_import.h"

QUALRANK_FUZZ_TARGET(docx) {
  using namespace qualrank;
  auto path = fuzz::temp_file(std::string_view(reinterpret_cast<const char*>(data), size), ".docx");
  Diagnostics diags;
  auto utterances = read_transcript_source(path, "interview.docx", diags);
  fuzz::check_located(diags);
  if (utterances && !diags.has_errors())
    for (const auto& u : *utterances) {
      fuzz::check_utf8(u.speaker, "a speaker");
      fuzz::check_utf8(u.text, "an utterance");
    }
  return 0;
}
