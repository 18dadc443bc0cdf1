#include "catch.h"

#include <string>

#include "qualrank/util/string_interner.h"

using namespace qualrank;

TEST_CASE("util::StringInterner gives dense indices in order of first appearance", "[util]") {
  StringInterner in;
  bool added = false;
  CHECK(in.intern("B.1", &added) == 0);
  CHECK(added);
  CHECK(in.intern("A.1", &added) == 1);
  CHECK(in.intern("B.1", &added) == 0);
  CHECK_FALSE(added);
  CHECK(in.intern("") == 2);  // the empty string is a string like any other
  CHECK(in.find("A.1") == 1);
  CHECK(in.find("a.1") == -1);  // exact bytes
  CHECK(in.size() == 3);
  CHECK(in[0] == "B.1");
  CHECK(in[2].empty());
}

TEST_CASE("util::StringInterner keeps every string through growth", "[util]") {
  StringInterner in;
  in.reserve(10, 10);
  int wrong = 0;
  for (int i = 0; i < 100000; ++i) wrong += in.intern("unit#" + std::to_string(i)) != i;
  CHECK(wrong == 0);
  for (int i = 0; i < 100000; i += 997) {
    CHECK(in.find("unit#" + std::to_string(i)) == i);
    CHECK(in[i] == "unit#" + std::to_string(i));
  }
  CHECK(in.intern("unit#99999") == 99999);
  CHECK(in.size() == 100000);
}
