// Characters, columns and words of text on a terminal (text_cells.h): grapheme clusters by ICU's character
// break iterator, widths as wcwidth counts a cluster's base.
#include "text_cells.h"

#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/utext.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <optional>

namespace qualrank::tui {

namespace {

UChar32 next_code_point(std::string_view s, std::size_t& i) {
  int32_t pos = static_cast<int32_t>(i);
  UChar32 c;
  U8_NEXT(reinterpret_cast<const uint8_t*>(s.data()), pos, static_cast<int32_t>(s.size()), c);
  i = static_cast<std::size_t>(pos);
  return c < 0 ? 0xFFFD : c;
}

int base_width(UChar32 c) {
  if (c < 0x20 || (c >= 0x7F && c < 0xA0)) return 0;
  auto ea = u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH);
  if (ea == U_EA_WIDE || ea == U_EA_FULLWIDTH) return 2;
  if (u_hasBinaryProperty(c, UCHAR_EMOJI_PRESENTATION)) return 2;
  return 1;
}

bool is_space(UChar32 c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || u_isUWhiteSpace(c); }

// The grapheme cluster boundaries of the UTF-8 text (ICU's character break iterator, Unicode UAX #29: combining
// marks, ZWJ sequences, flag pairs, variation selectors, Hangul syllables). One iterator per thread, reused.
UBreakIterator* grapheme_breaks() {
  struct Holder {
    UBreakIterator* it = nullptr;
    ~Holder() {
      if (it) ubrk_close(it);
    }
  };
  thread_local Holder h;
  if (!h.it) {
    UErrorCode status = U_ZERO_ERROR;
    h.it = ubrk_open(UBRK_CHARACTER, "", nullptr, 0, &status);
    if (U_FAILURE(status)) h.it = nullptr;
  }
  return h.it;
}

}  // namespace

std::vector<Cluster> clusters(std::string_view s) {
  std::vector<Cluster> out;
  auto width_of = [&](std::size_t begin, std::size_t end) {
    // The base's columns; what follows it in the cluster (marks, ZWJ and what it joins, VS16, modifiers) adds
    // none, as wcwidth counts them; a flag (two regional indicators) takes two.
    std::size_t i = begin;
    UChar32 c = next_code_point(s, i);
    if (c >= 0x1F1E6 && c <= 0x1F1FF) return i < end ? 2 : 1;
    return base_width(c);
  };
  const bool ascii = std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  UBreakIterator* it = ascii ? nullptr : grapheme_breaks();
  UErrorCode status = U_ZERO_ERROR;
  UText* ut = nullptr;
  if (it) {
    ut = utext_openUTF8(nullptr, s.data(), static_cast<int64_t>(s.size()), &status);
    if (U_SUCCESS(status)) ubrk_setUText(it, ut, &status);
    if (U_FAILURE(status)) it = nullptr;
  }
  if (!it) {  // ASCII, or no ICU iterator: one code point a character (\r\n together)
    for (std::size_t i = 0; i < s.size();) {
      std::size_t end = i;
      if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') end = i + 2;
      else next_code_point(s, end);
      out.push_back({i, end, width_of(i, end)});
      i = end;
    }
  } else {
    int32_t begin = ubrk_first(it);
    for (int32_t end = ubrk_next(it); end != UBRK_DONE; begin = end, end = ubrk_next(it)) {
      auto b = static_cast<std::size_t>(begin), e = static_cast<std::size_t>(end);
      out.push_back({b, e, width_of(b, e)});
    }
  }
  if (ut) utext_close(ut);
  return out;
}

int display_width(std::string_view s) {
  int w = 0;
  for (const auto& c : clusters(s)) w += c.width;
  return w;
}

std::size_t fitting_prefix(std::string_view s, int cols) {
  std::size_t cut = 0;
  int used = 0;
  for (const auto& cl : clusters(s)) {
    if (used + cl.width > cols) break;
    used += cl.width;
    cut = cl.end;
  }
  return cut;
}

std::string fit_middle(std::string_view text, int cols) {
  if (cols <= 0) return "";
  if (display_width(text) <= cols) return std::string(text);
  // The start's clusters that fit `width` columns; the end's clusters that fit `width` columns.
  auto head = [&](std::string_view s, int width) { return std::string(s.substr(0, fitting_prefix(s, width))); };
  auto tail = [&](std::string_view s, int width) {
    auto cl = clusters(s);
    std::size_t cut = s.size();
    int used = 0;
    for (auto it = cl.rbegin(); it != cl.rend(); ++it) {
      if (used + it->width > width) break;
      used += it->width;
      cut = it->begin;
    }
    return std::string(s.substr(cut));
  };
  if (cols < 4) return head(text, cols);
  std::size_t paren = text.rfind(" (");
  int end_cols = (cols - 1) / 3;
  if (paren != std::string_view::npos && text.back() == ')' && display_width(text.substr(paren)) <= cols - 9)
    end_cols = display_width(text.substr(paren));
  std::string end = tail(text, end_cols);
  return head(text, cols - 1 - display_width(end)) + "…" + end;
}

std::vector<Word> split_words(std::string_view s) {
  std::vector<Word> out;
  std::optional<Word> cur;
  for (const auto& cl : clusters(s)) {
    std::size_t i = cl.begin;
    UChar32 c = next_code_point(s, i);
    if (is_space(c)) {
      if (cur) out.push_back(*cur);
      cur.reset();
    } else if (cl.width == 2) {  // a wide character is a word of its own
      if (cur) out.push_back(*cur);
      cur.reset();
      out.push_back({cl.begin, cl.end});
    } else if (cur) {
      cur->end = cl.end;
    } else {
      cur = Word{cl.begin, cl.end};
    }
  }
  if (cur) out.push_back(*cur);
  return out;
}

std::pair<std::size_t, std::size_t> trim_punctuation(std::string_view text, std::size_t begin, std::size_t end) {
  auto punct = [&](const Cluster& cl) {
    std::size_t i = begin + cl.begin;
    return u_ispunct(next_code_point(text, i)) != 0;
  };
  const auto cl = clusters(text.substr(begin, end - begin));
  std::size_t first = 0, last = cl.size();
  while (first < last && punct(cl[first])) ++first;
  while (last > first && punct(cl[last - 1])) --last;
  if (first == last) return {begin, end};  // nothing but punctuation: taken as it is
  return {begin + cl[first].begin, begin + cl[last - 1].end};
}

}  // namespace qualrank::tui
