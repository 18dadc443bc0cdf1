#include "catch.h"

#include <iostream>

#include "qualrank/model/taxonomy.h"
#include "qualrank/util/files.h"

using namespace qualrank;

TEST_CASE("model::load_taxonomy loads the bundled study: 3, 18 and 69 nodes on its three levels", "[model]") {
  auto text = files::read(std::string(QUALRANK_SOURCE_DIR) + "/codebooks/llm-frameworks.yaml");
  REQUIRE(text);
  Diagnostics d;
  auto t = load_taxonomy(*text, "codebooks/llm-frameworks.yaml", d);
  d.print(std::cerr);
  REQUIRE(t);
  CHECK(t->at_level(1).size() == 3);
  CHECK(t->at_level(2).size() == 18);
  CHECK(t->at_level(3).size() == 69);
  CHECK(t->level_names == std::vector<std::string>{"Issue type", "Theme", "Sub-theme"});
  CHECK(t->children("C").size() == 10);
  CHECK(t->find("C.10")->name == "Documentation and Maintainability");
  CHECK(t->ancestor_at("C.10.iii", 1) == std::optional<std::string>("C"));
  CHECK(t->ancestor_at("C.10.iii", 2) == std::optional<std::string>("C.10"));
  CHECK(t->rank_of("C.9") < t->rank_of("C.10"));
  CHECK(t->resolve("unexpected behavior AND weird design") == std::optional<std::string>("A.3"));
}

TEST_CASE("model::load_taxonomy supports the flat parent form and finds cycles", "[model]") {
  Diagnostics d;
  auto t = load_taxonomy("taxonomy: x\nnodes:\n  - {id: A, name: a}\n  - {id: A.1, name: b, parent: A}\n", "x.yaml", d);
  REQUIRE(t);
  CHECK(t->find("A.1")->level == 2);
  Diagnostics d2;
  auto bad = load_taxonomy("taxonomy: x\nnodes:\n  - {id: P, name: p, parent: Q}\n  - {id: Q, name: q, parent: P}\n", "x.yaml", d2);
  CHECK_FALSE(bad);
  REQUIRE(d2.error_count() == 2);
  CHECK(d2.items()[0].message.find("cycle") != std::string::npos);
  CHECK(d2.items()[0].where.line == 3);
}

TEST_CASE("model::load_taxonomy reports ambiguous aliases and missing parents", "[model]") {
  Diagnostics d;
  auto t = load_taxonomy(
      "taxonomy: x\nnodes:\n  - id: A\n    name: Alpha\n    aliases: [beta]\n  - id: B\n    name: Beta\n  - id: C\n    name: c\n    parent: Z\n",
      "x.yaml", d);
  CHECK_FALSE(t);
  REQUIRE(d.error_count() == 2);
  CHECK(format_diagnostic(d.items()[0]) == "x.yaml:8:5: error: node 'C' names parent 'Z', which is not in the taxonomy");
  CHECK(d.items()[1].message.find("'Beta' of node 'B' is already used by node 'A'") != std::string::npos);
}

TEST_CASE("model::load_taxonomy reads level names; a level without one is \"Level N\"", "[model]") {
  Diagnostics d;
  auto t = load_taxonomy("taxonomy: x\nlevels: [Area, ' Practice ']\nnodes:\n  - {id: A, name: a, children: [{id: A.1, name: b, "
                         "children: [{id: A.1.a, name: c}]}]}\n",
                         "x.yaml", d);
  REQUIRE(t);
  CHECK(t->level_name(1) == "Area");
  CHECK(t->level_name(2) == "Practice");  // trimmed
  CHECK(t->level_name(3) == "Level 3");   // deeper than the list
  Diagnostics none;
  auto plain = load_taxonomy("taxonomy: x\nnodes:\n  - {id: A, name: a}\n", "x.yaml", none);
  REQUIRE(plain);
  CHECK(plain->level_name(1) == "Level 1");
}

TEST_CASE("model::load_taxonomy reports a bad levels list where it is", "[model]") {
  auto errors = [](const std::string& levels) {
    Diagnostics d;
    auto t = load_taxonomy("taxonomy: x\nlevels: " + levels + "\nnodes:\n  - {id: A, name: a}\n", "x.yaml", d);
    CHECK_FALSE(t);
    std::vector<std::string> out;
    for (const auto& item : d.items()) out.push_back(format_diagnostic(item));
    return out;
  };
  auto scalar = errors("Area");
  REQUIRE(scalar.size() == 1);
  CHECK(scalar[0].rfind("x.yaml:2:9: error: 'levels' is a list of level names", 0) == 0);
  auto empty = errors("[Area, '']");
  REQUIRE(empty.size() == 1);
  CHECK(empty[0] == "x.yaml:2:16: error: each entry of 'levels' is a non-empty name");
  auto twice = errors("[Area, area]");
  REQUIRE(twice.size() == 1);
  CHECK(twice[0] == "x.yaml:2:16: error: level name 'area' is given twice");
  auto nested = errors("[[Area]]");
  REQUIRE(nested.size() == 1);
  CHECK(nested[0] == "x.yaml:2:10: error: each entry of 'levels' is a non-empty name");
}
