// The taxonomy (codebook) YAML: codebooks/NAME.yaml.
#include "fuzz_target.h"

QUALRANK_FUZZ_TARGET(taxonomy) {
  using namespace qualrank;
  Diagnostics diags;
  auto tax = load_taxonomy(std::string(reinterpret_cast<const char*>(data), size), "codebooks/fuzz.yaml", diags);
  fuzz::check_located(diags);
  if (tax && !diags.has_errors())
    for (const auto& id : tax->order()) {
      fuzz::check_utf8(id, "a node id");
      fuzz::check_utf8(tax->find(id)->name, "a node name");
    }
  return 0;
}
