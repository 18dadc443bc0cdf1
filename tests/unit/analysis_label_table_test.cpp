// Unit tests for the label-table reader (src/analysis/agreement/label_table.cpp): the CSV edge cases of
// tests/fixtures/agreement/ (one problem per file) and the column rules.
#include "catch.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>
#include <string>

#include "qualrank/analysis/agreement/label_table.h"
#include "qualrank/util/files.h"

using namespace qualrank;

namespace {

const std::string kFixtures = std::string(QUALRANK_FIXTURES_DIR) + "/agreement/";

struct LoadedTaxonomy {
  Taxonomy taxonomy;
  NodeResolver resolve;
  LabelVocabulary vocabulary() const { return {&taxonomy, &resolve, 1}; }
};

// The bundled study's taxonomy, with a resolver bound to it (loaded once).
const LoadedTaxonomy& study_taxonomy() {
  static const std::unique_ptr<LoadedTaxonomy> loaded = [] {
    Diagnostics d;
    auto t = load_taxonomy(*files::read(std::string(QUALRANK_SOURCE_DIR) + "/codebooks/llm-frameworks.yaml"), "t.yaml", d);
    auto out = std::make_unique<LoadedTaxonomy>(LoadedTaxonomy{std::move(*t), {}});
    out->resolve = direct_resolver(out->taxonomy);
    return out;
  }();
  return *loaded;
}

LabelTable read_fixture(const std::string& name, Diagnostics& d, const LabelColumns& columns = {}, bool taxonomy = true) {
  LabelVocabulary vocabulary;
  if (taxonomy) vocabulary = study_taxonomy().vocabulary();
  return read_label_files({kFixtures + name}, kFixtures, columns, vocabulary, d);
}

std::string messages(const Diagnostics& d) {
  std::string out;
  for (const auto& item : d.items()) out += format_diagnostic(item) + "\n";
  return out;
}

LabelTable read_text(const std::string& text, Diagnostics& d, const LabelColumns& columns = {}) {
  return read_label_tables({{"t.csv", "t", text}}, columns, {}, d);
}

}  // namespace

TEST_CASE("analysis::read_label_tables handles BOM, CRLF, quotes, aliases, blanks and missing cells", "[agreement]") {
  Diagnostics d;
  const LabelTable t = read_fixture("edge-cases.csv", d);
  INFO(messages(d));
  REQUIRE_FALSE(d.has_errors());
  CHECK(t.sources == std::vector<std::string>{"edge-cases"});
  CHECK(t.coders == std::vector<std::string>{"Label_1", "Label_2", "Label_3"});
  REQUIRE(t.units() == 6);
  CHECK(t.unit_id(0) == "pytorch#1, part \"a\"");  // quoted comma and doubled quote
  CHECK(t.unit_id(1) == "multi\r\nline#2");         // a quoted line break is kept as written
  CHECK(t.unit_line == std::vector<int>{2, 3, 5, 7, 8, 9});  // the blank line 6 is skipped
  // taxonomy order; the alias 'installation' is A.1 and ' b.1 ' is B.1
  CHECK(t.categories == std::vector<std::string>{"A.1", "A.2", "A.3", "A.4", "B.1", "C.1", "C.2", "C.3"});
  CHECK(t.ratings.codes == std::vector<int>{0, 0, 1, 4, 4, 4, 5, -1, 5, 6, 6, 7, 2, 3, 2, 2, 2, 2});
  CHECK(t.has_consensus);
  CHECK(t.consensus == std::vector<int>{0, 4, 5, -1, 2, 2});  // an empty consensus cell: no consensus
  CHECK(t.label(2, 1).empty());
  CHECK(t.consensus_label(4) == "A.3");
}

TEST_CASE("analysis::read_label_tables reports rows with a different number of fields, located", "[agreement]") {
  Diagnostics d;
  const LabelTable t = read_fixture("ragged.csv", d);
  REQUIRE(d.error_count() == 1);
  CHECK(format_diagnostic(d.items()[0]).find("ragged.csv:3: error: row has 5 fields, the header has 4") == 0);
  CHECK(t.units() == 2);  // the other rows are read, but callers stop on errors
}

