#include "catch.h"
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "qualrank/model/history/history.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/files.h"
#include "qualrank/util/yaml_emit.h"
#include "qualrank/util/yaml_source.h"

using namespace qualrank;
namespace fs = std::filesystem;

namespace {

const char* kBase =
    "taxonomy: t\n"
    "nodes:\n"
    "  - id: A\n"
    "    name: Question\n"
    "    children:\n"
    "      - {id: A.1, name: Install, aliases: [setup]}\n"
    "      - id: A.2\n"
    "        name: Usage\n"
    "        children:\n"
    "          - {id: A.2.i, name: Docs}\n"
    "          - {id: A.2.ii, name: Limits}\n"
    "  - id: B\n"
    "    name: Bug\n"
    "    children:\n"
    "      - {id: B.1, name: Memory, aliases: [oom]}\n"
    "      - {id: B.2, name: Numerics}\n"
    "      - {id: B.3, name: Crashes}\n";

Taxonomy base() {
  Diagnostics d;
  auto t = load_taxonomy(kBase, "codebooks/t.yaml", d);
  d.print(std::cerr);
  REQUIRE(t);
  return *t;
}

TaxonomyEdit edit(const std::string& id, EditOp op, int line) {
  TaxonomyEdit e;
  e.id = id;
  e.op = op;
  e.where = {"codebooks/t.history.yaml", line, 5};
  return e;
}

TaxonomyEdit add(const std::string& id, const std::string& node, const std::string& parent, const std::string& name) {
  auto e = edit(id, EditOp::add, 10);
  e.node = node;
  e.parent = parent;
  e.name = name;
  return e;
}

// Applies `e` expecting it to fail; returns the single formatted diagnostic.
std::string rejected(TaxonomyReplay& r, const TaxonomyEdit& e) {
  Diagnostics d;
  CHECK_FALSE(r.apply(e, 2, d));
  REQUIRE(d.error_count() == 1);
  return format_diagnostic(d.items()[0]);
}

void apply(TaxonomyReplay& r, const TaxonomyEdit& e, int version = 2) {
  Diagnostics d;
  bool ok = r.apply(e, version, d);
  d.print(std::cerr);
  REQUIRE(ok);
}

// A scratch copy of the mini fixture workspace.
struct TempWorkspace {
  fs::path root;
  TempWorkspace() {
    root = fs::temp_directory_path() / ("qualrank-history-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    fs::remove_all(root);
    fs::copy(fs::path(QUALRANK_FIXTURES_DIR) / "mini", root, fs::copy_options::recursive);
  }
  ~TempWorkspace() { fs::remove_all(root); }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

}  // namespace

TEST_CASE("model::history replays an add under a parent", "[model][history]") {
  TaxonomyReplay r(base());
  auto e = add("E0001", "A.2.iii", "A.2", "Parameter interaction");
  e.aliases = std::vector<std::string>{"knobs"};
  apply(r, e);
  auto t = r.finish();
  REQUIRE(t.find("A.2.iii"));
  CHECK(t.find("A.2.iii")->level == 3);
  CHECK(t.children("A.2") == std::vector<std::string>{"A.2.i", "A.2.ii", "A.2.iii"});
  CHECK(t.resolve("KNOBS") == std::optional<std::string>("A.2.iii"));
  CHECK(t.find("A.2.iii")->where.line == 10);
}

TEST_CASE("model::history replays rename, redefine, move and deprecate", "[model][history]") {
  TaxonomyReplay r(base());
  auto rename = edit("E0001", EditOp::rename, 11);
  rename.node = "A.1";
  rename.new_id = "A.9";
  rename.name = "Installation";
  apply(r, rename);
  auto redefine = edit("E0002", EditOp::redefine, 12);
  redefine.node = "A.9";
  redefine.definition = "Installing.";
  redefine.aliases = std::vector<std::string>{"install docs"};
  apply(r, redefine);
  auto move = edit("E0003", EditOp::move, 13);
  move.node = "A.2.ii";
  move.parent = "B";
  apply(r, move);
  auto deprecate = edit("E0004", EditOp::deprecate, 14);
  deprecate.node = "B.3";
  apply(r, deprecate);
  auto t = r.finish();
  CHECK_FALSE(t.find("A.1"));
  CHECK(t.find("A.9")->name == "Installation");
  CHECK(t.find("A.9")->definition == "Installing.");
  CHECK(t.find("A.2.ii")->parent == "B");
  CHECK(t.find("A.2.ii")->level == 2);
  CHECK(t.find("B.3")->status == "deprecated");
  CHECK(t.order() == std::vector<std::string>{"A", "A.9", "A.2", "A.2.i", "B", "B.1", "B.2", "B.3", "A.2.ii"});
}

TEST_CASE("model::history replays a merge and a split", "[model][history]") {
  TaxonomyReplay r(base());
  auto merge = edit("E0001", EditOp::merge, 20);
  merge.from = {"A.2"};
  merge.into = "A.1";
  apply(r, merge);
  auto split = edit("E0002", EditOp::split, 21);
  split.node = "B.1";
  split.parts = {{"B.1.a", "Host memory"}, {"B.1.b", "Device memory"}};
  split.codings_to = "B.1.b";
  apply(r, split);
  auto t = r.finish();
  CHECK_FALSE(t.find("A.2"));
  CHECK(t.children("A.1") == std::vector<std::string>{"A.2.i", "A.2.ii"});  // the merged node's children move
  CHECK_FALSE(t.find("B.1"));
  CHECK(t.children("B") == std::vector<std::string>{"B.2", "B.3", "B.1.a", "B.1.b"});
  CHECK(t.size() == 9);
  const auto& m = r.migration();
  CHECK(m.fates.at("A.2").kind == NodeFate::Kind::merged);
  CHECK(m.fates.at("A.2").to == "A.1");
  CHECK(m.fates.at("B.1").to == "B.1.b");
}

TEST_CASE("model::history split keeps the node's text and labels on the successor of its codings", "[model][history]") {
  TaxonomyReplay r(base());
  auto redefine = edit("E0001", EditOp::redefine, 20);
  redefine.node = "B.1";
  redefine.definition = "Running out of memory.";
  redefine.inclusion = "Allocation failures.";
  redefine.aliases = std::vector<std::string>{"oom", "device"};
  redefine.keywords = std::vector<std::string>{"out of memory"};
  apply(r, redefine);
  auto split = edit("E0002", EditOp::split, 21);
  split.node = "B.1";
  split.parts = {{"B.1.a", "Host memory"}, {"B.1.b", "Device"}};  // "Device" takes the alias 'device' as its name
  split.codings_to = "B.1.a";
  apply(r, split);
  auto t = r.finish();
  const auto* a = t.find("B.1.a");
  const auto* b = t.find("B.1.b");
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->definition == "Running out of memory.");
  CHECK(a->inclusion == "Allocation failures.");
  CHECK(a->aliases == std::vector<std::string>{"oom"});  // 'device' is the other successor's name now
  CHECK(a->keywords == std::vector<std::string>{"out of memory"});
  CHECK(b->definition.empty());
  CHECK(b->aliases.empty());
  CHECK(b->keywords.empty());

