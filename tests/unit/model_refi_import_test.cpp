#include "catch.h"

#include <fstream>
#include <iostream>
#include <random>

#include "qualrank/report/formats/refi_import.h"
#include "qualrank/model/workspace.h"

using namespace qualrank;
namespace fs = std::filesystem;

namespace {

struct TempCopy {
  fs::path root;
  explicit TempCopy(const fs::path& from) {
    std::random_device rd;
    root = fs::temp_directory_path() / ("qualrank-refi-" + std::to_string(rd()));
    fs::copy(from, root, fs::copy_options::recursive);
  }
  ~TempCopy() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

const fs::path kFixtures = QUALRANK_FIXTURES_DIR;

}  // namespace

TEST_CASE("model::plan_refi_import maps a QualCoder project onto the taxonomy", "[model][refi]") {
  TempCopy ws(kFixtures / "mini");
  RefiImportOptions options;
  options.map = kFixtures / "refi/qualcoder-map.yaml";
  Diagnostics d;
  auto plan = plan_refi_import(ws.root, kFixtures / "refi/qualcoder.qdpx", "qualcoder.qdpx", options, d);
  d.print(std::cerr);
  REQUIRE(plan);
  CHECK(plan->transcripts == 2);
  CHECK(plan->codings == 8);
  REQUIRE(plan->files.count("transcripts/Anna.md"));
  const auto& anna = plan->files.at("transcripts/Anna.md");
  CHECK(anna.find("coder: colin\n") != std::string::npos);
  CHECK(anna.find("Anna: The naïve approach [ran out of memory on every batch]{B.1}.\n") != std::string::npos);
  CHECK(anna.find("[which CUDA version goes with which wheel]{A.1}.\n@memo Version matching, again.\n@code A.1\n") !=
        std::string::npos);
  REQUIRE(plan->files.count("transcripts/P4.maria.codes"));
  CHECK(plan->files.at("transcripts/P4.maria.codes") == "t1 \"the right wheel\": A.1\nt2 \"Out of memory errors\": B.1\n");
  // Written and loaded, the workspace has the imported participants.
  std::string err;
  REQUIRE(write_refi_import(ws.root, *plan, &err));
  Diagnostics load;
  auto loaded = load_workspace(ws.root, load);
  REQUIRE(loaded);
  CHECK_FALSE(load.has_errors());
  REQUIRE(loaded->participant("P4"));
  CHECK(loaded->participant("P4")->role == "developer");
  CHECK(loaded->participant("P4")->attributes.at("experience") == "advanced");  // derived from years: 5
}

TEST_CASE("model::plan_refi_import lists every unmapped code and refuses to write", "[model][refi]") {
  TempCopy ws(kFixtures / "mini");
  Diagnostics d;
  auto plan = plan_refi_import(ws.root, kFixtures / "refi/qualcoder.qdpx", "q.qdpx", {}, d);
  CHECK_FALSE(plan);
  int errors = 0, warnings = 0;
  for (const auto& item : d.items()) {
    if (item.message.find("does not map") == std::string::npos) continue;
    (item.severity == Severity::error ? errors : warnings)++;
    CHECK(item.where.file == "q.qdpx:project.qde");
    CHECK(item.where.line > 0);
  }
  CHECK(errors == 1);    // Memory problems: used by codings
  CHECK(warnings == 2);  // Questions, Bugs: categories nobody codes with
}

TEST_CASE("model::plan_refi_import makes a taxonomy from a codebook without ids", "[model][refi]") {
  TempCopy ws(kFixtures / "mini");
  fs::remove_all(ws.root / "codebooks");
  fs::remove_all(ws.root / "transcripts");
  // The guideline names node ids (about: [A], items: {children_of: A}): ids by position are refused...
  Diagnostics refused;
  CHECK_FALSE(plan_refi_import(ws.root, kFixtures / "refi/qualcoder.qdpx", "q.qdpx", {}, refused));
  REQUIRE(refused.error_count() == 1);
  CHECK(format_diagnostic(refused.items().back()) ==
        "guidelines/mini.yaml:19:13: error: the guideline names node 'A' (and 1 more), but q.qdpx's codes carry "
        "no ids: ids given by position would point the guideline's questions at unrelated codes; give each code its id "
        "in a --map file (code name: node id)");
  // ...and a mapping file gives the codes their ids
  {
    std::ofstream map(ws.root / "ids.yaml");
    map << "Questions: A\nInstallation: A.1\nUsage: A.2\nBugs: B\nMemory problems: B.1\n";
  }
  RefiImportOptions options;
  options.map = ws.root / "ids.yaml";
  Diagnostics d;
  auto plan = plan_refi_import(ws.root, kFixtures / "refi/qualcoder.qdpx", "q.qdpx", options, d);
  d.print(std::cerr);
  REQUIRE(plan);
  CHECK(plan->taxonomy_file == "codebooks/mini.yaml");
  Diagnostics t;
  auto tax = load_taxonomy(plan->files.at("codebooks/mini.yaml"), "codebooks/mini.yaml", t);
  REQUIRE(tax);
  CHECK(tax->find("A")->name == "Questions");
  CHECK(tax->find("A.1")->name == "Installation");
  CHECK(tax->find("A.1")->definition == "Getting the framework installed.");
  CHECK(tax->find("B.1")->name == "Memory problems");
}
