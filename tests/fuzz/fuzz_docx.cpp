// A transcript source for import-transcript: a Word document (.docx), read as the CLI reads it (fuzz::transcript_source).
#include "fuzz_target.h"

QUALRANK_FUZZ_TARGET(docx) { return qualrank::fuzz::transcript_source(data, size, ".docx"); }
