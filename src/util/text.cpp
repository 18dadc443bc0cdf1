#include "qualrank/util/edit_distance.h"
#include "qualrank/util/text.h"
#include "qualrank/util/swar.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace qualrank::text {

std::optional<Utf8Error> find_invalid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  int32_t n = static_cast<int32_t>(s.size());
  int32_t i = 0;
  while (i < n) {
    // ASCII fast path: eight bytes at a time while none has the high bit set.
    while (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, p + i, 8);
      if (word & 0x8080808080808080ULL) break;
      i += 8;
    }
    if (i >= n) break;
    if (p[i] < 0x80) {
      ++i;
      continue;
    }
    int32_t start = i;
    UChar32 c;
    U8_NEXT(p, i, n, c);
    if (c < 0) {
      // Located only now: the line, and the column in code points after the line's last newline.
      auto before = s.substr(0, static_cast<std::size_t>(start));
      auto nl = before.rfind('\n');
      int line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
      int col = 1 + static_cast<int>(count_code_points(nl == std::string_view::npos ? before : before.substr(nl + 1)));
      return Utf8Error{line, col, static_cast<std::size_t>(start)};
    }
  }
  return std::nullopt;
}

std::size_t replace_invalid_utf8(std::string& s) {
  if (!find_invalid_utf8(s)) return 0;  // the common case: nothing to copy
  std::string out;
  out.reserve(s.size() + 8);
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  int32_t n = static_cast<int32_t>(s.size());
  int32_t i = 0;
  std::size_t replaced = 0;
  while (i < n) {
    int32_t start = i;
    UChar32 c;
    U8_NEXT(p, i, n, c);
    if (c < 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++replaced;
    } else {
      out.append(s, static_cast<std::size_t>(start), static_cast<std::size_t>(i - start));
    }
  }
  s = std::move(out);
  return replaced;
}

std::string fold_case(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  int32_t n = static_cast<int32_t>(s.size());
  int32_t i = 0;
  while (i < n) {
    if (p[i] < 0x80) {
      out.push_back(static_cast<char>(std::tolower(p[i])));
      ++i;
      continue;
    }
    int32_t start = i;
    UChar32 c;
    U8_NEXT(p, i, n, c);
    if (c < 0) {
      out.append(s.substr(start, i - start));
      continue;
    }
    char buf[4];
    out.append(buf, fold_code_point(c, buf));
  }
  return out;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  char buf[4];
  int32_t len = 0;
  UBool err = false;
  U8_APPEND(reinterpret_cast<uint8_t*>(buf), len, 4, static_cast<UChar32>(cp), err);
  (void)err;  // four bytes always hold one code point
  out.append(buf, static_cast<std::size_t>(len));
}

std::size_t fold_code_point(int32_t code_point, char out[4]) {
  UChar32 f = u_foldCase(code_point, U_FOLD_CASE_DEFAULT);
  int32_t len = 0;
  UBool err = false;
  U8_APPEND(reinterpret_cast<uint8_t*>(out), len, 4, f, err);
  (void)err;
  return static_cast<std::size_t>(len);
}

std::string_view trim(std::string_view s) {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    auto pos = s.find(sep, start);
    out.emplace_back(trim(s.substr(start, pos == std::string_view::npos ? s.npos : pos - start)));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return out;
}

std::vector<std::string> split_nonempty(std::string_view s, char sep) {
  auto parts = split(s, sep);
  parts.erase(std::remove_if(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); }),
              parts.end());
  return parts;
}

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  return true;
}

