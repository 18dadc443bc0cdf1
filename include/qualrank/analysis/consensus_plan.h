// What `qualrank reconcile` walks and writes, as library functions: the units of a multi-coder transcript with
// each coder's codings of them (reconcile_units), the consensus coding planned from them and the recorded
// decisions (plan_consensus, decide_unit), and the check every command makes of a consensus file against the
// coders' files as they are now (check_consensus).
//
// The consensus is the coders' own work where they agree (docs/team-coding.md):
//   - a unit's codes are compared as sets per coder (a coder who coded the transcript but not the unit has the
//     empty set); a unit is disputed when the sets differ;
//   - an agreed unit, and a decided one, carry the codings as the coders made them: each kept code with its
//     extents, memos and exemplar marks. The extents of one code from several coders are merged: the same
//     extent once; overlapping or touching spans as the one span covering them; a whole-turn coding covers
//     every span of the turn; disjoint spans stay apart. Differing memos are joined ("dana: ...; carol: ...");
//     an exemplar mark by any coder is kept;
//   - an open (undecided) unit carries the codes that every one of its coders applied, merged the same way;
//   - a decision records each coder's codes and a hash of their codings; when the codings change afterwards
//     the decision is stale: it stays counted and recorded, and reconcile asks again. Nothing is dropped:
//     a decision on a unit the coders now agree on, or on a unit no coder codes any more, is kept as written.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "qualrank/model/transcripts/consensus.h"
#include "qualrank/model/node_resolver.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/model/transcripts/transcript.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

// One code one coder applied on a unit.
struct UnitCoding {
  std::string node;                 // resolved at the taxonomy version in use
  bool whole_turn = true;
  std::size_t begin = 0, end = 0;   // byte offsets of the span in the turn's text
  std::string memo;
  bool exemplar = false;
};

struct CoderCodings {
  std::string coder;                // as shown (unified spelling)
  std::vector<UnitCoding> codings;
  std::vector<std::string> nodes;   // distinct nodes, taxonomy order
};

struct ReconcileUnit {
  std::string key;                  // "t3", or `t3 "span"` / `t3 "span"#2` (segment units)
  int turn = 0;
  int line = 0;                     // transcript line of the turn (turn units) or of the span
  const Turn* turn_ref = nullptr;
  std::optional<std::pair<std::size_t, std::size_t>> extent;  // segment units on a span: its bytes
  std::vector<CoderCodings> coders;                // every individual coder of the transcript, in order
  std::vector<ConsensusCoding> consensus;          // what the consensus file codes on the unit now
  std::string hash;                                // of the coders' codings (16 hex digits)
  bool disputed() const;
  std::string text() const;                        // the turn's or the span's words
};

struct TranscriptUnits {
  const Transcript* transcript = nullptr;
  std::string unit_kind = "turn";                  // "turn" or "segment"
  std::vector<std::string> coders;                 // individual coders (unified spelling), first met first
  std::vector<ReconcileUnit> units;                // in turn order, then span order
  std::string question_of(const ReconcileUnit& u) const;  // the turn's section
};

// The units of `t` (turn units: each participant turn any coder coded; segment units: each whole turn or span
// extent), each coder's codings of them (codes that do not resolve are left out: coded_segments reports them)
// and the consensus coder's.
TranscriptUnits reconcile_units(const Transcript& t, const Taxonomy& taxonomy, const NodeResolver& resolve, bool segment_units);

enum class UnitState {
  agreed,       // the coders agree
  decided,      // disputed, with a decision made on the codings as they are now
  stale,        // a decision made on other codings (or the coders now agree): kept and counted, asked again
  open,         // disputed, not decided: carries the codes every coder applied
  orphan,       // a recorded decision on a unit nobody codes any more: kept as written
};
const char* unit_state_name(UnitState s);

struct PlannedUnit {
  ConsensusUnit record;             // what the file says of the unit (its `#` line and codings)
  UnitState state = UnitState::agreed;
  const ReconcileUnit* unit = nullptr;   // nullptr for an orphan
  std::string why;                  // for a stale decision: what changed
};

struct ConsensusPlan {
  ConsensusFile file;               // header fields; file.units is filled by to_file()
  std::vector<PlannedUnit> units;   // in file order
  int count(UnitState s) const;
  ConsensusFile to_file() const;
};

// The consensus planned from the units and what `recorded` holds (nullptr: no file yet). Decisions still
// valid are kept (their codings derived anew from the coders' codings), stale and orphan ones kept as written.
ConsensusPlan plan_consensus(const TranscriptUnits& units, const ConsensusRecord* recorded, const Taxonomy& taxonomy);

// Records a decision on planned unit `index` (a disputed or stale one): `choice` is a coder's name (any
// case), "union", "neither" or "codes:ID,ID" (ids resolved already). Returns "" or why it cannot be taken.
std::string decide_unit(ConsensusPlan& plan, std::size_t index, const std::string& choice, const std::string& decider,
                        const std::string& date, const std::string& note, const Taxonomy& taxonomy);

// What a consensus file says of its transcript now, for reports.
struct ConsensusStatus {
  std::string transcript, file;
  bool ignored = false;                    // the transcript has fewer than two coders: the consensus is not counted
  std::vector<std::string> open, stale, orphan, out_of_date;   // units, as PARTICIPANT#tN ...
};

// Checks every consensus file of the workspace against the coders' codings: a consensus of a transcript with
// one coder (not counted), stale and orphan decisions, open units, units whose codes lines differ from what
// the coders' files give now (out of date). Each is a warning located in the consensus file.
std::vector<ConsensusStatus> check_consensus(const Workspace& ws, const Taxonomy& taxonomy, const NodeResolver& resolve,
                                             Diagnostics& diags);

}  // namespace qualrank
