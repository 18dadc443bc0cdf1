// A transcript source for import-transcript: a Word document (.docx), read as the CLI reads it (fuzz::transcript_source).
#include "fuzz_target.h"

QUALRANK_FUZZ_TARGET(docx) { return qualrank::fuzz::transcript_source(data, size, ".docx"); }

// Mutates the XML inside the archive (fuzz build only; see fuzz::mutate_zip).
QUALRANK_FUZZ_ZIP_MUTATOR("word/document.xml")
