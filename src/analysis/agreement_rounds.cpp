// Agreement per coding round (agreement_rounds.h).
#include "qualrank/analysis/agreement_rounds.h"

#include <set>

namespace qualrank {

std::vector<AgreementRound> agreement_rounds(const std::vector<CodedSegment>& segments, const Taxonomy& taxonomy,
                                             const std::map<std::string, std::string>& round_of,
                                             const TranscriptAgreementOptions& options) {
  const std::string open = "not reconciled yet";
  // The transcripts compared at all (two or more individual coders), grouped by round.
  const TranscriptAgreement all = transcript_agreement(segments, taxonomy, options);
  std::map<std::string, std::vector<std::string>> files;  // round -> transcripts
  for (const auto& f : all.transcripts) {
    auto it = round_of.find(f);
    files[it == round_of.end() ? open : it->second].push_back(f);
  }
  std::vector<AgreementRound> out;
  auto add = [&](const std::string& round) {
    auto it = files.find(round);
    if (it == files.end()) return;
    std::set<std::string> in(it->second.begin(), it->second.end());
    std::vector<CodedSegment> mine;
    for (const auto& s : segments)
      if (in.count(s.source.file)) mine.push_back(s);
    out.push_back({round, it->second, transcript_agreement(mine, taxonomy, options)});
  };
  for (const auto& [round, list] : files)
    if (round != open) add(round);
  add(open);
  return out;
}

}  // namespace qualrank
