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
  CHECK(text == "doc,nodes,note,sample\natlas#9,TOOL.2,=SUM(A1),\natlas#10,COM COM.1,\"two\nlines, \"\"quoted\"\"\",\n");
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
  CHECK(h.items()[0].message == "the columns are doc, nodes, note, sample (no 'nodes')");
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
  CHECK(decisions_text(ds) == "doc,nodes,how,decider,date,note,labels,sample\natlas#1,COM.1,coder:bob,dana,2026-11-26,\"a\nb\",,\n");
}

TEST_CASE("corpus labels: what a label and a decision record they were made on, read back and checked", "[model][corpus]") {
  // sample_stamp: the first 16 hex digits of the list's SHA-256 (python3: hashlib.sha256(b"atlas#1\n").hexdigest()[:16]).
  CHECK(sample_stamp("atlas#1\n") == "6dc24c420560dc19");
  CodersLabels made{{"alice", {"COM", "COM.1"}}, {"bob", {"TOOL.1"}}};
  CHECK(labels_cell(made) == "alice=COM COM.1; bob=TOOL.1");
  CHECK(parse_labels_cell("alice=COM COM.1; bob=TOOL.1") == made);
  CHECK(parse_labels_cell("  alice=COM  COM.1;   bob=TOOL.1 ") == made);
  // A node id may hold ';' (not '=' nor a blank): read back as written.
  CodersLabels odd{{"alice", {"A;", "B;C"}}, {"bob", {";"}}};
  CHECK(labels_cell(odd) == "alice=A; B;C; bob=;");
  CHECK(parse_labels_cell(labels_cell(odd)) == odd);
  CHECK(parse_labels_cell("")->empty());
  CHECK_FALSE(parse_labels_cell("alice COM.1"));          // no '='
  CHECK_FALSE(parse_labels_cell("alice=; bob=TOOL.1"));   // no node
  CHECK_FALSE(parse_labels_cell("alice=COM; alice=TOOL"));  // a coder twice
  CHECK_FALSE(parse_labels_cell("decisions=COM"));        // not a coder's name
  CHECK_FALSE(parse_labels_cell("alice=COM bob=TOOL"));    // no "; " between coders
  CHECK_FALSE(parse_labels_cell("COM; alice=COM"));        // nodes before a coder
  Diagnostics d;
  auto ds = read_decisions("doc,nodes,how,decider,date,note,labels,sample\n"
                           "atlas#1,COM.1,coder:bob,dana,2026-11-26,,alice=COM.2; bob=COM.1,6dc24c420560dc19\n"
                           "atlas#2,COM.1,majority,dana,2026-11-26,,alice COM.1,\n"
                           "atlas#3,COM.1,majority,dana,2026-11-26,,,6DC24C420560DC19\n",
                           "decisions.csv", d);
  REQUIRE(d.items().size() == 2);
  CHECK(d.items()[0].where.line == 3);
  CHECK(d.items()[0].message ==
        "labels are the coders' labels the decision was made on, as 'CODER=NODE NODE; CODER=NODE', not 'alice COM.1'");
  CHECK(d.items()[1].where.line == 4);
  CHECK(d.items()[1].message == "sample is the 16 hex digits of the draw the row was made on (or empty), not '6DC24C420560DC19'");
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].labels == CodersLabels{{"alice", {"COM.2"}}, {"bob", {"COM.1"}}});
  CHECK(ds[0].sample == "6dc24c420560dc19");
  CHECK(decisions_text(ds) == "doc,nodes,how,decider,date,note,labels,sample\n"
                              "atlas#1,COM.1,coder:bob,dana,2026-11-26,,alice=COM.2; bob=COM.1,6dc24c420560dc19\n");
  // An older file, without the columns, reads as before: nothing recorded.
  Diagnostics o;
  auto old = read_labels("doc,nodes,note\natlas#1,COM.1,\n", "bob.csv", o);
  REQUIRE(old.size() == 1);
  CHECK(old[0].sample.empty());
  CHECK_FALSE(o.has_errors());
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
