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
  // One sentence for reports: "consensus coding: 2 transcripts reconciled, 1 coded by several coders and not
  // reconciled yet (their coders' codes together: transcripts/E02.md)".
  std::string describe() const;
};

// Keeps the codes `selection` counts (see above) on `segments`; a segment left without codes is dropped unless
// `keep_uncoded`. Returns what was counted.
CodingChoice select_coding(std::vector<CodedSegment>& segments, const std::string& selection, bool keep_uncoded = false);

}  // namespace qualrank
