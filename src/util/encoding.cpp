// Decoding to UTF-8. UTF-16 is recognised by its byte-order mark (FF FE little-endian, FE FF big-endian) and
// converted with ICU's ucnv_convert; a file that has many NUL bytes but no mark is reported as UTF-16
// without a byte-order mark rather than guessed at.
#include "qualrank/util/encoding.h"

#include <unicode/ucnv.h>

#include "qualrank/util/text.h"

namespace qualrank::encoding {

namespace {

std::optional<std::string> convert(const std::string& bytes, const char* from, std::size_t skip, const std::string& file,
                                   Diagnostics& diags) {
  UErrorCode status = U_ZERO_ERROR;
  const char* src = bytes.data() + skip;
  auto len = static_cast<int32_t>(bytes.size() - skip);
  int32_t need = ucnv_convert("UTF-8", from, nullptr, 0, src, len, &status);
  if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status)) {
    diags.error({file, 1, 1}, std::string("cannot convert the ") + from + " text to UTF-8 (" + u_errorName(status) + ")");
    return std::nullopt;
  }
  std::string out(static_cast<std::size_t>(need), '\0');
  status = U_ZERO_ERROR;
  ucnv_convert("UTF-8", from, out.data(), need, src, len, &status);
  if (U_FAILURE(status) && status != U_STRING_NOT_TERMINATED_WARNING) {
    diags.error({file, 1, 1}, std::string("cannot convert the ") + from + " text to UTF-8 (" + u_errorName(status) + ")");
    return std::nullopt;
  }
  if (bytes.size() % 2 != skip % 2) diags.warning({file, 0, 0}, std::string("odd number of bytes in ") + from + " text");
  return out;
}

}  // namespace

std::optional<std::string> decode_to_utf8(const std::string& bytes, const std::string& file, Diagnostics& diags) {
  auto b = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
  if (bytes.size() >= 3 && b(0) == 0xEF && b(1) == 0xBB && b(2) == 0xBF) {
    std::string rest = bytes.substr(3);
    if (auto bad = text::find_invalid_utf8(rest)) {
      diags.error({file, bad->line, bad->column}, "invalid UTF-8 (byte offset " + std::to_string(bad->offset + 3) + ")");
      return std::nullopt;
    }
    return rest;
  }
  if (bytes.size() >= 2 && b(0) == 0xFF && b(1) == 0xFE) return convert(bytes, "UTF-16LE", 2, file, diags);
  if (bytes.size() >= 2 && b(0) == 0xFE && b(1) == 0xFF) return convert(bytes, "UTF-16BE", 2, file, diags);
  std::size_t nuls = 0;
  for (char c : bytes) nuls += c == '\0';
  if (bytes.size() >= 2 && nuls * 4 >= bytes.size()) {
    diags.error({file, 1, 1}, "the file looks like UTF-16 without a byte-order mark; save it as UTF-8 (or UTF-16 with a byte-order mark)");
    return std::nullopt;
  }
  if (auto bad = text::find_invalid_utf8(bytes)) {
    diags.error({file, bad->line, bad->column},
                "not UTF-8 (invalid byte at offset " + std::to_string(bad->offset) +
                    "); convert the file first, e.g. iconv -f windows-1252 -t utf-8");
    return std::nullopt;
  }
  return bytes;
}

}  // namespace qualrank::encoding
