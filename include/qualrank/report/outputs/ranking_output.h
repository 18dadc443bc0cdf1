// Ranking analysis outputs: the JSON of `qualrank rank --format json` (public key names, see README),
// a Markdown summary for papers, a plain-text table, and an Excel workbook with native charts.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "qualrank/analysis/rankings/ranking.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

namespace xlsx {
class Book;
}

// {"by","levels","resamples","seed","questions":[{"question","text","wording":[{"roles":[...],"text"}],
//  "items":[...],"groups":{"<level>":{"n",
//  "mean_rank":{item:x},"median_rank":{},"borda":{},"consensus":[...],"kendall_w","kendall_w_p"}},
//  "comparison":{"groups":[a,b],"spearman_rho","spearman_p","kendall_tau_b","kendall_tau_p",
//  "bootstrap_ci":{"level":0.95,"spearman_rho":[lo,hi]},"n":{a:n,b:n},"min_p","can_reach_significance",
//  "flags_allowed","warnings":[...]},"gaps":[{"item","mean_rank":{a:x,b:y},"gap","mann_whitney_u","p","p_holm",
//  "cliffs_delta","misaligned","basis":"test"|"effect size"|null}],"comparisons":[{...as "comparison",
//  "gaps":[...]}],"not_compared":[level...],"k_groups":{"groups":[...],"items":[{"item","kruskal_h","p",
//  "p_holm","epsilon_squared"}]}|null,"model"?:{...}}]}. "comparison"/"gaps" are the first of "comparisons".
// Undefined numbers (NaN) are null. "model" is there when the options ask for it (null when the model has no estimate): {"method",
// "ties","partial","pseudo_rankings","reference","log_likelihood","iterations","groups":{"<level>":{"n",
// "log_likelihood","iterations","items":{id:{"worth","log_worth","se","quasi_se"}}}},"overall":{...},
// "lr_test":{"groups","statistic","df","p"}|null,"comparison_groups":[a,b]|null,
// "item_differences":[{"item","difference","se","p","p_holm"}]}.
nlohmann::ordered_json rankings_json(const RankingAnalysis& analysis);

// The likelihood-ratio test of a question's model in one sentence (for summaries).
std::string model_summary_sentence(const QuestionModel& model);

// When the Plackett-Luce likelihood-ratio test is below 0.05 but no per-item test (Kruskal-Wallis or
// Mann-Whitney, Holm-adjusted) is: a sentence saying what each tests ("Why the tests differ: ..."); else "".
std::string tests_differ_sentence(const QuestionRankAnalysis& q);

// A question's heading: "III.R: the words" when every role is asked in the same words, else
// "III.R (worded per role)" (the callers list QuestionRankAnalysis::wording under it).
std::string question_heading(const QuestionRankAnalysis& q);

// Consensus orders side by side, the correlation with its CI, and the misaligned items in plain words.
std::string rankings_markdown(const RankingAnalysis& analysis, const Taxonomy& taxonomy);

// A compact text table per question, for the terminal.
std::string rankings_table(const RankingAnalysis& analysis, const Taxonomy& taxonomy);

// A sheet per question (per-group table, comparison statistics, gap table) with a bar chart (mean rank by
// group per item) and a scatter chart (group a vs group b mean rank), plus a sheet of every raw ranking.
// Every comparison's small-sample warnings and every flag's basis are written beside its numbers; with k > 2
// groups, a Kruskal-Wallis table follows.
bool write_rankings_workbook(const RankingAnalysis& analysis, const Taxonomy& taxonomy,
                             const std::filesystem::path& target, Diagnostics& diags);

// An analysis with its title, e.g. an experience comparison "manager: junior vs senior".
// An item as "ID Name" (its taxonomy name), or the id alone when the taxonomy has no such node.
std::string item_label(const Taxonomy& t, const std::string& id);

struct TitledRankingAnalysis {
  std::string title;
  const RankingAnalysis* analysis = nullptr;
};

// As above, plus an "Experience" sheet with the comparisons and k-group tests of each of `extra`.
bool write_rankings_workbook(const RankingAnalysis& analysis, const Taxonomy& taxonomy, const std::filesystem::path& target,
                             Diagnostics& diags, const std::vector<TitledRankingAnalysis>& extra);

// The same workbook written to its temp file but not yet put in place (xlsx::Book::publish does that), so
// that it can be written while other work goes on; nullptr (and an error in `diags`) when it cannot be written.
std::unique_ptr<xlsx::Book> prepare_rankings_workbook(const RankingAnalysis& analysis, const Taxonomy& taxonomy,
                                                      const std::filesystem::path& target, Diagnostics& diags,
                                                      const std::vector<TitledRankingAnalysis>& extra);

}  // namespace qualrank
