#include "catch.h"

#include "qualrank/util/name_fold.h"

using namespace qualrank;
using text::NameFold;

namespace {

struct Units : text::FoldSink {
  std::vector<std::tuple<std::string, std::size_t, std::size_t, bool>> units;
  std::vector<std::pair<std::size_t, std::size_t>> markup;
  void unit(const text::FoldedUnit& u) override { units.emplace_back(std::string(u.folded), u.begin, u.end, u.word); }
  void kept_markup(std::size_t b, std::size_t e) override { markup.emplace_back(b, e); }
};

}  // namespace

TEST_CASE("util::folded_name folds canonically and fully, trimmed", "[util][names]") {
  CHECK(text::folded_name("  Stra\xC3\x9F" "e ", NameFold::exact) == "strasse");
  CHECK(text::folded_name("Zo\xC3\xAB", NameFold::exact) == "zoe\xCC\x88");          // NFC in, NFD out
  CHECK(text::folded_name("ZOE\xCC\x88", NameFold::exact) == "zoe\xCC\x88");
  CHECK(text::folded_name("\xC4\xB0LKNUR", NameFold::exact) == "ilknur");           // İ
  CHECK(text::folded_name("Anna\t\xC2\xA0 Berg", NameFold::exact) == "anna berg");  // one space
  CHECK(text::folded_name("Zo\xC3\xAB \xC3\x85ngstr\xC3\xB6m", NameFold::unaccented) == "zoe angstrom");
  CHECK(text::folded_name("\xC3\x98rsted \xC5\x81\xC3\xB3" "d\xC5\xBA", NameFold::unaccented) == "orsted lodz");
}

TEST_CASE("util::fold_for_names decodes references and escapes, mapping units to their bytes", "[util][names]") {
  Units u;
  text::fold_for_names("a&amp;b&AElig;&zwnj;\\u00C9&#x10;", NameFold::exact, u);
  using T = std::tuple<std::string, std::size_t, std::size_t, bool>;
  REQUIRE(u.units.size() == 6);
  CHECK(u.units[0] == T{"a", 0, 1, true});
  CHECK(u.units[1] == T{"&", 1, 6, false});
  CHECK(u.units[2] == T{"b", 6, 7, true});
  CHECK(u.units[3] == T{"\xC3\xA6", 7, 14, true});            // &AElig; -> æ (the first entity of the table)
  CHECK(u.units[4] == T{"e\xCC\x81", 20, 26, true});          // &zwnj; (the last) skipped; \u00C9 -> é, NFD
  CHECK(u.units[5] == T{"\x10", 26, 32, false});
}

TEST_CASE("util::fold_for_names keeps emphasis next to a word apart, and reads an unclosed comment as text", "[util][names]") {
  Units u;
  text::fold_for_names("**Ma**x <!-- x", NameFold::exact, u);
  std::string folded;
  for (const auto& t : u.units) folded += std::get<0>(t);
  CHECK(folded == "max <!-- x");
  REQUIRE(u.markup.size() == 2);
  CHECK(u.markup[0] == std::pair<std::size_t, std::size_t>{0, 2});
  CHECK(u.markup[1] == std::pair<std::size_t, std::size_t>{4, 6});
  // Emphasis at a word's end, before a space, is markup too; a '*' between spaces is a character.
  Units v;
  text::fold_for_names("Jo**nas** B * c", NameFold::exact, v);
  folded.clear();
  for (const auto& t : v.units) folded += std::get<0>(t);
  CHECK(folded == "jonas b * c");
  CHECK(v.markup.size() == 2);
}
