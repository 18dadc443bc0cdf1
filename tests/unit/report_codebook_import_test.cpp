// Unit tests for the coded-quote table import (src/report/formats/codebook_import.cpp) and the codebook tables it feeds
// (src/report/outputs/codebook_data.cpp), against tests/fixtures/codebook/tiny and tests/fixtures/codebook/tables.
#include "catch.h"

#include "qualrank/analysis/study.h"
#include "qualrank/report/formats/codebook_import.h"
#include "qualrank/util/files.h"

using namespace qualrank;

namespace {

const std::string kFixtures = QUALRANK_FIXTURES_DIR;

struct Design {
  Workspace ws;
  std::unique_ptr<TaxonomyVersion> version;
};

Design tiny_design() {
  Diagnostics diags;
  auto ws = load_workspace_design(kFixtures + "/codebook/tiny", diags);
  REQUIRE(ws);
  Design d{std::move(*ws), nullptr};
  d.version = taxonomy_at(d.ws, std::nullopt, diags);
  REQUIRE(d.version);
  return d;
}

}  // namespace

TEST_CASE("report::import_coded_table reports every unknown node with its line", "[codebook]") {
  auto d = tiny_design();
  auto text = files::read(kFixtures + "/codebook/tables/unknown-node.csv");
  REQUIRE(text);
  Diagnostics diags;
  auto data = import_coded_table(*text, "unknown-node.csv", *d.version, d.ws.guideline, {}, diags);
  CHECK_FALSE(data);
  REQUIRE(diags.error_count() == 3);
  // line 3 starts the record whose quote spans lines 3-4; the last record is on line 6
  CHECK(format_diagnostic(diags.items()[0]) == "unknown-node.csv:3: error: unknown taxonomy node 'C.11'");
  CHECK(format_diagnostic(diags.items()[1]) == "unknown-node.csv:6: error: unknown taxonomy node 'Z.9'");
  CHECK(format_diagnostic(diags.items()[2]) == "unknown-node.csv:6: error: unknown taxonomy node 'nonsense theme'");
}

TEST_CASE("report::import_coded_table reads BOM, CRLF, quoted newlines, names and any header case", "[codebook]") {
  auto d = tiny_design();
  auto text = files::read(kFixtures + "/codebook/tables/good.csv");
  REQUIRE(text);
  Diagnostics diags;
  auto data = import_coded_table(*text, "good.csv", *d.version, d.ws.guideline, {}, diags);
  REQUIRE(data);
  CHECK(diags.empty());
  REQUIRE(data->segments.size() == 8);
  REQUIRE(data->participants.size() == 3);
  CHECK(data->participants[1].id == "P2");
  CHECK(data->participants[1].role == "developer");
  CHECK(data->participants[1].attributes.at("experience") == "advanced");
  const auto& s3 = *data->segments[2].segment;
  CHECK(s3.text == "And I never found how to save a model,\nthen it crashed.");
  CHECK(s3.nodes(*data->taxonomy) == std::vector<std::string>{"A.2", "B.1"});
  CHECK(s3.question == "II.1");
  CHECK(s3.source.line == 4);
  CHECK(data->segments[3].segment->nodes(*data->taxonomy) == std::vector<std::string>{"B.1"});  // by name "Crash"
  CHECK(data->segments[4].segment->nodes(*data->taxonomy) == std::vector<std::string>{"A.1.i", "A.1.ii"});  // a.1.ii
  CHECK(data->segments[0].source == "transcripts/P1.md:11");  // the table's Source column
  CHECK(data->segments[1].source == "good.csv:3");            // none given: the table row
  CHECK(data->segments[6].segment->text == "All kinds of \"questions\", really.");
}

