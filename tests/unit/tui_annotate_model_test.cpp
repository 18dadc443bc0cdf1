// The terminal coder's model without a terminal: the selection, coding through the action table with a fake
// Ui, undo/redo levels, next-uncoded, search, leaving a transcript, a new code, a reload, recovery, save.
#include "catch.h"

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "actions.h"
#include "annotate_model.h"
#include "recovery.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"

using namespace qualrank;
using namespace qualrank::tui;
namespace fs = std::filesystem;

namespace {


std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A copy of the mini fixture with one more transcript.
struct TempStudy {
  fs::path root;
  std::optional<qualrank::Workspace> ws;
  std::unique_ptr<TaxonomyVersion> version;
  TempStudy() {
    std::random_device rd;
    root = fs::temp_directory_path() / ("qualrank-tui-" + std::to_string(rd()));
    fs::create_directories(root);
    for (const char* d : {"codebooks", "guidelines"})
      fs::copy(fs::path(QUALRANK_FIXTURES_DIR) / "mini" / d, root / d, fs::copy_options::recursive);
    fs::create_directories(root / "transcripts");
    std::ofstream(root / "transcripts" / "P9.md", std::ios::binary)
        << "---\nparticipant: P9\nrole: developer\ncoder: alice\n---\n\n## II.2\n\n"
           "I: What do users ask you?\n\n"
           "P9: How do I pin the cuda version for 東京 users 🙂 and café owners?\n\n"
           "P9: Out of memory again.\n@code B.1\n\n"
           "P9: Nothing else.\n";
    Diagnostics diags;
    ws = load_workspace_design(root, diags);
    REQUIRE(ws);
    version = taxonomy_at(*ws, std::nullopt, diags);
    REQUIRE(version);
  }
  ~TempStudy() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  AnnotateModel open(const std::string& coder = "") {
    Diagnostics diags;
    auto doc = CodingDocument::open(root, "transcripts/P9.md", coder, version->resolve, diags);
    REQUIRE(doc);
    return AnnotateModel(std::move(*doc), version->taxonomy, version->resolve, &ws->guideline);
  }
};

struct FakeUi : Ui {
  std::optional<std::string> code, text;
  bool answer = false;
  int helps = 0;
  std::optional<std::string> parent;
  int choice = 0;
  std::vector<std::string> questions;
  std::optional<std::string> pick_code(AnnotateModel&) override { return code; }
  std::optional<std::string> pick_parent(AnnotateModel&, const std::string&) override { return parent; }
  int choose(const std::string& q, const std::string&) override {
    questions.push_back(q);
    return choice;
  }
  std::optional<std::string> prompt(const std::string&, const std::string&) override { return text; }
  bool confirm(const std::string&) override { return answer; }
  void show_help() override { ++helps; }
};

bool press(AnnotateModel& m, Ui& ui, int k) {
  ActionContext ctx{m, ui, k};
  dispatch(ctx);
  return ctx.quit;
}

}  // namespace

TEST_CASE("tui: turns, next uncoded and the selection", "[tui]") {
  TempStudy w;
  auto m = w.open();
  REQUIRE(m.participant_turns().size() == 3);
  CHECK(m.current_number() == 1);
  CHECK_FALSE(m.move(-1));
  CHECK(m.move(1));
  CHECK(m.current_number() == 2);
  CHECK(m.next_uncoded());
  CHECK(m.current_number() == 3);
  CHECK(m.next_uncoded());  // wraps around
  CHECK(m.current_number() == 1);

  CHECK_FALSE(m.selected_text());
  m.select_start();
  CHECK(m.selected_text() == "How");
  m.select_move(3);
  CHECK(m.selected_text() == "pin");
  m.select_extend(2);
  CHECK(m.selected_text() == "pin the cuda");
  m.select_extend(-5);  // never before its first word
  CHECK(m.selected_text() == "pin");
  m.select_move(100);   // clamped to the last word
  CHECK(m.selected_text() == "owners");  // without the question mark after the word
  m.clear_selection();
  CHECK_FALSE(m.selected_text());
  // CJK and emoji words
  m.select_start();
  m.select_move(8);
  m.select_extend(2);
  CHECK(m.selected_text() == "東京 users");
  m.select_move(3);
  m.select_extend(-2);
  CHECK(m.selected_text() == "🙂");
  m.move(1);  // another turn drops the selection
  CHECK_FALSE(m.selection());
}

