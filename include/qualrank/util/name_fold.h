// A text as a name search sees it: canonically equivalent, caseless, decoded, in one left-to-right pass that
// keeps a map back to the original bytes (util/name_fold.cpp says how each rule is applied).
//
// The text is cut into units; each unit is a few folded UTF-8 bytes and the original bytes it came from:
//   - a character with its combining marks: NFD, full Unicode case folding, NFD again (canonical caseless
//     matching, Unicode 3.13 D145), so "Zoë" composed, decomposed and "ZOË" fold alike; İ/ı fold as i,
//     typographic apostrophes (’ ‘ ʼ) as ', the hyphen and non-breaking hyphen (U+2010, U+2011) as -;
//   - a run of white space (space, NBSP, tabs, line breaks, CRLF, any White_Space character) or '_': one " ";
//   - HTML character references (&#237; &#xED; &iacute;) and YAML/JSON escapes (\u00ED, \U000000ED, \xED, \_,
//     \t, \n, surrogate pairs) are the character they stand for;
//   - invisible characters (Default_Ignorable_Code_Point: soft hyphen, zero-width space and joiners, word
//     joiner, BOM, ...), HTML comments (<!-- ... -->) and runs of '*' between two word characters
//     (Markdown emphasis inside a word: **Mar**ia) make no unit: they lie between units;
//   - any other character is a unit of its own, folded.
// In the unaccented fold the combining marks are dropped too and ø æ œ ł đ read as o ae oe l d: the near
// misses of a listed name ("Zoe Angstrom" for "Zoë Ångström").
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace qualrank::text {

enum class NameFold { exact, unaccented };

// One unit: its folded bytes, the original bytes [begin, end) it stands for, and whether it is a word
// character (a letter, digit or combining mark: a name matches only between units that are not, or where
// something invisible separates them).
struct FoldedUnit {
  std::string_view folded;
  std::size_t begin = 0, end = 0;
  bool word = false;
  bool after_invisible = false;  // an invisible character, comment or emphasis run lies just before it: a
                                 // name may start here, or end just before, even between word units
};

// Receives the units of a text in order, and the markup that lies between units but belongs to the text's
// structure (an emphasis run inside a word), which a replacement spanning it should keep.
class FoldSink {
 public:
  virtual ~FoldSink() = default;
  virtual void unit(const FoldedUnit& u) = 0;
  virtual void kept_markup(std::size_t /*begin*/, std::size_t /*end*/) {}
};

// Calls sink.unit for every unit of `text` in order, in time linear in the text's length (an HTML comment
// without its "-->" is text; a character carries at most 31 marks, the rest start units of their own; memory:
// one character's folding). Invalid UTF-8 bytes are U+FFFD units.
void fold_for_names(std::string_view text, NameFold mode, FoldSink& sink);

// The folded bytes of `name`'s units, white space at either end left out: the key a name is matched by.
std::string folded_name(std::string_view name, NameFold mode);

}  // namespace qualrank::text