  TaxonomyReplay recode(base());
  auto split2 = edit("E0001", EditOp::split, 21);
  split2.node = "B.1";
  split2.parts = {{"B.1.a", "Host memory"}, {"B.1.b", "Device memory"}};
  split2.codings_to = "recode";
  apply(recode, split2);
  auto t2 = recode.finish();
  CHECK(t2.find("B.1.a")->aliases.empty());  // with recode no successor continues the node
  CHECK(t2.find("B.1.b")->aliases.empty());
}

TEST_CASE("model::history rejects invalid edits with located messages", "[model][history]") {
  TaxonomyReplay r(base());
  CHECK(rejected(r, add("E0005", "A.3", "Z", "x")) ==
        "codebooks/t.history.yaml:10:5: error: E0005: cannot add: no node 'Z' in the taxonomy");
  CHECK(rejected(r, add("E0005", "A.1", "A", "x")) ==
        "codebooks/t.history.yaml:10:5: error: E0005: cannot add: node 'A.1' already exists");
  CHECK(rejected(r, add("E0005", "A.3", "A", "oom")).find("'oom' is already the id, name or alias of node 'B.1'") !=
        std::string::npos);
  CHECK(rejected(r, add("E0005", "A 3", "A", "x")).find("may not contain spaces") != std::string::npos);

  auto cycle = edit("E0006", EditOp::move, 30);
  cycle.node = "A";
  cycle.parent = "A.2.i";
  CHECK(rejected(r, cycle) == "codebooks/t.history.yaml:30:5: error: E0006: cannot move: moving 'A' under 'A.2.i' would "
                              "make a cycle ('A.2.i' is 'A' or inside it)");

  auto merge = edit("E0007", EditOp::merge, 31);
  merge.from = {"B.2"};
  merge.into = "B.1";
  apply(r, merge);
  auto after_merge = edit("E0008", EditOp::rename, 32);
  after_merge.node = "B.2";
  after_merge.name = "Numbers";
  CHECK(rejected(r, after_merge) ==
        "codebooks/t.history.yaml:32:5: error: E0008: cannot rename: node 'B.2' was merged into 'B.1' by E0007");
  CHECK(rejected(r, add("E0009", "B.2", "B", "New numerics")).find("node ids are never reused") != std::string::npos);

  auto deprecate = edit("E0010", EditOp::deprecate, 33);
  deprecate.node = "B.3";
  apply(r, deprecate);
  auto on_deprecated = edit("E0011", EditOp::redefine, 34);
  on_deprecated.node = "B.3";
  on_deprecated.definition = "x";
  CHECK(rejected(r, on_deprecated) == "codebooks/t.history.yaml:34:5: error: E0011: cannot redefine: node 'B.3' is "
                                      "deprecated (deprecated nodes are not edited)");
  CHECK(rejected(r, add("E0012", "B.3.i", "B.3", "x")).find("'B.3' is deprecated") != std::string::npos);

  auto parent = edit("E0013", EditOp::deprecate, 35);
  parent.node = "A.2";
  CHECK(rejected(r, parent).find("has active children (A.2.i, A.2.ii)") != std::string::npos);

  auto split = edit("E0014", EditOp::split, 36);
  split.node = "A.2";
  split.parts = {{"A.2.x", "X"}, {"A.2.y", "Y"}};
  split.codings_to = "recode";
  CHECK(rejected(r, split).find("has children (A.2.i, A.2.ii); name a successor in codings_to") != std::string::npos);
  split.codings_to = "A.2.z";
  CHECK(rejected(r, split).find("it must be one of the successors (A.2.x, A.2.y) or 'recode'") != std::string::npos);
}

TEST_CASE("model::history migrates codes of renamed, merged and split nodes", "[model][history]") {
  TaxonomyHistory h;
  h.versions = {{1, "", {}}, {2, "two", {}}, {3, "", {}}};
  auto rename = edit("E0001", EditOp::rename, 5);
  rename.node = "A.1";
  rename.new_id = "A.5";
  rename.name = "Installation";
  auto merge = edit("E0002", EditOp::merge, 6);
  merge.from = {"B.2"};
  merge.into = "B.1";
  auto split = edit("E0003", EditOp::split, 7);
  split.node = "B.3";
  split.parts = {{"B.3.a", "Host crashes"}, {"B.3.b", "Device crashes"}};
  split.codings_to = "recode";
  auto later = add("E0004", "B.4", "B", "Races");
  auto proposed = add("E0005", "B.5", "B", "Leaks");
  for (auto* e : {&rename, &merge, &split}) e->version = 2;
  later.version = 3;
  for (auto* e : {&rename, &merge, &split, &later}) e->status = EditStatus::accepted;
  h.edits = {rename, merge, split, later, proposed};
  h.accepted = {0, 1, 2, 3};

  Diagnostics d;
  auto v2 = materialise(base(), h, 2, d);
  REQUIRE(v2);
  auto resolve = migrating_resolver(v2->taxonomy, v2->migration);
  CHECK(resolve("A.1").node == std::optional<std::string>("A.5"));       // renamed -> new id
  CHECK(resolve("Install").node == std::optional<std::string>("A.5"));   // the old name
  CHECK(resolve("setup").node == std::optional<std::string>("A.5"));     // an alias kept through the rename
  CHECK(resolve("A.5").node == std::optional<std::string>("A.5"));
  CHECK(resolve("B.2").node == std::optional<std::string>("B.1"));       // merged -> target
  CHECK(resolve("numerics").node == std::optional<std::string>("B.1"));  // the merged node's name
  CHECK(resolve("A.2.i").node == std::optional<std::string>("A.2.i"));   // untouched
  auto recode = resolve("B.3");
  CHECK_FALSE(recode.node);
  CHECK(recode.needs_recoding);
  CHECK(recode.problem == "'B.3' needs re-coding: node 'B.3' was split into B.3.a, B.3.b by E0003 (version 2)");
  CHECK(resolve("B.4").problem == "taxonomy node 'B.4' is not in version 2: it comes with version 3, E0004");
  CHECK(resolve("B.5").problem == "taxonomy node 'B.5' is not in version 2: it is only proposed, in E0005");
  CHECK(resolve("B.9").problem == "unknown taxonomy node 'B.9'");

  auto v1 = materialise(base(), h, 1, d);
  REQUIRE(v1);
  auto resolve1 = migrating_resolver(v1->taxonomy, v1->migration);
  CHECK(resolve1("A.1").node == std::optional<std::string>("A.1"));
  CHECK(resolve1("A.5").problem.find("not in version 1") != std::string::npos);
}

TEST_CASE("model::history split with a named successor migrates codings to it", "[model][history]") {
  TaxonomyHistory h;
  h.versions = {{1, "", {}}, {2, "", {}}};
  auto split = edit("E0001", EditOp::split, 5);
  split.node = "A.2";
  split.parts = {{"A.2.x", "Usage how-to"}, {"A.2.y", "Usage limits"}};
  split.codings_to = "A.2.x";
  split.status = EditStatus::accepted;
  split.version = 2;
  h.edits = {split};
  h.accepted = {0};
  Diagnostics d;
  auto v2 = materialise(base(), h, 2, d);
  REQUIRE(v2);
  CHECK(v2->taxonomy.children("A.2.x") == std::vector<std::string>{"A.2.i", "A.2.ii"});
  auto resolve = migrating_resolver(v2->taxonomy, v2->migration);
  CHECK(resolve("A.2").node == std::optional<std::string>("A.2.x"));
  CHECK(resolve("usage").node == std::optional<std::string>("A.2.x"));
}

TEST_CASE("model::history hash chain detects an entry edited in the middle", "[model][history]") {
  // Build a three-entry history through the real writer, then edit the second entry.
  TempWorkspace ws;
  Diagnostics d;
  auto e1 = add("", "A.3", "A", "Notebooks");
  e1.rationale = "one";
  e1.date = "2025-04-01";
  e1.provenance = {{"P1", "transcripts/P1.md:21", "", 0, "", {}}};
  REQUIRE(append_proposal(ws.root, e1, d) == std::optional<std::string>("E0001"));
  auto e2 = add("", "B.3", "B", "Crashes");
  e2.rationale = "two";
  e2.date = "2025-04-01";
  REQUIRE(append_proposal(ws.root, e2, d) == std::optional<std::string>("E0002"));
  HistoryDecision accept;
  accept.into_version = 2;
  accept.version_name = "after interviews";
  accept.author = "alice";
  accept.date = "2025-04-02";
  REQUIRE(append_decision(ws.root, "E0001", accept, d));
  d.print(std::cerr);
  REQUIRE_FALSE(d.has_errors());

  auto path = ws.root / "codebooks/mini.history.yaml";
  auto text = *files::read(path);
  Diagnostics ok;
  auto h = parse_history(text, "codebooks/mini.history.yaml", ok);
  REQUIRE(h);
  CHECK(h->entries == 3);
  CHECK(h->latest_version() == 2);
  CHECK(h->version_number("after interviews") == std::optional<int>(2));
  CHECK(h->find("E0001")->status == EditStatus::accepted);
  CHECK(h->find("E0002")->status == EditStatus::proposed);

  auto tampered = text;
  auto at = tampered.find("rationale: two");
  REQUIRE(at != std::string::npos);
  tampered.replace(at, 14, "rationale: TWO");
  int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(text.find("  - propose: E0002")), '\n'));
  Diagnostics bad;
  CHECK_FALSE(parse_history(tampered, "codebooks/mini.history.yaml", bad));
  REQUIRE(bad.error_count() == 1);
  CHECK(bad.items()[0].where.line == line);
  CHECK(bad.items()[0].message.find("history entry 2 (proposal of E0002) does not match its hash") == 0);

  // Removing the second entry breaks the chain at the third.
  auto cut = text;
  auto start = cut.find("  - propose: E0002"), end = cut.find("  - accept: E0001");
  cut.erase(start, end - start);
  Diagnostics removed;
  CHECK_FALSE(parse_history(cut, "codebooks/mini.history.yaml", removed));
  REQUIRE(removed.error_count() >= 1);
  CHECK(removed.items()[0].message.find("history entry 2 (acceptance of E0001)") == 0);

  // Re-indenting or re-quoting keeps the chain: the hash is over the parsed content.
  auto requoted = text;
  auto r = requoted.find("rationale: two");
  requoted.replace(r, 14, "rationale: \"two\"");
  Diagnostics same;
  CHECK(parse_history(requoted, "codebooks/mini.history.yaml", same));
}

