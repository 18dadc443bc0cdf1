// The id a code proposed from the terminal coder takes: the parent's children's numbering style continued.
#include "catch.h"

#include "new_code.h"

using namespace qualrank;
using namespace qualrank::tui;

namespace {

Taxonomy taxonomy_of(const std::string& yaml) {
  Diagnostics diags;
  auto t = load_taxonomy(yaml, "t.yaml", diags);
  for (const auto& d : diags.items()) INFO(format_diagnostic(d));
  CAPTURE(diags.items().size());
  if (!t)
    for (const auto& d : diags.items()) FAIL(format_diagnostic(d));
  REQUIRE(t);
  return std::move(*t);
}

const char* kTree = R"(taxonomy: t
levels: [Area, Practice, Habit]
nodes:
  - id: R
    name: Roots
    definition: d
    children:
      - id: R.1
        name: One
        definition: d
        children:
          - {id: R.1.i, name: First, definition: d}
          - {id: R.1.ii, name: Second, definition: d}
          - {id: R.1.iii, name: Third, definition: d}
      - id: R.2
        name: Two
        definition: d
        children:
          - {id: R.2.a, name: Ay, definition: d}
          - {id: R.2.b, name: Bee, definition: d}
      - id: R.3
        name: Three
        definition: d
        children:
          - {id: R.3.i, name: Lone, definition: d}
      - id: R.4
        name: Four
        definition: d
        children:
          - {id: R.4.A, name: Upper, definition: d}
      - id: R.5
        name: Five
        definition: d
        children:
          - {id: R.5.c, name: Cee, definition: d}
          - {id: R.5.d, name: Dee, definition: d}
      - id: R.6
        name: Six
        definition: d
        children:
          - {id: R.6.iv, name: Fourth, definition: d}
          - {id: R.6.i, name: Oneth, definition: d}
)";

}  // namespace

TEST_CASE("tui::new_child_id continues the children's numbering style", "[tui]") {
  auto t = taxonomy_of(kTree);
  CHECK(new_child_id(t, "R.1", "x", 0) == "R.1.iv");   // roman numerals go on as roman numerals
  CHECK(new_child_id(t, "R.1", "x", 1) == "R.1.v");    // skipping an id the history used
  CHECK(new_child_id(t, "R.2", "x", 0) == "R.2.c");    // letters
  CHECK(new_child_id(t, "R.3", "x", 0) == "R.3.ii");   // a lone "i" is roman
  CHECK(new_child_id(t, "R.4", "x", 0) == "R.4.B");    // capitals
  CHECK(new_child_id(t, "R.5", "x", 0) == "R.5.e");    // c, d are letters (single characters): after the last
  CHECK(new_child_id(t, "R.6", "x", 0) == "R.6.v");    // after the highest numeral, whatever the order
  CHECK(new_child_id(t, "R", "x", 0) == "R.7");        // numbers
  CHECK(new_child_id(t, "R.2.a", "x", 0) == "R.2.a.1");  // no children yet: numbers
  CHECK(new_child_id(t, "", "Quiet hours", 0) == "QUIE");
  CHECK(new_child_id(t, "", "Roots", 0) == "ROOT");
  CHECK(new_child_id(t, "", "!!", 0) == "NEW");
}

TEST_CASE("tui::roman_value reads canonical numerals only", "[tui]") {
  CHECK(roman_value("iv") == 4);
  CHECK(roman_value("xix") == 19);
  CHECK(roman_value("mcmxc") == 1990);
  CHECK(roman_value("iiii") == -1);
  CHECK(roman_value("ic") == -1);
  CHECK(roman_value("a") == -1);
  CHECK(roman_value("") == -1);
  CHECK(roman_numeral(4) == "iv");
  CHECK(roman_numeral(0).empty());
}
