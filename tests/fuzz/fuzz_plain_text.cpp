// A transcript source for import-transcript: a plain-text transcript (.txt), read as the CLI reads it (fuzz::transcript_source).
#include "fuzz_target.h"

QUALRANK_FUZZ_TARGET(plain_text) { return qualrank::fuzz::transcript_source(data, size, ".txt"); }
