// A REFI-QDA codebook (.qdc, QDA-XML), read as qualrank import reads it (fuzz::refi_file).
#include "fuzz_target.h"

QUALRANK_FUZZ_TARGET(qdc) { return qualrank::fuzz::refi_file(data, size, ".qdc"); }