std::string to_lower_ascii(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string fixed(double x, int digits) {
  if (std::isnan(x)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  std::string out = buf;
  if (out.size() > 1 && out[0] == '-' && out.find_first_not_of("0.", 1) == std::string::npos) out.erase(0, 1);
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

std::size_t count_code_points(std::string_view s) {
  // Every byte but a continuation byte (10xxxxxx) starts a code point. Eight bytes at a time: a byte's bit 7
  // set and bit 6 clear (shifted up into bit 7) marks a continuation byte; the marks, moved down to bit 0 of
  // their bytes, are summed into the top byte by one multiplication (at most 8: no carry). Not std::popcount:
  // built for any x86-64, that is a call into libgcc's table-driven __popcountdi2 (1% of report's CPU).
  std::size_t continuation = 0, i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    const std::uint64_t w = swar::load(s.data() + i);
    continuation += static_cast<std::size_t>((((w & ~(w << 1) & swar::kHighs) >> 7) * 0x0101010101010101ull) >> 56);
  }
  for (; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++continuation;
  return s.size() - continuation;
}

CodePointOffsets::CodePointOffsets(std::string_view text) : text_(text) {
  before_block_.reserve(text.size() / kBlock + 1);
  std::size_t n = 0;
  for (std::size_t b = 0; b < text.size(); b += kBlock) {
    before_block_.push_back(n);
    n += count_code_points(text.substr(b, kBlock));
  }
  if (before_block_.empty()) before_block_.push_back(0);
}

std::size_t CodePointOffsets::at(std::size_t byte) const {
  byte = std::min(byte, text_.size());
  const std::size_t block = std::min(byte / kBlock, before_block_.size() - 1);
  return before_block_[block] + count_code_points(text_.substr(block * kBlock, byte - block * kBlock));
}

namespace {

// Value of a lower-case roman numeral made only of i, v, x, l, c; -1 if it is not one.
int roman_value(std::string_view s) {
  if (s.empty() || s.size() > 8) return -1;
  auto val = [](char c) {
    switch (c) {
      case 'i': return 1;
      case 'v': return 5;
      case 'x': return 10;
      case 'l': return 50;
      case 'c': return 100;
      default: return -1;
    }
  };
  int total = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    int v = val(s[i]);
    if (v < 0) return -1;
    int next = i + 1 < s.size() ? val(s[i + 1]) : 0;
    if (next < 0) return -1;
    total += v < next ? -v : v;
  }
  return total;
}

// Compares one dot-separated component.
int compare_component(std::string_view a, std::string_view b) {
  auto all_digits = [](std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  };
  if (all_digits(a) && all_digits(b)) {
    auto ta = a.substr(std::min(a.find_first_not_of('0'), a.size() - 1));
    auto tb = b.substr(std::min(b.find_first_not_of('0'), b.size() - 1));
    if (ta.size() != tb.size()) return ta.size() < tb.size() ? -1 : 1;
    int c = ta.compare(tb);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  int ra = roman_value(a), rb = roman_value(b);
  if (ra > 0 && rb > 0 && ra != rb) return ra < rb ? -1 : 1;
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace

std::string markdown_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (std::string_view("\\`*_[]<>#|!~&").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

bool natural_less(std::string_view a, std::string_view b) {
  while (true) {
    auto pa = a.find('.'), pb = b.find('.');
    auto ca = a.substr(0, pa), cb = b.substr(0, pb);
    int c = compare_component(ca, cb);
    if (c != 0) return c < 0;
    if (pa == std::string_view::npos || pb == std::string_view::npos)
      return pa == std::string_view::npos && pb != std::string_view::npos;
    a.remove_prefix(pa + 1);
    b.remove_prefix(pb + 1);
  }
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::size_t edit_distance_at_most(std::string_view a, std::string_view b, std::size_t max) {
  const std::size_t diff = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (diff > max) return max + 1;
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    std::size_t row_min = cur[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      row_min = std::min(row_min, cur[j]);
    }
    if (row_min > max) return max + 1;
    std::swap(prev, cur);
  }
  return std::min(prev[b.size()], max + 1);
}

std::string closest(std::string_view word, const std::vector<std::string>& candidates, std::size_t max_distance) {
  const std::string lower = to_lower_ascii(word);
  std::string best;
  std::size_t best_distance = max_distance + 1;
  for (const auto& c : candidates) {
    auto d = edit_distance_at_most(lower, to_lower_ascii(c), max_distance);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::size_t strip_xml_invalid(std::string& s) {
  // Fast path: most text has nothing to remove.
  bool clean = true;
  for (unsigned char c : s)
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0xEF) {
      clean = false;
      break;
    }
  if (clean) return 0;
  std::size_t removed = 0;
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      ++removed;
      continue;
    }
    // U+FFFE and U+FFFF: EF BF BE / EF BF BF
    if (c == 0xEF && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xBF &&
        (static_cast<unsigned char>(s[i + 2]) == 0xBE || static_cast<unsigned char>(s[i + 2]) == 0xBF)) {
      ++removed;
      i += 2;
      continue;
    }
    out.push_back(static_cast<char>(c));
  }
  s.swap(out);
  return removed;
}

std::size_t display_columns(std::string_view s) {
  std::size_t cols = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++cols, ++i;
      continue;
    }
    UChar32 cp = 0;
    int32_t at = static_cast<int32_t>(i);
    U8_NEXT(reinterpret_cast<const uint8_t*>(s.data()), at, static_cast<int32_t>(s.size()), cp);
    i = static_cast<std::size_t>(at);
    if (cp < 0) {
      ++cols;  // an invalid byte: one column (it is drawn as a replacement character)
      continue;
    }
    const auto category = u_charType(cp);
    if (category == U_NON_SPACING_MARK || category == U_ENCLOSING_MARK || category == U_FORMAT_CHAR || cp == 0x200B) continue;
    const auto eaw = u_getIntPropertyValue(cp, UCHAR_EAST_ASIAN_WIDTH);
    cols += eaw == U_EA_WIDE || eaw == U_EA_FULLWIDTH ? 2 : 1;
  }
  return cols;
}

std::string columns(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& right,
                    std::string_view indent) {
  std::vector<std::size_t> width;
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (width.size() <= i) width.push_back(0);
      width[i] = std::max(width[i], display_columns(r[i]));
    }
  std::string out;
  for (const auto& r : rows) {
    std::string line(indent);
    for (std::size_t i = 0; i < r.size(); ++i) {
      const std::string gap(width[i] - display_columns(r[i]), ' ');
      const bool last = i + 1 == r.size();
      if (i < right.size() && right[i]) line += gap + r[i];
      else line += last ? r[i] : r[i] + gap;
      if (!last) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + '\n';
  }
  return out;
}

bool is_calendar_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (s[i] < '0' || s[i] > '9') return false;
  const int y = std::stoi(std::string(s.substr(0, 4))), m = std::stoi(std::string(s.substr(5, 2))),
            d = std::stoi(std::string(s.substr(8, 2)));
  if (m < 1 || m > 12 || d < 1) return false;
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return d <= days[m - 1] + (m == 2 && leap ? 1 : 0);
}

NfcText nfc_with_origin(std::string_view s) {
  NfcText out;
  UErrorCode e = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(e);
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const auto n = static_cast<int32_t>(s.size());
  // ASCII is its own NFC (and the common case): copied, each byte its own segment.
  std::size_t i = 0;
  auto flush = [&](std::size_t begin, std::size_t end) {  // one segment s[begin, end)
    if (begin == end) return;
    std::string piece;
    icu::UnicodeString u = icu::UnicodeString::fromUTF8(icu::StringPiece(s.data() + begin, static_cast<int32_t>(end - begin)));
    UErrorCode err = U_ZERO_ERROR;
    nfc->normalize(u, err).toUTF8String(piece);
    out.text += piece;
    out.origin.insert(out.origin.end(), piece.size(), begin);
  };
  std::size_t segment = 0;
  while (i < s.size()) {
    const std::size_t start = i;
    int32_t j = static_cast<int32_t>(i);
    UChar32 c;
    U8_NEXT(p, j, n, c);
    i = static_cast<std::size_t>(j);
    if (c < 0) c = 0xFFFD;
    if (c < 0x80 || nfc->hasBoundaryBefore(c)) {
      flush(segment, start);
      segment = start;
    }
  }
  flush(segment, s.size());
  out.origin.push_back(s.size());
  return out;
}

bool is_nfc(std::string_view s) {
  // Every code point below U+0300 (where the combining marks begin) is NFC whatever follows it, and in UTF-8
  // such text has no byte from 0xCC up (U+0300 is CC 80): eight bytes at a time, ICU only for the rest.
  std::size_t i = 0;
  std::uint64_t high = 0;  // whether any byte is not ASCII (then the text must also be valid UTF-8)
  for (; i + 8 <= s.size(); i += 8) {
    const std::uint64_t w = swar::load(s.data() + i);
    if (swar::at_least_high(w, 0xCC)) break;
    high |= swar::high_byte(w);
  }
  for (; i < s.size() && static_cast<unsigned char>(s[i]) < 0xCC; ++i) high |= static_cast<unsigned char>(s[i]) & 0x80u;
  if (i == s.size()) return !high || !find_invalid_utf8(s);
  UErrorCode e = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(e);
  if (U_FAILURE(e)) return false;
  const bool yes = nfc->isNormalizedUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())), e);
  return U_SUCCESS(e) && yes && !find_invalid_utf8(s);
}