TEST_CASE("model::history reports a truncated entry (a key with no value) located, not as an internal error", "[model][history]") {
  TempWorkspace ws;
  Diagnostics d;
  auto e1 = add("", "A.3", "A", "Notebooks");
  e1.rationale = "one";
  e1.date = "2025-04-01";
  e1.provenance = {{"P1", "transcripts/P1.md:21", "", 0, "", {}}};
  REQUIRE(append_proposal(ws.root, e1, d) == std::optional<std::string>("E0001"));
  REQUIRE_FALSE(d.has_errors());
  const auto text = *files::read(ws.root / "codebooks/mini.history.yaml");
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  // The file cut off after "accept:": the entry has a null id (it used to throw json type_error.302).
  for (const std::string tail : {"  - accept:\n", "  - reject:\n", "  - propose:\n"}) {
    Diagnostics bad;
    CHECK_FALSE(parse_history(text + tail, "codebooks/mini.history.yaml", bad));
    REQUIRE(bad.error_count() >= 2);
    const std::string kind = tail.find("accept") != std::string::npos ? "acceptance"
                             : tail.find("reject") != std::string::npos ? "rejection" : "proposal";
    CHECK(format_diagnostic(bad.items()[0]) ==
          "codebooks/mini.history.yaml:" + std::to_string(line) + ":5: error: history entry 2 (" + kind +
              " of ?) does not match its hash: the history was edited here, or an entry before it was removed or "
              "reordered; restore the file from version control (the history is append-only)");
    const std::string key = tail.substr(4, tail.size() - 6);
    CHECK(format_diagnostic(bad.items()[1]) ==
          "codebooks/mini.history.yaml:" + std::to_string(line) + ":5: error: missing '" + key + "'");
  }
}

