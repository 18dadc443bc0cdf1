// model/coding_edit: no lost update. save_checked refuses when the transcript or the .codes file changed on
// disk since it was read, writing nothing; reload() re-applies the unsaved codings on top of the other
// writer's change and lists what it cannot. On a copy of the fieldwork study (coder eli inline, dana in .codes).
#include "catch.h"

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "qualrank/model/coding_edit.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"

using namespace qualrank;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
void put(const fs::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; }

struct Fieldwork {
  fs::path root;
  std::optional<Workspace> ws;
  std::unique_ptr<TaxonomyVersion> version;
  Fieldwork() {
    std::random_device rd;
    root = fs::temp_directory_path() / ("qualrank-save-" + std::to_string(rd()));
    fs::create_directories(root);
    for (const char* d : {"codebooks", "guidelines", "transcripts"})
      fs::copy(fs::path(QUALRANK_FIXTURES_DIR) / "fieldwork" / d, root / d, fs::copy_options::recursive);
    Diagnostics diags;
    ws = load_workspace_design(root, diags);
    REQUIRE(ws);
    version = taxonomy_at(*ws, std::nullopt, diags);
    REQUIRE(version);
  }
  ~Fieldwork() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  CodingDocument open(const std::string& coder = "") {
    Diagnostics diags;
    auto doc = CodingDocument::open(root, "transcripts/C01.md", coder, version->resolve, diags);
    REQUIRE(doc);
    return std::move(*doc);
  }
  void add(CodingDocument& doc, int turn, const std::string& node) {
    Diagnostics diags;
    CodingTarget t;
    t.turn = turn;
    auto edit = doc.plan_add(t, {node}, "", diags);
    REQUIRE(edit);
    doc.apply(*edit);
  }
};

}  // namespace

TEST_CASE("CodingDocument::save_checked refuses a transcript changed on disk since read", "[model][coding][lost-update]") {
  Fieldwork f;
  auto doc = f.open();
  f.add(doc, 3, "COM.3");
  const fs::path file = f.root / "transcripts/C01.md";
  std::string theirs = slurp(file);
  theirs.replace(theirs.find("an office job"), 13, "an office job in Recife");
  put(file, theirs);
  std::string error;
  CHECK(doc.changed_on_disk() == std::vector<std::string>{"transcripts/C01.md"});
  CHECK(doc.save_checked(&error) == CodingDocument::SaveResult::changed_on_disk);
  CHECK(error == "transcripts/C01.md changed on disk since read (by another program or qualrank command); nothing written");
  CHECK(slurp(file) == theirs);
  CHECK(doc.dirty());

  Diagnostics diags;
  auto r = doc.reload(diags);
  REQUIRE(r);
  CHECK(r->reapplied == 1);
  CHECK(r->not_reapplied.empty());
  CHECK(doc.dirty());
  CHECK(doc.save_checked(&error) == CodingDocument::SaveResult::saved);
  const std::string saved = slurp(file);
  CHECK(saved.find("an office job in Recife") != std::string::npos);
  CHECK(saved.find("the tickets.\n@code COM.2, WELL.1\n@exemplar WELL.1\n@code COM.3\n") != std::string::npos);
  CHECK(doc.changed_on_disk().empty());
}

TEST_CASE("CodingDocument::reload lists the codings it cannot re-apply, and re-applies a removal", "[model][coding][lost-update]") {
  Fieldwork f;
  auto doc = f.open();
  // Remove TOOL.2 from t4, and add TOOL.1 to a word of t2; meanwhile an editor rewrites t2's line.
  {
    Diagnostics diags;
    CodingTarget t;
    t.turn = 4;
    auto edit = doc.plan_remove(t, {"TOOL.2"}, diags);
    REQUIRE(edit);
    doc.apply(*edit);
    CodingTarget s;
    s.turn = 2;
    s.span = "demo";
    auto span = doc.plan_add(s, {"TOOL.1"}, "", diags);
    REQUIRE(span);
    doc.apply(*span);
  }
  const fs::path file = f.root / "transcripts/C01.md";
  std::string theirs = slurp(file);
  theirs.replace(theirs.find("efficient but lonely"), 20, "efficient but very lonely");
  put(file, theirs);
  Diagnostics diags;
  auto r = doc.reload(diags);
  REQUIRE(r);
  CHECK(r->not_reapplied == std::vector<std::string>{"t2 \"demo\" TOOL.1: your addition"});
  std::string error;
  REQUIRE(doc.save_checked(&error) == CodingDocument::SaveResult::saved);
  const std::string saved = slurp(file);
  CHECK(saved.find("efficient but very lonely") != std::string::npos);  // theirs kept
  CHECK(saved.find("[demo]") == std::string::npos);                      // ours not re-applied
  CHECK(saved.find("@code TOOL.2\n") == std::string::npos);              // the removal re-applied
}

TEST_CASE("CodingDocument: a second coder's .codes file changed on disk", "[model][coding][lost-update]") {
  Fieldwork f;
  auto doc = f.open("dana");
  f.add(doc, 3, "COM.3");
  // Another process (a second `code add --coder dana`) wrote the file meanwhile.
  const fs::path codes = f.root / "transcripts/C01.dana.codes";
  put(codes, "t6: TOOL.1\n");
  std::string error;
  CHECK(doc.save_checked(&error) == CodingDocument::SaveResult::changed_on_disk);
  CHECK(error == "transcripts/C01.dana.codes changed on disk since read (by another program or qualrank command); nothing written");
  CHECK(slurp(codes) == "t6: TOOL.1\n");
  Diagnostics diags;
  auto r = doc.reload(diags);
  REQUIRE(r);
  CHECK(r->not_reapplied.empty());
  REQUIRE(doc.save_checked(&error) == CodingDocument::SaveResult::saved);
  CHECK(slurp(codes) == "t6: TOOL.1\nt3: COM.3\n");
  // The transcript itself changed (its own coder saved): the .codes coder refuses too.
  auto doc2 = f.open("dana");
  f.add(doc2, 4, "WELL.2");
  put(f.root / "transcripts/C01.md", slurp(f.root / "transcripts/C01.md") + "\n");
  CHECK(doc2.save_checked(&error) == CodingDocument::SaveResult::changed_on_disk);
  CHECK(error == "transcripts/C01.md changed on disk since read (by another program or qualrank command); nothing written");
}