TEST_CASE("tui: coding through the action table, memo, remove, undo/redo levels, save", "[tui]") {
  TempStudy w;
  auto m = w.open();
  FakeUi ui;
  const std::string before = read(w.root / "transcripts/P9.md");

  // the picker's answer applies to the whole turn
  ui.code = "A.2";
  press(m, ui, 'c');
  REQUIRE(m.codings().size() == 1);
  CHECK(m.codings()[0].written == "A.2");
  CHECK_FALSE(m.codings()[0].span);
  CHECK(m.message() == "added A.2 to t1 (\"How do I pin the cuda version for…\")");
  CHECK(m.dirty());

  // a span of CJK and emoji words
  m.select_start();
  m.select_move(8);
  m.select_extend(3);
  REQUIRE(m.selected_text() == "東京 users 🙂");
  ui.code = "Installation";  // a name resolves as well
  press(m, ui, 'c');
  REQUIRE(m.codings().size() == 2);
  CHECK(m.codings()[1].span == "東京 users 🙂");
  CHECK(m.codings()[1].written == "A.1");
  CHECK(m.document().transcript_text().find("[東京 users 🙂]{A.1}") != std::string::npos);

  // memo of the highlighted coding (the new one)
  ui.text = "asks in Japanese";
  press(m, ui, 'm');
  CHECK(m.codings()[1].memo == "asks in Japanese");
  press(m, ui, key::tab);
  CHECK(m.highlighted() == 0);

  // the suggestion: 'cuda version' suggests A.1.i; accept it on the whole turn
  m.clear_selection();
  auto s = m.suggestions();
  REQUIRE(!s.empty());
  CHECK(s[0] == "A.1.i");
  press(m, ui, 'a');
  CHECK(m.codings().size() == 3);
  CHECK(m.undo_levels() == 4);

  // remove the highlighted coding, then undo four levels, redo two
  press(m, ui, key::tab);
  std::size_t n = m.codings().size();
  press(m, ui, 'd');
  CHECK(m.codings().size() == n - 1);
  for (int k = 0; k < 5; ++k) press(m, ui, 'u');
  CHECK(m.codings().empty());
  CHECK_FALSE(m.dirty());
  CHECK(m.document().transcript_text() == before);
  CHECK(m.redo_levels() == 5);
  press(m, ui, 'r');
  press(m, ui, 'r');
  press(m, ui, 'r');  // the add, the span, the memo
  REQUIRE(m.codings().size() == 2);
  CHECK(m.codings()[1].memo == "asks in Japanese");
  CHECK(m.undo_levels() == 3);
  CHECK(m.redo_levels() == 2);
  // a new edit clears the redo stack
  m.move(2);
  ui.code = "A.2";
  press(m, ui, 'c');
  CHECK(m.redo_levels() == 0);

  // quit asks with unsaved changes; 'n' stays
  ui.answer = false;
  CHECK_FALSE(press(m, ui, 'q'));
  press(m, ui, 'w');
  CHECK_FALSE(m.dirty());
  CHECK(m.message() == "saved transcripts/P9.md");
  std::string saved = read(w.root / "transcripts/P9.md");
  CHECK(saved.find("[東京 users 🙂]{A.1 | memo: asks in Japanese}") != std::string::npos);
  CHECK(press(m, ui, 'q'));  // nothing unsaved: quits without asking
}

TEST_CASE("tui: errors from the library become messages, and a second coder writes the .codes file", "[tui]") {
  TempStudy w;
  auto m = w.open("bob");
  FakeUi ui;
  CHECK(m.document().target_file() == "transcripts/P9.bob.codes");
  m.go_to_turn(2);
  CHECK(m.codings().empty());  // alice's B.1 is not bob's
  ui.code = "B.1";
  press(m, ui, 'c');
  press(m, ui, key::enter);  // Enter is c: again, refused, as a message
  CHECK(m.message().rfind("error: ", 0) == 0);
  CHECK(m.message().find("already coded B.1") != std::string::npos);
  m.select_start();  // "Out" occurs once
  ui.code = "B.2";
  press(m, ui, 'c');
  REQUIRE(m.save());
  CHECK(read(w.root / "transcripts/P9.bob.codes") == "t2: B.1\nt2 \"Out\": B.2\n");
  // unknown keys are not bound; help comes from the table
  ActionContext ctx{m, ui, 'Z'};
  CHECK_FALSE(dispatch(ctx));
  press(m, ui, '?');
  CHECK(ui.helps == 1);
  CHECK(help_lines().size() == actions().size());
}

