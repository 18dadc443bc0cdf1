// A REFI-QDA project (.qdpx: zip with project.qde and sources/), read as qualrank import reads it (fuzz::refi_file).
#include "fuzz_target.h"

QUALRANK_FUZZ_TARGET(qdpx) { return qualrank::fuzz::refi_file(data, size, ".qdpx"); }

// Mutates the XML inside the archive (fuzz build only; see fuzz::mutate_zip).
QUALRANK_FUZZ_ZIP_MUTATOR("project.qde")
