#include <catch2/catch.hpp>

#include <iostream>

#include "qualrank/model/taxonomy.h"
#include "qualrank/util/files.h"

using namespace qualrank;

TEST_CASE("model::load_taxonomy loads the bundled study: 3 types, 18 themes, 69 sub-themes", "[model]") {
  auto text = files::read(std::string(QUALRANK_SOURCE_DIR) + "/codebooks/llm-frameworks.yaml");
  REQUIRE(text);
  Diagnostics d;
  auto t = load_taxonomy(*text, "codebooks/llm-frameworks.yaml", d);
  d.print(std::cerr);
  REQUIRE(t);
  CHECK(t->at_level(1).size() == 3);
  CHECK(t->at_level(2).size() == 18);
  CHECK(t->at_level(3).size() == 69);
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