TEST_CASE("tui: the picker filters by id, name and alias and keeps parents", "[tui]") {
  TempStudy w;
  auto m = w.open();
  auto ids = [](const std::vector<PickerRow>& rows) {
    std::vector<std::string> out;
    for (const auto& r : rows) out.push_back((r.suggested ? "*" : "") + r.id);
    return out;
  };
  CHECK(ids(m.picker_rows("memory")) == std::vector<std::string>{"B", "B.1"});
  CHECK(ids(m.picker_rows("OOM")) == std::vector<std::string>{"B", "B.1"});
  CHECK(ids(m.picker_rows("dependency")) == std::vector<std::string>{"*A.1.i", "A", "A.1", "A.1.i"});
  CHECK(ids(m.picker_rows("größen")) == std::vector<std::string>{"A", "A.10"});
  CHECK(m.picker_rows("").size() >= 8);
  CHECK(m.picker_rows("zzz").empty());
}

TEST_CASE("tui: learned suggestions follow the keyword rules' and are applied only on request", "[tui]") {
  TempStudy study;
  auto m = study.open();
  // Turn t3 ("Nothing else.") has no keyword suggestion; a classifier that learned "nothing else" -> A.2.
  REQUIRE(m.go_to_turn(3));
  REQUIRE(m.current_number() == 3);
  CHECK(m.suggestions().empty());
  std::vector<suggest::TrainingSegment> train;
  for (int p = 0; p < 6; ++p) {
    std::string who = "Q" + std::to_string(p);
    train.push_back({"nothing else to say really", {"A.2"}, who});
    train.push_back({"memory ran out on the card", {"B.1"}, who});
  }
  m.set_learned(suggest::train_suggester(train));
  auto s = m.suggestions();
  REQUIRE(s.size() == 1);
  CHECK(s[0] == "A.2");
  CHECK(m.codings().empty());  // nothing applied until asked
  CHECK(m.accept_suggestion(0));
  REQUIRE(m.codings().size() == 1);
  CHECK(m.codings()[0].written == "A.2");
}

TEST_CASE("tui: the picker steps only among the rows that match", "[tui]") {
  // COM (context) > COM.1 (context) > COM.1.a (match) > TOOL (context) > TOOL.2 (match)
  std::vector<PickerRow> rows = {{"COM", "", 0, false, false}, {"COM.1", "", 1, false, false}, {"COM.1.a", "", 2, false, true},
                                 {"TOOL", "", 0, false, false}, {"TOOL.2", "", 1, false, true}};
  CHECK(step_pick(rows, 2, -1) == 2);   // no match above: stays
  CHECK(step_pick(rows, 2, 1) == 4);    // skips the context row TOOL
  CHECK(step_pick(rows, 4, 1) == 4);    // no match below: stays
  CHECK(step_pick(rows, 4, -1) == 2);
  CHECK(step_pick(rows, 2, 10) == 4);   // a page moves as far as there are matches
  CHECK(first_pick(rows, "") == 2);
}

namespace {

// Writes transcripts/NAME.md in the study and opens it.
AnnotateModel open_text(TempStudy& w, const std::string& name, const std::string& text, const std::string& coder = "") {
  std::ofstream(w.root / "transcripts" / (name + ".md"), std::ios::binary) << text;
  Diagnostics diags;
  auto doc = CodingDocument::open(w.root, "transcripts/" + name + ".md", coder, w.version->resolve, diags);
  REQUIRE(doc);
  return AnnotateModel(std::move(*doc), w.version->taxonomy, w.version->resolve, &w.ws->guideline);
}

const char* kTwoMatches =
    "---\nparticipant: P8\nrole: developer\ncoder: alice\n---\n\n## II.2\n\nI: Asked?\n\n"
    "P8: \"How do I start?\" they ask, and then \"how do I stop?\"\n\n"
    "P8: Nothing here.\n\n"
    "P8: And how do I log in.\n";

}  // namespace

