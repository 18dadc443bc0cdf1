// Internal to the transcript parsers (transcript.cpp, transcript_markup.cpp, standoff.cpp): the inline
// coding markup of one line and the code lists shared by transcripts and `.codes` files.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "qualrank/model/transcripts/transcript.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank::markup {

// Where a line sits in its file, for locations and byte offsets.
struct LineRef {
  const FileName& file;
  int lineno = 0;
  std::string_view raw;       // the whole line as in the file (without its newline)
  std::size_t file_offset;    // byte offset of raw[0] in the file
};

// 1-based column (in code points) of byte offset `off` in `line`; amortised O(1) for calls on one line
// with growing offsets. Call new_line() before the first call for each line.
int column_of(std::string_view line, std::size_t off);
void new_line();

// Splits "A.1, A.2" (`list` starts at byte `base` of `ref.raw`) into codes with their locations and byte
// ranges. An empty piece (a doubled, leading or trailing comma) is an error.
std::vector<Coding> parse_code_list(std::string_view list, const LineRef& ref, std::size_t base, const std::string& coder,
                                    Diagnostics& diags);

// The tail after the first '|' of a code list: `[exemplar] [| ] [memo:] TEXT`.
struct CodeTail {
  std::string memo;          // the shared memo (`memo: TEXT`, last), escapes resolved
  bool exemplar = false;
  // `memo ID: TEXT` segments (before the shared memo, each ending at an unescaped '|'): one code's own memo.
  std::vector<OwnMemo> own;
  std::size_t memo_pos = 0;  // byte range of the memo as written, relative to the tail's start
  std::size_t memo_len = 0;
  bool unknown = false;      // the tail starts with neither `exemplar` nor `memo:` (a near miss: an error)
};
// Reads what follows the '|' after a code list: `[exemplar |] (memo ID: TEXT |)* [memo: TEXT]`.
CodeTail parse_code_tail(std::string_view tail);
// Gives each code of a list its memo from a tail: its own (`memo ID: TEXT`, ID compared case-insensitively with
// the code as written), else the shared one; and the exemplar mark. Returns the ids of own memos that name no
// code of the list (a near miss the caller reports).
std::vector<std::string> assign_tail(const CodeTail& tail, std::vector<Coding>& codes);

// Characters that a backslash makes literal in turn text.
inline bool escapable(char c) { return c == '[' || c == ']' || c == '{' || c == '}' || c == '\\' || c == '|'; }

// Scans `part` (a piece of ref.raw starting at byte `base`) for inline markup and appends its text to `turn`
// (markup removed, escapes resolved, runs recorded). With `turn == nullptr` the line is free text outside a
// turn: a coded span there is an error. Every near miss (unclosed or unopened bracket or brace, whitespace
// between `]` and `{`, a code list without a span, codes on an interviewer turn) is reported, located.
// Returns the spans' codes (for @memo / @exemplar that follow). Without `runs` the turn's runs are not recorded
// (TranscriptParseOptions::text_runs).
std::vector<Coding*> scan_turn_line(std::string_view part, std::size_t base, const LineRef& ref, Turn* turn,
                                    const std::string& coder, Diagnostics& diags, bool runs = true);

}  // namespace qualrank::markup
