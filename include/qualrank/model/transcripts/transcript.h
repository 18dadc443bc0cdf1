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
#include "qualrank/util/shared_text.h"

namespace qualrank {

// One code's own memo in a code list's tail (`{A, B | memo B: TEXT}`, `tN: A, B | memo B: TEXT`), as written.
struct OwnMemo {
  std::string id;    // the code as written after `memo`
  std::string text;  // escapes resolved
  std::string raw;   // as written (for rewriting the tail)
};

// Its node and coder are SharedText (interned, 8 bytes a copy): 2,000 transcripts hold some 400,000 codings.
// The memo stays a std::string: the parser builds it line by line, and SharedText would keep every prefix.
struct Coding {
  SharedText written;    // the node as written (id, name or alias)
  SharedText coder;
  std::string memo;
  Location where;        // where the node is written
  bool exemplar = false; // picked as an exemplar quote for this node (`@exemplar`, `| exemplar`)
  std::size_t offset = 0, length = 0;  // byte range of `written` in the file named by `where`
};

// Where a span's markup sits in the transcript file (inline spans only), for editing it.
struct SpanMarkup {
  std::size_t open = 0;        // byte offset of '['
  std::size_t close = 0;       // byte offset of ']'
  std::size_t list_end = 0;    // byte offset of the '|' or '}' that ends the node ids
  std::size_t end = 0;         // byte offset just after '}'
  std::size_t memo_begin = 0, memo_end = 0;  // the shared memo's bytes inside the braces (equal when none)
  std::vector<OwnMemo> own_memos;            // `memo ID: TEXT` segments of the tail
};

struct Span {
  std::size_t begin = 0, end = 0;   // byte offsets into Turn::text, end exclusive
  std::vector<Coding> codes;
  int line = 0;                     // transcript line the span starts on
  std::optional<SpanMarkup> markup; // inline spans; nullopt for a second coder's span
};

// A piece of Turn::text copied verbatim from the file: text[text_begin, +length) == file[file_offset, +length).
struct TextRun {
  std::size_t text_begin = 0;
  std::size_t file_offset = 0;
  std::size_t length = 0;
  int line = 0;
};

struct Turn {
  int number = 0;            // participant turns: 1, 2, ... in file order; 0 for the interviewer
  SharedText speaker;        // SharedText (interned): a transcript's turns repeat a speaker and a section
  bool interviewer = false;
  SharedText section;        // question id of the enclosing section ("" before the first)
  std::string text;          // markup removed; lines joined with '\n'
  int line = 0;              // first line of the turn
  int text_end_line = 0;     // last line of the turn's text
  int end_line = 0;          // last line of the turn with the @code/@memo/@exemplar lines right after it
  std::vector<Coding> codes; // whole-turn codes (@code)
  std::vector<Span> spans;   // span codes ([span]{ID})
  std::vector<TextRun> runs; // how `text` maps back to the file (escapes and markup are left out)

  // The file line holding byte `text_offset` of `text` (the turn's first line when unknown).
  int line_of(std::size_t text_offset) const;
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
  std::string date;                              // front-matter `date:` (ISO YYYY-MM-DD, checked), "" when absent
  Location date_where;
  std::vector<Section> sections;
  std::vector<Turn> turns;
  std::vector<RankingAnswer> rankings;
  std::vector<Answer> answers;
  std::string newline = "\n";                    // the file's line ending ("\r\n" when it uses CRLF)

  const Turn* participant_turn(int number) const;
};

// Coded spans ('[text]{IDS}') of one transcript, at most (README "Safety and limits"); counted by their ']{'
// before anything is parsed.
inline constexpr std::size_t kMaxTranscriptSpans = 500000;

// What parse_transcript records beyond the transcript's content.
struct TranscriptParseOptions {
  // Turn::runs, how each turn's text maps back to the file's bytes and lines (Turn::line_of: editing codings,
  // a `.codes` file's span located at its line, a taxonomy edit's quote). Without them line_of gives the
  // turn's first line; a reader that needs none of that (`report`) saves their allocations (28 MB of 2,000
  // transcripts). Everything else, spans' lines included, is the same.
  bool text_runs = true;
};

// Parses one transcript. Reports every syntax problem located; returns nullopt only when the file cannot be
// used at all (invalid UTF-8, no front matter, front matter not YAML, more than kMaxTranscriptSpans spans).
// Every markup character is accounted for: a near miss of the notation (docs/formats.md, "Near misses") is an
// error or a warning at its place, never a silently different coding.
std::optional<Transcript> parse_transcript(const std::string& text, const std::string& file, Diagnostics& diags,
                                           const TranscriptParseOptions& options = {});

// A second coder's standoff codings of a transcript (`<stem>.<coder>.codes`).
struct StandoffCoding {
  int turn = 0;                     // participant turn number
  std::optional<std::string> span;  // quoted span text, if any (escapes resolved)
  std::vector<Coding> codes;
  int line = 0;                     // line in the .codes file
  std::size_t line_begin = 0, line_end = 0;  // byte range of the line (line_end after its newline, if any)
  std::size_t list_end = 0;         // byte offset where the node ids end ('|', or the line's end)
  std::size_t memo_begin = 0, memo_end = 0;  // the memo's bytes (equal when none)
  bool has_memo = false;
  std::vector<OwnMemo> own_memos;   // `memo ID: TEXT` segments of the tail
  int occurrence = 0;               // `"span"#N`: the N-th occurrence of the span in the turn (0: not given)
};
// Byte offset of the n-th (1-based) occurrence of `span` in `text` (occurrences may overlap); npos when fewer.
std::size_t nth_occurrence(std::string_view text, std::string_view span, int n);
// How many times `span` occurs in `text` (overlapping occurrences count).
int occurrences(std::string_view text, std::string_view span);
// A span as a `.codes` line quotes it: `"text"` with `"` and `\` escaped.
std::string quote_span(std::string_view span);

struct StandoffFile {
  std::string file;
  std::string transcript_stem;
  std::string coder;
  std::vector<StandoffCoding> codings;
};
// Codings one `.codes` file (a coder's or the consensus) may hold, at most (README "Safety and limits"): each
// costs some hundred bytes through the analyses, and a study's file holds a few thousand.
inline constexpr std::size_t kMaxFileCodings = 250000;
// Reads a `.codes` file (a byte order mark at its start is skipped, as in a transcript): text not UTF-8, a name
// not <stem>.<coder>.codes, and more than kMaxFileCodings codes in all (an error at the line past it) give
// nullopt; other problems are located errors and the line is left out.
std::optional<StandoffFile> parse_standoff(const std::string& text, const std::string& file, Diagnostics& diags);

// Applies a standoff file's codings to its transcript: whole-turn codes are appended to the turn, span codes
// to the span with the same text (or a new span where the text is found in the turn, located at the
// transcript line that holds it). Unknown turns and spans not found in the turn are reported at the .codes
// line; a span whose text occurs more than once in the turn is a warning (the first is coded).
void apply_standoff(Transcript& t, const StandoffFile& s, Diagnostics& diags);

}  // namespace qualrank
