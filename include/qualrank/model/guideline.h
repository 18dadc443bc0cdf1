// The interview guideline: parts, questions per role, ranking questions over taxonomy items, and how a
// participant's experience level is obtained.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

enum class QuestionKind { background, open, short_answer, ranking };
const char* to_string(QuestionKind k);

// How many items an answer to a ranking question names: the guideline's `top` (per question or per role).
//   top: all      every item (the default): an answer that leaves one out is an error
//   top: N        up to N items (1..N); N at or above the item count: any length, complete answers included
//   top: [3, all] exactly one of these lengths (numbers and `all`): complete answers beside top-3 ones
struct AnswerLengths {
  bool all = true;               // `top: all`
  int up_to = 0;                 // `top: N` (0 when not this form)
  std::vector<int> exact;        // `top: [..]`, ascending; 0 stands for `all`
  std::string declared = "all";  // as the guideline writes it, for messages: "all", "3", "[3, all]"
  bool written = false;          // the guideline says it (else `all` is the default)

  // The most items an answer may name, given the item count.
  int most(int items) const;
  // Whether an answer naming `count` of `items` items is what was declared.
  bool allows(int count, int items) const;
  // What the declaration means, in words: "every one of the 8 items", "up to 3 of the 8 items",
  // "3 or all 8 items".
  std::string meaning(int items) const;
};

struct Question {
  std::string id;
  std::string part;                          // id of the part it belongs to
  QuestionKind kind = QuestionKind::open;
  std::vector<std::string> roles;            // empty = every role
  std::string text;                          // default text
  std::map<std::string, std::string> text_by_role;
  std::vector<std::string> about;            // taxonomy node ids (its prompt category)
  std::string attribute;                     // background: the attribute the answer sets
  // Ranking questions only:
  std::vector<std::string> items;            // resolved item ids, taxonomy order
  std::string items_rule;                    // e.g. "children of C", for display
  AnswerLengths top;                         // `top:` for every role (default: all)
  std::map<std::string, AnswerLengths> top_by_role;
  Location where;

  bool asked_to(const std::string& role) const;
  const std::string& text_for(const std::string& role) const;
  // What `role` declares (its own `top`, else the question's).
  const AnswerLengths& lengths_for(const std::string& role) const;
  // The most items a participant of `role` ranks (items.size() for "all").
  int top_for(const std::string& role) const;
};

struct GuidelinePart {
  std::string id;
  std::string title;
  std::vector<std::string> about;
  std::vector<std::string> question_ids;
};

struct ExperienceScheme {
  std::string attribute = "experience";      // attribute holding the level
  std::vector<std::string> levels;           // in order, least experienced first
  std::string from;                          // numeric attribute to derive it from (optional)
  std::vector<double> bins;                  // levels.size()-1 ascending thresholds
  // The level for a numeric value: levels[i] where bins[i-1] <= value < bins[i].
  std::string level_for(double value) const;
};

// The participant attribute the codebook's context column shows (`codebook_context:` in the guideline), and
// the column's header (default: the attribute's name).
struct CodebookContextSetting {
  std::string attribute;
  std::string label;
  Location where;
};

struct Guideline {
  std::string name;
  std::string title;
  std::string taxonomy;
  std::string file;
  std::vector<std::string> roles;
  // How a role's members are named in sentences (`plurals: {nurse: nurses}`); a role without one is
  // "participants in role X" (group_phrase in ranking.h).
  std::map<std::string, std::string> plurals;
  // The ranking analysis's minimum group size (`min_group: N`, N >= 1): smaller groups show their raw
  // rankings only (RankingOptions::min_group); 0 = not set (the default, 2).
  int min_group = 0;
  std::optional<ExperienceScheme> experience;
  std::optional<CodebookContextSetting> codebook_context;
  // The pairwise group comparisons of the ranking analysis (`compare: [[a, b], ...]`, roles); empty = the
  // first two roles.
  std::vector<std::pair<std::string, std::string>> compare;
  std::vector<GuidelinePart> parts;
  std::vector<Question> questions;           // all questions, in guideline order

  const Question* find(const std::string& id) const;
  std::vector<const Question*> ranking_questions() const;
  std::vector<const Question*> questions_for(const std::string& role) const;
  const GuidelinePart* part(const std::string& id) const;
};

// Loads and validates a guideline against `taxonomy`: unique question ids, known kinds and roles, `about`
// and item ids that resolve, ranking questions with an item set and a valid `top`, experience bins that
// ascend and match the levels, `compare` pairs of two different roles (an unknown one with "did you mean").
// Returns nullopt on errors (all reported).
std::optional<Guideline> load_guideline(const std::string& text, const std::string& file, const Taxonomy& taxonomy,
                                        Diagnostics& diags);

}  // namespace qualrank