TEST_CASE("model::history append refuses invalid proposals and decisions", "[model][history]") {
  TempWorkspace ws;
  Diagnostics d;
  auto bad_parent = add("", "Z.1", "Z", "x");
  bad_parent.rationale = "r";
  CHECK_FALSE(append_proposal(ws.root, bad_parent, d));
  REQUIRE(d.error_count() == 1);
  CHECK(d.items()[0].message == "E0001: cannot add: no node 'Z' in the taxonomy (at version 1)");

  Diagnostics d2;
  auto outside = add("", "A.3", "A", "x");
  outside.rationale = "r";
  outside.provenance = {{"P1", "../secret.md:1", "", 0, "", {}}};
  CHECK_FALSE(append_proposal(ws.root, outside, d2));
  CHECK(d2.items().at(0).message.find("outside the workspace") != std::string::npos);

  Diagnostics d3;
  auto wrong_line = add("", "A.3", "A", "x");
  wrong_line.rationale = "r";
  wrong_line.provenance = {{"P1", "transcripts/P1.md:13", "", 0, "", {}}};  // the interviewer's turn
  CHECK_FALSE(append_proposal(ws.root, wrong_line, d3));
  CHECK(d3.items().at(0).message.find("is not in a turn of P1") != std::string::npos);
  CHECK_FALSE(fs::exists(ws.root / "codebooks/mini.history.yaml"));

  Diagnostics d4;
  auto good = add("", "A.3", "A", "Notebooks");
  good.rationale = "r";
  REQUIRE(append_proposal(ws.root, good, d4));
  HistoryDecision into_one;
  into_one.into_version = 1;
  CHECK_FALSE(append_decision(ws.root, "E0001", into_one, d4));
  HistoryDecision reject;
  reject.accept = false;
  reject.reason = "belongs under A.2";
  CHECK(append_decision(ws.root, "E0001", reject, d4));
  HistoryDecision accept;
  CHECK_FALSE(append_decision(ws.root, "E0001", accept, d4));  // already decided
  CHECK_FALSE(append_decision(ws.root, "E0099", accept, d4));
}

