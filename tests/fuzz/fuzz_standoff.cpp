// A second coder's standoff codings (transcripts/STEM.CODER.codes).
#include "fuzz_target.h"
#include "qualrank/model/transcripts/transcript.h"

QUALRANK_FUZZ_TARGET(standoff) {
  using namespace qualrank;
  Diagnostics diags;
  auto s = parse_standoff(std::string(reinterpret_cast<const char*>(data), size), "transcripts/F01.eli.codes", diags);
  fuzz::check_located(diags);
  if (s && !diags.has_errors())
    for (const auto& c : s->codings)
      if (c.span) fuzz::check_utf8(*c.span, "a quoted span");
  return 0;
}
