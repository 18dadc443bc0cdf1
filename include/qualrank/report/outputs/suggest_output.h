// Code suggestions and their cross-validation as JSON (the public shape of `qualrank suggest --format json`)
// and as text tables for the terminal. Numbers are rounded to 3 decimals in JSON, 2 in tables; outputs are
// sorted (turns in file and turn order, codes by confidence or in taxonomy order), so the same input gives the
// same bytes.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "qualrank/analysis/suggest/suggest.h"

namespace qualrank {

class Taxonomy;

// {"suggestions":[{"segment","participant","source":{"file","line"},"codes":[{"node","confidence"}],
//   "keyword":[ids]}], "trained_on":{"segments","coded_segments"}} (segments < coded_segments: a sample)
nlohmann::ordered_json suggestions_json(const std::vector<suggest::TurnSuggestion>& suggestions,
                                        const suggest::CodeSuggester& suggester);

// One block per turn: FILE:LINE, participant, segment id, the start of the text, then one line per suggested
// code (confidence, id, name) and one per keyword suggestion; a footer says what the suggester learned from.
std::string suggestions_table(const std::vector<suggest::TurnSuggestion>& suggestions,
                              const suggest::CodeSuggester& suggester, const Taxonomy& taxonomy, int min_support);

// {"folds","seed","threshold","min_support","segments","participants",
//  "codes":{ID:{"support","precision","recall","f1","true_positives","false_positives","false_negatives"}},
//  "micro":{"precision","recall","f1"},"macro":{...},"chance":{"micro_f1"},"too_rare":{ID:support}}
// Codes in taxonomy order.
nlohmann::ordered_json evaluation_json(const suggest::Evaluation& evaluation, const Taxonomy& taxonomy);

// The per-code table (id, segments, precision, recall, F1, name), micro and macro averages, the chance level
// and the codes too rare to be suggested.
std::string evaluation_table(const suggest::Evaluation& evaluation, const Taxonomy& taxonomy);

}  // namespace qualrank
