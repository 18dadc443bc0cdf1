#include <catch2/catch.hpp>

#include "qualrank/analysis/autocode.h"

using namespace qualrank;

TEST_CASE("analysis::KeywordMatcher matches case-insensitively at word boundaries", "[analysis]") {
  KeywordMatcher m({{"pip install", "A.1"}, {"oom", "C.2"}, {"out of memory", "C.2"}, {"nccl", "C.3"}, {"Größe", "X"}});
  CHECK(m.suggest("Then PIP INSTALL failed") == std::vector<std::string>{"A.1"});
  CHECK(m.suggest("zoom meetings").empty());               // 'oom' inside a word
  CHECK(m.suggest("OOM, then Out Of Memory again") == std::vector<std::string>{"C.2"});
  CHECK(m.suggest("NCCL timeouts; oom") == std::vector<std::string>{"C.2", "C.3"});  // taxonomy (rule) order
  CHECK(m.suggest("die GRÖSSE ist egal").empty());          // simple folding keeps ß apart from SS
  CHECK(m.suggest("die GRÖßE zählt") == std::vector<std::string>{"X"});
  CHECK(m.suggest("Größenordnung").empty());                // followed by a letter
  CHECK(m.suggest("").empty());
}

TEST_CASE("analysis::KeywordMatcher finds overlapping and nested keywords", "[analysis]") {
  KeywordMatcher m({{"memory", "M"}, {"out of memory", "O"}, {"of", "F"}});
  std::vector<std::size_t> hits;
  auto n = m.scan("out of memory", [&](std::size_t r) { hits.push_back(r); });
  CHECK(n == 3);
  CHECK(m.suggest("out of memory") == std::vector<std::string>{"M", "O", "F"});
}