std::optional<std::pair<std::size_t, std::size_t>> find_canonical(std::string_view hay, std::string_view needle, std::size_t from) {
  if (needle.empty()) return std::nullopt;
  const NfcText h = nfc_with_origin(hay);
  const std::string want = nfc_with_origin(needle).text;
  for (std::size_t at = h.text.find(want); at != std::string::npos; at = h.text.find(want, at + 1)) {
    const std::size_t end = at + want.size();
    // Whole characters of `hay`: the match starts and ends at segment edges.
    if (h.origin[at] < from || !whole_characters(h.origin, at, end)) continue;
    return std::make_pair(h.origin[at], h.origin[end]);
  }
  return std::nullopt;
}

std::string iso_datetime_problem(std::string_view s) {
  const std::string want = "not an ISO 8601 date (YYYY-MM-DD, or a date-time such as 2024-03-01T12:00:00Z)";
  if (s.size() < 10 || !is_calendar_date(s.substr(0, 10))) return want;
  if (s.size() == 10) return {};
  std::size_t i = 10;
  if (s[i] != 'T' && s[i] != 't' && s[i] != ' ') return want;
  ++i;
  auto two = [&](int max) {  // two digits at i, at most max
    if (i + 2 > s.size() || s[i] < '0' || s[i] > '9' || s[i + 1] < '0' || s[i + 1] > '9') return false;
    const int v = (s[i] - '0') * 10 + (s[i + 1] - '0');
    i += 2;
    return v <= max;
  };
  if (!two(23) || i >= s.size() || s[i++] != ':' || !two(59)) return want;
  if (i < s.size() && s[i] == ':') {
    ++i;
    if (!two(60)) return want;
    if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
      const std::size_t start = ++i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      if (i == start) return want;
    }
  }
  if (i == s.size()) return {};
  if ((s[i] == 'Z' || s[i] == 'z') && i + 1 == s.size()) return {};
  if (s[i] != '+' && s[i] != '-') return want;
  ++i;
  if (!two(23)) return want;
  if (i == s.size()) return {};
  if (s[i] == ':') ++i;
  if (!two(59) || i != s.size()) return want;
  return {};
}

