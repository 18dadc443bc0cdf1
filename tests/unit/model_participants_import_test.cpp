#include "catch.h"

#include <filesystem>

#include "qualrank/model/participants_import.h"
#include "qualrank/model/workspace.h"
#include "qualrank/model/workspace_init.h"
#include "qualrank/util/files.h"

using namespace qualrank;
namespace fs = std::filesystem;

TEST_CASE("model::parse_years reads years and months as people write them", "[model]") {
  CHECK(parse_years("3") == Approx(3.0));
  CHECK(parse_years(" 3 years ") == Approx(3.0));
  CHECK(parse_years("1 year") == Approx(1.0));
  CHECK(parse_years("1.5 years") == Approx(1.5));
  CHECK(parse_years("1,5 Jahre") == Approx(1.5));
  CHECK(parse_years("2 yrs") == Approx(2.0));
  CHECK(parse_years("3y") == Approx(3.0));
  CHECK(parse_years("8 Months") == Approx(8.0 / 12.0));
  CHECK(parse_years("18 mo") == Approx(1.5));
  CHECK(parse_years("6 Monate") == Approx(0.5));
  CHECK(parse_years("8m") == Approx(8.0 / 12.0));
  for (const char* bad : {"", "about 3", "2-3 years", "3+", "-1", "three", "3 weeks", "1.2.3", "3.", ".5", "101", "TRUE", "3 years ago"})
    CHECK_FALSE(parse_years(bad));
  CHECK(format_years(3.0) == "3");
  CHECK(format_years(1.5) == "1.5");
  CHECK(format_years(8.0 / 12.0) == "0.67");
  CHECK(format_years(0.5) == "0.5");
  CHECK(format_years(10.0) == "10");
}

TEST_CASE("model::sheet_from_csv locates each cell at its line and character column", "[model]") {
  Diagnostics d;
  auto s = sheet_from_csv("id,Rôle,years\nP1,\"a, b\",3\n\"P\n2\",x,4 yrs\n", "p.csv", d);
  REQUIRE(s);
  REQUIRE(s->rows.size() == 2);
  CHECK(s->header_where[2].column == 9);
  CHECK(s->rows[0].where[2].line == 2);
  CHECK(s->rows[0].where[2].column == 11);
  CHECK(s->rows[1].cells[0] == "P\n2");
  CHECK(s->rows[1].where[1].line == 4);
  CHECK(s->rows[1].where[1].column == 4);
}

TEST_CASE("model::plan_participants_import splices front matter and keeps every other byte", "[model]") {
  auto root = fs::temp_directory_path() / "qualrank_participants_test";
  fs::remove_all(root);
  StarterOptions o;
  o.roles = {"lead", "member"};
  REQUIRE(write_starter_workspace(root, starter_workspace(o), nullptr));
  const std::string body = "## II.1\r\nI: Question?\r\nP1: An answer, with: a colon.\r\n";
  const std::string t1 = "---\r\nparticipant: P1\r\nrole: member # set by hand\r\nattributes: {years: 2, site: \"North\"}\r\n---\r\n" + body;
  REQUIRE(files::write_atomic(root / "transcripts/P1.md", t1));
  Diagnostics d;
  auto s = sheet_from_csv("ID,role,Years,site,extra\nP1,LEAD,18 months,North,x\n", "s.csv", d);
  REQUIRE(s);
  auto plan = plan_participants_import(root, *s, {"id", {}}, d);
  REQUIRE_FALSE(d.has_errors());
  REQUIRE(plan);
  CHECK(plan->ignored_columns == std::vector<std::string>{"extra"});
  REQUIRE(plan->changes.size() == 2);
  CHECK(plan->changes[0].attribute == "role");
  CHECK(plan->changes[0].old_value == "member");
  CHECK(plan->changes[0].new_value == "lead");
  CHECK(plan->changes[1].attribute == "years");
  CHECK(plan->changes[1].new_value == "1.5");
  CHECK(plan->unchanged == 1);
  const auto& out = plan->files.at("transcripts/P1.md");
  CHECK(out == "---\r\nparticipant: P1\r\nrole: lead\r\nattributes:\r\n  years: 1.5\r\n  site: North\r\n---\r\n" + body);
  REQUIRE(write_participants_import(root, *plan, nullptr));
  CHECK(files::read(root / "transcripts/P1.md") == out);

  // A value that would break YAML is quoted and reads back as written.
  Diagnostics d2;
  auto s3 = sheet_from_csv("id,site\nP1,\": x\n---\"\n", "s.csv", d2);
  REQUIRE(s3);
  auto plan2 = plan_participants_import(root, *s3, {"id", {}}, d2);
  REQUIRE(plan2);
  CHECK(plan2->files.at("transcripts/P1.md").find("  site: \": x\\n---\"\r\n") != std::string::npos);

  Diagnostics bad;
  auto s2 = sheet_from_csv("id,role,years\nP1,lid,about 2\n", "s.csv", bad);
  CHECK_FALSE(plan_participants_import(root, *s2, {"id", {}}, bad));
  REQUIRE(bad.error_count() == 2);
  CHECK(format_diagnostic(bad.items()[0]) == "s.csv:2:4: error: column 'role': unknown role 'lid' (did you mean 'lead'?) (the guideline's roles: lead, member)");
  CHECK(format_diagnostic(bad.items()[1]).rfind("s.csv:2:8: error: column 'years': 'about 2' is not a number of years", 0) == 0);
  CHECK(files::read(root / "transcripts/P1.md") == out);
  fs::remove_all(root);
}

TEST_CASE("model::starter_workspace loads as a valid workspace with the roles asked for", "[model]") {
  auto root = fs::temp_directory_path() / "qualrank_init_test";
  fs::remove_all(root);
  StarterOptions o;
  o.taxonomy = "remote-work";
  o.roles = {"manager", "employee", "contractor"};
  CHECK(check_starter_options(o).empty());
  auto files_ = starter_workspace(o);
  CHECK(init_conflicts(root, files_).empty());
  REQUIRE(write_starter_workspace(root, files_, nullptr));
  Diagnostics d;
  auto ws = load_workspace(root, d);
  REQUIRE(ws);
  CHECK(d.empty());
  CHECK(ws->guideline.roles == o.roles);
  CHECK(ws->taxonomy.name == "remote-work");
  const auto* rq = ws->guideline.find("II.R");
  REQUIRE(rq);
  CHECK(rq->kind == QuestionKind::ranking);
  CHECK(rq->items.size() == 3);
  CHECK(rq->text_for("contractor") == "Rank these challenges by how much they matter to you as contractor.");
  REQUIRE(ws->guideline.experience);
  CHECK(ws->guideline.experience->from == "years");
  CHECK(init_conflicts(root, files_).size() == 4);
  StarterOptions bad;
  bad.taxonomy = "../x";
  bad.roles = {"a", "A", "b c"};
  CHECK(check_starter_options(bad).size() == 3);
  fs::remove_all(root);
}
