// A REFI-QDA codebook (.qdc, QDA-XML), read as qualrank import reads it.
#include "fuzz_target.h"
#include "qualrank/model/refi.h"

QUALRANK_FUZZ_TARGET(qdc) {
  using namespace qualrank;
  auto path = fuzz::temp_file(std::string_view(reinterpret_cast<const char*>(data), size), ".qdc");
  Diagnostics diags;
  auto project = refi::read_file(path, "import.qdc", diags);
  fuzz::check_located(diags);
  return 0;
}
