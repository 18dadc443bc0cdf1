// The fieldwork fixture study's taxonomy (tests/fixtures/fieldwork/codebooks/remote-work.yaml), loaded once:
// for the unit tests that label, screen or tabulate against a real codebook of another study than the bundled one.
#pragma once
#include "catch.h"

#include <string>
#include <utility>

#include "qualrank/model/taxonomy.h"
#include "qualrank/util/files.h"

namespace qualrank::test {

inline const Taxonomy& fieldwork_taxonomy() {
  static const Taxonomy t = [] {
    Diagnostics d;
    auto loaded = load_taxonomy(*files::read(std::string(QUALRANK_FIXTURES_DIR) + "/fieldwork/codebooks/remote-work.yaml"), "t.yaml", d);
    REQUIRE(loaded);
    return std::move(*loaded);
  }();
  return t;
}

}  // namespace qualrank::test
