#include "catch.h"

#include <unistd.h>

#include <filesystem>

#include "label/label_actions.h"
#include "label/label_model.h"
#include "fixture_taxonomy.h"
#include "qualrank/util/files.h"

using namespace qualrank;
namespace fs = std::filesystem;

namespace {

struct TempWorkspace {
  fs::path root;
  TempWorkspace() {
    root = fs::temp_directory_path() / ("qualrank-label-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "corpus/samples");
    auto line = [](int id, const std::string& title, const std::string& body) {
      return "{\"id\":\"" + std::to_string(id) + "\",\"url\":\"https://example.org/" + std::to_string(id) +
             "\",\"created\":\"2024-03-01T00:00:00Z\",\"title\":\"" + title + "\",\"body\":\"" + body +
             "\",\"labels\":[],\"comments\":[{\"author\":\"ann\",\"created\":\"\",\"body\":\"see the Cache Miss log\"}],\"extra\":{}}\n";
    };
    files::write_atomic(root / "corpus/atlas.jsonl", line(1, "First", "a cache miss here") + line(2, "Second", "nothing") +
                                                         line(3, "Third", "deadlock\\nagain") + line(10, "Tenth", "plain"));
    files::write_atomic(root / "corpus/retrieved.jsonl",
                        "{\"doc\":\"atlas#1\",\"source\":\"atlas\",\"id\":\"1\",\"whole\":false,\"matches\":[{\"term\":\"cache miss\",\"in\":\"body\",\"at\":2,\"count\":1}]}\n");
    files::write_atomic(root / "corpus/samples/pilot.txt", "atlas#1\natlas#3\natlas#10\natlas#2\n");
  }
  ~TempWorkspace() { fs::remove_all(root); }
  std::string labels() const { return files::read(root / "corpus/labels/pilot/eve.csv").value_or("(none)"); }
};

tui::LabelModel open(const TempWorkspace& w) {
  Diagnostics d;
  auto m = tui::LabelModel::open(w.root, "eve", "pilot", test::fieldwork_taxonomy(), direct_resolver(test::fieldwork_taxonomy()), d);
  REQUIRE(m);
  return std::move(*m);
}

}  // namespace

TEST_CASE("tui::LabelModel labels, saves as made, undoes and resumes at the first unlabelled document", "[tui][corpus]") {
  TempWorkspace w;
  auto m = open(w);
  REQUIRE(m.size() == 4);
  CHECK(m.doc_ref(0) == "atlas#1");
  CHECK(m.doc_ref(3) == "atlas#10");  // natural order
  CHECK(m.current() == 0);
  CHECK(m.progress() == "0 of 4 labelled");
  REQUIRE(m.label_current({"COM.1"}));
  CHECK(m.current() == 1);
  CHECK(w.labels() == "doc,nodes,note,sample\natlas#1,COM.1,,ab7caca90bfca95f\n");
  REQUIRE(m.label_current({"WELL"}));
  REQUIRE(m.label_current({"WELL.1"}, true));  // at atlas#3 now: add below nothing = WELL.1
  CHECK(w.labels() == "doc,nodes,note,sample\natlas#1,COM.1,,ab7caca90bfca95f\natlas#2,WELL,,ab7caca90bfca95f\natlas#3,WELL.1,,ab7caca90bfca95f\n");
  m.go(2);  // atlas#3, WELL.1
  CHECK_FALSE(m.label_current({"COM.1"}, true));
  CHECK(m.message() == "'COM.1' and 'WELL.1' are not on one path from the root: a label is one node and, optionally, its ancestors");
  REQUIRE(m.label_current({"WELL"}, true));
  CHECK(m.label(2)->nodes == std::vector<std::string>{"WELL", "WELL.1"});
  REQUIRE(m.undo());
  CHECK(m.current() == 2);
  CHECK(m.label(2)->nodes == std::vector<std::string>{"WELL.1"});
  REQUIRE(m.undo());
  CHECK(m.current() == 2);
  CHECK(m.label(2) == nullptr);
  CHECK(m.message() == "undone: atlas#3 unlabelled again; 2 of 4 labelled");
  REQUIRE(m.redo());
  REQUIRE(m.undo());
  CHECK(w.labels() == "doc,nodes,note,sample\natlas#1,COM.1,,ab7caca90bfca95f\natlas#2,WELL,,ab7caca90bfca95f\n");
  // Reopened: at the first document without a label.
  auto again = open(w);
  CHECK(again.current() == 2);
  CHECK(again.progress() == "2 of 4 labelled");
}

TEST_CASE("tui::LabelModel lays the document out with the matched keywords marked, and searches", "[tui][corpus]") {
  TempWorkspace w;
  auto m = open(w);
  auto lines = m.layout(40);
  REQUIRE(lines.size() >= 9);
  CHECK(lines[0].text == "atlas#1  First");
  CHECK(lines[1].text == "https://example.org/1  2024-03-01");
  CHECK(lines[2].text == "label: (none)");
  CHECK(lines[3].text == "matched: cache miss");
  CHECK(lines[5].text == "a cache miss here");
  CHECK(lines[5].marks == std::vector<std::pair<std::size_t, std::size_t>>{{2, 12}});
  CHECK(lines[7].text == "comment 1 by ann");
  CHECK(lines[8].text == "  see the Cache Miss log");
  CHECK(lines[8].marks == std::vector<std::pair<std::size_t, std::size_t>>{{10, 20}});
  REQUIRE(m.search("DEADLOCK"));
  CHECK(m.current() == 2);
  auto third = m.layout(40);
  CHECK(third[5].text == "deadlock");
  CHECK(third[6].text == "again");
  CHECK_FALSE(m.search("absent words"));
  CHECK(m.message() == "'absent words' is in no document of the sample");
  // Wrapping after a space: the title takes two lines at 12 columns.
  m.go(0);
  auto narrow = m.layout(12);
  CHECK(narrow[0].text == "atlas#1  ");
  CHECK(narrow[1].text == "First");
  CHECK(narrow[6].text == "a cache ");
  CHECK(narrow[6].marks == std::vector<std::pair<std::size_t, std::size_t>>{{2, 8}});
  CHECK(narrow[7].text == "miss here");
  CHECK(narrow[7].marks == std::vector<std::pair<std::size_t, std::size_t>>{{0, 4}});
}

TEST_CASE("tui::label_actions: keys drive the model; the help lists every action", "[tui][corpus]") {
  struct FakeUi : tui::LabelUi {
    std::optional<std::string> pick_node(tui::LabelModel&, const std::string&) override { return "TOOL.1"; }
    std::optional<std::string> prompt(const std::string&, const std::string&) override { return "tenth"; }
    void show_help() override {}
  } ui;
  TempWorkspace w;
  auto m = open(w);
  tui::LabelActionContext ctx{m, ui, 'c', 20, false, {}};
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(w.labels() == "doc,nodes,note,sample\natlas#1,TOOL.1,,ab7caca90bfca95f\n");
  ctx.key = '/';
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.current() == 3);
  ctx.key = 'u';
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.current() == 0);
  CHECK(w.labels() == "doc,nodes,note,sample\n");
  ctx.key = 'q';
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(ctx.quit);
  ctx.key = 'Z';
  CHECK_FALSE(tui::label_dispatch(ctx));
  CHECK(tui::label_help_lines().size() == tui::label_actions().size());
  CHECK(tui::label_help_lines()[13] == "  Space, PgDn   page-down        scroll down a page");
  CHECK(tui::label_help_lines().front() == "  c, Enter      label            label the document with a node (the picker; Enter applies), then go to the next unlabelled");
}