TEST_CASE("tui: n reaches the next match in the same turn; a match is selected without its punctuation", "[tui]") {
  TempStudy w;
  auto m = open_text(w, "P8", kTwoMatches);
  CHECK(m.search("how do i", 1));
  CHECK(m.current_number() == 1);
  CHECK(m.selected_text() == "How do I");  // not the opening quote mark
  CHECK(m.search("", 1));                  // n: the second match of the same turn
  CHECK(m.current_number() == 1);
  CHECK(m.selected_text() == "how do I");
  CHECK(m.selection_bytes()->first == std::string("\"How do I start?\" they ask, and then \"").size());
  CHECK(m.search("", 1));                  // then the next turn with one
  CHECK(m.current_number() == 3);
  CHECK(m.selected_text() == "how do I");
  CHECK(m.search("", 1));                  // wraps to the first
  CHECK(m.current_number() == 1);
  CHECK(m.selected_text() == "How do I");
  CHECK(m.search("", -1));                 // N goes back: the last turn's
  CHECK(m.current_number() == 3);
  CHECK(m.search("", -1));                 // then the second match of t1
  CHECK(m.current_number() == 1);
  CHECK(m.selected_text() == "how do I");
  CHECK(m.search("", -1));
  CHECK(m.selected_text() == "How do I");
  CHECK(m.message() == "found \"how do i\" in t1 (n next, N previous)");
  // a selection that is only punctuation keeps it
  m.go_to_turn(1);
  m.select_start();
  CHECK(m.selected_text() == "How");
}

TEST_CASE("tui: the search prompt starts empty and Enter alone repeats the last search", "[tui]") {
  TempStudy w;
  auto m = open_text(w, "P8", kTwoMatches);
  struct PromptUi : FakeUi {
    std::vector<std::pair<std::string, std::string>> asked;
    std::optional<std::string> prompt(const std::string& label, const std::string& initial) override {
      asked.emplace_back(label, initial);
      return text;
    }
  } ui;
  ui.text = "";
  press(m, ui, '/');
  CHECK(m.message() == "nothing to search for");
  ui.text = "do i";
  press(m, ui, '/');
  REQUIRE(ui.asked.size() == 2);
  CHECK(ui.asked[1] == std::make_pair(std::string("search: "), std::string()));
  CHECK(m.selected_text() == "do I");
  ui.text = "";
  press(m, ui, '/');  // Enter alone: the next match of the last search
  CHECK(ui.asked[2] == std::make_pair(std::string("search (Enter: \"do i\"): "), std::string()));
  CHECK(m.current_number() == 1);
  CHECK(m.selection_bytes()->first > 20);
}

TEST_CASE("tui: + with Esc at the parent proposes nothing; the selected words are the proposal's", "[tui]") {
  TempStudy w;
  auto m = w.open();
  FakeUi ui;
  std::vector<std::string> proposed;
  m.set_code_proposer([&](const std::string& name, const std::string& parent) {
    proposed.push_back(name + "|" + parent + "|" + m.selected_text().value_or("(turn)") + "|" +
                       std::to_string(m.selection_line().value_or(0)));
    return std::string("proposed");
  });
  m.select_start();
  m.select_move(3);
  m.select_extend(2);  // "pin the cuda"
  ui.text = "Pinning";
  ui.parent = std::nullopt;  // Esc in the parent picker
  press(m, ui, '+');
  CHECK(proposed.empty());
  CHECK(m.message() == "no code proposed");
  ui.parent = "";  // the top-level row
  press(m, ui, '+');
  ui.parent = "A.1";
  press(m, ui, '+');
  CHECK(proposed == std::vector<std::string>{"Pinning||pin the cuda|11", "Pinning|A.1|pin the cuda|11"});
}

TEST_CASE("tui: leaving a transcript with unsaved changes: save and go, discard, or stay; g goes to a turn", "[tui]") {
  TempStudy w;
  auto m = w.open();
  FakeUi ui;
  ui.code = "A.2";
  press(m, ui, 'c');
  REQUIRE(m.dirty());
  ActionContext stay{m, ui, ']'};
  ui.choice = 0;  // Esc
  dispatch(stay);
  CHECK(stay.switch_transcript == 0);
  CHECK(m.message() == "staying ('w' saves)");
  CHECK(ui.questions.back() == "unsaved changes: s save and go, d discard and go, Esc stay");
  ActionContext discard{m, ui, '['};
  ui.choice = 'd';
  dispatch(discard);
  CHECK(discard.switch_transcript == -1);
  CHECK(discard.discard);
  CHECK(m.dirty());
  ActionContext save{m, ui, ']'};
  ui.choice = 's';
  dispatch(save);
  CHECK(save.switch_transcript == 1);
  CHECK_FALSE(save.discard);
  CHECK_FALSE(m.dirty());
  CHECK(read(w.root / "transcripts/P9.md").find("@code A.2") != std::string::npos);

  ui.text = "t3";
  press(m, ui, 'g');
  CHECK(m.current_number() == 3);
  ui.text = "2";
  press(m, ui, 'g');
  CHECK(m.current_number() == 2);
  ui.text = "t9";
  press(m, ui, 'g');
  CHECK(m.current_number() == 2);
  CHECK(m.message() == "error: no participant turn 't9' (t1-t3)");
  press(m, ui, key::home);
  CHECK(m.current_number() == 1);
}

