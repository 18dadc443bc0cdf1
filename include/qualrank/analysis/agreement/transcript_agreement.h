// Inter-coder agreement on multi-coder transcripts (`qualrank agreement --transcripts`): how far the
// codings different coders applied to the same turns (or segments) of the same transcripts agree, per
// taxonomy node (present/absent) and pooled over all nodes. Definitions: docs/agreement.md.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "qualrank/analysis/agreement/agreement.h"
#include "qualrank/analysis/coding.h"
#include "qualrank/model/taxonomy.h"

namespace qualrank {

enum class TranscriptUnit {
  turn,     // a participant turn: a coder's set = every node it applied in the turn (whole turn or spans)
  segment,  // a coded segment as `qualrank code` lists it: the whole turn, and each span, separately
};

struct TranscriptAgreementOptions {
  TranscriptUnit unit = TranscriptUnit::turn;
  int compare_level = 0;          // 0 = nodes as coded; N = each node replaced by its level-N ancestor
  int resamples = 1000;           // bootstrap replicates over units; 0 = none
  std::uint64_t seed = 20250101;
  double level = 0.95;
  int disagreements = 0;
};

// One node's agreement. Every figure is over ALL the compared units (present (1) or absent (0) per coder), not
// only the units coded with the node: Fleiss' kappa, alpha and percent agreement count the coders' agreement
// that the node is absent too, so a node one coder applied to 1 of 30 units has percent agreement 29/30.
// units_coded and positive_agreement say how often the node was applied and how far the coders agree on it.
struct NodeAgreement {
  std::string node;
  std::int64_t units_coded = 0;     // units where at least one coder applied the node
  double positive_agreement;        // stats::specific_agreement of "present": 2a / (2a + b + c), pooled over
                                    // coder pairs; NaN when no coder applied the node on a unit with 2+ coders
  AgreementFigures figures;         // over every unit, present (1) / absent (0) per coder
};

struct TranscriptDisputedUnit {
  std::string unit;                            // PARTICIPANT#tN (or the segment id)
  Location where;                              // transcript and line
  std::vector<bool> coded;                     // per coder: did the coder code this transcript
  std::vector<std::vector<std::string>> nodes; // per coder: the nodes applied (taxonomy order)
  std::int64_t differing_nodes = 0;            // nodes applied by some of its coders but not all
};

struct TranscriptAgreement {
  TranscriptUnit unit = TranscriptUnit::turn;
  int compare_level = 0;
  std::vector<std::string> transcripts;     // files coded by at least two coders (the ones compared)
  std::int64_t single_coder_transcripts = 0;  // files with codes from one coder only (left out)
  std::vector<std::string> coders;          // in order of first appearance
  std::vector<std::string> nodes;           // nodes any coder applied to a unit, taxonomy order
  std::int64_t units = 0;                   // units compared
  AgreementFigures pooled;                  // over (unit, node) pairs; pooled.units = units x nodes
  double exact_agreement;                   // share of units on which the coders applied identical sets
  std::int64_t identical_units = 0;         // those units
  std::vector<CoderPairKappa> pairs;        // pooled over (unit, node) pairs both coders coded
  std::vector<NodeAgreement> per_node;      // parallel to nodes
  int resamples = 0;
  std::uint64_t seed = 0;
  double level = 0.95;
  std::pair<double, double> fleiss_ci, alpha_ci;  // pooled, resampling units (all their nodes together)
  stats::IntervalMethod ci_method = stats::IntervalMethod::bootstrap;  // stats::interval_method(units)
  std::string ci_warning;                         // "" or why the intervals are not to be trusted (< 5 units)
  std::vector<TranscriptDisputedUnit> disagreements;
};

// Compares the coders of each transcript that has codes from at least two coders. The units are that
// transcript's turns (or segments) to which at least one coder applied a code; each coder who coded the
// transcript gives each node present or absent on each unit, and a coder who did not code a transcript has
// no rating (missing) on its units. `segments` are coded_segments() output (suggestions are ignored).
TranscriptAgreement transcript_agreement(const std::vector<CodedSegment>& segments, const Taxonomy& taxonomy,
                                         const TranscriptAgreementOptions& options);

}  // namespace qualrank
