// Agreement per coding round, as reviewers ask (agreement per analysis cycle, not only the best figure): the
// multi-coder transcripts reconciled on the same day form a round (the earliest decision date of each
// transcript's consensus coding); those not reconciled yet form the open round. Each round's agreement is
// transcript_agreement over its transcripts only, on the individual coders' codes (before reconciliation).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "qualrank/analysis/transcript_agreement.h"

namespace qualrank {

struct AgreementRound {
  std::string round;                     // "2026-11-20", or "not reconciled yet"
  std::vector<std::string> transcripts;  // workspace-relative, file order
  TranscriptAgreement agreement;
};

// `round_of` maps a transcript file to its round (the first decision date of its consensus); a multi-coder
// transcript absent from it belongs to the open round, listed last. Rounds in date order.
std::vector<AgreementRound> agreement_rounds(const std::vector<CodedSegment>& segments, const Taxonomy& taxonomy,
                                             const std::map<std::string, std::string>& round_of,
                                             const TranscriptAgreementOptions& options);

}  // namespace qualrank
