// Decoding text files of unknown origin to UTF-8: a UTF-8 byte-order mark is removed, UTF-16 with a
// byte-order mark is converted (ICU), anything else must already be valid UTF-8.
#pragma once
#include <optional>
#include <string>

#include "qualrank/util/diagnostics.h"

namespace qualrank::encoding {

// Returns the text as UTF-8 without a byte-order mark. Reports, located in `file`, invalid UTF-8 (line and
// column of the first bad byte, with a hint to convert the file), UTF-16 without a byte-order mark and
// UTF-16 that does not convert; returns nullopt then. An empty input gives an empty string (the caller
// decides whether that is an error).
std::optional<std::string> decode_to_utf8(const std::string& bytes, const std::string& file, Diagnostics& diags);

}  // namespace qualrank::encoding
