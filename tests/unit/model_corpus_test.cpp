#include "catch.h"

#include "qualrank/model/corpus/corpus.h"
#include "qualrank/model/corpus/corpus_keywords.h"
#include "qualrank/model/corpus/corpus_screening.h"
#include "qualrank/util/files.h"

using namespace qualrank;

namespace {

std::string fixture(const char* name) {
  auto text = files::read(std::string(QUALRANK_FIXTURES_DIR) + "/corpus-export/" + name);
  REQUIRE(text);
  return *text;
}

std::string errors(const Diagnostics& d) {
  std::string out;
  for (const auto& i : d.items()) out += format_diagnostic(i) + "\n";
  return out;
}

}  // namespace

TEST_CASE("model::parse_export reads gh issue list's JSON into the stored form", "[model][corpus]") {
  Diagnostics d;
  auto p = corpus::parse_export(fixture("gh-issue-list.json"), "gh-issue-list.json", d);
  CHECK(errors(d).empty());
  corpus::MergeCounts counts;
  auto merged = corpus::merge_documents({}, p.documents, counts);
  CHECK(counts.added == 2);
  // The stored file, byte for byte: sorted by id (9 before 12), fields in their fixed order, gh's label and
  // comment objects reduced to names and {author, created, body}.
  CHECK(corpus::store_text(merged) == fixture("store.jsonl"));
  CHECK(p.where[0].line == 2);
  CHECK(p.where[1].line == 13);
}

