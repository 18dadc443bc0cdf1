#include "catch.h"

#include "qualrank/model/corpus/corpus_labels.h"

using namespace qualrank;
using namespace qualrank::corpus;

TEST_CASE("corpus labels: a coder's file round-trips notes with commas, quotes, line breaks and leading '='", "[model][corpus]") {
  std::vector<DocumentLabel> labels;
  set_label(labels, {"atlas#10", {"COM", "COM.1"}, "two\nlines, \"quoted\"", 0});
  set_label(labels, {"atlas#9", {"TOOL.1"}, "=SUM(A1)", 0});
  auto replaced = set_label(labels, {"atlas#9", {"TOOL.2"}, "=SUM(A1)", 0});
  REQUIRE(replaced);
  CHECK(replaced->nodes == std::vector<std::string>{"TOOL.1"});
  const std::string text = labels_text(labels);
  CHECK(text == "doc,nodes,note\natlas#9,TOOL.2,=SUM(A1)\natlas#10,COM COM.1,\"two\nlines, \"\"quoted\"\"\"\n");
  Diagnostics d;
  auto back = read_labels(text, "alice.csv", d);
  REQUIRE_FALSE(d.has_errors());
  REQUIRE(back.size() == 2);
  CHECK(back[1].note == "two\nlines, \"quoted\"");
  CHECK(back[1].nodes == std::vector<std::string>{"COM", "COM.1"});
  CHECK(labels_text(back) == text);
  CHECK(remove_label(back, "atlas#9"));
  CHECK_FALSE(remove_label(back, "atlas#9"));
  CHECK(find_label(back, "atlas#10") != nullptr);
}

TEST_CASE("corpus labels: problems in a coder's file are located", "[model][corpus]") {
  Diagnostics d;
  read_labels("doc,nodes\natlas#1,COM.1\nnohash,COM.1\natlas#2,\natlas#1,TOOL.1\natlas#3,COM COM\n", "bob.csv", d);
  std::string all;
  for (const auto& i : d.items()) all += i.where.file + ":" + std::to_string(i.where.line) + ": " + i.message + "\n";
  CHECK(all ==
        "bob.csv:3: 'nohash' is not a document (SOURCE#ID)\n"
        "bob.csv:4: 'atlas#2' has no nodes\n"
        "bob.csv:5: 'atlas#1' is listed twice (first on line 2)\n"
        "bob.csv:6: node 'COM' is given twice\n");
  Diagnostics h;
  read_labels("doc,label\natlas#1,COM\n", "c.csv", h);
  REQUIRE(h.items().size() == 1);
  CHECK(h.items()[0].message == "the columns are doc, nodes, note (no 'nodes')");
}

TEST_CASE("corpus labels: decisions check how and date, and round-trip", "[model][corpus]") {
  Diagnostics d;
  auto ds = read_decisions("doc,nodes,how,decider,date,note\natlas#1,COM.1,coder:bob,dana,2026-11-26,\"a\nb\"\n"
                           "atlas#2,COM.1,vote,dana,2026-11-26,\natlas#3,COM.1,majority,dana,26-11-2026,\n",
                           "decisions.csv", d);
  REQUIRE(d.items().size() == 2);
  CHECK(d.items()[0].where.line == 4);
  CHECK(d.items()[0].message == "how is coder:NAME, majority or other, not 'vote'");
  CHECK(d.items()[1].message == "date is YYYY-MM-DD, not '26-11-2026'");
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].note == "a\nb");
  CHECK(decisions_text(ds) == "doc,nodes,how,decider,date,note\natlas#1,COM.1,coder:bob,dana,2026-11-26,\"a\nb\"\n");
}

TEST_CASE("corpus labels: sample lists and names", "[model][corpus]") {
  Diagnostics d;
  auto docs = read_sample("# pilot\natlas#2\n\n borealis#1 \natlas#2\nplain\n", "pilot.txt", d);
  CHECK(docs == std::vector<std::string>{"atlas#2", "borealis#1"});
  REQUIRE(d.items().size() == 2);
  CHECK(d.items()[0].message == "'atlas#2' is listed twice (first on line 2)");
  CHECK(d.items()[1].message == "'plain' is not a document (SOURCE#ID)");
  CHECK(coder_name_problem("alice").empty());
  CHECK_FALSE(coder_name_problem("decisions").empty());
  CHECK_FALSE(coder_name_problem("../x").empty());
  CHECK(split_nodes("  COM\tCOM.1  ") == std::vector<std::string>{"COM", "COM.1"});
}
