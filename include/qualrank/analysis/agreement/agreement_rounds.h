// Agreement per coding round, as reviewers ask (agreement per analysis cycle, not only the best figure): the
// multi-coder transcripts reconciled on the same day form a round (the earliest decision date of each
// transcript's consensus coding); those not reconciled yet form the open round. Each round's agreement is
// transcript_agreement over its transcripts only, on the individual coders' codes (before reconciliation).
// A finished round is frozen: its agreement is computed from what its consensus files record the coders had
// when they met (each disputed unit's `# decided`/`# undecided` line names every coder's codes; a unit
// without such a line was agreed, so every coder had the consensus's codes), never from the coders' files as
// they are now, so a coder's edit after the meeting changes a round only through a new decision. The open
// round is computed from the codings as they are.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "qualrank/analysis/agreement/transcript_agreement.h"
#include "qualrank/model/transcripts/consensus.h"

namespace qualrank {

struct AgreementRound {
  std::string round;                     // "2026-11-20", or "not reconciled yet"
  std::vector<std::string> transcripts;  // workspace-relative, file order
  TranscriptAgreement agreement;
};

// Each reconciled transcript's round: the first decision date of its consensus file (transcripts whose file
// records no decision are absent: they belong to the open round).
std::map<std::string, std::string> reconciliation_rounds(const std::vector<ConsensusRecord>& records);

// The individual coders' codings of `record`'s transcript as the record says they were when it was written:
// one whole-turn segment per coder and turn (turn units: agreement per round compares turns), made from the
// `before` codes of the disputed units and the consensus codings (in `segments`) of the agreed ones.
std::vector<CodedSegment> recorded_codings(const ConsensusRecord& record, const std::vector<CodedSegment>& segments);

// `records` are the workspace's consensus files (their transcript set); a multi-coder transcript without a
// decision belongs to the open round, listed last. Rounds in date order.
std::vector<AgreementRound> agreement_rounds(const std::vector<CodedSegment>& segments, const Taxonomy& taxonomy,
                                             const std::vector<ConsensusRecord>& records,
                                             const TranscriptAgreementOptions& options);

}  // namespace qualrank