TEST_CASE("model::history diff lists net changes with edits and segment counts", "[model][history]") {
  auto h = std::make_shared<TaxonomyHistory>();
  h->file = "codebooks/t.history.yaml";
  h->versions = {{1, "", {}}, {2, "", {}}};
  auto rename = edit("E0001", EditOp::rename, 5);
  rename.node = "A.1";
  rename.new_id = "A.5";
  auto merge = edit("E0002", EditOp::merge, 6);
  merge.from = {"B.2"};
  merge.into = "B.1";
  auto added = add("E0003", "B.4", "B", "Races");
  added.provenance = {{"P1", "transcripts/P1.md:21", "transcripts/P1.md", 21, "", {}}};
  auto move = edit("E0004", EditOp::move, 8);
  move.node = "A.2.i";
  move.parent = "A.5";
  for (auto* e : {&rename, &merge, &added, &move}) {
    e->status = EditStatus::accepted;
    e->version = 2;
  }
  h->edits = {rename, merge, added, move};
  h->accepted = {0, 1, 2, 3};
  std::vector<CodedRef> refs = {{{"A.1"}}, {{"B.2", "numerics"}}, {{"B.1"}}};  // three segments' codes
  Diagnostics d;
  auto diff = diff_versions(base(), h, 1, 2, &refs, d);
  REQUIRE(diff);
  REQUIRE(diff->changes.size() == 4);
  CHECK(diff->changes[0].kind == "added");
  CHECK(diff->changes[0].node == "B.4");
  CHECK(diff->changes[0].edits.at(0)->id == "E0003");
  CHECK(diff->changes[1].kind == "renamed");
  CHECK(diff->changes[1].node_after == "A.5");
  CHECK(diff->changes[1].segments == 1);
  CHECK(diff->changes[2].kind == "moved");
  CHECK(diff->changes[2].parent_after == "A.5");
  CHECK(diff->changes[3].kind == "merged");
  CHECK(diff->changes[3].targets == std::vector<std::string>{"B.1"});
  CHECK(diff->changes[3].segments == 1);  // one segment, two codes naming B.2
  CHECK(diff->to.per_level == std::vector<int>{2, 5, 2});
}

