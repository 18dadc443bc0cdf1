#include "catch.h"

#include <iostream>

#include "qualrank/model/transcripts/transcript.h"

using namespace qualrank;

namespace {
const char* kTranscript =
    "---\n"
    "participant: U1\n"
    "role: user\n"
    "coder: alice\n"
    "attributes:\n"
    "  years: 2\n"
    "  frameworks: [PyTorch, JAX]\n"
    "---\n"
    "# Free heading\n"
    "## II.1 Questions\n"
    "I: What happened?\n"
    "U1: I fought [CUDA versions]{A.1.i, C.1} for days.\n"
    "Still: no luck.\n"
    "@code A.1\n"
    "@memo Install pain.\n"
    "<!-- a note\n"
    "over two lines -->\n"
    "\n"
    "## II.R\n"
    "U1: My order.\n"
    "@rank A.3 > Usage Gaps = a.1 > A.4\n";
}

TEST_CASE("model::parse_transcript reads front matter, turns, spans, codes, memos and ranks", "[model]") {
  Diagnostics d;
  auto t = parse_transcript(kTranscript, "t.md", d);
  d.print(std::cerr);
  REQUIRE(t);
  REQUIRE_FALSE(d.has_errors());
  CHECK(t->participant == "U1");
  CHECK(t->attributes.at("frameworks") == "PyTorch, JAX");
  REQUIRE(t->turns.size() == 3);
  const Turn& turn = t->turns[1];
  CHECK(turn.number == 1);
  CHECK(turn.section == "II.1");
  CHECK(turn.line == 12);
  CHECK(turn.text == "I fought CUDA versions for days.\nStill: no luck.");
  REQUIRE(turn.spans.size() == 1);
  CHECK(turn.text.substr(turn.spans[0].begin, turn.spans[0].end - turn.spans[0].begin) == "CUDA versions");
  REQUIRE(turn.spans[0].codes.size() == 2);
  CHECK(turn.spans[0].codes[1].written == "C.1");
  CHECK(turn.spans[0].codes[1].where.column == 37);
  REQUIRE(turn.codes.size() == 1);
  CHECK(turn.codes[0].memo == "Install pain.");
  CHECK(turn.codes[0].coder == "alice");
  CHECK(t->turns[2].text == "My order.");
  REQUIRE(t->rankings.size() == 1);
  const auto& r = t->rankings[0];
  REQUIRE(r.tiers.size() == 3);
  CHECK(r.tiers[1] == std::vector<std::string>{"Usage Gaps", "a.1"});
  CHECK(r.where[1][1].column == 26);
}

TEST_CASE("model::parse_transcript without text runs reads the same turns, spans and codes", "[model]") {
  Diagnostics with_d, without_d;
  auto with = parse_transcript(kTranscript, "t.md", with_d);
  auto without = parse_transcript(kTranscript, "t.md", without_d, TranscriptParseOptions{/*text_runs=*/false});
  REQUIRE(with);
  REQUIRE(without);
  CHECK(with_d.items().size() == without_d.items().size());
  REQUIRE(with->turns.size() == without->turns.size());
  for (std::size_t k = 0; k < with->turns.size(); ++k) {
    const Turn& a = with->turns[k];
    const Turn& b = without->turns[k];
    CHECK_FALSE(a.runs.empty());
    CHECK(b.runs.empty());
    CHECK(a.text == b.text);
    CHECK(a.line == b.line);
    CHECK(a.end_line == b.end_line);
    REQUIRE(a.spans.size() == b.spans.size());
    for (std::size_t s = 0; s < a.spans.size(); ++s) {
      CHECK(a.spans[s].begin == b.spans[s].begin);
      CHECK(a.spans[s].end == b.spans[s].end);
      CHECK(a.spans[s].line == b.spans[s].line);
      CHECK(a.spans[s].codes.size() == b.spans[s].codes.size());
    }
    REQUIRE(a.codes.size() == b.codes.size());
    for (std::size_t c = 0; c < a.codes.size(); ++c) {
      CHECK(a.codes[c].written == b.codes[c].written);
      CHECK(a.codes[c].memo == b.codes[c].memo);
      CHECK(a.codes[c].where.line == b.codes[c].where.line);
    }
  }
  // Without runs a turn's lines are not known past its first.
  CHECK(with->turns[1].line_of(with->turns[1].text.find("Still")) == 13);
  CHECK(without->turns[1].line_of(without->turns[1].text.find("Still")) == 12);
}

