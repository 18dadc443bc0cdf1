#include "catch.h"

#include "qualrank/report/formats/refi.h"

using namespace qualrank;

TEST_CASE("model::refi code GUIDs depend only on the taxonomy name and node id", "[model][refi]") {
  CHECK(refi::code_guid("llm-frameworks", "A.1") == refi::code_guid("llm-frameworks", "A.1"));
  CHECK(refi::code_guid("llm-frameworks", "A.1") != refi::code_guid("llm-frameworks", "A.2"));
  CHECK(refi::code_guid("llm-frameworks", "A.1") != refi::code_guid("other", "A.1"));
  auto g = refi::code_guid("mini", "B.1");
  CHECK(g.size() == 36);
  CHECK(g[14] == '5');  // version 5
}

TEST_CASE("model::refi descriptions round-trip definition, criteria, aliases and keywords", "[model][refi]") {
  TaxonomyNode n;
  n.id = "A.1";
  n.name = "Installation";
  n.definition = "Getting it installed.\n\nA second paragraph.";
  n.inclusion = "Cannot install.";
  n.exclusion = "Build bugs (C.1).";
  n.aliases = {"install docs", "setup"};
  n.keywords = {"pip install", "wheel"};
  CHECK(refi::code_name(n) == "A.1 Installation");
  auto f = refi::parse_code_description(refi::code_description(n));
  CHECK(f.definition == n.definition);
  CHECK(f.inclusion == n.inclusion);
  CHECK(f.exclusion == n.exclusion);
  CHECK(f.aliases == n.aliases);
  CHECK(f.keywords == n.keywords);
  // another tool's description is all definition
  CHECK(refi::parse_code_description("Things people ask.\r\n\r\nMore.").definition == "Things people ask.\n\nMore.");
}

TEST_CASE("model::refi::split_id_prefix finds ids shaped like taxonomy ids", "[model][refi]") {
  auto p = refi::split_id_prefix("A.1.i System Support and Dependency Management");
  REQUIRE(p);
  CHECK(p->first == "A.1.i");
  CHECK(p->second == "System Support and Dependency Management");
  CHECK(refi::split_id_prefix("A Question")->first == "A");
  CHECK(refi::split_id_prefix("C.10 Documentation")->first == "C.10");
  CHECK(refi::split_id_prefix("B2 Memory")->first == "B2");
  CHECK_FALSE(refi::split_id_prefix("Installation"));
  CHECK_FALSE(refi::split_id_prefix("Memory problems"));
  CHECK_FALSE(refi::split_id_prefix("Bugs in kernels"));
  CHECK_FALSE(refi::split_id_prefix("A.1"));  // nothing after the id
}

TEST_CASE("model::refi::parse_xml reads a project with lines and normalisable GUIDs", "[model][refi]") {
  const std::string xml =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
      "<Project xmlns=\"urn:QDA-XML:project:1.0\" name=\"p\">\n"
      "<Users><User guid=\"{5E0B1F8A-3C2D-4E6F-8A9B-0C1D2E3F4A5B}\" name=\"kim\"/></Users>\n"
      "<CodeBook><Codes>\n"
      "<Code guid=\"7d3c1a2b-4e5f-4a6b-9c8d-1e2f3a4b5c6d\" name=\"Cat\" isCodable=\"false\">\n"
      "  <Code guid=\"8d3c1a2b-4e5f-4a6b-9c8d-1e2f3a4b5c6d\" name=\"Leaf\" isCodable=\"true\"><Description>D</Description></Code>\n"
      "</Code></Codes></CodeBook>\n"
      "<Sources><TextSource guid=\"4c6e8a0b-3d5f-4b7c-9e1a-2b4d6f8a0c3e\" name=\"s\">\n"
      "<PlainTextContent>Hello world</PlainTextContent>\n"
      "<PlainTextSelection guid=\"6f8a0c2e-5b7d-4f9a-8c2e-4d6f8a0b2c4e\" startPosition=\"6\" endPosition=\"11\">\n"
      "<Coding guid=\"8a0c2e4f-6b8d-4a0c-9e4f-5b7d9f1a3c5e\"><CodeRef targetGUID=\"8d3c1a2b-4e5f-4a6b-9c8d-1e2f3a4b5c6d\"/></Coding>\n"
      "</PlainTextSelection></TextSource></Sources>\n"
      "<Sets><Set guid=\"1d3c1a2b-4e5f-4a6b-9c8d-1e2f3a4b5c6d\" name=\"s\"/></Sets>\n"
      "</Project>\n";
  Diagnostics d;
  auto p = refi::parse_xml(xml, "p.qde", d);
  REQUIRE(p);
  CHECK_FALSE(d.has_errors());
  REQUIRE(p->codes.size() == 1);
  CHECK_FALSE(p->codes[0].codable);
  CHECK(p->codes[0].line == 5);
  REQUIRE(p->codes[0].children.size() == 1);
  CHECK(p->codes[0].children[0].description == "D");
  CHECK(p->codes[0].children[0].line == 6);
  REQUIRE(p->sources.size() == 1);
  CHECK(p->sources[0].text == "Hello world");
  REQUIRE(p->sources[0].selections.size() == 1);
  CHECK(p->sources[0].selections[0].start == 6);
  CHECK(p->sources[0].selections[0].line == 10);
  CHECK(p->sources[0].selections[0].codings[0].line == 11);
  REQUIRE(p->ignored.size() == 1);
  CHECK(p->ignored[0].rfind("Sets", 0) == 0);
}

TEST_CASE("model::refi::parse_xml reports syntax errors and wrong roots located", "[model][refi]") {
  Diagnostics d;
  CHECK_FALSE(refi::parse_xml("<Project name=\"x\">\n<Users>\n</Project>\n", "bad.qde", d));
  REQUIRE(d.has_errors());
  CHECK(d.items()[0].where.line == 3);
  Diagnostics d2;
  CHECK_FALSE(refi::parse_xml("<html/>", "x.qde", d2));
  CHECK(d2.items()[0].message.find("expected a REFI-QDA") != std::string::npos);
  Diagnostics d3;
  auto p = refi::parse_xml("<CodeBook xmlns=\"urn:QDA-XML:codebook:1.0\"><Codes><Code guid=\"x\"/></Codes></CodeBook>", "c.qdc", d3);
  CHECK(d3.has_errors());  // name and isCodable missing
}

TEST_CASE("model::refi::split_id_prefix takes upper-case multi-segment ids, not acronyms", "[model][refi]") {
  CHECK(refi::split_id_prefix("TOOL.1 Chat")->first == "TOOL.1");
  CHECK(refi::split_id_prefix("TOOL.2.a Finding things")->second == "Finding things");
  CHECK_FALSE(refi::split_id_prefix("GPU memory"));
  CHECK_FALSE(refi::split_id_prefix("TOOL Tooling"));
  CHECK_FALSE(refi::split_id_prefix("Tool.1 Chat"));
}
