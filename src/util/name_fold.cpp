// A text as a name search sees it (util/name_fold.h). One pass from left to right: each step reads one
// character of the decoded text (a UTF-8 character, an HTML character reference or a YAML/JSON escape) with
// the original bytes it was read from. Characters gather into a "chunk" until the next one starts a new
// normalisation segment (Normalizer2::hasBoundaryBefore: a starter, not a combining mark), so a chunk is a
// base character and its marks; a finished chunk is normalised to NFD, fully case-folded and normalised
// again (canonical caseless matching, The Unicode Standard 3.13, D145) and becomes one unit. A run of white
// space becomes one unit once it ends; a run of '*' waits for the unit after it: next to a word unit on either
// side it is Markdown emphasis (`Jo**nas**`, `*Jonas*`) and makes no unit, else it is a '*' unit. A unit after something that made
// no unit (an invisible character, a comment, emphasis) says so: a name may start or end there.
#include "qualrank/util/name_fold.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace qualrank::text {

namespace {

struct Entity {
  const char* name;
  UChar32 cp;
};

// HTML named character references that can stand in a name or between its words: the Latin-1 letters, the
// Latin Extended-A letters HTML names, the invisible and space characters, and the five of XML.
constexpr Entity kEntities[] = {
    {"AElig", 0xC6},   {"Aacute", 0xC1},  {"Abreve", 0x102}, {"Acirc", 0xC2},   {"Agrave", 0xC0},  {"Amacr", 0x100},
    {"Aogon", 0x104},  {"Aring", 0xC5},   {"Atilde", 0xC3},  {"Auml", 0xC4},    {"Cacute", 0x106}, {"Ccaron", 0x10C},
    {"Ccedil", 0xC7},  {"Dcaron", 0x10E}, {"Dstrok", 0x110}, {"ETH", 0xD0},     {"Eacute", 0xC9},  {"Ecaron", 0x11A},
    {"Ecirc", 0xCA},   {"Egrave", 0xC8},  {"Emacr", 0x112},  {"Eogon", 0x118},  {"Euml", 0xCB},    {"Gbreve", 0x11E},
    {"Iacute", 0xCD},  {"Icirc", 0xCE},   {"Idot", 0x130},   {"Igrave", 0xCC},  {"Iuml", 0xCF},    {"Lstrok", 0x141},
    {"Nacute", 0x143}, {"Ncaron", 0x147}, {"Ntilde", 0xD1},  {"OElig", 0x152},  {"Oacute", 0xD3},  {"Ocirc", 0xD4},
    {"Odblac", 0x150}, {"Ograve", 0xD2},  {"Oslash", 0xD8},  {"Otilde", 0xD5},  {"Ouml", 0xD6},    {"Racute", 0x154},
    {"Rcaron", 0x158}, {"Sacute", 0x15A}, {"Scaron", 0x160}, {"Scedil", 0x15E}, {"THORN", 0xDE},   {"Tcaron", 0x164},
    {"Uacute", 0xDA},  {"Ucirc", 0xDB},   {"Udblac", 0x170}, {"Ugrave", 0xD9},  {"Uring", 0x16E},  {"Uuml", 0xDC},
    {"Yacute", 0xDD},  {"Yuml", 0x178},   {"Zacute", 0x179}, {"Zcaron", 0x17D}, {"Zdot", 0x17B},   {"aacute", 0xE1},
    {"abreve", 0x103}, {"acirc", 0xE2},   {"aelig", 0xE6},   {"agrave", 0xE0},  {"amacr", 0x101},  {"amp", 0x26},
    {"aogon", 0x105},  {"apos", 0x27},    {"aring", 0xE5},   {"atilde", 0xE3},  {"auml", 0xE4},    {"cacute", 0x107},
    {"ccaron", 0x10D}, {"ccedil", 0xE7},  {"dcaron", 0x10F}, {"dstrok", 0x111}, {"eacute", 0xE9},  {"ecaron", 0x11B},
    {"ecirc", 0xEA},   {"egrave", 0xE8},  {"emacr", 0x113},  {"emsp", 0x2003},  {"ensp", 0x2002},  {"eogon", 0x119},
    {"eth", 0xF0},     {"euml", 0xEB},    {"gbreve", 0x11F}, {"gt", 0x3E},      {"iacute", 0xED},  {"icirc", 0xEE},
    {"igrave", 0xEC},  {"imath", 0x131},  {"iuml", 0xEF},    {"lrm", 0x200E},   {"lstrok", 0x142}, {"lt", 0x3C},
    {"nacute", 0x144}, {"nbsp", 0xA0},    {"ncaron", 0x148}, {"ntilde", 0xF1},  {"oacute", 0xF3},  {"ocirc", 0xF4},
    {"odblac", 0x151}, {"oelig", 0x153},  {"ograve", 0xF2},  {"oslash", 0xF8},  {"otilde", 0xF5},  {"ouml", 0xF6},
    {"quot", 0x22},    {"racute", 0x155}, {"rcaron", 0x159}, {"rlm", 0x200F},   {"sacute", 0x15B}, {"scaron", 0x161},
    {"scedil", 0x15F}, {"shy", 0xAD},     {"szlig", 0xDF},   {"tcaron", 0x165}, {"thinsp", 0x2009}, {"thorn", 0xFE},
    {"uacute", 0xFA},  {"ucirc", 0xFB},   {"udblac", 0x171}, {"ugrave", 0xF9},  {"uring", 0x16F},  {"uuml", 0xFC},
    {"yacute", 0xFD},  {"yuml", 0xFF},    {"zacute", 0x17A}, {"zcaron", 0x17E}, {"zdot", 0x17C},   {"zwj", 0x200D},
    {"zwnj", 0x200C},
};

UChar32 named_entity(std::string_view name) {
  auto it = std::lower_bound(std::begin(kEntities), std::end(kEntities), name,
                             [](const Entity& e, std::string_view n) { return std::string_view(e.name) < n; });
  return it != std::end(kEntities) && it->name == name ? it->cp : -1;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The value of `count` hex digits at s[i..], or -1.
long hex_at(std::string_view s, std::size_t i, std::size_t count) {
  if (i + count > s.size()) return -1;
  long v = 0;
  for (std::size_t k = 0; k < count; ++k) {
    int d = hex_digit(s[i + k]);
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

bool scalar_value(long cp) { return cp > 0 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF); }

// An HTML character reference at s[i] ('&'): its character and length, or -1.
UChar32 entity_at(std::string_view s, std::size_t i, std::size_t& len) {
  std::size_t j = i + 1;
  if (j < s.size() && s[j] == '#') {
    ++j;
    bool hex = j < s.size() && (s[j] == 'x' || s[j] == 'X');
    if (hex) ++j;
    long v = 0;
    std::size_t digits = 0;
    for (; j < s.size() && digits < 8; ++j, ++digits) {
      int d = hex ? hex_digit(s[j]) : (s[j] >= '0' && s[j] <= '9' ? s[j] - '0' : -1);
      if (d < 0) break;
      v = v * (hex ? 16 : 10) + d;
    }
    if (digits == 0 || j >= s.size() || s[j] != ';' || !scalar_value(v)) return -1;
    len = j + 1 - i;
    return static_cast<UChar32>(v);
  }
  std::size_t k = j;
  while (k < s.size() && k - j < 8 && ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z'))) ++k;
  if (k == j || k >= s.size() || s[k] != ';') return -1;
  UChar32 cp = named_entity(s.substr(j, k - j));
  if (cp >= 0) len = k + 1 - i;
  return cp;
}

// A YAML (or JSON) escape at s[i] ('\'): its character and length, or -1.
UChar32 escape_at(std::string_view s, std::size_t i, std::size_t& len) {
  if (i + 1 >= s.size()) return -1;
  long v = -1;
  switch (s[i + 1]) {
    case 'u':
      v = hex_at(s, i + 2, 4);
      len = 6;
      if (v >= 0xD800 && v <= 0xDBFF && i + 7 < s.size() && s[i + 6] == '\\' && s[i + 7] == 'u') {
        long low = hex_at(s, i + 8, 4);
        if (low >= 0xDC00 && low <= 0xDFFF) {
          v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00);
          len = 12;
        }
      }
      break;
    case 'U': v = hex_at(s, i + 2, 8); len = 10; break;
    case 'x': v = hex_at(s, i + 2, 2); len = 4; break;
    case '_': v = 0xA0; len = 2; break;
    case 'N': v = 0x85; len = 2; break;
    case 'L': v = 0x2028; len = 2; break;
    case 'P': v = 0x2029; len = 2; break;
    case 't': v = '\t'; len = 2; break;
    case 'n': v = '\n'; len = 2; break;
    case 'r': v = '\r'; len = 2; break;
    case ' ': case '\\': case '"': case '/': v = static_cast<unsigned char>(s[i + 1]); len = 2; break;
    default: break;
  }
  return scalar_value(v) ? static_cast<UChar32>(v) : -1;
}

// ASCII characters by what the fold does with them (no ICU call for the bytes most texts are made of).
enum AsciiKind : uint8_t { kOther, kWord, kSpace, kStar };
struct AsciiKinds {
  std::array<AsciiKind, 128> t{};
  AsciiKinds() {
    for (int c = 0; c < 128; ++c) {
      AsciiKind& k = t[static_cast<std::size_t>(c)];
      if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) k = kWord;
      else if (c == ' ' || (c >= '\t' && c <= '\r') || c == '_') k = kSpace;  // White_Space in ASCII, and '_'
      else if (c == '*') k = kStar;
    }
  }
};
const AsciiKinds kAscii;

bool is_mark(UChar32 c) {
  auto t = u_charType(c);
  return t == U_NON_SPACING_MARK || t == U_ENCLOSING_MARK || t == U_COMBINING_SPACING_MARK;
}

// Code points of one chunk at most: the Stream-Safe Text Format (UAX #15) allows 30 marks after a base; past
// that the marks start chunks of their own, so a hostile run of marks costs linear time, not quadratic
// reordering, and memory stays small.
constexpr std::size_t kMaxChunk = 32;

class Folder {
 public:
  Folder(NameFold mode, FoldSink& sink) : mode_(mode), sink_(sink) {
    UErrorCode e = U_ZERO_ERROR;
    nfd_ = icu::Normalizer2::getNFDInstance(e);
  }

  void run(std::string_view s) {
    const auto* p = reinterpret_cast<const uint8_t*>(s.data());
    const std::size_t n = s.size();
    std::size_t no_close_from = n + 1;  // from here on no comment is closed
    std::size_t i = 0;
    while (i < n) {
      const uint8_t b = p[i];
      std::size_t len = 0;
      if (b == '<' && i < no_close_from && s.compare(i, 4, "<!--") == 0) {
        auto close = s.find("-->", i + 4);
        if (close != std::string_view::npos) {
          i = close + 3;  // between units, as an invisible character
          invisible_ = true;
          continue;
        }
        no_close_from = i;
      } else if (b == '&') {
        if (UChar32 c = entity_at(s, i, len); c >= 0) {
          character(c, i, i + len);
          i += len;
          continue;
        }
      } else if (b == '\\') {
        if (UChar32 c = escape_at(s, i, len); c >= 0) {
          character(c, i, i + len);
          i += len;
          continue;
        }
      }
      if (b < 0x80) {
        character(b, i, i + 1);
        ++i;
        continue;
      }
      std::size_t start = i;
      int32_t j = static_cast<int32_t>(i);
      UChar32 c;
      U8_NEXT(p, j, static_cast<int32_t>(n), c);
      i = static_cast<std::size_t>(j);
      character(c < 0 ? 0xFFFD : c, start, i);
    }
    flush_chunk();
    flush_space();
    resolve_star(false);
  }

 private:
  void character(UChar32 c, std::size_t b, std::size_t e) {
    const AsciiKind kind = c < 0x80 ? kAscii.t[static_cast<std::size_t>(c)] : kOther;
    if (kind == kStar) {
      flush_chunk();
      flush_space();
      if (!star_) star_begin_ = b;
      star_ = true;
      star_end_ = e;
      return;
    }
    if (kind == kSpace || (c >= 0x80 && u_isUWhiteSpace(c))) {
      flush_chunk();
      if (space_) {
        space_end_ = e;
      } else {
        resolve_star(false);
        space_ = true;
        space_begin_ = b;
        space_end_ = e;
      }
      return;
    }
    if (c >= 0x80 && u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT)) {
      invisible_ = true;
      return;
    }
    flush_space();
    if (!chunk_.empty() && (c < 0x80 || chunk_.size() >= kMaxChunk || nfd_->hasBoundaryBefore(c))) flush_chunk();
    if (chunk_.empty()) chunk_begin_ = b;
    chunk_.push_back(c);
    chunk_end_ = e;
  }

  void flush_space() {
    if (!space_) return;
    space_ = false;
    emit(" ", space_begin_, space_end_, false);
  }

  // A pending run of '*': Markdown emphasis (no unit) when a word unit stands on either side of it, else a
  // '*' unit (`a * b`).
  void resolve_star(bool next_word) {
    if (!star_) return;
    star_ = false;
    if (last_word_ || next_word) {
      sink_.kept_markup(star_begin_, star_end_);
      invisible_ = true;
      return;
    }
    last_word_ = false;
    sink_.unit({"*", star_begin_, star_end_, false, invisible_});
    invisible_ = false;
  }

  void emit(std::string_view folded, std::size_t b, std::size_t e, bool word) {
    resolve_star(word);
    sink_.unit({folded, b, e, word, invisible_});
    invisible_ = false;
    last_word_ = word;
  }

  void flush_chunk() {
    if (chunk_.empty()) return;
    const UChar32 first = chunk_.front();
    if (chunk_.size() == 1 && first < 0x80) {
      char c = static_cast<char>(first >= 'A' && first <= 'Z' ? first + 32 : first);
      chunk_.clear();
      emit(std::string_view(&c, 1), chunk_begin_, chunk_end_, kAscii.t[static_cast<std::size_t>(first)] == kWord);
      return;
    }
    const bool word = u_isalnum(first) || is_mark(first);
    // A lone non-ASCII character folds the same every time: a small direct-mapped cache of the last ones.
    Cached* slot = nullptr;
    if (chunk_.size() == 1) {
      slot = &cache_[static_cast<std::size_t>(first) % cache_.size()];
      if (slot->cp == first) {
        chunk_.clear();
        if (slot->len > 0) emit(std::string_view(slot->bytes, slot->len), chunk_begin_, chunk_end_, word);
        return;
      }
    }
    icu::UnicodeString u;
    for (UChar32 c : chunk_) u.append(c);
    chunk_.clear();
    UErrorCode e = U_ZERO_ERROR;
    u = nfd_->normalize(u, e);
    u.foldCase(U_FOLD_CASE_DEFAULT);
    u = nfd_->normalize(u, e);
    folded_.clear();
    UChar32 prev = -1;
    for (int32_t k = 0; k < u.length(); k = u.moveIndex32(k, 1)) {
      UChar32 c = u.char32At(k);
      if (c == 0x131) c = 'i';                                      // dotless i
      if (c == 0x2018 || c == 0x2019 || c == 0x2BC || c == 0xFF07) c = '\'';  // O’Brien is O'Brien
      if (c == 0x2010 || c == 0x2011) c = '-';                      // hyphen, non-breaking hyphen
      if (c == 0x307 && (prev == 'i' || prev == 'j')) continue;     // İ folds to i + dot above
      if (mode_ == NameFold::unaccented) {
        if (is_mark(c)) continue;
        const char* plain = c == 0xF8    ? "o"
                            : c == 0xE6  ? "ae"
                            : c == 0x153 ? "oe"
                            : c == 0x142 ? "l"
                            : c == 0x111 ? "d"
                                         : nullptr;
        if (plain) {
          folded_ += plain;
          prev = c;
          continue;
        }
      }
      char buf[4];
      int32_t len = 0;
      UBool err = false;
      U8_APPEND(reinterpret_cast<uint8_t*>(buf), len, 4, c, err);
      (void)err;  // c is a scalar value: it fits
      folded_.append(buf, static_cast<std::size_t>(len));
      prev = c;
    }
    if (slot && folded_.size() <= sizeof slot->bytes) {
      slot->cp = first;
      slot->len = static_cast<std::uint8_t>(folded_.size());
      std::memcpy(slot->bytes, folded_.data(), folded_.size());
    }
    if (folded_.empty()) return;  // a lone mark, in the unaccented fold
    emit(folded_, chunk_begin_, chunk_end_, word);
  }

  struct Cached {
    UChar32 cp = -1;
    std::uint8_t len = 0;
    char bytes[15];
  };
  std::array<Cached, 256> cache_;
  NameFold mode_;
  FoldSink& sink_;
  const icu::Normalizer2* nfd_ = nullptr;
  std::vector<UChar32> chunk_;
  std::size_t chunk_begin_ = 0, chunk_end_ = 0;
  std::string folded_;
  bool space_ = false;
  std::size_t space_begin_ = 0, space_end_ = 0;
  bool star_ = false;
  std::size_t star_begin_ = 0, star_end_ = 0;
  bool last_word_ = false;
  bool invisible_ = false;  // something invisible since the last unit
};

}  // namespace

void fold_for_names(std::string_view text, NameFold mode, FoldSink& sink) { Folder(mode, sink).run(text); }

std::string folded_name(std::string_view name, NameFold mode) {
  struct Collect : FoldSink {
    std::vector<std::string> units;
    void unit(const FoldedUnit& u) override { units.emplace_back(u.folded); }
  } collect;
  fold_for_names(name, mode, collect);
  auto& u = collect.units;
  std::size_t b = 0, e = u.size();
  while (b < e && u[b] == " ") ++b;
  while (e > b && u[e - 1] == " ") --e;
  std::string out;
  for (std::size_t k = b; k < e; ++k) out += u[k];
  return out;
}

}  // namespace qualrank::text