TEST_CASE("model::taxonomy_to_yaml writes a file load_taxonomy reads back", "[model][history]") {
  TaxonomyReplay r(base());
  auto e = add("E0001", "A.2.iii", "A.2", "Quotes: \"x\", #1 [a]");
  e.definition = "Multi\nline: yes";
  e.aliases = std::vector<std::string>{"a, b", "null"};
  apply(r, e);
  auto dep = edit("E0002", EditOp::deprecate, 9);
  dep.node = "B.3";
  apply(r, dep);
  auto t = r.finish();
  Diagnostics d;
  auto back = load_taxonomy(taxonomy_to_yaml(t, "exported\nfor a test"), "x.yaml", d);
  d.print(std::cerr);
  REQUIRE(back);
  CHECK(back->order() == t.order());
  CHECK(back->find("A.2.iii")->name == "Quotes: \"x\", #1 [a]");
  CHECK(back->find("A.2.iii")->definition == "Multi\nline: yes");
  CHECK(back->find("A.2.iii")->aliases == std::vector<std::string>{"a, b", "null"});
  CHECK(back->find("B.3")->status == "deprecated");
}

TEST_CASE("util::yaml quote round-trips tricky scalars", "[util]") {
  for (std::string s : {"plain text", "a: b", "x #y", "- dash", "null", "~", "", " lead", "trail ", "quote\"s",
                        "back\\slash", "tab\there", "ünïcode ok", "transcripts/U06.md:45", "{brace}", "'single'"}) {
    Diagnostics d;
    auto node = yaml::parse("k: " + yaml::quote(s) + "\nl: " + yaml::flow_list({s, "x"}) + "\n", "t.yaml", d);
    REQUIRE(node);
    CHECK((*node)["k"].Scalar() == s);
    CHECK((*node)["l"][0].Scalar() == s);
  }
}