TEST_CASE("model::parse_export reads gh api's JSON Lines and CSV, keeping other fields", "[model][corpus]") {
  Diagnostics d;
  auto api = corpus::parse_export(fixture("gh-api-issues.jsonl"), "gh-api-issues.jsonl", d);
  REQUIRE(api.documents.size() == 2);
  CHECK(api.documents[0].url == "https://example.org/f/3");
  CHECK(api.documents[0].extra.dump() ==
        R"({"comments":4,"state":"open","url":"https://api.example.org/f/3","user":{"login":"ben"}})");
  auto csv = corpus::parse_export(fixture("export.csv"), "export.csv", d);
  REQUIRE(csv.documents.size() == 2);
  CHECK(csv.sources == std::vector<std::string>{"echo", "echo"});
  CHECK(csv.documents[0].body == "two\nlines");
  CHECK(csv.documents[1].extra.dump() == R"({"severity":"low"})");
  CHECK(errors(d).empty());
}

TEST_CASE("model::parse_export locates errors and names both places of a duplicate id", "[model][corpus]") {
  Diagnostics d;
  corpus::parse_export("[\n {\"number\": 5},\n {\"title\": \"no id\"},\n {\"number\": 5, \"body\": 3}, {\"number\": \"5\"}\n]", "x.json", d);
  CHECK(errors(d) ==
        "x.json:3:2: error: an issue without a number, id or url\n"
        "x.json:4:2: error: \"body\" is not text\n"
        "x.json:4:28: error: duplicate id '5': first at x.json:2:2\n");
  Diagnostics e;
  corpus::parse_export("[{\"number\": 1}", "y.json", e);
  REQUIRE(e.items().size() == 1);
  CHECK(e.items()[0].where.line == 1);
  CHECK(e.items()[0].where.column == 15);  // just past the end: the input ends inside the array
  // Nesting over 64 levels is refused before parsing (the 65th opening bracket: '[', '{', then 63 more).
  Diagnostics f;
  corpus::parse_export("[{\"number\": 1, \"x\": " + std::string(100, '[') + std::string(100, ']') + "}]", "deep.json", f);
  CHECK(errors(f) == "deep.json:1:83: error: nested deeper than 64 arrays and objects\n");
}

TEST_CASE("model::read_store reads back what store_text wrote and finds a repeated id", "[model][corpus]") {
  Diagnostics d;
  auto docs = corpus::read_store(fixture("store.jsonl"), "corpus/atlas.jsonl", d);
  CHECK(errors(d).empty());
  REQUIRE(docs.size() == 2);
  CHECK(corpus::store_text(docs) == fixture("store.jsonl"));
  CHECK(docs[1].comments[0].body == "Seen it too: a stack\n overflow in the parser.");
  Diagnostics e;
  corpus::read_store("{\"id\":\"1\"}\n{\"id\":\"2\"}\n{\"id\":\"1\",\"title\":\"again\"}\n", "corpus/b.jsonl", e);
  CHECK(errors(e) == "corpus/b.jsonl:3:1: error: duplicate id '1' (first on line 1)\n");
}

TEST_CASE("model::merge_documents adds, updates and keeps by id", "[model][corpus]") {
  corpus::Document a{"1", "", "", "a", "", {}, {}}, b{"2", "", "", "b", "", {}, {}}, c{"10", "", "", "c", "", {}, {}};
  corpus::Document b2 = b;
  b2.title = "b, edited";
  corpus::MergeCounts n;
  auto merged = corpus::merge_documents({a, b}, {b2, c}, n);
  CHECK((n.added == 1 && n.updated == 1 && n.unchanged == 0 && n.kept == 1));
  REQUIRE(merged.size() == 3);
  CHECK(merged[1].title == "b, edited");
  CHECK(merged[2].id == "10");
}

TEST_CASE("model::read_keyword_lists reads Python-like lists and reports repeats", "[model][corpus]") {
  Diagnostics d;
  auto lists = corpus::read_keyword_lists(fixture("keyword-lists.txt"), "k.txt", d);
  REQUIRE(lists.sources.size() == 2);
  CHECK(lists.sources[0].first == "atlas");
  CHECK(lists.sources[0].second == std::vector<std::string>{"cache miss", "QKV", "shard", "stack overflow"});
  CHECK(lists.listed["atlas"] == 5);
  CHECK(lists.sources[1].second == std::vector<std::string>{"deadlock", "GPU"});
  CHECK(errors(d) == "k.txt:4:21: warning: 'cache miss' is listed twice in atlas_keywords (first on line 3); kept once\n");
  Diagnostics e;
  corpus::read_keyword_lists("x_keywords = ['a' 'b']", "bad.txt", e);
  CHECK(errors(e) == "bad.txt:1:19: error: expected ',' or ']', not 'b'\n");
}

TEST_CASE("model::read_keywords reads terms with their match and case", "[model][corpus]") {
  Diagnostics d;
  auto c = corpus::read_keywords(fixture("keywords.yaml"), "keywords.yaml", d);
  REQUIRE(c);
  CHECK(errors(d).empty());
  CHECK((c->from == "2023-01" && c->to == "2025-04"));
  const auto& t = c->sources.at("atlas");
  REQUIRE(t.size() == 4);
  CHECK((t[1].term == "QKV" && t[1].case_sensitive && t[1].whole_word));
  CHECK((t[2].term == "shard" && !t[2].whole_word && !t[2].case_sensitive));
  CHECK(c->reasons == std::vector<std::string>{"not-about-topic", "keyword-in-code-only", "duplicate"});
  CHECK(corpus::in_window("2023-01-01T00:00:00Z", "2023-01", "2025-04"));
  CHECK(corpus::in_window("2025-04-30T23:59:59Z", "2023-01", "2025-04"));
  CHECK_FALSE(corpus::in_window("2025-05-01T00:00:00Z", "2023-01", "2025-04"));
  CHECK_FALSE(corpus::in_window("", "2023", ""));
  CHECK(corpus::in_window("", "", ""));
}

TEST_CASE("model::read_screening checks decisions and orders documents by source and id", "[model][corpus]") {
  Diagnostics d;
  auto s = corpus::read_screening(fixture("screening.csv"), "s.csv", d);
  CHECK(errors(d).empty());
  REQUIRE(s.size() == 2);
  CHECK((s[0].doc == "atlas#12" && s[0].decision == corpus::Decision::false_positive && s[0].reason == "keyword-in-code-only"));
  CHECK(corpus::screening_text(s) == fixture("screening.csv"));
  CHECK(corpus::doc_less("atlas#9", "atlas#10"));
  CHECK(corpus::doc_less("atlas#10", "borealis#1"));
  Diagnostics e;
  corpus::read_screening("doc,decision,reason,note\na#1,false-positive,,\na#2,maybe,,\na#3,relevant,,\na#3,relevant,,\n", "t.csv", e);
  CHECK(errors(e) ==
        "t.csv:2:1: error: a false positive without a reason\n"
        "t.csv:3:1: error: decision is 'relevant' or 'false-positive', not 'maybe'\n"
        "t.csv:5:1: error: 'a#3' is screened twice (first on line 4)\n");
}
