#include "catch.h"

#include "qualrank/util/bury.h"

using namespace qualrank;

namespace {
struct Flag {
  bool* destroyed;
  ~Flag() { *destroyed = true; }
};
}  // namespace

TEST_CASE("util::bury destroys at once unless burial is enabled, then keeps the object", "[util][bury]") {
  REQUIRE_FALSE(burial_enabled());  // the library and the tests free as usual
  bool freed = false;
  bury(std::unique_ptr<Flag>(new Flag{&freed}));
  CHECK(freed);

  static bool kept_freed = false;  // the buried object outlives this test: its flag must too
  enable_burial();
  bury(std::unique_ptr<Flag>(new Flag{&kept_freed}));
  enable_burial(false);
  CHECK_FALSE(kept_freed);
  bury(std::unique_ptr<Flag>());  // nothing to bury: no effect
}
