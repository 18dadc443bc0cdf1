// Transcripts: Markdown with YAML front matter, speaker turns, sections naming guideline questions, inline
// codes (`[span]{ID}`, `@code`), memos (`@memo`), ranking answers (`@rank`) and background answers
// (`@answer`). A second coder's codings live in a separate `<stem>.<coder>.codes` file. See docs/formats.md.
// Parsing is syntactic: node ids and items are kept as written and resolved later against a taxonomy version.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct Coding {
  std::string written;   // the node as written (id, name or alias)
  std::string coder;
  std::string memo;
  Location where;        // where the node is written
  bool exemplar = false; // picked as an exemplar quote for this node (`@exemplar`, `| exemplar`)
};

struct Span {
  std::size_t begin = 0, end = 0;   // byte offsets into Turn::text, end exclusive
  std::vector<Coding> codes;
};

struct Turn {
  int number = 0;            // participant turns: 1, 2, ... in file order; 0 for the interviewer
  std::string speaker;
  bool interviewer = false;
  std::string section;       // question id of the enclosing section ("" before the first)
  std::string text;          // markup removed; lines joined with '\n'
  int line = 0;              // first line of the turn
  std::vector<Coding> codes; // whole-turn codes (@code)
  std::vector<Span> spans;   // span codes ([span]{ID})
};

struct RankingAnswer {
  std::string question;                        // section's question id
  std::vector<std::vector<std::string>> tiers; // items as written; a tier holds tied items
  std::vector<std::vector<Location>> where;    // per item
  Location line;                               // the @rank line
};

struct Answer {
  std::string question;
  std::string value;
  Location where;
};

struct Section {
  std::string question;  // first word of the "##" heading
  std::string title;     // the rest of the heading
  Location where;
};

struct Transcript {
  std::string file;                              // workspace-relative path
  std::string participant;
  std::string role;
  std::string coder = "coder";
  std::vector<std::string> interviewer_labels{"I", "Interviewer"};
  std::map<std::string, std::string> attributes; // front-matter attributes (+ derived experience)
  std::map<std::string, Location> attribute_where;
  Location participant_where, role_where;
  std::vector<Section> sections;
  std::vector<Turn> turns;
  std::vector<RankingAnswer> rankings;
  std::vector<Answer> answers;
  std::string body;                              // the text after the front matter, as in the file

  const Turn* participant_turn(int number) const;
};

// Parses one transcript. Reports every syntax problem located; returns nullopt only when the file cannot be
// used at all (invalid UTF-8, no front matter, front matter not YAML).
std::optional<Transcript> parse_transcript(const std::string& text, const std::string& file, Diagnostics& diags);

// A second coder's standoff codings of a transcript (`<stem>.<coder>.codes`).
struct StandoffCoding {
  int turn = 0;                     // participant turn number
  std::optional<std::string> span;  // quoted span text, if any
  std::vector<Coding> codes;
};
struct StandoffFile {
  std::string file;
  std::string transcript_stem;
  std::string coder;
  std::vector<StandoffCoding> codings;
};
std::optional<StandoffFile> parse_standoff(const std::string& text, const std::string& file, Diagnostics& diags);

// Applies a standoff file's codings to its transcript: whole-turn codes are appended to the turn, span codes
// to the span with the same text (or a new span where the text is found in the turn). Unknown turns and spans
// not found in the turn are reported.
void apply_standoff(Transcript& t, const StandoffFile& s, Diagnostics& diags);

}  // namespace qualrank
