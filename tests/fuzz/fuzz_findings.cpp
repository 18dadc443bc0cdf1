// The study's findings (findings.yaml): claims and the codes they rest on.
#include "fuzz_target.h"
#include "qualrank/model/findings.h"

#include <cstdlib>

QUALRANK_FUZZ_TARGET(findings) {
  using namespace qualrank;
  Diagnostics diags;
  auto findings = parse_findings(std::string(reinterpret_cast<const char*>(data), size), "findings.yaml", diags);
  fuzz::check_located(diags);
  if (findings.size() > kMaxFindings) std::abort();  // more findings kept than the limit
  if (diags.has_errors()) return 0;
  for (const auto& f : findings) {
    fuzz::check_utf8(f.id, "a finding id");
    fuzz::check_utf8(f.claim, "a claim");
  }
  return 0;
}
