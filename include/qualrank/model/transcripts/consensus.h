// The consensus coding file of `qualrank reconcile`: `transcripts/<stem>.consensus.codes`, a codings file of
// the reserved coder "consensus" (its codes lines are read like any `.codes` file: docs/formats.md), whose `#`
// comment lines record the team's decisions:
//
//   # qualrank consensus of transcripts/E01.md: coders carol, dana, frank; unit turn
//   # written by 'qualrank reconcile': ...
//   t2 "the painted lane just stops": SAF.1 | exemplar | memo: carol: lane ends; dana: the lane
//   # decided t3 by ana on 2026-11-24: union | carol: COM.2 | dana: COM.2, WELL.1 | frank: - | hash 3f2a9c01b2c4d5e6 | note: all fit
//   t3: COM.2, WELL.1
//   # undecided t6 | carol: WELL.2 | dana: WELL.2, TOOL.1 | frank: WELL.2
//   t6: WELL.2
//
// A `# decided` line: the unit (`tN`, or `tN "span"#K` for a segment unit), who decided, when, what (a coder's
// name, `union`, `neither`, or `codes:ID,ID`), each coder's codes when it was decided, `hash H` (what the
// coders' codings of the unit were: a later change makes the decision stale) and a note. Notes are escaped
// (`\\`, `\n`, `\r`, `\t`, `\|`, `\xNN` for other control bytes) so that no note can start a line; decider names
// holding `|`, `:`, a control or an invisible character are refused (decider_name_problem). One unit per line
// group, in turn order: a diff of the file reads as a list of decisions.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank {

// One coding the consensus carries: a node on a unit's whole turn or on a span of it.
struct ConsensusCoding {
  std::string node;
  std::optional<std::string> span;  // span text; nullopt = the whole turn
  int occurrence = 0;               // `"span"#N` (0: the span occurs once in the turn)
  std::string memo;
  bool exemplar = false;
  bool operator==(const ConsensusCoding&) const = default;
};

struct ConsensusUnit {
  std::string unit;                    // "t3", or `t3 "span"` / `t3 "span"#2` for a segment unit
  int turn = 0;                        // N of the unit's tN
  bool disputed = false;               // the coders' codes differed (a `# decided` or `# undecided` line)
  bool decided = false;                // (disputed units) a decision is recorded
  std::string decision;                // a coder's name, "union", "neither" or "codes:ID,ID"
  std::string decided_by, date, note;
  std::string hash;                    // the coders' codings when decided ("" in files written before hashes)
  std::vector<std::pair<std::string, std::vector<std::string>>> before;  // each coder's codes
  std::vector<ConsensusCoding> codings;  // the consensus codings of the unit (empty: none)
  int line = 0;                        // the `#` line when read from a file
};

struct ConsensusFile {
  std::string transcript;              // workspace-relative
  std::vector<std::string> coders;
  std::string unit = "turn";           // "turn" or "segment"
  std::vector<ConsensusUnit> units;
};

// What the header and the `#` lines of a consensus file say.
struct ConsensusRecord {
  std::string file;                    // workspace-relative path of the consensus file
  std::string transcript;              // workspace-relative path of its transcript (set by load_workspace)
  bool has_header = false;
  std::vector<std::string> coders;     // from the header
  std::string unit;                    // "turn" or "segment" from the header; "" when it has none
  std::vector<ConsensusUnit> units;    // each `# decided` / `# undecided` line, in file order (no codings)
};

// Reads the header and the decision lines of a consensus file (the codings themselves are read by
// parse_standoff). A `# decided` / `# undecided` line that cannot be read is a located error at its line.
ConsensusRecord read_consensus_record(const std::string& text, const std::string& file, Diagnostics& diags);
// The decision lines only (read_consensus_record(...).units).
std::vector<ConsensusUnit> read_consensus_decisions(const std::string& text, const std::string& file, Diagnostics& diags);

// The file's text: the header comment, then each unit in the order given: its `#` line when disputed, then its
// codings, grouped into one line per span, memo and exemplar mark (in the order of their first coding).
std::string format_consensus(const ConsensusFile& file);

// A note as written after `note: ` (escaped: it never holds a line break or an unescaped `|`), and back.
std::string escape_note(std::string_view note);
std::string unescape_note(std::string_view written);

// Why `name` cannot be recorded as who decided: empty, longer than 100 bytes, a control, invisible or
// direction-changing character, `|` or `:` (they would change how the line reads), or leading or trailing
// white space; "" when it can.
std::string decider_name_problem(std::string_view name);

}  // namespace qualrank