TEST_CASE("tui: help wraps its descriptions to the screen", "[tui]") {
  for (int width : {80, 50}) {
    auto lines = help_lines(width);
    CHECK(lines.size() > actions().size());
    for (const auto& l : lines) CHECK(display_width(l) <= width);
    std::string all;  // the lines' words, one space apart
    for (const auto& l : lines)
      for (const auto& w : split_words(l)) all += l.substr(w.begin, w.end - w.begin) + " ";
    CHECK(all.find("from the selection on; the match is selected; Enter alone repeats the last search n search-next") !=
          std::string::npos);  // the end of a long description is there
  }
  CHECK(help_lines(0).size() == actions().size());
}

TEST_CASE("tui: a @memo that follows no code never attaches to a new code", "[tui]") {
  TempStudy w;
  auto m = open_text(w, "P7",
                     "---\nparticipant: P7\nrole: developer\ncoder: alice\n---\n\n## II.2\n\nI: Asked?\n\n"
                     "P7: Out of memory.\n@memo stray words\n\nP7: Fine.\n");
  FakeUi ui;
  ui.code = "B.1";
  press(m, ui, 'c');
  CHECK(m.codings().empty());
  CHECK(m.message() == "error: this @memo line follows no code; coding t1 would make it the new code's: delete it or "
                       "write its code above it first");
  m.select_start();  // a span would take it as well
  press(m, ui, 'c');
  CHECK(m.codings().empty());
  CHECK_FALSE(m.dirty());
  m.move(1);  // the next turn is not concerned
  press(m, ui, 'c');
  CHECK(m.codings().size() == 1);
}

TEST_CASE("tui: unsaved work kept in a recovery file is re-applied on the file as it is now", "[tui]") {
  TempStudy w;
  auto m = w.open();
  FakeUi ui;
  const std::string before = read(w.root / "transcripts/P9.md");
  ui.code = "A.2";
  press(m, ui, 'c');
  std::string error;
  KeptBase kept;
  REQUIRE(keep_unsaved(w.root, m.document(), &error, &kept));
  CHECK(recovery_file(m.document()) == ".qualrank-recover/P9.alice.json");
  CHECK(read(w.root / ".qualrank-recover/P9.alice.base") == before);  // the base, once
  fs::remove(w.root / ".qualrank-recover/P9.alice.base");
  ui.code = "B.2";
  press(m, ui, 'c');
  REQUIRE(keep_unsaved(w.root, m.document(), &error, &kept));
  CHECK_FALSE(fs::exists(w.root / ".qualrank-recover/P9.alice.base"));  // not written again
  std::string problem;
  CHECK_FALSE(find_recovery(w.root, m.document(), &problem));
  CHECK(problem == ".qualrank-recover/P9.alice.json: the text it was written on (.qualrank-recover/P9.alice.base) is "
                   "missing or changed; not used");
  REQUIRE(keep_unsaved(w.root, m.document(), &error));  // without the record: the base is written
  // only the stretch that differs is in the .json
  CHECK(read(w.root / ".qualrank-recover/P9.alice.json").size() < 400);
  auto rec = find_recovery(w.root, m.document(), nullptr);
  REQUIRE(rec);
  CHECK(rec->transcript == "transcripts/P9.md");
  CHECK(rec->base == before);
  CHECK(rec->edited == m.document().transcript_text());
  CHECK(rec->time.size() == std::string("2026-01-01 00:00:00 UTC").size());
  // meanwhile another program adds a turn at the end; the next session recovers on top of it
  std::ofstream(w.root / "transcripts/P9.md", std::ios::binary | std::ios::app) << "\nP9: Added later.\n";
  auto next = w.open();
  REQUIRE(find_recovery(w.root, next.document(), nullptr));
  CHECK(next.recover(rec->base, rec->edited, rec->time));
  CHECK(next.message() == "recovered the unsaved changes of " + rec->time + ": re-applied 1 change(s), not saved yet ('w' saves)");
  CHECK(next.dirty());
  REQUIRE(next.codings().size() == 2);
  CHECK(next.codings()[0].written == "A.2");
  CHECK(next.codings()[1].written == "B.2");
  CHECK(next.document().transcript_text().find("P9: Added later.") != std::string::npos);
  CHECK(next.participant_turns().size() == 4);
  REQUIRE(next.save());
  REQUIRE(keep_unsaved(w.root, next.document(), &error));  // nothing unsaved: the file goes
  CHECK_FALSE(fs::exists(w.root / ".qualrank-recover"));
  // a file that is not a recovery file is named, not used
  fs::create_directories(w.root / ".qualrank-recover");
  std::ofstream(w.root / ".qualrank-recover/P9.alice.json") << "{not json";
  CHECK_FALSE(find_recovery(w.root, next.document(), &problem));
  CHECK(problem == ".qualrank-recover/P9.alice.json: not a recovery file (not the JSON annotate writes)");
}