TEST_CASE("model::parse_transcript reports directive errors, located", "[model]") {
  Diagnostics d;
  auto t = parse_transcript("---\nparticipant: U1\nrole: user\n---\n@code A.1\n## Q\nI: hi\n@code A.2\nU1: x\n@frobnicate\n@rank A >  > B\n", "t.md", d);
  REQUIRE(t);
  REQUIRE(d.error_count() == 4);
  CHECK(format_diagnostic(d.items()[0]) == "t.md:5:1: error: @code must follow a participant turn (in the same section)");
  CHECK(format_diagnostic(d.items()[1]) == "t.md:8:1: error: @code must follow a participant turn (in the same section)");
  CHECK(d.items()[2].message.find("unknown directive '@frobnicate'") != std::string::npos);
  CHECK(format_diagnostic(d.items()[3]) == "t.md:11:10: error: empty item in a ranking");
}

TEST_CASE("model::parse_transcript refuses invalid UTF-8, raw or from a YAML escape, located", "[model]") {
  // A raw byte 0xC0 in the participant id: the whole file is checked first.
  Diagnostics raw;
  CHECK_FALSE(parse_transcript("---\nparticipant: P\xC0\nrole: user\n---\nP: hi\n", "t.md", raw));
  REQUIRE(raw.items().size() == 1);
  CHECK(format_diagnostic(raw.items()[0]) == "t.md:2:15: error: invalid UTF-8 (byte offset 18)");
  // "\N" and "\_" in a double-quoted scalar: yaml-cpp gives the bytes 0x85 and 0xA0, so the file is valid
  // UTF-8 but the participant id is not (it reached the codebook workbook's sharedStrings.xml).
  for (const char* escape : {"\\N", "\\_"}) {
    Diagnostics d;
    const std::string text = std::string("---\nparticipant: \"P") + escape + "\"\nrole: user\n---\nP: hi\n";
    CHECK_FALSE(parse_transcript(text, "t.md", d));
    REQUIRE(d.items().size() == 1);
    CHECK(format_diagnostic(d.items()[0]) ==
          "t.md:2:14: error: this value is not valid UTF-8 once its escapes are decoded (\\N and \\_ give single "
          "bytes; write the character itself)");
  }
}

TEST_CASE("model::parse_standoff reads a second coder's codings", "[model]") {
  Diagnostics d;
  auto s = parse_standoff("# bob\nt1: A.1, A.2\nt1 \"CUDA versions\": C.1 | memo: a: b\n", "transcripts/U1.bob.codes", d);
  REQUIRE(s);
  REQUIRE_FALSE(d.has_errors());
  CHECK(s->coder == "bob");
  CHECK(s->transcript_stem == "U1");
  REQUIRE(s->codings.size() == 2);
  CHECK(s->codings[1].span == std::optional<std::string>("CUDA versions"));
  CHECK(s->codings[1].codes[0].memo == "a: b");
  CHECK(s->codings[0].codes[1].where.column == 10);

  Diagnostics d2;
  auto t = parse_transcript(kTranscript, "t.md", d2);
  apply_standoff(*t, *s, d2);
  REQUIRE_FALSE(d2.has_errors());
  CHECK(t->turns[1].codes.size() == 3);
  CHECK(t->turns[1].spans[0].codes.size() == 3);  // same span text -> same span
}