namespace {

// The bytes of an invisible or direction-changing character at s[i] (3: the characters below are all three
// bytes of UTF-8), or 0. U+200B-U+200F (E2 80 8B-8F), U+202A-U+202E (E2 80 AA-AE), U+2060-U+2069 (E2 81 A0-A9),
// U+FEFF (EF BB BF).
std::size_t invisible_at(std::string_view s, std::size_t i) {
  if (i + 2 >= s.size()) return 0;
  const unsigned char c = static_cast<unsigned char>(s[i]), b = static_cast<unsigned char>(s[i + 1]),
                      d = static_cast<unsigned char>(s[i + 2]);
  if (c == 0xE2 && ((b == 0x80 && ((d >= 0x8B && d <= 0x8F) || (d >= 0xAA && d <= 0xAE))) || (b == 0x81 && d >= 0xA0 && d <= 0xA9)))
    return 3;
  return c == 0xEF && b == 0xBB && d == 0xBF ? 3 : 0;
}

constexpr const char* kInvisible = "contains an invisible or direction-changing character (such as U+202E)";

}  // namespace

std::string invisible_character_problem(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i)
    if (invisible_at(s, i)) return kInvisible;
  return "";
}

std::string participant_id_problem(std::string_view id) {
  if (id.empty()) return "is empty";
  if (id.front() == '.') return "starts with '.'";
  for (std::size_t i = 0; i < id.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(id[i]);
    if (c < 0x20 || c == 0x7f || c == ' ' || c == ':' || c == '/' || c == '\\')
      return "may not contain spaces, control characters, ':' or slashes";
    if (invisible_at(id, i)) return kInvisible;
  }
  return "";
}

