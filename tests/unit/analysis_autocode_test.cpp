#include "catch.h"

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

TEST_CASE("analysis::KeywordMatcher::matches is suggest() not empty, and a scan can stop at a limit", "[analysis]") {
  KeywordMatcher m({{"pip install", "A.1"}, {"oom", "C.2"}, {"nccl", "C.3"}});
  for (std::string_view text : {"Then PIP INSTALL failed", "zoom meetings", "oom", "x oom", "oomx", "", "nccl and oom and nccl",
                                "pip installer", "a pip install"}) {
    INFO(text);
    CHECK(m.matches(text) == !m.suggest(text).empty());
  }
  std::size_t calls = 0;
  struct Counter { std::size_t* calls; } c{&calls};
  const auto n = m.scan_impl("nccl and oom and nccl", [](void* p, int32_t, std::size_t, std::size_t) { ++*static_cast<Counter*>(p)->calls; }, &c, 1);
  CHECK(n == 1);  // stopped after the first of three
  CHECK(calls == 1);
  CHECK(m.scan_impl("nccl and oom and nccl", [](void*, int32_t, std::size_t, std::size_t) {}, nullptr) == 3);
}

TEST_CASE("analysis::KeywordMatcher compares keywords and text under NFC, on whole characters", "[analysis]") {
  const std::string nfc = "caf\u00e9", nfd = "cafe\u0301";
  auto rule = [](const std::string& k, bool whole = true) { return std::vector<KeywordRule>{{k, "N", whole}}; };
  KeywordMatcher composed(rule(nfc)), decomposed(rule(nfd)), plain(rule("cafe")), substring(rule(nfc, false));
  for (const auto* m : {&composed, &decomposed}) {
    CHECK(m->matches("the " + nfc + " is open"));
    CHECK(m->matches("the " + nfd + " is open"));
    CHECK(m->matches("THE CAF\u00c9"));
    CHECK(m->matches("THE CAFE\u0301"));
    CHECK_FALSE(m->matches("two " + nfd + "s"));  // whole word
    CHECK_FALSE(m->matches("the cafe"));
  }
  CHECK(substring.matches("two " + nfd + "s"));
  CHECK_FALSE(plain.matches("the " + nfd));  // "cafe" before its U+0301 is not a whole character
  CHECK(plain.matches("the cafe, then the " + nfd));
  CHECK_FALSE(KeywordMatcher(rule("x")).matches("x\u0308"));  // no composed form: still one character
  // Offsets in the text as given: after "Zoe" + U+0308 (5 bytes) and " at ", the 6 bytes of the NFD word.
  std::vector<std::pair<std::size_t, std::size_t>> at;
  scan_spans(composed, "Zoe\u0308 at " + nfd + "!", [&](std::size_t, std::size_t b, std::size_t e) { at.emplace_back(b, e); });
  CHECK(at == std::vector<std::pair<std::size_t, std::size_t>>{{9, 15}});
}
