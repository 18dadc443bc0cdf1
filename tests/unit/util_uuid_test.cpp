#include "catch.h"

#include "qualrank/util/uuid.h"

using namespace qualrank;

// Expected values from Python's uuid module:
//   /usr/bin/python3 -c "import uuid; print(uuid.uuid5(uuid.NAMESPACE_URL, 'https://qualrank.invalid/refi-qda'))"
//   /usr/bin/python3 -c "import uuid; print(uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org'))"
TEST_CASE("util::uuid::v5 matches RFC 4122 name-based UUIDs", "[util]") {
  CHECK(uuid::v5(uuid::url_namespace(), "https://qualrank.invalid/refi-qda") == "69cb678d-0008-5b11-a999-5de9af61276c");
  auto dns = uuid::parse("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
  REQUIRE(dns);
  CHECK(uuid::v5(*dns, "python.org") == "886313e1-3b8a-5372-9b90-0c9aee199e5d");
}

TEST_CASE("util::uuid::normalise accepts either case and braces, rejects the rest", "[util]") {
  CHECK(uuid::normalise("{6BA7B811-9DAD-11D1-80B4-00C04FD430C8}") == "6ba7b811-9dad-11d1-80b4-00c04fd430c8");
  CHECK(uuid::normalise("6ba7b811-9dad-11d1-80b4-00c04fd430c8") == "6ba7b811-9dad-11d1-80b4-00c04fd430c8");
  CHECK(uuid::normalise("6ba7b811-9dad-11d1-80b4-00c04fd430c") == "");
  CHECK(uuid::normalise("6ba7b811x9dad-11d1-80b4-00c04fd430c8") == "");
  CHECK(uuid::normalise("6ba7b811-9dad-11d1-80b4-00c04fd430cg") == "");
}
