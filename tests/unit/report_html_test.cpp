#include "catch.h"
#include <unistd.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "qualrank/report/study/html_report.h"
#include "qualrank/report/study/study_report.h"
#include "qualrank/util/files.h"

using namespace qualrank;
namespace fs = std::filesystem;

namespace {

// report.json and index.html of a fixture study, written by build_study_report into a temp folder.
struct Written {
  nlohmann::ordered_json report;
  std::string html;
};

Written report_of(const std::string& fixture, const fs::path& tmp) {
  const fs::path ws = tmp / fixture;
  fs::copy(fs::path(QUALRANK_FIXTURES_DIR) / fixture, ws, fs::copy_options::recursive);
  StudyReportOptions options;
  options.output_dir = tmp / (fixture + "-reports");
  options.resamples = 50;
  Diagnostics diags;
  StudyReportSummary summary;
  REQUIRE(build_study_report(ws, options, diags, summary));
  REQUIRE_FALSE(diags.has_errors());
  return {nlohmann::ordered_json::parse(*files::read(options.output_dir / "report.json")),
          *files::read(options.output_dir / "index.html")};
}

}  // namespace

TEST_CASE("index.html names each study's own nodes when one process renders two studies") {
  // The node names were once cached for the life of the thread: the second study's items got the first's names.
  const fs::path tmp = fs::temp_directory_path() / ("qualrank-html-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const Written fieldwork = report_of("fieldwork", tmp);
  const Written rank_model = report_of("rank-model", tmp);
  // Every node a page names in a table cell ("<td>ID ") is named by its own study's name, in the pages
  // build_study_report wrote (one after the other, in this process) and rendered again here.
  auto names_own_nodes = [](const Written& w, const std::string& html) {
    int named = 0;
    for (const auto& n : w.report["taxonomy"]["nodes"]) {
      // (ids below the top level, "X.1": a one-letter id would also begin a cell's sentence)
      if (n["id"].get<std::string>().find('.') == std::string::npos) continue;
      const std::string cell = "<td>" + n["id"].get<std::string>() + " ";
      if (html.find(cell) == std::string::npos) continue;
      CHECK(html.find(cell + n["name"].get<std::string>()) != std::string::npos);
      ++named;
    }
    return named;
  };
  CHECK(names_own_nodes(fieldwork, fieldwork.html) > 0);
  CHECK(names_own_nodes(rank_model, rank_model.html) > 0);
  CHECK(render_html_report(fieldwork.report) == fieldwork.html);
  CHECK(render_html_report(rank_model.report) == rank_model.html);
  fs::remove_all(tmp);
}
