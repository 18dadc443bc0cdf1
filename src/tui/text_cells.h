// Characters, columns and words of text on a terminal, for the terminal coder's selection and drawing (no
// terminal needed): grapheme clusters (Unicode UAX #29, ICU), their columns, words, and text fitted to a width.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qualrank::tui {

// A user-perceived character, a grapheme cluster (ICU's character break iterator): a base with the combining
// marks, variation selectors, emoji modifiers and zero-width-joined code points that follow it, or a flag's
// two regional indicators. `width` is its terminal columns: its base's (0, 1 or 2; a flag 2).
struct Cluster {
  std::size_t begin = 0, end = 0;  // byte range
  int width = 1;
};
std::vector<Cluster> clusters(std::string_view utf8);
// Columns a string takes on a terminal (sum of its clusters' widths).
int display_width(std::string_view utf8);
// The bytes of the longest start of `utf8` that takes at most `cols` columns, whole clusters only (0 when not
// even its first cluster fits): where a word longer than its line is broken onto the next one.
std::size_t fitting_prefix(std::string_view utf8, int cols);

// `text` fitted into `cols` columns by cutting its middle ("…"), never its end: a trailing parenthesis (a
// count, "(y/n)") is kept whole when it leaves at least 8 columns for the start; else the last third.
std::string fit_middle(std::string_view text, int cols);

// A selectable word: a run of clusters without white space; a wide character (CJK ideograph, emoji) is a
// word of its own, as CJK text has no spaces. Byte range into the text.
struct Word {
  std::size_t begin = 0, end = 0;
};
std::vector<Word> split_words(std::string_view utf8);

// The byte range [begin, end) of `text` without the punctuation clusters (quote marks, commas, stops: a
// cluster whose first code point is punctuation) at either end; the range as given when it holds nothing else.
std::pair<std::size_t, std::size_t> trim_punctuation(std::string_view text, std::size_t begin, std::size_t end);

}  // namespace qualrank::tui