namespace {

// atlas#11: a tab in its title, tab-separated columns and a tab-indented line in its body, an ESC and a C1
// control (U+0085); the sample holds it too.
void add_tabbed_document(const TempWorkspace& w) {
  auto store = files::read(w.root / "corpus/atlas.jsonl").value();
  store += "{\"id\":\"11\",\"url\":\"https://example.org/11\",\"created\":\"2024-03-01T00:00:00Z\",\"title\":\"Tab\\there\","
           "\"body\":\"col1\\tcol2\\tcol3\\n\\tindented cache miss\\nab\\u001b[2Jc\\u0085d\\nx\\tcache miss\",\"labels\":[],"
           "\"comments\":[{\"author\":\"a\\u001bb\",\"created\":\"\",\"body\":\"k\\tv\"}],\"extra\":{}}\n";
  files::write_atomic(w.root / "corpus/atlas.jsonl", store);
  files::write_atomic(w.root / "corpus/retrieved.jsonl",
                      "{\"doc\":\"atlas#11\",\"source\":\"atlas\",\"id\":\"11\",\"whole\":false,\"matches\":[{\"term\":\"cache miss\",\"in\":\"body\",\"at\":2,\"count\":1}]}\n");
  files::write_atomic(w.root / "corpus/samples/pilot.txt", "atlas#1\natlas#3\natlas#10\natlas#2\natlas#11\n");
}

using Marks = std::vector<std::pair<std::size_t, std::size_t>>;

}  // namespace

