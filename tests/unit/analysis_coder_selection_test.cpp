// Unit tests for whose coding an analysis counts (src/analysis/coder_selection.cpp).
#include "catch.h"

#include "qualrank/analysis/coder_selection.h"

using namespace qualrank;

TEST_CASE("is_consensus_coder: the consensus in any case, ASCII compared without folding, other text folded", "[coding]") {
  CHECK(is_consensus_coder("consensus"));
  CHECK(is_consensus_coder("Consensus"));
  CHECK(is_consensus_coder("CONSENSUS"));
  CHECK(is_consensus_coder("con\xC5\xBF" "ensus"));  // U+017F LATIN SMALL LETTER LONG S folds to 's'
  CHECK_FALSE(is_consensus_coder("consensu"));
  CHECK_FALSE(is_consensus_coder("consensus2"));
  CHECK_FALSE(is_consensus_coder("consensus "));
  CHECK_FALSE(is_consensus_coder("dana"));
  CHECK_FALSE(is_consensus_coder(""));
  CHECK_FALSE(is_consensus_coder("c\xC3\xB6nsensus"));  // o with diaeresis
}
