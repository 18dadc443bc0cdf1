// The interviews of a study as the saturation assessment reads them (include/qualrank/analysis/saturation.h).
#include <algorithm>
#include <unordered_map>
#include <optional>
#include <string_view>

#include "qualrank/analysis/saturation.h"
#include "qualrank/analysis/study.h"

namespace qualrank::saturation {

ParticipantCodes participant_codes(const Study& study, int level) {
  // A study's segments come participant by participant: the last one's list is kept at hand, filled with
  // views of the segments' node ids (or of each node's ancestor, worked out once per node), then sorted.
  std::unordered_map<std::string_view, std::vector<std::string_view>> views;
  std::unordered_map<std::string_view, std::optional<std::string>> ancestor;  // level >= 1: node -> its ancestor
  const std::string* last = nullptr;
  std::vector<std::string_view>* into = nullptr;
  for (const auto& segment : study.segments) {
    if (segment.codes.empty()) continue;
    if (!last || *last != segment.participant) {
      into = &views[segment.participant];
      last = &segment.participant.str();
    }
    for (const auto& code : segment.codes) {
      if (level <= 0) {
        into->push_back(code.node);
        continue;
      }
      auto [it, fresh] = ancestor.try_emplace(code.node);
      if (fresh) it->second = study.taxonomy().ancestor_at(code.node, level);
      if (it->second) into->push_back(*it->second);
    }
  }
  ParticipantCodes out;
  for (auto& [participant, list] : views) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    out.emplace(std::string(participant), std::vector<std::string>(list.begin(), list.end()));
  }
  return out;
}

std::vector<Interview> interviews_of(const Study& study, const ParticipantCodes& codes, const std::string& role) {
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
  std::vector<Interview> out;
  for (auto i : order) {
    Interview interview{transcripts[i].participant, transcripts[i].role, {}};
    if (auto it = codes.find(interview.id); it != codes.end()) interview.codes = it->second;
    out.push_back(std::move(interview));
  }
  return out;
}

std::vector<Interview> interviews_of(const Study& study, int level, const std::string& role) {
  return interviews_of(study, participant_codes(study, level), role);
}

}  // namespace qualrank::saturation
