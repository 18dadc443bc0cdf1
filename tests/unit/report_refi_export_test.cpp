#include "catch.h"

#include <iostream>
#include <map>

#include "qualrank/report/formats/refi.h"
#include "qualrank/report/formats/refi_export.h"
#include "qualrank/util/text.h"

using namespace qualrank;

namespace {

std::string code_points(const std::string& s, long long begin, long long end) {
  std::string out;
  long long cp = -1;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++cp;
    if (cp >= end) break;
    if (cp >= begin) out += s[i];
  }
  return out;
}

// Every selection of the exported project points at exactly its segment's text.
void check_offsets(const std::string& root) {
  Diagnostics d;
  StudyOptions opts;
  opts.coding.suggestions = false;
  auto study = load_study(root, d, opts);
  REQUIRE(study);
  auto entries = qdpx_entries(*study, 1735689600, d);
  d.print(std::cerr);
  REQUIRE_FALSE(d.has_errors());
  auto from = [&](const std::string& name) -> std::optional<std::string> {
    auto it = entries.find(name);
    return it == entries.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  auto project = refi::parse_xml(entries.at("project.qde"), "project.qde", d, from);
  REQUIRE(project);
  std::map<std::string, std::string> text_of;
  for (const auto& s : study->segments) text_of[s.id] = s.text;
  std::size_t selections = 0;
  for (const auto& source : project->sources)
    for (const auto& sel : source.selections) {
      ++selections;
      INFO(sel.name);
      REQUIRE(text_of.count(sel.name));
      CHECK(code_points(source.text, sel.start, sel.end) == text_of[sel.name]);
    }
  std::size_t coded = 0;
  for (const auto& s : study->segments) coded += !s.codes.empty();
  CHECK(selections == coded);
}

}  // namespace

TEST_CASE("report::qdpx_entries selections point at the coded text (bundled study)", "[report][refi]") {
  check_offsets(QUALRANK_SOURCE_DIR);
}

TEST_CASE("report::qdpx_entries selections point at the coded text (Unicode fixture)", "[report][refi]") {
  check_offsets(std::string(QUALRANK_FIXTURES_DIR) + "/mini");
}

TEST_CASE("report::qdpx_entries is reproducible and stamps the epoch", "[report][refi]") {
  Diagnostics d;
  auto study = load_study(std::string(QUALRANK_FIXTURES_DIR) + "/mini", d);
  REQUIRE(study);
  auto a = qdpx_entries(*study, 1735689600, d), b = qdpx_entries(*study, 1735689600, d);
  CHECK(a == b);
  CHECK(a.at("project.qde").find("creationDateTime=\"2025-01-01T00:00:00Z\"") != std::string::npos);
  CHECK(a.count("qualrank/codebooks/mini.yaml"));
  CHECK(a.count("qualrank/guidelines/mini.yaml"));
}

TEST_CASE("report::refi_plain_text keeps sections, turns, rankings and answers, not codes", "[report][refi]") {
  const std::string md =
      "---\nparticipant: P1\nrole: user\n---\nFree prose is dropped.\n## II.1 Q\nI: Why?\n"
      "P1: Because [this]{A.1}\nand that.\n@code A.2\n@memo m\n<!-- note -->\n## II.R\nP1: Order.\n@rank A > B\n";
  Diagnostics d;
  auto t = parse_transcript(md, "t.md", d);
  REQUIRE(t);
  auto plain = refi_plain_text(*t, d);
  CHECK(plain.text == "## II.1 Q\n\nI: Why?\n\nP1: Because this\nand that.\n\n## II.R\n\nP1: Order.\n@rank A > B\n");
  CHECK_FALSE(d.has_errors());
  CHECK(code_points(plain.text, static_cast<long long>(plain.turn_offsets.at(1)), static_cast<long long>(plain.turn_offsets.at(1)) + 22) ==
        "Because this\nand that.");
}

TEST_CASE("report::refi_codebook_xml nests codes in taxonomy order", "[report][refi]") {
  Diagnostics d;
  auto t = load_taxonomy("taxonomy: t\nnodes:\n  - id: A\n    name: Top\n    children:\n      - id: A.1\n        name: Kid & <co>\n",
                         "t.yaml", d);
  REQUIRE(t);
  auto xml = refi_codebook_xml(*t);
  CHECK(xml.find("<Code guid=\"" + refi::code_guid("t", "A") + "\" name=\"A Top\" isCodable=\"true\" color=\"#1F77B4\">") != std::string::npos);
  CHECK(xml.find("name=\"A.1 Kid &amp; &lt;co>\"") != std::string::npos);  // '>' needs no escape in attributes
  CHECK(xml.find("xmlns=\"urn:QDA-XML:codebook:1.0\"") != std::string::npos);
}
