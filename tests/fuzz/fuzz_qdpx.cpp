// A REFI-QDA project (.qdpx: zip with project.qde and sources/), read as qualrank import reads it.
#include "fuzz_target.h"
#include "qualrank/model/refi.h"

QUALRANK_FUZZ_TARGET(qdpx) {
  using namespace qualrank;
  auto path = fuzz::temp_file(std::string_view(reinterpret_cast<const char*>(data), size), ".qdpx");
  Diagnostics diags;
  auto project = refi::read_file(path, "import.qdpx", diags);
  fuzz::check_located(diags);
  return 0;
}

// Mutates the XML inside the archive (fuzz build only; see fuzz::mutate_zip).
QUALRANK_FUZZ_ZIP_MUTATOR("project.qde")