std::string escape_controls(std::string_view s) {
  std::string out;
  char buf[16];
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) {
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
      continue;
    }
    if (invisible_at(s, i)) {
      const unsigned cp = ((c & 0x0Fu) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) | (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
      std::snprintf(buf, sizeof buf, "\\u%04X", cp);
      out += buf;
      i += 2;
      continue;
    }
    out += static_cast<char>(c);
  }
  return out;
}

std::string terminal_safe(std::string_view s, bool keep_newlines) {
  std::string out;
  out.reserve(s.size());
  std::size_t column = 0;  // code points since the start or the last kept line break, for tab stops
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const auto n = static_cast<int32_t>(s.size());
  char buf[16];
  for (int32_t i = 0; i < n;) {
    const int32_t start = i;
    UChar32 c;
    U8_NEXT(p, i, n, c);
    if (c < 0) {  // the invalid sequence U8_NEXT skipped, byte by byte
      for (int32_t k = start; k < i; ++k) {
        std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(p[k]));
        out += buf;
        column += 4;
      }
    } else if (c == '\t') {
      const std::size_t stop = (column / 8 + 1) * 8;
      out.append(stop - column, ' ');
      column = stop;
    } else if (keep_newlines && (c == '\n' || (c == '\r' && i < n && p[i] == '\n'))) {
      if (c == '\r') ++i;
      out += '\n';
      column = 0;
    } else if (c < 0x20 || c == 0x7f) {
      out += '^';
      out += static_cast<char>(c == 0x7f ? '?' : c + 0x40);
      column += 2;
    } else if (c >= 0x80 && c < 0xa0) {
      std::snprintf(buf, sizeof buf, "<U+%04X>", static_cast<unsigned>(c));
      out += buf;
      column += 8;
    } else {
      out.append(s.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(i - start)));
      ++column;
    }
  }
  return out;
}

std::string escape_invalid_utf8(std::string_view s) {
  std::string out;
  while (!s.empty()) {
    auto bad = find_invalid_utf8(s);
    if (!bad) break;
    out += escape_controls(s.substr(0, bad->offset));
    // The invalid sequence: U8_NEXT skips a truncated lead byte with its continuation bytes; show them all.
    const auto* p = reinterpret_cast<const uint8_t*>(s.data());
    int32_t i = static_cast<int32_t>(bad->offset), n = static_cast<int32_t>(s.size());
    UChar32 c;
    U8_NEXT(p, i, n, c);
    char buf[8];
    for (auto k = bad->offset; k < static_cast<std::size_t>(i); ++k) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(p[k]));
      out += buf;
    }
    s.remove_prefix(static_cast<std::size_t>(i));
  }
  return out + escape_controls(s);
}

}  // namespace qualrank::text