TEST_CASE("tui: a reload names the memo it could not re-apply and keeps the undo history it can", "[tui]") {
  TempStudy w;
  const fs::path file = w.root / "transcripts/P9.md";
  auto rewrite = [&](const std::string& from, const std::string& to) {
    std::string text = read(file);
    auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    std::ofstream(file, std::ios::binary) << text.replace(at, from.size(), to);
  };
  FakeUi ui;
  {  // a change elsewhere in the file: the undo history is moved past it and still undoes
    auto m = w.open();
    m.go_to_turn(3);
    ui.code = "A.2";
    press(m, ui, 'c');
    rewrite("role: developer", "role: developer\ndate: 2025-01-02");
    CHECK_FALSE(m.save());
    REQUIRE(m.conflict());
    CHECK(m.reload(false));
    CHECK(m.message() == "reloaded from disk, re-applied 1 change(s)");
    CHECK(m.undo_levels() == 1);
    CHECK(m.undo());
    CHECK(m.document().transcript_text() == read(file));  // exactly theirs: the undo undid our code only
    CHECK_FALSE(m.dirty());
  }
  {  // a memo typed on a line the other writer changed: named with its text; the undo steps on it cleared
    auto m = w.open();
    m.select_start();
    m.select_move(8);
    m.select_extend(2);  // "東京 users"
    ui.code = "A.1";
    press(m, ui, 'c');
    REQUIRE(m.save());
    ui.text = "asks in Japanese";
    press(m, ui, 'm');
    REQUIRE(m.codings()[0].memo == "asks in Japanese");
    rewrite("pin the cuda version", "pin the CUDA version");
    CHECK_FALSE(m.save());
    CHECK_FALSE(m.reload(false));
    CHECK(m.message() == "reloaded from disk, re-applied 0 change(s); NOT re-applied (kept; u shows, r re-applies): t1 \"東京 users\" A.1: "
                         "your memo \"asks in Japanese\"; the undo history is cleared");
    CHECK(m.undo_levels() == 1);  // the memo, kept ('u' shows it, 'r' applies it again)
    CHECK(m.codings()[0].memo.empty());
  }
}