TEST_CASE("analysis::read_label_tables reports labels unknown to the taxonomy at FILE:LINE:COL", "[agreement]") {
  Diagnostics d;
  read_fixture("unknown-label.csv", d);
  REQUIRE(d.error_count() == 1);  // one error per distinct unknown label, with the number of cells
  CHECK(format_diagnostic(d.items()[0]) ==
        "unknown-label.csv:3:12: error: unknown taxonomy node 'B.9' (did you mean 'B.1'?) in taxonomy version 1 (2 cells in this file)");
}

TEST_CASE("analysis::read_label_tables: rows refused for unknown labels are not 'a header but no rows'", "[agreement]") {
  const auto& t = study_taxonomy();
  Diagnostics d;
  read_label_tables({{"t.csv", "t", "id,coder_a,coder_b\nu1,Q,Z\nu2,Q,Z\n"}}, {}, t.vocabulary(), d);
  REQUIRE(d.items().size() == 2);  // (was: a warning that the table has no rows, before these errors)
  CHECK(format_diagnostic(d.items()[0]) == "t.csv:2:4: error: unknown taxonomy node 'Q' (did you mean 'A'?) in taxonomy version 1 (2 cells in this file)");
  CHECK(format_diagnostic(d.items()[1]) == "t.csv:2:6: error: unknown taxonomy node 'Z' (did you mean 'A'?) in taxonomy version 1 (2 cells in this file)");
  Diagnostics empty;
  read_label_tables({{"h.csv", "h", "id,coder_a,coder_b\n"}}, {}, t.vocabulary(), empty);
  REQUIRE(empty.items().size() == 1);
  CHECK(format_diagnostic(empty.items()[0]) == "h.csv: warning: the label table has a header but no rows");
}

TEST_CASE("analysis::read_label_tables rejects duplicate (with --duplicates error) and empty unit ids", "[agreement]") {
  LabelColumns refuse;
  refuse.duplicates = DuplicateUnits::error;
  Diagnostics d1;
  read_fixture("duplicate-unit.csv", d1, refuse);
  REQUIRE(d1.error_count() == 1);
  CHECK(format_diagnostic(d1.items()[0]) ==
        "duplicate-unit.csv:4:1: error: duplicate unit id 'vllm#1' (first at duplicate-unit.csv:2)");
  Diagnostics d2;
  read_fixture("empty-unit.csv", d2);
  REQUIRE(d2.error_count() == 1);
  CHECK(format_diagnostic(d2.items()[0]) == "empty-unit.csv:3: error: empty unit id");
  // across files too: the same unit in two files would be counted twice
  Diagnostics d3;
  const std::string a = "id,Label_1,Label_2\nu1,x,x\n", b = "id,Label_1,Label_2\nu2,x,y\nu1,y,y\n";
  read_label_tables({{"a.csv", "a", a}, {"b.csv", "b", b}}, refuse, {}, d3);
  REQUIRE(d3.error_count() == 1);
  CHECK(format_diagnostic(d3.items()[0]) == "b.csv:3:1: error: duplicate unit id 'u1' (first at a.csv:2)");
}

TEST_CASE("analysis::read_label_tables keeps repeated unit ids as separate units with a warning", "[agreement]") {
  Diagnostics d;
  const LabelTable t = read_fixture("repeated-units.csv", d);
  INFO(messages(d));
  REQUIRE_FALSE(d.has_errors());
  CHECK(messages(d) ==
        "repeated-units.csv:4:1: warning: unit id 'u1' is on 3 rows (repeated-units.csv:2, repeated-units.csv:4, "
        "repeated-units.csv:8); each row is counted as a separate unit (--duplicates keep|first|error)\n"
        "repeated-units.csv:7:1: warning: unit id 'u3' is on 2 rows (repeated-units.csv:5, repeated-units.csv:7); "
        "each row is counted as a separate unit (--duplicates keep|first|error)\n");
  REQUIRE(t.units() == 7);
  CHECK(t.unit_id(0) == "u1");
  CHECK(t.unit_id(2) == "u1");
  CHECK(t.unit_id(6) == "u1");
  CHECK(t.unit_line == std::vector<int>{2, 3, 4, 5, 6, 7, 8});
  CHECK(t.label(2, 0) == "B.1");
}

