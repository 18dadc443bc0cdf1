// Finding listed names in a text by meaning (report/package/pseudonymise.h): the text is folded unit by unit
// (util/name_fold.h) and the folded bytes run through one Aho-Corasick automaton over the folded names
// (analysis/autocode.h, verbatim keys), so a text is read once whatever the length of the list. A key counts
// where it starts at a unit's first byte and ends at a unit's last, and the units around it are not word
// units (or something invisible stands between); its occurrence is then the original bytes from its first
// unit to its last.
#pragma once
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "qualrank/analysis/autocode.h"
#include "qualrank/util/name_fold.h"

namespace qualrank::name_search {

// Longest key a scan can place (bytes of folded text; a listed name of kMaxNameBytes folds to far less).
inline constexpr std::size_t kMaxKeyBytes = 4095;

struct Hit {
  std::size_t begin = 0, end = 0;  // original bytes
  std::size_t key = 0;             // the matcher's rule
};

struct Scan {
  std::vector<Hit> hits;                                    // every occurrence, in the order they end
  std::vector<std::pair<std::size_t, std::size_t>> markup;  // emphasis inside words, [begin, end), in order
};

// Every occurrence in `text` of a key of `keys` (built verbatim from text::folded_name(key, mode), each at
// most kMaxKeyBytes). Linear in the text plus the occurrences.
Scan scan(std::string_view text, text::NameFold mode, const KeywordMatcher& keys);

// The occurrences a replacement takes: leftmost first; among those starting together the longest, then the
// first key; any that overlaps one taken is dropped.
std::vector<Hit> leftmost_longest(std::vector<Hit> hits);

// The line and column (1-based; columns in code points) of each offset of `sorted_offsets` (ascending).
std::vector<std::pair<int, int>> line_columns(std::string_view text, const std::vector<std::size_t>& sorted_offsets);

}  // namespace qualrank::name_search
