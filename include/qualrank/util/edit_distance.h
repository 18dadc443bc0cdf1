// A bounded edit distance for "did you mean" suggestions over input of any length (defined in text.cpp).
#pragma once
#include <cstddef>
#include <string_view>

namespace qualrank::text {

// min(edit_distance(a, b), max + 1), in time linear in the shorter string when the lengths differ by more than
// `max` (a 2 MB value compared with short ids costs nothing), and stopping once every path exceeds `max`.
std::size_t edit_distance_at_most(std::string_view a, std::string_view b, std::size_t max);

}  // namespace qualrank::text