TEST_CASE("analysis::read_label_tables with --duplicates first keeps only the first row of an id", "[agreement]") {
  LabelColumns first;
  first.duplicates = DuplicateUnits::first;
  Diagnostics d;
  const LabelTable t = read_fixture("repeated-units.csv", d, first);
  REQUIRE_FALSE(d.has_errors());
  CHECK(messages(d) ==
        "repeated-units.csv:4:1: warning: unit id 'u1' is on 3 rows (repeated-units.csv:2, repeated-units.csv:4, "
        "repeated-units.csv:8); only the first is counted, the other 2 rows are left out (--duplicates keep|first|error)\n"
        "repeated-units.csv:7:1: warning: unit id 'u3' is on 2 rows (repeated-units.csv:5, repeated-units.csv:7); "
        "only the first is counted, the other row is left out (--duplicates keep|first|error)\n");
  REQUIRE(t.units() == 4);
  CHECK(t.unit_line == std::vector<int>{2, 3, 5, 6});
  CHECK(t.label(0, 0) == "A.1");
}

TEST_CASE("analysis::read_label_tables caps the rows listed per repeated id and the ids warned about", "[agreement]") {
  std::string text = "id,Label_1,Label_2\n";
  for (int i = 0; i < 7; ++i) text += "u,x,y\n";  // one id on 7 rows (lines 2-8)
  for (int k = 0; k < 22; ++k) text += "v" + std::to_string(k) + ",x,x\nv" + std::to_string(k) + ",y,y\n";
  Diagnostics d;
  const LabelTable t = read_text(text, d);
  REQUIRE_FALSE(d.has_errors());
  CHECK(t.units() == 7 + 44);
  REQUIRE(d.items().size() == 21);
  CHECK(format_diagnostic(d.items()[0]) ==
        "t.csv:3:1: warning: unit id 'u' is on 7 rows (t.csv:2, t.csv:3, t.csv:4, t.csv:5, t.csv:6 and 2 more); "
        "each row is counted as a separate unit (--duplicates keep|first|error)");
  CHECK(format_diagnostic(d.items()[20]) == "t.csv: warning: 3 more repeated unit ids on 6 rows (not listed)");
}

TEST_CASE("analysis::read_label_tables needs two coder columns and reports missing named columns", "[agreement]") {
  Diagnostics d1;
  read_fixture("no-coders.csv", d1);
  REQUIRE(d1.error_count() == 1);
  CHECK(format_diagnostic(d1.items()[0]).find("no-coders.csv:1: error: no coder columns") == 0);
  Diagnostics d2;
  LabelColumns cols;
  cols.coders = {"rater_a", "rater_c"};
  cols.consensus = "agreed";
  read_fixture("no-coders.csv", d2, cols);
  REQUIRE(d2.error_count() == 2);
  CHECK(format_diagnostic(d2.items()[0]) == "no-coders.csv:1: error: no consensus column 'agreed' in the header");
  CHECK(format_diagnostic(d2.items()[1]) == "no-coders.csv:1: error: no coder column 'rater_c' in the header");
}

TEST_CASE("analysis::read_label_tables stops a file at a CSV syntax error, located", "[agreement]") {
  Diagnostics d;
  read_fixture("unterminated.csv", d);
  REQUIRE(d.error_count() == 1);
  CHECK(format_diagnostic(d.items()[0]) == "unterminated.csv:3: error: unterminated quoted field");
}