TEST_CASE("tui::LabelModel lays tabs out to the next multiple of 8 columns and shows control characters", "[tui][corpus]") {
  TempWorkspace w;
  add_tabbed_document(w);
  auto m = open(w);
  m.go(4);
  REQUIRE(m.doc_ref(4) == "atlas#11");
  auto lines = m.layout(80);
  REQUIRE(lines.size() == 12);
  CHECK(lines[0].text == "atlas#11  Tab   here");  // the tab at column 13 goes to 16
  CHECK(lines[5].text == "col1    col2    col3");
  CHECK(lines[6].text == "        indented cache miss");
  CHECK(lines[6].marks == Marks{{17, 27}});  // the keyword where it shows, after the tab's 8 spaces
  CHECK(lines[7].text == "ab^[[2Jc<U+0085>d");
  CHECK(lines[8].text == "x       cache miss");
  CHECK(lines[8].marks == Marks{{8, 18}});
  CHECK(lines[10].text == "comment 1 by a^[b");
  CHECK(lines[11].text == "  k       v");  // tab stops counted from the comment's text, after its indent
  // Wrapped: a tab breaks a line as a space does, and takes no more than the line has left.
  auto narrow = m.layout(10);
  CHECK(narrow[0].text == "atlas#11  ");
  CHECK(narrow[1].text == "Tab     ");
  CHECK(narrow[2].text == "here");
  CHECK(narrow[7].text == "col1    ");
  CHECK(narrow[8].text == "col2    ");
  CHECK(narrow[9].text == "col3");
}

TEST_CASE("tui::LabelModel shows labels recorded elsewhere and does not silently replace them", "[tui][corpus]") {
  TempWorkspace w;
  auto m = open(w);
  auto elsewhere = open(w);  // another labeller of the same coder, or the command line
  REQUIRE(m.current() == 0);
  REQUIRE(elsewhere.label_current({"COM.2"}));  // atlas#1
  CHECK(m.label(0) == nullptr);
  CHECK(m.reload_labels());
  REQUIRE(m.label(0) != nullptr);
  CHECK(m.label(0)->nodes == std::vector<std::string>{"COM.2"});
  CHECK(m.progress() == "1 of 4 labelled");
  CHECK(m.layout(40)[2].text == "label: COM.2 Meetings");
  CHECK_FALSE(m.reload_labels());  // unchanged on disk
  // Next unlabelled skips what was labelled elsewhere.
  elsewhere.go(1);
  REQUIRE(elsewhere.label_current({"WELL.1"}));  // atlas#2
  m.reload_labels();
  m.go(0);
  REQUIRE(m.next_unlabelled());
  CHECK(m.doc_ref(m.current()) == "atlas#3");
  // Labelled elsewhere after it was shown here (no reload in between): not replaced, shown, and replaced on
  // the second try.
  REQUIRE(elsewhere.label_current({"TOOL.1"}, false));  // elsewhere moved on to atlas#3 too
  CHECK(elsewhere.doc_ref(elsewhere.current()) == "atlas#10");
  elsewhere.go(2);
  REQUIRE(m.current() == 2);
  CHECK(m.label(2) == nullptr);
  CHECK_FALSE(m.label_current({"COM.1"}));
  CHECK(m.message() == "atlas#3: labelled elsewhere since: TOOL.1; press c again to replace it");
  CHECK(m.current() == 2);
  CHECK(m.label(2)->nodes == std::vector<std::string>{"TOOL.1"});
  CHECK(w.labels() == "doc,nodes,note,sample\natlas#1,COM.2,,ab7caca90bfca95f\natlas#2,WELL.1,,ab7caca90bfca95f\natlas#3,TOOL.1,,ab7caca90bfca95f\n");
  REQUIRE(m.label_current({"COM.1"}));
  CHECK(w.labels() == "doc,nodes,note,sample\natlas#1,COM.2,,ab7caca90bfca95f\natlas#2,WELL.1,,ab7caca90bfca95f\natlas#3,COM.1,,ab7caca90bfca95f\n");
  // Removed elsewhere since: clearing here says so, undo does not bring back what was replaced elsewhere.
  elsewhere.reload_labels();
  REQUIRE(elsewhere.clear_current());  // atlas#3
  CHECK_FALSE(m.undo());
  CHECK(m.message() == "not undone: atlas#3: its label was removed elsewhere since");
  CHECK(m.label(2) == nullptr);
  CHECK(w.labels() == "doc,nodes,note,sample\natlas#1,COM.2,,ab7caca90bfca95f\natlas#2,WELL.1,,ab7caca90bfca95f\n");
  CHECK(m.progress() == "2 of 4 labelled");
  // Relabelled elsewhere since it was shown: clearing here does not remove the other label; x again does.
  m.go(0);
  elsewhere.reload_labels();
  elsewhere.go(0);
  REQUIRE(elsewhere.label_current({"COM.1"}));
  CHECK_FALSE(m.clear_current());
  CHECK(m.message() == "atlas#1: labelled elsewhere since: COM.1; press x again to remove it");
  CHECK(w.labels() == "doc,nodes,note,sample\natlas#1,COM.1,,ab7caca90bfca95f\natlas#2,WELL.1,,ab7caca90bfca95f\n");
  REQUIRE(m.clear_current());
  CHECK(w.labels() == "doc,nodes,note,sample\natlas#2,WELL.1,,ab7caca90bfca95f\n");
}

