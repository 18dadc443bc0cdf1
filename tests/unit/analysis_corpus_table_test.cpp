#include "catch.h"

#include "qualrank/analysis/corpus/corpus_table.h"
#include "fixture_taxonomy.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

using namespace qualrank;

namespace {

PeriodList list(const std::string& file, const std::string& text) {
  Diagnostics d;
  auto l = parse_period_list(text, file, d);
  REQUIRE(l);
  REQUIRE_FALSE(d.has_errors());
  return *l;
}

}  // namespace

TEST_CASE("corpus_table counts units per source, period and top-level node (hand-counted)", "[analysis][corpus]") {
  Diagnostics d;
  // forum: f1 COM.1, f2 COM.2, f3 TOOL.2, f4 WELL.1 (f4 in no period); tickets: t1 TOOL.1, t2 COM.1.a, t3 no consensus.
  auto table = read_label_tables({{"forum.csv", "forum", "unit,coder_a,coder_b,final\nf1,COM.1,COM.1,COM.1\nf2,COM.2,TOOL.1,COM.2\n"
                                                         "f3,TOOL.2,TOOL.2,TOOL.2\nf4,WELL.1,WELL.1,WELL.1\n"},
                                  {"tickets.csv", "tickets", "unit,coder_a,coder_b,final\nt1,TOOL.1,TOOL.1,TOOL.1\nt2,COM.1.a,COM.1.a,COM.1.a\nt3,COM.2,COM.3,\n"}},
                                 {}, {}, d);
  REQUIRE_FALSE(d.has_errors());
  std::vector<PeriodList> periods{list("lists/forum_2024-H2.txt", "f3\n"), list("lists/forum_2024-H1.txt", " f1 \n\nf2\n"),
                                  list("lists/tickets_2024-H10.txt", "t1\nt2\nt3\n")};
  Diagnostics warnings;
  auto t = corpus_table(table, test::fieldwork_taxonomy(), 1, periods, warnings);
  CHECK_FALSE(warnings.has_errors());
  CHECK(t.periods == std::vector<std::string>{"2024-H1", "2024-H2", "2024-H10"});  // natural order
  CHECK(t.groups == std::vector<std::string>{"COM", "TOOL", "WELL"});
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0].units == 4);
  CHECK(t.rows[0].by_period == std::vector<std::int64_t>{2, 1, 0});
  CHECK(t.rows[0].no_period == 1);
  CHECK(t.rows[0].by_group == std::vector<std::int64_t>{2, 1, 1});
  CHECK(t.rows[1].by_period == std::vector<std::int64_t>{0, 0, 3});
  CHECK(t.rows[1].by_group == std::vector<std::int64_t>{1, 1, 0});  // COM.1.a counts under COM
  CHECK(t.rows[1].open == 1);                                      // t3 has no consensus: open
  CHECK(t.rows[1].ungrouped == 0);
  CHECK(t.total.open == 1);
  CHECK(t.total.units == 7);
  CHECK(t.total.by_group == std::vector<std::int64_t>{3, 2, 1});
  REQUIRE(warnings.items().size() == 1);  // f4 in no list
  CHECK(warnings.items()[0].message == "1 of its 4 units are in no period list (forum_PERIOD.txt)");
}

TEST_CASE("parse_period_list wants SOURCE_PERIOD.txt", "[analysis][corpus]") {
  Diagnostics d;
  CHECK_FALSE(parse_period_list("x\n", "lists/forum.txt", d));
  CHECK(d.has_errors());
  Diagnostics ok;
  auto l = parse_period_list("a\r\nb\n", "my_source_2025.txt", ok);
  REQUIRE(l);
  CHECK(l->source == "my_source");
  CHECK(l->period == "2025");
  CHECK(l->ids == std::vector<std::pair<std::string, int>>{{"a", 1}, {"b", 2}});
}