TEST_CASE("analysis::read_label_tables takes named columns and free categories", "[agreement]") {
  Diagnostics d;
  LabelColumns cols;
  cols.unit = "ITEM";  // case-insensitive
  cols.coders = {"first", "second", "third"};
  cols.consensus = "agreed";
  const LabelTable t = read_fixture("custom-columns.csv", d, cols, /*taxonomy=*/false);
  INFO(messages(d));
  REQUIRE_FALSE(d.has_errors());
  CHECK(t.coders == std::vector<std::string>{"first", "second", "third"});
  CHECK(t.categories == std::vector<std::string>{"bug", "feature", "question"});
  CHECK(t.unit_id(0) == "i1");
  CHECK(t.ratings.codes == std::vector<int>{0, 0, 0, 0, 2, 0, 1, 1, 2, 2, 2, 2, 1, 0, -1, 2, 2, 0});
  CHECK(t.consensus == std::vector<int>{0, 0, 1, 2, 1, 2});
}

TEST_CASE("analysis::read_label_tables merges coders of several files by header", "[agreement]") {
  Diagnostics d;
  const std::string a = "id,coder_x,coder_y\nu1,p,q\nu2,p,p\n";
  const std::string b = "id,coder_y,coder_z,final\nu3,q,q,q\n";
  const LabelTable t = read_label_tables({{"a.csv", "a", a}, {"b.csv", "b", b}}, {}, {}, d);
  REQUIRE_FALSE(d.has_errors());
  CHECK(t.coders == std::vector<std::string>{"coder_x", "coder_y", "coder_z"});
  // u1, u2 have no coder_z rating; u3 none by coder_x
  CHECK(t.ratings.codes == std::vector<int>{0, 1, -1, 0, 0, -1, -1, 1, 1});
  CHECK(t.consensus == std::vector<int>{-1, -1, 1});
  CHECK(t.unit_source == std::vector<int>{0, 0, 1});
  CHECK(t.sources == std::vector<std::string>{"a", "b"});
}

TEST_CASE("analysis::read_label_tables keeps every quoted field of a record intact", "[agreement]") {
  // Many short quoted fields in one record (the CSV reader's scratch storage grows while views into it
  // are held; a regression test for views left dangling by that growth).
  Diagnostics d;
  const LabelTable t = read_text("\"id\",\"Label_1\",\"Label_2\",\"Label_3\",\"Label_4\",\"Label_5\"\n"
                                 "\"u\",\"a\",\"b\",\"c\",\"d\",\"e\"\n",
                                 d);
  REQUIRE_FALSE(d.has_errors());
  CHECK(t.coders == std::vector<std::string>{"Label_1", "Label_2", "Label_3", "Label_4", "Label_5"});
  CHECK(t.categories == std::vector<std::string>{"a", "b", "c", "d", "e"});
  CHECK(t.unit_id(0) == "u");
}

TEST_CASE("analysis::read_label_tables caps repeated errors with a summary", "[agreement]") {
  std::string text = "id,Label_1,Label_2\n";
  for (int i = 0; i < 25; ++i) {
    text += 'u';
    text += std::to_string(i);
    text += ",a\n";
  }
  Diagnostics d;
  read_text(text, d);
  REQUIRE(d.error_count() == 21);
  CHECK(format_diagnostic(d.items()[20]) == "t.csv: error: 5 more rows with a different number of fields (not listed)");
}