TEST_CASE("model::taxonomy_at materialises a version of a workspace with a history", "[model][history]") {
  Diagnostics d;
  auto ws = load_workspace(fs::path(QUALRANK_FIXTURES_DIR) / "history" / "workspace", d);
  d.print(std::cerr);
  REQUIRE(ws);
  auto latest = taxonomy_at(*ws, std::nullopt, d);
  REQUIRE(latest);
  CHECK(latest->number == 2);
  CHECK(latest->name == "migrated");
  CHECK(latest->latest == 2);
  CHECK(latest->resolve("A.1").node == std::optional<std::string>("A.5"));
  CHECK(latest->resolve("Installation").node == std::optional<std::string>("A.5"));  // the old name
  CHECK(latest->resolve("B.2").node == std::optional<std::string>("B.1"));
  auto v1 = taxonomy_at(*ws, std::string("1"), d);
  REQUIRE(v1);
  CHECK(v1->taxonomy.find("A.1"));
  CHECK(v1->resolve("A.3").problem == "taxonomy node 'A.3' is not in version 1: it comes with version 2 (migrated), E0003");
  CHECK(v1->resolve("B.3").problem == "taxonomy node 'B.3' is not in version 1: it was proposed in E0004 and rejected");
  REQUIRE_FALSE(d.has_errors());

  Guideline g = ws->guideline;
  migrate_guideline(g, *latest, d);
  // The item set of version 1 (children of A) is migrated, not recomputed: A.3 (added later) is not in it.
  CHECK(g.find("II.R")->items == std::vector<std::string>{"A.5", "A.2", "A.10"});

  Diagnostics bad;
  CHECK_FALSE(taxonomy_at(*ws, std::string("3"), bad));
  REQUIRE(bad.error_count() == 1);
  CHECK(format_diagnostic(bad.items()[0]) ==
        "codebooks/mini.history.yaml: error: unknown taxonomy version '3' (versions: 1, 2 (migrated))");
}

