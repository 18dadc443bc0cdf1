// The code suggester on a study: its coded segments become training documents, its uncoded participant turns
// get suggestions. Nothing here changes a transcript: suggestions are only ever shown.
#include <set>
#include <utility>

#include "qualrank/analysis/coding.h"
#include "qualrank/analysis/suggest/suggest.h"
#include "qualrank/model/guideline.h"

namespace qualrank::suggest {

std::vector<TrainingSegment> training_segments(const std::vector<CodedSegment>& segments, const Taxonomy& taxonomy) {
  std::vector<TrainingSegment> out;
  for (const auto& s : segments) {
    if (s.codes.empty()) continue;
    out.push_back({s.text, s.nodes(taxonomy), s.participant});
  }
  return out;
}

std::vector<const CodedSegment*> uncoded_turns(const std::vector<CodedSegment>& segments, const Guideline* guideline) {
  auto closed_question = [&](const CodedSegment& s) {
    const Question* q = guideline ? guideline->find(s.question) : nullptr;
    return q && (q->kind == QuestionKind::background || q->kind == QuestionKind::ranking);
  };
  std::set<std::pair<std::string, int>> coded;  // (file, turn) with a code on the turn or one of its spans
  for (const auto& s : segments)
    if (!s.codes.empty()) coded.emplace(s.source.file, s.turn);
  std::vector<const CodedSegment*> out;
  for (const auto& s : segments)
    if (s.whole_turn && s.codes.empty() && !coded.count({s.source.file, s.turn}) && !closed_question(s))
      out.push_back(&s);
  return out;
}

std::vector<TurnSuggestion> suggest_turns(const std::vector<const CodedSegment*>& turns,
                                          const CodeSuggester& suggester, std::size_t k) {
  std::vector<TurnSuggestion> out;
  out.reserve(turns.size());
  for (const auto* t : turns) out.push_back({t, suggester.suggest(t->text, k), t->suggested});
  return out;
}

}  // namespace qualrank::suggest
