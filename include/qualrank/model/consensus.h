// The consensus coding that `qualrank reconcile` writes: `transcripts/<stem>.consensus.codes`, a codings file
// of the reserved coder "consensus" (read like any `.codes` file: docs/formats.md), whose `#` comment lines
// record each decision: which unit, who decided, when, what, every coder's codes before, and a note.
//
//   # qualrank consensus of transcripts/E01.md: coders carol, dana, frank; unit turn
//   t2: COM.1.a, WELL.1
//   # decided t3 by ana on 2026-11-24: union | carol: COM.2 | dana: COM.2, WELL.1 | frank: WELL.2 | note: all fit
//   t3: COM.2, WELL.1, WELL.2
//   # undecided t6 | carol: WELL.2 | dana: - | frank: WELL.1
//
// One unit per line (two for a decided one), in turn order: diffs of it read as decisions.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct ConsensusUnit {
  std::string unit;                    // "t3", or `t3 "span"` / `t3 "span"#2` for a segment unit
  bool disputed = false;               // the coders' codes differed
  bool decided = false;                // (disputed units) a decision is recorded
  std::string decision;                // a coder's name, "union", "neither" or "other"
  std::string decided_by, date, note;
  std::vector<std::pair<std::string, std::vector<std::string>>> before;  // each coder's codes
  std::vector<std::string> codes;      // the consensus codes of the unit (empty: none)
  int line = 0;                        // the "# decided" line when read from a file
};

struct ConsensusFile {
  std::string transcript;              // workspace-relative
  std::vector<std::string> coders;
  std::string unit = "turn";           // "turn" or "segment"
  std::vector<ConsensusUnit> units;
};

// Reads the decisions recorded in a consensus file's comment lines (the codings themselves are read by
// parse_standoff). A "# decided" line that cannot be read is a located error.
std::vector<ConsensusUnit> read_consensus_decisions(const std::string& text, const std::string& file, Diagnostics& diags);

// The file's text: the header comment, then each unit in the order given.
std::string format_consensus(const ConsensusFile& file);

}  // namespace qualrank
