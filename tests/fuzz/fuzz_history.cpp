// The taxonomy edit history (codebooks/NAME.history.yaml): structure, arguments, decisions, hash chain.
#include "fuzz_target.h"
#include "qualrank/model/history/history.h"

QUALRANK_FUZZ_TARGET(history) {
  using namespace qualrank;
  Diagnostics diags;
  auto h = parse_history(std::string(reinterpret_cast<const char*>(data), size), "codebooks/fuzz.history.yaml", diags);
  fuzz::check_located(diags);
  if (h) (void)h->latest_version();
  return 0;
}