TEST_CASE("tui::LabelModel's search marks what it found and scrolls to it", "[tui][corpus]") {
  TempWorkspace w;
  add_tabbed_document(w);
  auto m = open(w);
  REQUIRE(m.search("indented"));
  CHECK(m.doc_ref(m.current()) == "atlas#11");
  auto lines = m.layout(80);
  CHECK(lines[6].found == Marks{{8, 16}});
  CHECK(m.scroll == 5);  // a line above the first occurrence
  m.scroll = 0;
  CHECK(m.layout(80)[6].found == Marks{{8, 16}});  // marked while the document shows
  CHECK(m.scroll == 0);  // scrolled once only
  m.previous();
  m.next();
  CHECK(m.layout(80)[6].found.empty());  // not after going elsewhere
}

TEST_CASE("tui::label_actions: the search prompt starts empty; n and '.' repeat the last search, N backward", "[tui][corpus]") {
  struct FakeUi : tui::LabelUi {
    std::vector<std::string> answers, initials;
    std::optional<std::string> pick_node(tui::LabelModel&, const std::string&) override { return "TOOL.1"; }
    std::optional<std::string> prompt(const std::string&, const std::string& initial) override {
      initials.push_back(initial);
      auto a = answers.front();
      answers.erase(answers.begin());
      return a;
    }
    void show_help() override {}
  } ui;
  ui.answers = {"deadlock", "tenth", "cache miss"};
  TempWorkspace w;
  auto m = open(w);
  tui::LabelActionContext ctx{m, ui, 'N', 20, false, {}};
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.message() == "no search yet ('/')");
  ctx.key = '/';
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.doc_ref(m.current()) == "atlas#3");
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.doc_ref(m.current()) == "atlas#10");
  CHECK(ui.initials == std::vector<std::string>{"", ""});
  ctx.key = '.';
  REQUIRE(tui::label_dispatch(ctx));  // tenth again: the only one, found where it is
  CHECK(m.doc_ref(m.current()) == "atlas#10");
  CHECK(m.message() == "found 'tenth' in atlas#10");
  ctx.key = 'n';
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.message() == "found 'tenth' in atlas#10");
  // Every document's comment holds "cache miss": n goes forward, N back (both wrap).
  ctx.key = '/';
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.doc_ref(m.current()) == "atlas#1");
  ctx.key = 'n';
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.doc_ref(m.current()) == "atlas#2");
  ctx.key = 'N';
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.doc_ref(m.current()) == "atlas#1");
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.doc_ref(m.current()) == "atlas#10");
  CHECK(m.message() == "found 'cache miss' in atlas#10");
}

