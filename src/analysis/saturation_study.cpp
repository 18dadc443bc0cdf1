// The interviews of a study as the saturation assessment reads them (include/qualrank/analysis/saturation.h).
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

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
  // participant -> counted codes; a study's segments come participant by participant, so the last one's set
  // is kept at hand (400,000 segments on a large study).
  std::unordered_map<std::string, std::unordered_set<std::string>> codes;
  const std::string* last = nullptr;
  std::unordered_set<std::string>* into = nullptr;
  for (const auto& segment : study.segments) {
    if (segment.codes.empty()) continue;
    if (!last || *last != segment.participant) {
      into = &codes[segment.participant];
      last = &segment.participant;
    }
    for (const auto& code : segment.codes) {
      if (level <= 0) {
        into->insert(code.node);
      } else if (auto at = study.taxonomy().ancestor_at(code.node, level)) {
        into->insert(*at);
      }
    }
  }
  std::vector<Interview> out;
  for (auto i : order) {
    Interview interview{transcripts[i].participant, transcripts[i].role, {}};
    auto it = codes.find(interview.id);
    if (it != codes.end()) {
      interview.codes.assign(it->second.begin(), it->second.end());
      std::sort(interview.codes.begin(), interview.codes.end());
    }
    out.push_back(std::move(interview));
  }
  return out;
}

}  // namespace qualrank::saturation
