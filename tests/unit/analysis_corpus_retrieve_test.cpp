#include "catch.h"

#include "qualrank/analysis/autocode.h"
#include "qualrank/analysis/corpus/corpus_retrieve.h"
#include "qualrank/model/corpus/corpus.h"

using namespace qualrank;

namespace {

std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> spans(const KeywordMatcher& m, std::string_view text) {
  std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> out;
  scan_spans(m, text, [&](std::size_t r, std::size_t b, std::size_t e) { out.emplace_back(r, b, e); });
  return out;
}

}  // namespace

TEST_CASE("analysis::KeywordMatcher keeps case-sensitive rules to their spelling", "[analysis][corpus]") {
  KeywordMatcher m({{"BERT", "", true, true}, {"gpt", "", true, false}});
  CHECK(spans(m, "BERT and bert and Bert") == decltype(spans(m, "")){{0, 0, 4}});
  CHECK(spans(m, "GPT gpt") == decltype(spans(m, "")){{1, 0, 3}, {1, 4, 7}});
  CHECK(spans(m, "BERTology").empty());
}

TEST_CASE("analysis::KeywordMatcher matches substring rules inside words", "[analysis][corpus]") {
  KeywordMatcher m({{"shard", "", false, false}, {"lock", "", true, false}});
  CHECK(spans(m, "resharding deadlocked lock") == decltype(spans(m, "")){{0, 2, 7}, {1, 22, 26}});
  CHECK(spans(m, "SHARDS") == decltype(spans(m, "")){{0, 0, 5}});
}

TEST_CASE("analysis::KeywordMatcher with collapse_whitespace matches phrases across line breaks", "[analysis][corpus]") {
  KeywordMatcher collapse({{"stack  overflow", ""}, {"Out Of Memory", "", true, true}}, MatcherOptions{true});
  CHECK(spans(collapse, "a stack\n\t overflow!") == decltype(spans(collapse, "")){{0, 2, 18}});
  CHECK(spans(collapse, "Out\nOf  Memory; out of memory") == decltype(spans(collapse, "")){{1, 0, 14}});
  CHECK(spans(collapse, "stackoverflow").empty());
  KeywordMatcher plain(std::vector<KeywordRule>{{"stack overflow", ""}});
  CHECK(spans(plain, "a stack\n overflow").empty());  // without the option: the old behaviour
  CHECK(spans(plain, "a stack overflow") == decltype(spans(plain, "")){{0, 2, 16}});
}

TEST_CASE("analysis::retrieve_source records which term matched where, in the window", "[analysis][corpus]") {
  corpus::Document a{"1", "u1", "2024-01-05T00:00:00Z", "Cache miss", "a cache miss and a Cache  Miss", {}, {{"x", "", "no"}, {"y", "", "QKV here"}}};
  corpus::Document b{"2", "u2", "2022-12-31T23:00:00Z", "cache miss", "", {}, {}};  // outside the window
  corpus::Document c{"10", "u3", "2025-04-30T00:00:00Z", "nothing", "qkv", {}, {}};
  std::string stored = corpus::store_text({a, b, c});
  std::vector<corpus::KeywordTerm> terms{{"cache miss", true, false, {}}, {"QKV", true, true, {}}, {"never", true, false, {}}};
  Diagnostics diags;
  auto r = corpus::retrieve_source(stored, "corpus/s.jsonl", "s", &terms, "2023-01", "2025-04", diags);
  CHECK_FALSE(diags.has_errors());
  CHECK(r.documents == 3);
  CHECK(r.in_window == 2);
  REQUIRE(r.retrieved.size() == 1);
  CHECK(r.retrieved[0].id == "1");
  const auto& h = r.retrieved[0].hits;
  REQUIRE(h.size() == 3);
  CHECK((h[0].term == 0 && h[0].field == corpus::KeywordHit::title && h[0].at == 0 && h[0].count == 1));
  CHECK((h[1].term == 0 && h[1].field == corpus::KeywordHit::body && h[1].at == 2 && h[1].count == 2));
  CHECK((h[2].term == 1 && corpus::hit_field(h[2]) == "comment 2" && h[2].at == 0));
  CHECK(r.term_documents == std::vector<std::size_t>{1, 1, 0});
  CHECK(r.jsonl ==
        "{\"doc\":\"s#1\",\"source\":\"s\",\"id\":\"1\",\"whole\":false,\"matches\":[{\"term\":\"cache miss\",\"in\":\"title\",\"at\":0,\"count\":1},"
        "{\"term\":\"cache miss\",\"in\":\"body\",\"at\":2,\"count\":2},{\"term\":\"QKV\",\"in\":\"comment 2\",\"at\":0,\"count\":1}]}\n");
  auto whole = corpus::retrieve_source(stored, "corpus/s.jsonl", "s", nullptr, "", "", diags);
  CHECK(whole.retrieved.size() == 3);
  CHECK(whole.whole);
}

TEST_CASE("model::for_each_stored reads escapes and reports a located error", "[model][corpus]") {
  Diagnostics diags;
  std::vector<std::string> bodies;
  corpus::for_each_stored("{\"id\":\"1\",\"body\":\"a\\nb \\u00e9 \\ud83d\\ude00\",\"extra\":{\"k\":[1,{\"x\":\"}\"}]}}\n\n{\"id\":\"2\",\"body\":\"x\" \"y\"}\n",
                          "f.jsonl", diags, [&](const corpus::DocumentView& d) { bodies.emplace_back(d.body); });
  CHECK(bodies == std::vector<std::string>{"a\nb \xC3\xA9 \xF0\x9F\x98\x80"});
  REQUIRE(diags.items().size() == 1);
  CHECK(format_diagnostic(diags.items()[0]) == "f.jsonl:3:22: error: expected '}'");
}

TEST_CASE("analysis::retrieve_source joins the pieces of a large file in order, lines counted across them", "[analysis][corpus]") {
  // 6,000 documents of about 1 KB: more than one 4 MiB piece.
  std::vector<corpus::Document> docs;
  const std::string filler(1000, 'x');
  for (int i = 1; i <= 6000; ++i)
    docs.push_back({std::to_string(i), "", "2024-01-01", "t", (i % 3 == 0 ? "a cache miss " : "nothing ") + filler, {}, {}});
  std::string stored = corpus::store_text(docs);
  REQUIRE(stored.size() > (4u << 20));
  std::vector<corpus::KeywordTerm> terms{{"cache miss", true, false, {}}};
  Diagnostics diags;
  auto r = corpus::retrieve_source(stored, "corpus/s.jsonl", "s", &terms, "", "", diags);
  CHECK_FALSE(diags.has_errors());
  CHECK(r.documents == 6000);
  REQUIRE(r.retrieved.size() == 2000);
  bool in_order = true;
  for (std::size_t k = 0; k < r.retrieved.size(); ++k) in_order = in_order && r.retrieved[k].id == std::to_string(3 * (k + 1));
  CHECK(in_order);
  CHECK(r.term_documents == std::vector<std::size_t>{2000});
  // A broken line in the second piece is reported on its line of the whole file.
  std::string broken = stored;
  const std::size_t line5500 = [&] {
    std::size_t at = 0;
    for (int l = 1; l < 5500; ++l) at = broken.find('\n', at) + 1;
    return at;
  }();
  broken[line5500] = '[';
  Diagnostics bad;
  corpus::retrieve_source(broken, "corpus/s.jsonl", "s", &terms, "", "", bad);
  REQUIRE(bad.items().size() == 1);
  CHECK(format_diagnostic(bad.items()[0]) == "corpus/s.jsonl:5500:1: error: expected '{'");
}
