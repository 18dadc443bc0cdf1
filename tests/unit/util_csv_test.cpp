#include "catch.h"

#include "qualrank/util/csv.h"

using namespace qualrank;

TEST_CASE("csv::parse handles BOM, CRLF, quotes, embedded commas and newlines", "[util]") {
  Diagnostics d;
  auto t = csv::parse("\xEF\xBB\xBFunit,Label_1\r\n\"a,1\",\"say \"\"hi\"\"\"\r\n\"multi\nline\",x\r\n\r\nlast,y", "t.csv", d);
  REQUIRE_FALSE(d.has_errors());
  REQUIRE(t.header.size() == 2);
  CHECK(t.header[0] == "unit");
  REQUIRE(t.rows.size() == 3);
  CHECK(t.rows[0].fields[0] == "a,1");
  CHECK(t.rows[0].fields[1] == "say \"hi\"");
  CHECK(t.rows[1].fields[0] == "multi\nline");
  CHECK(t.rows[1].line == 3);
  CHECK(t.rows[2].line == 6);
  CHECK(t.column("LABEL_1") == 1);
}

TEST_CASE("csv::parse reports rows with a different field count, located", "[util]") {
  Diagnostics d;
  auto t = csv::parse("a,b\n1,2\n1,2,3\n", "t.csv", d);
  REQUIRE(d.error_count() == 1);
  CHECK(format_diagnostic(d.items()[0]) == "t.csv:3: error: row has 3 fields, the header has 2");
  CHECK(t.rows.size() == 1);
}

TEST_CASE("csv::parse rejects stray quotes and unterminated fields", "[util]") {
  Diagnostics d1;
  csv::parse("a,b\n1,x\"y\n", "t.csv", d1);
  CHECK(d1.has_errors());
  Diagnostics d2;
  csv::parse("a,b\n1,\"open\n", "t.csv", d2);
  REQUIRE(d2.has_errors());
  CHECK(d2.items()[0].where.line == 2);
}

TEST_CASE("csv::quote neutralises formulas as OWASP recommends", "[util]") {
  CHECK(csv::quote("=SUM(A1)", true) == "'=SUM(A1)");
  CHECK(csv::quote("+1", true) == "'+1");
  CHECK(csv::quote("-2", true) == "'-2");
  CHECK(csv::quote("@x", true) == "'@x");
  CHECK(csv::quote("=1,2", true) == "\"'=1,2\"");
  CHECK(csv::quote("=SUM(A1)", false) == "=SUM(A1)");
  CHECK(csv::quote("a\"b", false) == "\"a\"\"b\"");
}
