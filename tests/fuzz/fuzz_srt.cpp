// A transcript source for import-transcript: SubRip captions (.srt), read as the CLI reads it (fuzz::transcript_source).
#include "fuzz_target.h"

QUALRANK_FUZZ_TARGET(srt) { return qualrank::fuzz::transcript_source(data, size, ".srt"); }
