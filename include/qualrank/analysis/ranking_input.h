// Ranking answers as analysis input: each participant's answer to a ranking question, items resolved to
// taxonomy ids, checked against the question's item set, and turned into a rank per item.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "qualrank/analysis/coding.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct ParticipantRanking {
  std::string participant;
  std::string question;
  std::map<std::string, std::string> attributes;   // includes "role"
  std::vector<std::vector<std::string>> tiers;     // resolved ids, best first; a tier holds tied items
  Location where;
};

// Resolves every @rank answer of the workspace against `resolve`; reports unknown items, items outside the
// question's item set, items named twice, and answers naming more items than the role ranks. Answers with
// errors are left out.
std::vector<ParticipantRanking> collect_rankings(const Workspace& ws, const NodeResolver& resolve, Diagnostics& diags);

// Rank of each of `items` (same order) in a (possibly partial) ranking: tied items share the average of
// their positions; items left unranked share the average of the remaining positions (top 3 of 10: rank 7).
// Items in `r` but not in `items` are ignored.
std::vector<double> ranks_for(const ParticipantRanking& r, const std::vector<std::string>& items);

}  // namespace qualrank
