// The interview guideline YAML (guidelines/NAME.yaml), checked against the fieldwork taxonomy.
#include "fuzz_target.h"

QUALRANK_FUZZ_TARGET(guideline) {
  using namespace qualrank;
  const auto& tax = fuzz::taxonomy();
  Diagnostics diags;
  auto g = load_guideline(std::string(reinterpret_cast<const char*>(data), size), "guidelines/fuzz.yaml", tax, diags);
  fuzz::check_located(diags);
  if (g && !diags.has_errors())
    for (const auto& q : g->questions) fuzz::check_utf8(q.id, "a question id");
  return 0;
}