// Issue #37 item 3: a coding with a memo, both unsaved, on a line the other writer changed.
TEST_CASE("tui: a change a reload cannot re-apply is kept: in the message, the recovery file and the undo stack", "[tui]") {
  TempStudy w;
  const fs::path file = w.root / "transcripts/P9.md";
  auto rewrite = [&](const std::string& from, const std::string& to) {
    std::string text = read(file);
    auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    std::ofstream(file, std::ios::binary) << text.replace(at, from.size(), to);
  };
  FakeUi ui;
  auto m = w.open();
  auto code_span_with_memo = [&] {
    m.go_first();
    m.select_start();
    m.select_move(8);
    m.select_extend(2);  // "東京 users"
    ui.code = "A.1";
    press(m, ui, 'c');
    ui.text = "asks in Japanese";
    press(m, ui, 'm');
    REQUIRE(m.codings()[0].memo == "asks in Japanese");
  };
  code_span_with_memo();
  rewrite("pin the cuda version", "pin the CUDA version");
  ui.answer = true;
  press(m, ui, 'w');  // w, then y: reload and re-apply
  const std::string lost = "t1 \"東京 users\" A.1: your addition with its memo \"asks in Japanese\"";
  CHECK(m.message() == "reloaded from disk, re-applied 0 change(s); NOT re-applied (kept; u shows, r re-applies): " + lost + "; the undo history is cleared");
  CHECK(m.codings().empty());
  CHECK_FALSE(m.dirty());
  // the recovery file keeps it though nothing else is unsaved
  std::string error;
  REQUIRE(m.unapplied().size() == 1);
  REQUIRE(keep_unsaved(w.root, m.document(), &error, nullptr, m.unapplied()));
  const std::string json = read(w.root / ".qualrank-recover/P9.alice.json");
  CHECK(json.find("\"memo\": \"asks in Japanese\"") != std::string::npos);
  CHECK(json.find("\"kind\": \"addition\"") != std::string::npos);
  auto rec = find_recovery(w.root, m.document(), nullptr);
  REQUIRE(rec);
  REQUIRE(rec->not_reapplied.size() == 1);
  CHECK(rec->not_reapplied[0].memo == "asks in Japanese");
  CHECK(rec->not_reapplied[0].span == std::optional<std::string>("東京 users"));
  CHECK(rec->not_reapplied[0].node == "A.1");
  CHECK(rec->not_reapplied[0].label == lost);
  // quitting asks before dropping it
  ui.answer = false;
  CHECK_FALSE(press(m, ui, 'q'));
  CHECK(m.message() == "not quitting ('u' shows the kept changes, 'r' re-applies one)");
  ui.answer = true;
  // u shows it (nothing to take back), r applies it again on the text as it is now
  REQUIRE(m.undo_levels() == 1);
  press(m, ui, 'u');
  CHECK(m.message() == "undone: nothing to take back, this change was NOT re-applied at the reload: " + lost +
                       " ('r' applies it again)");
  CHECK(m.undo_levels() == 0);
  CHECK(m.redo_levels() == 1);
  CHECK(m.unapplied().size() == 1);  // still kept
  press(m, ui, 'r');
  CHECK(m.message() == "redone: applied again: " + lost);
  REQUIRE(m.codings().size() == 1);
  CHECK(m.codings()[0].span == std::optional<std::string>("東京 users"));
  CHECK(m.codings()[0].memo == "asks in Japanese");
  CHECK(m.document().transcript_text().find("pin the CUDA version") != std::string::npos);  // theirs stays
  CHECK(m.unapplied().empty());
  CHECK(m.dirty());
  press(m, ui, 'u');  // an ordinary step now
  CHECK(m.codings().empty());
  CHECK_FALSE(m.dirty());

  // the words themselves changed: 'r' says why it cannot, and the change stays kept, past a new edit too
  code_span_with_memo();
  rewrite("東京 users", "Tokyo users");
  press(m, ui, 'w');
  REQUIRE(m.unapplied().size() == 1);
  press(m, ui, 'u');
  press(m, ui, 'r');
  CHECK(m.message() == "cannot apply again (error: span \"東京 users\" is not in turn t1): " + lost + " (kept: 'r' tries again)");
  CHECK(m.redo_levels() == 1);
  ui.code = "B.1";
  m.clear_selection();
  press(m, ui, 'c');  // a new edit keeps it on the redo stack
  CHECK(m.redo_levels() == 1);
  CHECK(m.unapplied().size() == 1);
  CHECK(m.unapplied()[0].memo == "asks in Japanese");
}

TEST_CASE("tui: after a kill, u undoes the recovered changes and r puts them back; kept changes come back too", "[tui]") {
  TempStudy w;
  FakeUi ui;
  const std::string disk = read(w.root / "transcripts/P9.md");
  {
    auto m = w.open();
    ui.code = "A.2";
    press(m, ui, 'c');
    std::string error;
    REQUIRE(keep_unsaved(w.root, m.document(), &error));
  }  // killed: the model is gone, the recovery file stays
  auto next = w.open();
  auto rec = find_recovery(w.root, next.document(), nullptr);
  REQUIRE(rec);
  REQUIRE(next.recover(rec->base, rec->edited, rec->time, rec->not_reapplied));
  REQUIRE(next.codings().size() == 1);
  CHECK(next.undo_levels() == 1);
  press(next, ui, 'u');
  CHECK(next.message() == "undone: the recovered unsaved changes of " + rec->time);
  CHECK(next.codings().empty());
  CHECK(next.document().transcript_text() == disk);
  CHECK_FALSE(next.dirty());
  press(next, ui, 'r');
  CHECK(next.message() == "redone: the recovered unsaved changes of " + rec->time);
  REQUIRE(next.codings().size() == 1);
  CHECK(next.codings()[0].written == "A.2");
  CHECK(next.document().transcript_text() == rec->edited);

  // a change kept after a failed re-apply survives a kill: the next session has it on its undo stack
  {
    auto m = w.open();
    REQUIRE(m.recover(rec->base, rec->edited, rec->time));  // A.2 on t1 again
    ui.text = "pinning";
    press(m, ui, 'm');  // memo on the whole-turn A.2 (it is on the @code line after the turn)
    std::string text = read(w.root / "transcripts/P9.md");
    // the other writer codes t1 A.2 with another memo meanwhile
    text.replace(text.find("café owners?\n"), 13, "café owners?\n@code A.2\n@memo theirs\n");
    std::ofstream(w.root / "transcripts/P9.md", std::ios::binary) << text;
    press(m, ui, 'w');  // ui.answer is false: not reloaded
    REQUIRE(m.reload(false) == false);
    REQUIRE(m.unapplied().size() == 1);
    CHECK(m.unapplied()[0].label == "t1 A.2: your memo \"pinning\"");
    std::string error;
    REQUIRE(keep_unsaved(w.root, m.document(), &error, nullptr, m.unapplied()));
  }  // killed
  auto third = w.open();
  auto kept = find_recovery(w.root, third.document(), nullptr);
  REQUIRE(kept);
  REQUIRE(kept->not_reapplied.size() == 1);
  CHECK_FALSE(third.recover(kept->base, kept->edited, kept->time, kept->not_reapplied));
  CHECK(third.message().find("NOT re-applied (kept; u shows, r re-applies): t1 A.2: your memo \"pinning\"") !=
        std::string::npos);
  REQUIRE(third.undo_levels() == 1);
  press(third, ui, 'u');
  press(third, ui, 'r');  // the memo replaces theirs: asked for
  CHECK(third.message() == "redone: applied again: t1 A.2: your memo \"pinning\"");
  REQUIRE(third.codings().size() == 1);
  CHECK(third.codings()[0].memo == "pinning");
}