TEST_CASE("model::history append_proposals records all of a batch or none", "[model][history]") {
  TempWorkspace ws;
  const fs::path file = ws.root / "codebooks/mini.history.yaml";
  auto with_rationale = [](TaxonomyEdit e) {
    e.rationale = "r";
    return e;
  };
  // one refused edit: nothing is written, the refusal goes to the handler with its index
  Diagnostics d;
  std::vector<std::size_t> refused;
  std::vector<std::string> messages;
  auto handler = [&](std::size_t k, const Diagnostics& problems) {
    refused.push_back(k);
    for (const auto& item : problems.items()) messages.push_back(item.message);
  };
  auto none = append_proposals(ws.root, {with_rationale(add("", "A.3", "A", "Notebooks")), with_rationale(add("", "Z.1", "Z", "x"))},
                               d, {}, false, handler);
  CHECK_FALSE(none);
  CHECK(refused == std::vector<std::size_t>{1});
  CHECK(messages == std::vector<std::string>{"E0002: cannot add: no node 'Z' in the taxonomy (at version 1)"});
  CHECK(d.error_count() == 0);
  CHECK_FALSE(fs::exists(file));

  // a new node and its child, and a deprecation after its node's only child's: all recorded, in one write
  TaxonomyEdit child_gone;
  child_gone.op = EditOp::deprecate;
  child_gone.node = "A.1.i";
  TaxonomyEdit parent_gone = child_gone;
  parent_gone.node = "A.1";
  Diagnostics check;
  std::vector<TaxonomyEdit> batch = {with_rationale(add("", "C", "", "Performance")), with_rationale(add("", "C.1", "C", "Latency")),
                                     with_rationale(child_gone), with_rationale(parent_gone)};
  CHECK(append_proposals(ws.root, batch, check, {}, true) == std::optional<std::vector<std::string>>({{"E0001", "E0002", "E0003", "E0004"}}));
  CHECK_FALSE(fs::exists(file));  // check_only
  Diagnostics d2;
  auto ids = append_proposals(ws.root, batch, d2);
  d2.print(std::cerr);
  REQUIRE(ids);
  CHECK(*ids == std::vector<std::string>{"E0001", "E0002", "E0003", "E0004"});
  Diagnostics d3;
  auto loaded = load_workspace_design(ws.root, d3);
  REQUIRE(loaded);
  auto h = load_history(*loaded, d3);
  REQUIRE(h);
  CHECK(h->entries == 4);
  CHECK(h->edits.at(3).node == "A.1");
  // the parent's deprecation alone, before its child's, is refused
  Diagnostics d4;
  CHECK_FALSE(append_proposals(ws.root, {with_rationale(parent_gone)}, d4));
}

TEST_CASE("model::rechain_history recomputes the chain over edited entries", "[model]") {
  const std::string edits_yaml =
      "history: t\nentries:\n"
      "  - propose: E0001\n    op: deprecate\n    args: {node: A}\n    rationale: asked by Anna\n    author: anna\n"
      "    date: 2025-01-01\n    hash: 0000000000000000000000000000000000000000000000000000000000000000\n"
      "  - reject: E0001\n    reason: Anna changed her mind\n    author: anna\n    date: 2025-01-02\n"
      "    hash: 1111111111111111111111111111111111111111111111111111111111111111\n";
  Diagnostics d;
  CHECK_FALSE(parse_history(edits_yaml, "h.yaml", d));  // the made-up hashes do not match
  Diagnostics d2;
  auto fixed = rechain_history(edits_yaml, "h.yaml", d2);
  REQUIRE(fixed);
  CHECK_FALSE(d2.has_errors());
  Diagnostics d3;
  auto h = parse_history(*fixed, "h.yaml", d3);
  CHECK_FALSE(d3.has_errors());
  REQUIRE(h);
  CHECK(h->edits.size() == 1);
  CHECK(h->edits[0].rationale == "asked by Anna");
  // only the hash values changed
  CHECK(fixed->size() == edits_yaml.size());
  CHECK(fixed->substr(0, fixed->find("hash:")) == edits_yaml.substr(0, edits_yaml.find("hash:")));
  Diagnostics d4;
  CHECK_FALSE(rechain_history("history: t\nentries:\n  - propose: E0001\n", "h.yaml", d4));
  CHECK(format_diagnostic(d4.items()[0]) == "h.yaml:3:5: error: a history entry without its hash (64 hex digits)");
}