TEST_CASE("analysis::read_label_tables reads every value back whatever its length and however often it repeats", "[agreement]") {
  // Free categories of 1 to 10 bytes (short ones go through a small cache keyed by their bytes; 3,000 distinct
  // values share its 1,024 slots, so values collide and replace each other), each in many rows and columns,
  // with NUL-free look-alikes that differ only in length or in the last byte.
  std::vector<std::string> values;
  for (int i = 0; i < 3000; ++i) {
    std::string v = "v" + std::to_string(i);
    v.resize(static_cast<std::size_t>(1 + i % 10), static_cast<char>('a' + i % 26));
    values.push_back(v);
  }
  std::string text = "Unit,Label_1,Label_2,Label_3\n";
  std::vector<std::array<std::string, 3>> rows;
  std::uint64_t x = 12345;
  for (int r = 0; r < 20000; ++r) {
    std::array<std::string, 3> row;
    text += "u" + std::to_string(r);
    for (auto& cell : row) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      cell = values[static_cast<std::size_t>((x >> 33) % values.size())];
      text += "," + cell;
    }
    text += "\n";
    rows.push_back(row);
  }
  Diagnostics d;
  LabelColumns columns;
  columns.unit = "Unit";
  auto t = read_label_tables({{"t.csv", "t", text}}, columns, {}, d);
  REQUIRE_FALSE(d.has_errors());
  REQUIRE(t.ratings.units == 20000);
  for (std::size_t u = 0; u < rows.size(); ++u)
    for (int c = 0; c < 3; ++c) REQUIRE(t.label(static_cast<std::int64_t>(u), c) == rows[u][static_cast<std::size_t>(c)]);
}

TEST_CASE("analysis::read_label_tables widens the rows read so far for coders of a later file", "[agreement]") {
  // Free categories. a.csv has coders A, B; b.csv adds C, D, E (past the first stride of 2, then 4): the
  // rows of a.csv have no rating by them, the rows of b.csv none by A.
  const std::string a = "unit,coder_A,coder_B\nu1,x,y\nu2,y,y\n";
  const std::string b = "unit,coder_B,coder_C,coder_D,coder_E\nu3,x,x,y,x\n";
  Diagnostics diags;
  auto t = read_label_tables({{"a.csv", "a", a}, {"b.csv", "b", b}}, {}, {}, diags);
  REQUIRE_FALSE(diags.has_errors());
  CHECK(t.coders == std::vector<std::string>{"coder_A", "coder_B", "coder_C", "coder_D", "coder_E"});
  REQUIRE(t.units() == 3);
  REQUIRE(t.ratings.coders == 5);
  CHECK(t.ratings.codes.size() == 15);
  const std::vector<std::vector<std::string>> want = {
      {"x", "y", "", "", ""}, {"y", "y", "", "", ""}, {"", "x", "x", "y", "x"}};
  for (std::int64_t u = 0; u < 3; ++u)
    for (int c = 0; c < 5; ++c) CHECK(std::string(t.label(u, c)) == want[static_cast<std::size_t>(u)][static_cast<std::size_t>(c)]);
}

TEST_CASE("analysis::read_label_tables takes at most 100 coder columns in all files, located at the header cell", "[agreement]") {
  auto table = [](const std::string& prefix, int coders) {
    std::string text = "unit";
    for (int c = 0; c < coders; ++c) text += ",coder_" + prefix + std::to_string(c);
    text += "\nu_" + prefix;
    for (int c = 0; c < coders; ++c) text += ",x";
    return text + "\n";
  };
  {
    Diagnostics diags;
    const std::string wide = table("a", 100);
    read_label_tables({{"wide.csv", "wide", wide}}, {}, {}, diags);
    CHECK_FALSE(diags.has_errors());
  }
  Diagnostics diags;
  const std::string a = table("a", 60), b = table("b", 60);
  auto t = read_label_tables({{"a.csv", "a", a}, {"b.csv", "b", b}}, {}, {}, diags);
  REQUIRE(diags.items().size() == 1);
  // coder_b40, the 101st: after "unit" and 40 cells ",coder_bN" (10 of 9 bytes, 30 of 10), then its comma.
  CHECK(format_diagnostic(diags.items()[0]) ==
        "b.csv:1:" + std::to_string(4 + 10 * 9 + 30 * 10 + 2) +
            ": error: more than 100 coder columns (the limit on coders in label tables)");
  CHECK(t.coders.size() == 60);  // b.csv is not read
  CHECK(t.units() == 1);
}
