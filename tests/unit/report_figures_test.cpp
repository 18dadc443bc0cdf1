// Unit tests for the figures of report.json (src/report/figure_*.cpp through include/qualrank/report/figures/figures.h):
// which files, their names, escaping, byte-stability, the PDF's date, and the removal of stale figures.
#include "catch.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "qualrank/report/figures/figures.h"

namespace {

using Json = nlohmann::ordered_json;
using qualrank::figures::File;

Json tiny_report() {
  Json r;
  r["taxonomy"] = {{"taxonomy", "t"},
                   {"version", 1},
                   {"nodes",
                    {{{"id", "X"}, {"name", "<b>Top</b> & \"more\""}, {"level", 1}, {"parent", nullptr}, {"status", "active"}},
                     {{"id", "X.1"}, {"name", std::string("Bell\x01") + "\xFF" + "end"}, {"level", 2}, {"parent", "X"}, {"status", "deprecated"}}}}};
  r["codebook"] = {{"coded_segments", 5},
                   {"counting", "aggregate: a node's counts include the codes applied to its descendants"},
                   {"matrix", {{"rows", {{{"node", "X"}, {"segments", 5}, {"participants", 3}}, {{"node", "X.1"}, {"segments", 2}, {"participants", 1}}}}}}};
  return r;
}

const File* find(const std::vector<File>& files, const std::string& name) {
  auto it = std::find_if(files.begin(), files.end(), [&](const File& f) { return f.name == name; });
  return it == files.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("figures::report_figures writes each figure as SVG and PDF at both widths", "[figures]") {
  std::string err;
  const auto files = qualrank::figures::report_figures(tiny_report(), "9.9.9", 1700000000, &err);
  CHECK(err.empty());
  std::vector<std::string> names;
  for (const auto& f : files) names.push_back(f.name);
  CHECK(names == std::vector<std::string>{"taxonomy-1col.svg", "taxonomy-1col.pdf", "taxonomy-2col.svg", "taxonomy-2col.pdf"});
  const std::string& svg = find(files, "taxonomy-1col.svg")->bytes;
  CHECK(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<!-- Written by qualrank 9.9.9 ", 0) == 0);
  CHECK(svg.find("width=\"252pt\"") != std::string::npos);
  CHECK(find(files, "taxonomy-2col.svg")->bytes.find("width=\"516pt\"") != std::string::npos);
  // Names are text: escaped, control characters and invalid bytes replaced, the status after the name.
  CHECK(svg.find("&lt;b&gt;Top&lt;/b&gt; &amp; &quot;more&quot;") != std::string::npos);
  CHECK(svg.find("<b>") == std::string::npos);
  CHECK(svg.find('\x01') == std::string::npos);
  CHECK(svg.find("Bell \xEF\xBF\xBD" "end (deprecated)") != std::string::npos);
  // The counts, right-aligned, and the line that says what they are.
  CHECK(svg.find("text-anchor=\"end\">5</text>") != std::string::npos);
  CHECK(svg.find("text-anchor=\"end\">3</text>") != std::string::npos);
  CHECK(find(files, "taxonomy-2col.svg")->bytes.find("Numbers: segments coded with the node or a node under it (a segment with several "
                                                       "such codes counts once), and the") != std::string::npos);
  const std::string& pdf = find(files, "taxonomy-1col.pdf")->bytes;
  CHECK(pdf.rfind("%PDF-1.4", 0) == 0);
  CHECK(pdf.find("/CreationDate (20231114221320Z)") != std::string::npos);
  CHECK(pdf.find("/Creator (qualrank 9.9.9)") != std::string::npos);
  CHECK(pdf.find("/FontFile2") != std::string::npos);  // the font embedded
}

TEST_CASE("figures::report_figures gives the same bytes for the same report.json", "[figures]") {
  std::string err;
  const auto a = qualrank::figures::report_figures(tiny_report(), "1", 0, &err);
  const auto b = qualrank::figures::report_figures(tiny_report(), "1", 0, &err);
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i].bytes == b[i].bytes);
}

TEST_CASE("figures::report_figures draws only what report.json holds", "[figures]") {
  std::string err;
  CHECK(qualrank::figures::report_figures(Json::object(), "1", 0, &err).empty());
  CHECK(err.empty());
  Json r = tiny_report();
  r["saturation"] = nullptr;
  r["rankings"] = {{"questions",
                    {{{"question", "Q.1"},
                      {"items", {"X", "X.1"}},
                      {"groups", {{"one", {{"consensus", {"X", "X.1"}}}}, {"two", {{"consensus", {"X.1", "X"}}}}}},
                      {"comparisons",
                       {{{"groups", {"one", "two"}},
                         {"gaps", {{{"item", "X"}, {"gap", 1.25}, {"misaligned", true}}, {{"item", "X.1"}, {"gap", -1.25}, {"misaligned", false}}}}}}}}}}};
  const auto files = qualrank::figures::report_figures(r, "1", 0, &err);
  CHECK(files.size() == 12);
  const File* slope = find(files, "rank-q-1-slope-one-vs-two-2col.svg");
  REQUIRE(slope);
  CHECK(std::count(slope->bytes.begin(), slope->bytes.end(), '\n') > 10);
  // The misaligned item: flagged on both sides; the other not.
  std::size_t flags = 0;
  for (auto p = slope->bytes.find(">\xE2\x9A\x91</text>"); p != std::string::npos; p = slope->bytes.find(">\xE2\x9A\x91</text>", p + 1)) ++flags;
  CHECK(flags == 2);
  const File* gaps = find(files, "rank-q-1-gaps-one-vs-two-1col.svg");
  REQUIRE(gaps);
  CHECK(gaps->bytes.find(">1.25</text>") != std::string::npos);
  CHECK(gaps->bytes.find(">\xE2\x88\x92" "1.25</text>") != std::string::npos);
  CHECK(!find(files, "rank-q-1-worths-1col.svg"));  // no model, no forest plot
}

TEST_CASE("figures::remove_stale removes only the figures qualrank wrote", "[figures]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("qualrank-figures-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string err;
  const auto files = qualrank::figures::report_figures(tiny_report(), "1", 0, &err);
  for (const auto& f : files) std::ofstream(dir / ("old-" + f.name), std::ios::binary) << f.bytes;
  std::ofstream(dir / "mine.svg") << "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n";
  std::ofstream(dir / "mine.pdf") << "%PDF-1.4\n";
  std::ofstream(dir / "old-taxonomy-1col.keep.svg") << files[0].bytes;
  const auto removed = qualrank::figures::remove_stale(dir, {"old-taxonomy-1col.keep.svg"});
  CHECK(removed == std::vector<std::string>{"old-taxonomy-1col.pdf", "old-taxonomy-1col.svg", "old-taxonomy-2col.pdf", "old-taxonomy-2col.svg"});
  CHECK(fs::exists(dir / "mine.svg"));
  CHECK(fs::exists(dir / "mine.pdf"));
  CHECK(fs::exists(dir / "old-taxonomy-1col.keep.svg"));
  fs::remove_all(dir);
}

TEST_CASE("figures::report_figures counts a study of label tables by its top-level nodes' units", "[figures]") {
  Json r = tiny_report();
  r["codebook"]["coded_segments"] = 0;
  r["agreement"] = {{"labels", {{"groups", {{"X", {{"units", 17}}}}}}}};
  std::string err;
  const auto files = qualrank::figures::report_figures(r, "1", 0, &err);
  const File* svg = find(files, "taxonomy-2col.svg");
  REQUIRE(svg);
  CHECK(svg->bytes.find("text-anchor=\"end\">17</text>") != std::string::npos);
  CHECK(svg->bytes.find(">5</text>") == std::string::npos);  // not the codebook's segments
  CHECK(svg->bytes.find("Numbers: units labelled under the node in the label tables") != std::string::npos);
}
