#include "catch.h"

#include "qualrank/model/transcripts/transcript.h"
#include "qualrank/report/formats/transcript_import.h"

using namespace qualrank;

TEST_CASE("model::split_speaker_prefix takes names, not sentences", "[model][import]") {
  auto p = split_speaker_prefix("Sam Lee: Mostly installation.");
  REQUIRE(p);
  CHECK(p->speaker == "Sam Lee");
  CHECK(p->rest == "Mostly installation.");
  auto t = split_speaker_prefix("[00:01:02] Dana: Anything else?");
  REQUIRE(t);
  CHECK(t->timestamp == "00:01:02");
  CHECK(t->speaker == "Dana");
  CHECK(split_speaker_prefix("00:01:02.500 Kim: ok")->speaker == "Kim");
  CHECK_FALSE(split_speaker_prefix("See https://example.org for more"));
  CHECK_FALSE(split_speaker_prefix("It was like this: a long story about many things"));
  CHECK_FALSE(split_speaker_prefix("12: numbers are not names"));
  CHECK_FALSE(split_speaker_prefix("ratio 3:2 was fine"));
}

TEST_CASE("model::read_webvtt merges nothing itself, keeps voices, timings and entities", "[model][import]") {
  Diagnostics d;
  auto u = read_webvtt("WEBVTT\n\nNOTE skip me\n\n1\n00:01.000 --> 00:02.500 align:start\n<v Ann>Hi &amp; bye</v>\n\n"
                       "00:00:03.000 --> 00:00:04.000\n<v Bo>One</v>\n<v Ann>Two</v>\n",
                       "x.vtt", d);
  REQUIRE(u);
  REQUIRE(u->size() == 3);
  CHECK((*u)[0].speaker == "Ann");
  CHECK((*u)[0].text == "Hi & bye");
  CHECK((*u)[0].start == "00:00:01.000");
  CHECK((*u)[0].end == "00:00:02.500");
  CHECK((*u)[1].speaker == "Bo");
  CHECK((*u)[2].speaker == "Ann");
  CHECK((*u)[2].line == 11);
}

TEST_CASE("model::read_webvtt and read_srt locate malformed timings", "[model][import]") {
  Diagnostics d;
  CHECK_FALSE(read_webvtt("WEBVTT\n\n00:00:01,000 --> 00:00:02.000\nx\n", "a.vtt", d));
  REQUIRE(d.has_errors());
  CHECK(d.items()[0].where.line == 3);
  CHECK(d.items()[0].where.column == 1);
  Diagnostics e;
  CHECK_FALSE(read_srt("1\n00:00:05,000 --> 00:00:02,000\nx\n", "b.srt", e));
  CHECK(e.items()[0].message.find("before it starts") != std::string::npos);
  Diagnostics f;
  CHECK_FALSE(read_webvtt("1\n00:00:01.000 --> 00:00:02.000\nx\n", "c.vtt", f));
  CHECK(f.items()[0].message.find("WEBVTT") != std::string::npos);
}

TEST_CASE("model::write_imported_transcript maps speakers and parses cleanly", "[model][import]") {
  Diagnostics d;
  auto u = read_plain_text("Notes first.\n\nDana: Question [x]{A.1}?\nSam: Answer one.\nmore of it\n\n# not a heading\nDana: Next?\n",
                           "t.txt", d);
  REQUIRE(u);
  TranscriptImportOptions o;
  o.participant = "P1";
  o.role = "user";
  o.interviewers = {"dana"};
  auto md = write_imported_transcript(*u, o, "t.txt", d);
  Diagnostics p;
  auto t = parse_transcript(md, "transcripts/P1.md", p);
  REQUIRE(t);
  CHECK_FALSE(p.has_errors());
  REQUIRE(t->turns.size() == 3);
  CHECK(t->turns[0].interviewer);
  CHECK(t->turns[0].text == "Question [x]{A.1}?");  // escaped so that it is text, not a code
  CHECK(md.find("Question \\[x\\]\\{A.1\\}?") != std::string::npos);
  CHECK(t->turns[1].text == "Answer one.\nmore of it # not a heading");
  CHECK(t->turns[1].spans.empty());
  CHECK(md.find("\nNotes first.\n") != std::string::npos);
  int warnings = 0;
  for (const auto& item : d.items()) warnings += item.severity == Severity::warning;
  CHECK(warnings == 2);  // ']{' changed; '#' line joined
}

TEST_CASE("model::write_imported_transcript without speaker names makes a turn per paragraph", "[model][import]") {
  Diagnostics d;
  auto u = read_plain_text("First thought.\n\nSecond thought,\nwrapped.\n", "t.txt", d);
  REQUIRE(u);
  TranscriptImportOptions o;
  o.participant = "P2";
  o.role = "user";
  auto md = write_imported_transcript(*u, o, "t.txt", d);
  Diagnostics p;
  auto t = parse_transcript(md, "transcripts/P2.md", p);
  REQUIRE(t);
  REQUIRE(t->turns.size() == 2);
  CHECK(t->turns[1].text == "Second thought,\nwrapped.");
}

TEST_CASE("model::write_imported_transcript takes Interviewer: and I: as the interviewer without --interviewer", "[model][import]") {
  Diagnostics d;
  auto u = read_plain_text("Interviewer: First question?\n\nSam: First answer.\n\nI: Second question?\n\nSam: Second answer.\n",
                           "t.txt", d);
  REQUIRE(u);
  TranscriptImportOptions o;
  o.participant = "P3";
  o.role = "user";
  auto md = write_imported_transcript(*u, o, "t.txt", d);
  Diagnostics p;
  auto t = parse_transcript(md, "transcripts/P3.md", p);
  REQUIRE(t);
  REQUIRE(t->turns.size() == 4);
  CHECK(t->turns[0].interviewer);
  CHECK(t->turns[0].text == "First question?");
  CHECK_FALSE(t->turns[1].interviewer);
  CHECK(t->turns[2].interviewer);
  CHECK(t->turns[2].text == "Second question?");
  CHECK(t->turns[3].text == "Second answer.");
  CHECK(d.items().empty());  // one participant speaker: no warning
}
