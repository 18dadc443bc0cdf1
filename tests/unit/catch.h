// The unit tests' one include of Catch2, for both major versions Debian ships: Catch2 v2 (Debian 12, one
// header, catch2/catch.hpp) and Catch2 v3 (Debian 13, Ubuntu 24.04: a compiled library, catch2/catch_all.hpp).
// tests/CMakeLists.txt defines QUALRANK_CATCH2_V3 when it found v3. The few names that moved in v3
// are spelled here the v3 way on v2 too, so the tests read the same on both.
#pragma once

#ifdef QUALRANK_CATCH2_V3
#include <catch2/catch_all.hpp>
using Catch::Approx;
#else
#include <catch2/catch.hpp>
#include <string>
namespace Catch::Matchers {
// v3's string matcher ContainsSubstring(s) is Contains(s) in v2 (v3's Contains matches an element of a range).
inline StdString::ContainsMatcher ContainsSubstring(std::string const& s) { return Contains(s); }
}  // namespace Catch::Matchers
#endif