TEST_CASE("tui::label_actions: g goes to a document by its position or its id", "[tui][corpus]") {
  struct FakeUi : tui::LabelUi {
    std::vector<std::optional<std::string>> answers;
    std::vector<std::string> labels;
    std::optional<std::string> pick_node(tui::LabelModel&, const std::string&) override { return "TOOL.1"; }
    std::optional<std::string> prompt(const std::string& label, const std::string&) override {
      labels.push_back(label);
      auto a = answers.front();
      answers.erase(answers.begin());
      return a;
    }
    void show_help() override {}
  } ui;
  ui.answers = {std::string("3"), std::string(" atlas#10 "), std::string("9"), std::string("atlas#4"), std::string(""), std::nullopt};
  TempWorkspace w;
  auto m = open(w);
  tui::LabelActionContext ctx{m, ui, 'g', 20, false, {}};
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(ui.labels.front() == "go to document (1-4 or SOURCE#ID): ");
  CHECK(m.doc_ref(m.current()) == "atlas#3");
  CHECK(m.message() == "at atlas#3 [3/4]");
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.doc_ref(m.current()) == "atlas#10");
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.message() == "error: no document '9' in the sample (1-4 or SOURCE#ID)");
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.message() == "error: no document 'atlas#4' in the sample (1-4 or SOURCE#ID)");
  CHECK(m.doc_ref(m.current()) == "atlas#10");
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.message() == "staying at atlas#10");
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.message() == "staying at atlas#10");
  ctx.key = tui::key::home;
  REQUIRE(tui::label_dispatch(ctx));
  CHECK(m.current() == 0);
}

TEST_CASE("tui::LabelModel keeps the place in the text when the width changes (a resize)", "[tui][corpus]") {
  TempWorkspace w;
  std::string body;  // 100 source lines of 55 columns: one screen line each at 80 columns, two at 40
  for (int k = 1; k <= 100; ++k) body += "source line " + std::to_string(1000 + k) + " of the body, long enough to wrap\\n";
  auto store = files::read(w.root / "corpus/atlas.jsonl").value();
  store += "{\"id\":\"12\",\"url\":\"https://example.org/12\",\"created\":\"2024-03-01T00:00:00Z\",\"title\":\"Long\",\"body\":\"" +
           body + "\",\"labels\":[],\"comments\":[],\"extra\":{}}\n";
  files::write_atomic(w.root / "corpus/atlas.jsonl", store);
  files::write_atomic(w.root / "corpus/samples/pilot.txt", "atlas#12\n");
  auto m = open(w);
  auto wide = m.layout(80);
  REQUIRE(wide[5].text == "source line 1001 of the body, long enough to wrap");
  m.scroll = 5 + 60;  // source line 1061 at the top
  REQUIRE(wide[static_cast<std::size_t>(m.scroll)].text.rfind("source line 1061 ", 0) == 0);
  auto narrow = m.layout(40);
  CHECK(narrow[static_cast<std::size_t>(m.scroll)].text.rfind("source line 1061 ", 0) == 0);
  CHECK(m.scroll == 5 + 120);
  m.scroll += 3;  // the second half of 1062 at the top: back at 80 columns, the line holding it
  REQUIRE(narrow[static_cast<std::size_t>(m.scroll)].text.rfind("source line 1062", 0) != 0);
  auto back = m.layout(80);
  CHECK(back[static_cast<std::size_t>(m.scroll)].text.rfind("source line 1062 ", 0) == 0);
  CHECK(m.layout(80).size() == back.size());
  m.scroll = 30;  // the same width again: the scroll is left as it is
  m.layout(80);
  CHECK(m.scroll == 30);
}

TEST_CASE("tui::label_help_lines wraps by words to the screen, as annotate's help", "[tui][corpus]") {
  for (int width : {80, 50}) {
    auto lines = tui::label_help_lines(width);
    CHECK(lines.size() > tui::label_actions().size());
    std::string all;
    for (const auto& l : lines) {
      CHECK(tui::display_width(l) <= width);
      for (const auto& word : tui::split_words(l)) all += l.substr(word.begin, word.end - word.begin) + " ";
    }
    for (const auto& a : tui::label_actions()) CHECK(all.find(a.help) != std::string::npos);  // every word whole
  }
  CHECK(tui::label_help_lines(0) == tui::label_help_lines());
}