TEST_CASE("tui: a memo on a coding whose words the other writer changed is named and kept", "[tui]") {
  TempStudy w;
  const fs::path file = w.root / "transcripts/P9.md";
  FakeUi ui;
  auto m = w.open();
  m.select_start();
  m.select_move(8);
  m.select_extend(2);  // "東京 users"
  ui.code = "A.1";
  press(m, ui, 'c');
  REQUIRE(m.save());
  ui.text = "asks in Japanese";
  press(m, ui, 'm');
  std::string text = read(file);
  const std::string from = "[東京 users]{A.1}";
  REQUIRE(text.find(from) != std::string::npos);
  std::ofstream(file, std::ios::binary) << text.replace(text.find(from), from.size(), "[Tokyo users]{A.1}");
  CHECK_FALSE(m.save());
  CHECK_FALSE(m.reload(false));  // before: reported as fully re-applied, the memo gone unseen
  CHECK(m.message() == "reloaded from disk, re-applied 0 change(s); NOT re-applied (kept; u shows, r re-applies): "
                       "t1 \"東京 users\" A.1: your memo \"asks in Japanese\"; the undo history is cleared");
  REQUIRE(m.unapplied().size() == 1);
  CHECK(m.unapplied()[0].kind == CodingDocument::Reloaded::Change::Kind::memo);
  CHECK(m.unapplied()[0].memo == "asks in Japanese");
}

TEST_CASE("tui: wrap_words breaks a word longer than the line by characters; lists wrap by words", "[tui]") {
  const std::string url = "https://example.org/" + std::string(100, 'a') + "/end";
  auto lines = wrap_words("see " + url + " now", 30);
  std::string joined;
  for (const auto& l : lines) {
    CHECK(display_width(l) <= 30);
    joined += l;
  }
  CHECK(joined == "see" + url + " now");  // every character, in order (the end of the URL and "now" share a line)
  CHECK(wrap_words("ab cd ef", 5, 2) == std::vector<std::string>{"ab cd", "ef"});
  CHECK(wrap_words("ab cd ef", 2, 5) == std::vector<std::string>{"ab", "cd ef"});
  CHECK(wrap_words("日本語", 3) == std::vector<std::string>{"日", "本", "語"});  // wide characters are words of their own
  CHECK(wrap_words("naïve", 3) == std::vector<std::string>{"naï", "ve"});

  // A list item wider than the screen: its words whole, the lines after the first indented by 4.
  const std::string memo = "t12 COM.1 Meetings \"the weekly sync\": a memo that goes on well past the edge of a narrow screen";
  auto shown = wrap_list({"short", "  " + memo}, 40);
  CHECK(shown.front() == "short");
  std::string words;
  for (std::size_t k = 1; k < shown.size(); ++k) {
    CHECK(display_width(shown[k]) <= 40);
    CHECK(shown[k].rfind(k == 1 ? "  t12" : "      ", 0) == 0);
    words += (k > 1 ? " " : "") + shown[k].substr(shown[k].find_first_not_of(' '));
  }
  CHECK(words == memo);
  CHECK(wrap_list({}, 40) == std::vector<std::string>{"(none)"});
}
