// The interviews of a study as the saturation assessment reads them (include/qualrank/analysis/saturation.h).
#include <algorithm>
#include <map>
#include <set>

#include "qualrank/analysis/saturation.h"
#include "qualrank/analysis/study.h"

namespace qualrank::saturation {

std::vector<Interview> interviews_of(const Study& study, int level, const std::string& role) {
  const auto& transcripts = study.workspace.transcripts;  // sorted by file name
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < transcripts.size(); ++i)
    if (role.empty() || transcripts[i].role == role) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto& da = transcripts[a].date;
    const auto& db = transcripts[b].date;
    if (da.empty() != db.empty()) return db.empty();  // dated first
    return da < db;                                   // ISO dates sort as text
  });
  std::map<std::string, std::set<std::string>> codes;  // participant -> counted codes
  for (const auto& segment : study.segments)
    for (const auto& code : segment.codes) {
      if (level <= 0) {
        codes[segment.participant].insert(code.node);
      } else if (auto at = study.taxonomy().ancestor_at(code.node, level)) {
        codes[segment.participant].insert(*at);
      }
    }
  std::vector<Interview> out;
  for (auto i : order) {
    Interview interview{transcripts[i].participant, transcripts[i].role, {}};
    auto it = codes.find(interview.id);
    if (it != codes.end()) interview.codes.assign(it->second.begin(), it->second.end());
    out.push_back(std::move(interview));
  }
  return out;
}

}  // namespace qualrank::saturation
