#include "qualrank/analysis/ranking_input.h"

#include <algorithm>
#include <set>

#include "qualrank/util/text.h"

namespace qualrank {

std::vector<ParticipantRanking> collect_rankings(const Workspace& ws, const NodeResolver& resolve, Diagnostics& diags) {
  std::vector<ParticipantRanking> out;
  for (const auto& t : ws.transcripts) {
    for (const auto& answer : t.rankings) {
      const Question* q = ws.guideline.find(answer.question);
      if (!q || q->kind != QuestionKind::ranking) continue;  // reported by load_workspace
      ParticipantRanking r;
      r.participant = t.participant;
      r.question = q->id;
      r.attributes = t.attributes;
      r.attributes["role"] = t.role;
      r.where = answer.line;
      bool ok = true;
      std::set<std::string> seen;
      std::size_t count = 0;
      for (std::size_t k = 0; k < answer.tiers.size(); ++k) {
        std::vector<std::string> tier;
        for (std::size_t j = 0; j < answer.tiers[k].size(); ++j) {
          const auto& written = answer.tiers[k][j];
          const auto& at = answer.where[k][j];
          auto res = resolve(written);
          if (!res.node) {
            diags.error(at, "unknown ranking item '" + written + "'" + (res.problem.empty() ? "" : ": " + res.problem));
            ok = false;
            continue;
          }
          if (std::find(q->items.begin(), q->items.end(), *res.node) == q->items.end()) {
            diags.error(at, "item '" + written + "' (" + *res.node + ") is not in the item set of question '" + q->id + "'");
            ok = false;
            continue;
          }
          if (!seen.insert(*res.node).second) {
            diags.error(at, "item '" + written + "' (" + *res.node + ") is ranked twice");
            ok = false;
            continue;
          }
          tier.push_back(*res.node);
          ++count;
        }
        if (!tier.empty()) r.tiers.push_back(std::move(tier));
      }
      const AnswerLengths& declared = q->lengths_for(t.role);
      const int items = static_cast<int>(q->items.size());
      const int n = static_cast<int>(count);
      const std::string what = "question '" + q->id + "' " +
                               (declared.written ? "declares top: " + declared.declared + " for role '" + t.role + "'"
                                                 : "asks role '" + t.role + "' for top: all (the default)") +
                               ", " + declared.meaning(items);
      if (ok && n > 0 && !declared.allows(n, items)) {
        std::string text = "the answer ranks " + std::to_string(n) + " of the " + std::to_string(items) + " items; " + what;
        if (declared.all) {
          // An item left out is a slip in the transcript, not a partial answer; nothing is imputed.
          std::vector<std::string> missing;
          for (const auto& item : q->items)
            if (!seen.count(item)) missing.push_back(item);
          text += "; missing: " + text::join(missing, ", ") + " (rank them, or declare top: [" + std::to_string(n) +
                  ", all] for answers of " + std::to_string(n) + " or all items, top: " + std::to_string(items) +
                  " for answers of any length)";
        }
        diags.error(answer.line, text);
        ok = false;
      }
      if (ok && count == 0) {
        diags.error(answer.line, "empty ranking");
        ok = false;
      }
      if (ok) out.push_back(std::move(r));
    }
  }
  return out;
}

std::vector<double> ranks_for(const ParticipantRanking& r, const std::vector<std::string>& items) {
  std::vector<double> ranks(items.size(), 0.0);
  std::vector<bool> ranked(items.size(), false);
  double position = 0;  // positions used so far
  for (const auto& tier : r.tiers) {
    std::vector<std::size_t> idx;
    for (const auto& item : tier) {
      auto it = std::find(items.begin(), items.end(), item);
      if (it != items.end()) idx.push_back(static_cast<std::size_t>(it - items.begin()));
    }
    if (idx.empty()) continue;
    double avg = position + (static_cast<double>(idx.size()) + 1.0) / 2.0;
    for (auto i : idx) {
      ranks[i] = avg;
      ranked[i] = true;
    }
    position += static_cast<double>(idx.size());
  }
  std::size_t left = static_cast<std::size_t>(std::count(ranked.begin(), ranked.end(), false));
  double rest = position + (static_cast<double>(left) + 1.0) / 2.0;
  for (std::size_t i = 0; i < items.size(); ++i)
    if (!ranked[i]) ranks[i] = rest;
  return ranks;
}

}  // namespace qualrank