TEST_CASE("report::codebook_tables_json is the same from the transcripts and from the equivalent table", "[codebook]") {
  // good.csv holds the tiny workspace's coded segments, so both give the same matrix and co-occurrence.
  Diagnostics diags;
  StudyOptions so;
  so.coding.suggestions = false;
  auto study = load_study(kFixtures + "/codebook/tiny", diags, so);
  REQUIRE(study);
  auto d = tiny_design();
  auto text = files::read(kFixtures + "/codebook/tables/good.csv");
  auto imported = import_coded_table(*text, "good.csv", *d.version, d.ws.guideline, {}, diags);
  REQUIRE(imported);
  for (int level : {1, 2, 3}) {
    CodebookOptions o;
    o.level = level;
    CHECK(codebook_tables_json(codebook_data(*study, o), o) == codebook_tables_json(*imported, o));
  }
  CodebookOptions o;
  auto j = codebook_tables_json(codebook_data(*study, o), o);
  CHECK(j["participants"] == 3);
  CHECK(j["matrix"]["rows"][1]["node"] == "A.1");
  CHECK(j["matrix"]["rows"][1]["percents"][0] == 50.0);
  CHECK(j["cooccurrence"]["counts"][2][1] == 1);  // B.1 x A.2
}

TEST_CASE("report::import_coded_table requires the Participant and node columns", "[codebook]") {
  auto d = tiny_design();
  Diagnostics diags;
  auto data = import_coded_table("Participant,Quote\nP1,hello\n", "t.csv", *d.version, d.ws.guideline, {}, diags);
  CHECK_FALSE(data);
  REQUIRE(diags.error_count() == 1);
  CHECK(format_diagnostic(diags.items()[0]).rfind("t.csv:1: error: the table has no 'Linked Taxonomy Node(s)' column", 0) == 0);
}

TEST_CASE("report::codebook_context takes --context-attr, else the guideline's codebook_context, else none", "[codebook]") {
  Guideline g;
  CodebookOptions o;
  CHECK_FALSE(codebook_context(o, g).enabled());  // no default attribute
  g.codebook_context = CodebookContextSetting{"country", "Country of residence", {}};
  auto c = codebook_context(o, g);
  CHECK(c.attribute == "country");
  CHECK(c.label == "Country of residence");
  o.context_attribute = "team_size";  // another attribute: headed by its own name
  c = codebook_context(o, g);
  CHECK(c.attribute == "team_size");
  CHECK(c.label == "team_size");
  o.context_attribute = "country";  // the guideline's attribute: the guideline's label
  CHECK(codebook_context(o, g).label == "Country of residence");
}

TEST_CASE("report::import_coded_table reads the context column under the study's label or the attribute's name", "[codebook]") {
  auto d = tiny_design();
  d.ws.guideline.codebook_context = CodebookContextSetting{"country", "Country of residence", {}};
  Diagnostics diags;
  auto labelled = import_coded_table("Participant,Linked Taxonomy Node(s),Country of residence\nP1,A.1,DE\n", "t.csv", *d.version,
                                     d.ws.guideline, {}, diags);
  REQUIRE(labelled);
  CHECK(labelled->context.label == "Country of residence");
  REQUIRE(labelled->participants.size() == 1);
  CHECK(labelled->participants[0].attributes.at("country") == "DE");
  REQUIRE(labelled->segments.size() == 1);
  CHECK(labelled->segments[0].context == "DE");
  auto by_name = import_coded_table("Participant,Linked Taxonomy Node(s),country\nP1,A.1,FR\n", "t.csv", *d.version,
                                    d.ws.guideline, {}, diags);
  REQUIRE(by_name);
  CHECK(by_name->participants[0].attributes.at("country") == "FR");
  // Without a context setting, no column is read as context (no default attribute).
  d.ws.guideline.codebook_context.reset();
  auto none = import_coded_table("Participant,Linked Taxonomy Node(s),Country of residence\nP1,A.1,DE\n", "t.csv", *d.version,
                                 d.ws.guideline, {}, diags);
  REQUIRE(none);
  CHECK_FALSE(none->context.enabled());
  CHECK(none->participants[0].attributes.count("country") == 0);
  CHECK(diags.error_count() == 0);
}
