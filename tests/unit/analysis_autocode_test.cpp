#include "catch.h"

#include "qualrank/analysis/autocode.h"

#include <tuple>

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

TEST_CASE("analysis::KeywordMatcher scans ASCII text the way it scans any text", "[analysis]") {
  // An ASCII text without a limit takes the fast scan (two or four parts at once when long, whitespace runs in the
  // table, starts found going back); with a limit too large to stop it, the general one. Same occurrences, in
  // the same order, at the same offsets: random texts over a small alphabet make many matches, overlapping,
  // across the middle, in long whitespace runs and next to word characters.
  uint32_t seed = 12345;
  auto rnd = [&](uint32_t n) {
    seed = seed * 1664525u + 1013904223u;
    return (seed >> 8) % n;
  };
  const std::string letters = "abAB _\n\t.1x";
  auto word = [&](std::size_t max) {
    std::string w;
    for (std::size_t k = 1 + rnd(static_cast<uint32_t>(max)); k > 0; --k) w += "abAB"[rnd(4)];
    return w;
  };
  using Hit = std::tuple<int32_t, std::size_t, std::size_t>;
  auto hits = [](const KeywordMatcher& m, std::string_view text, std::size_t limit) {
    std::vector<Hit> out;
    m.scan_impl(text, [](void* o, int32_t r, std::size_t b, std::size_t e) { static_cast<std::vector<Hit>*>(o)->emplace_back(r, b, e); }, &out, limit);
    return out;
  };
  std::size_t total = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<KeywordRule> rules;
    for (std::size_t k = 1 + rnd(8); k > 0; --k) {
      std::string kw = word(4);
      if (rnd(2)) kw += std::string(1 + rnd(2), ' ') + word(3);
      if (rnd(20) == 0) kw = std::string(260 + rnd(20), 'a');  // longer than the ring of origins: said to start at 0
      rules.push_back({kw, "N", rnd(3) != 0, rnd(4) == 0});
    }
    const KeywordMatcher m(rules, MatcherOptions{rnd(3) != 0});
    std::string text;
    for (std::size_t k = rnd(3) ? rnd(3000) : rnd(40); k > 0; --k) text += letters[rnd(static_cast<uint32_t>(letters.size()))];
    if (rnd(4) == 0) text.insert(rnd(static_cast<uint32_t>(text.size() + 1)), std::string(rnd(600), rnd(2) ? ' ' : '\n'));
    if (rnd(10) == 0) text.insert(rnd(static_cast<uint32_t>(text.size() + 1)), std::string(600, 'a'));
    const auto fast = hits(m, text, 0);
    INFO("round " << round);
    CHECK(fast == hits(m, text, static_cast<std::size_t>(-1)));
    total += fast.size();
  }
  CHECK(total > 10000);  // (the comparison compared something)
}
