// model/coding_edit: a memo belongs to one coding. Where several codes are written together (a @code line, a
// span's list, a .codes line), setting one code's memo writes a memo of its own (`@memo ID: TEXT`,
// `memo ID: TEXT` in the list's tail) and leaves the other codes' memos as they were. Fieldwork study.
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

struct Study {
  fs::path root;
  std::optional<Workspace> ws;
  std::unique_ptr<TaxonomyVersion> version;
  Study() {
    std::random_device rd;
    root = fs::temp_directory_path() / ("qualrank-memo-" + std::to_string(rd()));
    fs::create_directories(root);
    for (const char* d : {"codebooks", "guidelines", "transcripts"})
      fs::copy(fs::path(QUALRANK_FIXTURES_DIR) / "fieldwork" / d, root / d, fs::copy_options::recursive);
    Diagnostics diags;
    ws = load_workspace_design(root, diags);
    REQUIRE(ws);
    version = taxonomy_at(*ws, std::nullopt, diags);
    REQUIRE(version);
  }
  ~Study() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  CodingDocument open(const std::string& file, const std::string& coder = "") {
    Diagnostics diags;
    auto doc = CodingDocument::open(root, file, coder, version->resolve, diags);
    REQUIRE(doc);
    return std::move(*doc);
  }
};

std::string memo_of(const CodingDocument& doc, int turn, const std::string& node, std::optional<std::string> span = {}) {
  for (const auto& c : doc.codings(turn))
    if (c.written == node && c.span == span) return c.memo;
  FAIL("no coding " << node << " in t" << turn);
  return {};
}

void apply_memo(CodingDocument& doc, int turn, std::optional<std::string> span, const std::string& node, const std::string& memo) {
  Diagnostics diags;
  CodingTarget t;
  t.turn = turn;
  t.span = std::move(span);
  auto edit = doc.plan_memo(t, node, memo, diags);
  INFO(diags.error_count());
  REQUIRE(edit);
  doc.apply(*edit);
}

}  // namespace

TEST_CASE("CodingDocument::plan_memo gives one code of a @code line its own memo", "[model][coding][memo]") {
  Study s;
  auto doc = s.open("transcripts/C01.md");
  const std::string shared = "Efficiency and isolation come together for contractors.";
  REQUIRE(memo_of(doc, 2, "WELL.1") == shared);
  apply_memo(doc, 2, std::nullopt, "WELL.1", "lonely, not only efficient");
  CHECK(memo_of(doc, 2, "WELL.1") == "lonely, not only efficient");
  CHECK(memo_of(doc, 2, "COM.1") == shared);
  std::string err;
  REQUIRE(doc.save(&err));
  CHECK(slurp(s.root / "transcripts/C01.md").find("@code COM.1, WELL.1\n@memo " + shared + "\n@memo WELL.1: lonely, not only efficient\n") !=
        std::string::npos);
  // Editing it again replaces that line; an empty memo removes it (the shared memo applies again).
  apply_memo(doc, 2, std::nullopt, "WELL.1", "lonely");
  CHECK(memo_of(doc, 2, "WELL.1") == "lonely");
  apply_memo(doc, 2, std::nullopt, "WELL.1", "");
  CHECK(memo_of(doc, 2, "WELL.1") == shared);
  CHECK(doc.transcript_text().find("@memo WELL.1:") == std::string::npos);
}

TEST_CASE("parse_transcript: '@memo ID: TEXT' is one code's memo; another colon is text", "[model][coding][memo]") {
  Diagnostics diags;
  auto t = parse_transcript("---\nparticipant: X1\nrole: r\n---\n## Q1\nX1: words here\n@code A.1, B.2\n@memo Note: both\n@memo b.2: own\n",
                            "x.md", diags);
  REQUIRE(t);
  const auto& codes = t->turns.back().codes;
  REQUIRE(codes.size() == 2);
  CHECK(codes[0].memo == "Note: both");  // "Note" is no code of the line: a memo of all
  CHECK(codes[1].memo == "own");         // case-insensitive id: B.2's own memo replaces the shared one
  Diagnostics warn;
  auto w = parse_transcript("---\nparticipant: X1\nrole: r\n---\n## Q1\nX1: words here\n@code A.1, B.2\n@memo C.3: stray\n", "x.md", warn);
  REQUIRE(w);
  REQUIRE(warn.items().size() == 1);
  CHECK(warn.items()[0].message == "'@memo C.3:' names no code of the coding just before it; taken as the memo of all its codes (a code's own memo is '@memo ID: TEXT' with one of its ids)");
  CHECK(w->turns.back().codes[0].memo == "C.3: stray");
}

TEST_CASE("CodingDocument::plan_memo in a span's list and a .codes line writes 'memo ID: TEXT'", "[model][coding][memo]") {
  Study s;
  // Inline span: add WELL.1 to [recording]{COM.1.b}, then a memo for WELL.1 only.
  auto doc = s.open("transcripts/C01.md");
  Diagnostics diags;
  CodingTarget t;
  t.turn = 2;
  t.span = "recording";
  auto add = doc.plan_add(t, {"WELL.1"}, "", diags);
  REQUIRE(add);
  doc.apply(*add);
  apply_memo(doc, 2, "recording", "WELL.1", "a | bar and [brackets]");
  CHECK(doc.transcript_text().find("[recording]{COM.1.b, WELL.1 | memo WELL.1: a \\| bar and \\[brackets\\]}") != std::string::npos);
  CHECK(memo_of(doc, 2, "WELL.1", "recording") == "a | bar and [brackets]");
  CHECK(memo_of(doc, 2, "COM.1.b", "recording").empty());
  // A .codes line with a shared memo: the second code gets its own, the first keeps the shared one.
  auto carol = s.open("transcripts/E01.md", "carol");
  CodingTarget c;
  c.turn = 4;
  c.span = "Important decisions vanish in threads";
  auto add2 = carol.plan_add(c, {"TOOL.2"}, "", diags);
  REQUIRE(add2);
  carol.apply(*add2);
  // (plan_add wrote a second line for TOOL.2; code it on the first line's list to test the tail)
  std::string err;
  REQUIRE(carol.save(&err));
  {
    std::ofstream(s.root / "transcripts/E01.carol.codes", std::ios::binary)
        << "t4 \"Important decisions vanish in threads\": TOOL.1, TOOL.2 | memo: chat fails as a decision log\n";
  }
  auto again = s.open("transcripts/E01.md", "carol");
  apply_memo(again, 4, "Important decisions vanish in threads", "TOOL.2", "search is the problem");
  CHECK(again.codes_text() ==
        "t4 \"Important decisions vanish in threads\": TOOL.1, TOOL.2 | memo TOOL.2: search is the problem | memo: chat fails as a decision log\n");
  CHECK(memo_of(again, 4, "TOOL.1", "Important decisions vanish in threads") == "chat fails as a decision log");
  CHECK(memo_of(again, 4, "TOOL.2", "Important decisions vanish in threads") == "search is the problem");
  // A memo naming no code of the line is a located error.
  Diagnostics bad;
  parse_standoff("t4: TOOL.1 | memo TOOL.9: x\n", "transcripts/E01.carol.codes", bad);
  CHECK(bad.error_count() == 1);
}
