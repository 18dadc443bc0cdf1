// Whose coding an analysis counts. Several coders may code one transcript (the inline coder, `.codes` files);
// after `qualrank reconcile`, the team's decisions are a coding of their own, the consensus
// (`transcripts/<stem>.consensus.codes`, coder name "consensus"). Analyses never pool coders silently: they
// count one of
//   consensus (the default): per transcript, the consensus where it was reconciled; the one coder's codes
//              where one coder coded it; where several coders coded it and it is not reconciled yet, their
//              codes together, and the transcript is listed as unreconciled;
//   all:       every individual coder's codes (the consensus left out), each code counted once per coder;
//   NAME:      that coder's codes only (case-insensitive).
#pragma once
#include <string>
#include <vector>

#include "qualrank/analysis/coding.h"
#include "qualrank/analysis/consensus_plan.h"

namespace qualrank {

// The reserved coder name of reconciled codings (`<stem>.consensus.codes`).
inline constexpr const char* kConsensusCoder = "consensus";
// True when `coder` is the consensus (case-insensitive).
bool is_consensus_coder(const std::string& coder);

struct CodingChoice {
  std::string selection = kConsensusCoder;   // "consensus", "all", or a coder's name
  std::vector<std::string> reconciled;       // transcripts counted from their consensus
  std::vector<std::string> unreconciled;     // multi-coder transcripts counted from every coder (consensus rule)
  std::vector<std::string> coders;           // the individual coders whose codes are counted, first seen first
  std::vector<std::string> open_units;       // (consensus) units still open: their agreed codes counted (PARTICIPANT#tN)
  std::vector<std::string> stale_units;      // (consensus) decisions made on codings that changed since
  std::vector<std::string> out_of_date;      // (consensus) units whose consensus lines differ from the coders' files now
  std::vector<std::string> ignored;          // consensus files of one-coder transcripts, not counted
  // One sentence for reports: "consensus coding: 2 transcripts reconciled, 1 coded by several coders and not
  // reconciled yet (their coders' codes together: transcripts/E02.md)".
  std::string describe() const;
};

// Keeps the codes `selection` counts (see above) on `segments`; a segment left without codes is dropped unless
// `keep_uncoded`. A transcript is reconciled when `consensus` (Study::consensus, check_consensus) has a status
// for it that is not ignored. Returns what was counted.
CodingChoice select_coding(std::vector<CodedSegment>& segments, const std::string& selection,
                           const std::vector<ConsensusStatus>& consensus, bool keep_uncoded = false);

// The individual coders of the workspace (unified spellings, first met first): what `--coder NAME` may name.
std::vector<std::string> workspace_coders(const Workspace& ws);

// Why `selection` cannot be a coder selection of `ws` ("" when it can: consensus, all, or a coder's name in any
// case): "no coder 'carol' in this workspace (did you mean 'carl'?); its coders: ana, bo (or consensus, all)".
std::string coder_selection_problem(const Workspace& ws, const std::string& selection);

}  // namespace qualrank
