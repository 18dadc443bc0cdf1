// A transcript source for import-transcript: WebVTT captions (.vtt), read as the CLI reads it (fuzz::transcript_source).
#include "fuzz_target.h"

QUALRANK_FUZZ_TARGET(webvtt) { return qualrank::fuzz::transcript_source(data, size, ".vtt"); }
