// Cross-validation of the code suggester, grouped by participant.
//
// Segments of one participant share vocabulary (their way of speaking, their project's names) that has nothing
// to do with the codes, so a split that puts some of a participant's segments in training and others in the
// test part overstates how well the suggester does on a new interview. The folds are therefore grouped: the
// distinct groups (participants) are shuffled with a seeded Fisher-Yates (stats::Rng) and dealt round-robin to
// the k folds, as scikit-learn's GroupKFold but with a seeded order instead of a size-balancing one.
//
// Each fold trains a suggester on the other folds exactly as train_suggester does (vocabulary statistics, IDF
// and the set of codes with enough training segments all come from the training part only) and labels every
// held-out segment with its most confident code plus every code whose confidence reaches the threshold. True
// positives, false positives and false negatives are summed over folds per code; precision, recall and F1
// follow scikit-learn's precision_recall_fscore_support with zero_division=0 (an undefined ratio is 0), the
// micro average from the summed counts, the macro average as the unweighted mean over codes.
#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>

#include "qualrank/analysis/stats.h"
#include "qualrank/analysis/suggest/suggest.h"
#include "qualrank/util/text.h"

namespace qualrank::suggest {
namespace {

double ratio(std::size_t a, std::size_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); }

Scores scores_of(std::size_t tp, std::size_t fp, std::size_t fn) {
  Scores s;
  s.precision = ratio(tp, tp + fp);
  s.recall = ratio(tp, tp + fn);
  s.f1 = ratio(2 * tp, 2 * tp + fp + fn);
  return s;
}

}  // namespace

std::vector<int> grouped_folds(const std::vector<std::string>& groups, int folds, std::uint64_t seed) {
  if (folds < 2) throw std::invalid_argument("grouped_folds: at least 2 folds are needed");
  std::vector<std::string> distinct = groups;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (distinct.size() < static_cast<std::size_t>(folds))
    throw std::invalid_argument("grouped_folds: " + std::to_string(distinct.size()) + " groups, fewer than " +
                                std::to_string(folds) + " folds");
  stats::Rng rng(seed);
  for (std::size_t i = distinct.size() - 1; i > 0; --i) std::swap(distinct[i], distinct[rng.uniform_index(i + 1)]);
  std::map<std::string, int> fold_of_group;
  for (std::size_t i = 0; i < distinct.size(); ++i)
    fold_of_group[distinct[i]] = static_cast<int>(i % static_cast<std::size_t>(folds));
  std::vector<int> out;
  out.reserve(groups.size());
  for (const auto& g : groups) out.push_back(fold_of_group[g]);
  return out;
}

Evaluation evaluate(const std::vector<TrainingSegment>& segments, const EvaluateOptions& options) {
  std::vector<const TrainingSegment*> docs;
  for (const auto& s : segments)
    if (!s.codes.empty()) docs.push_back(&s);
  std::vector<std::string> groups;
  for (const auto* d : docs) groups.push_back(d->group);

  Evaluation ev;
  ev.folds = options.folds;
  ev.seed = options.seed;
  ev.threshold = options.threshold;
  ev.min_support = options.suggest.min_support;
  ev.segments = docs.size();
  ev.fold_of = grouped_folds(groups, options.folds, options.seed);
  std::sort(groups.begin(), groups.end());
  ev.groups = static_cast<std::size_t>(std::unique(groups.begin(), groups.end()) - groups.begin());

  // Every code's support; the evaluated codes are those with min_support segments.
  std::map<std::string, std::size_t> support;
  for (const auto* d : docs)
    for (const auto& c : d->codes) ++support[c];
  std::vector<std::pair<std::string, std::size_t>> all(support.begin(), support.end());
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return text::natural_less(a.first, b.first); });
  const auto min_support = static_cast<std::size_t>(std::max(options.suggest.min_support, 1));
  std::map<std::string, std::size_t> code_index;
  for (const auto& [code, count] : all) {
    if (count < min_support) {
      ev.too_rare.emplace_back(code, count);
      continue;
    }
    code_index[code] = ev.codes.size();
    CodeEvaluation ce;
    ce.code = code;
    ce.support = count;
    ev.codes.push_back(ce);
  }
  // Each document's evaluated codes, as indices into ev.codes.
  std::vector<std::vector<std::size_t>> truth(docs.size());
  for (std::size_t i = 0; i < docs.size(); ++i) {
    for (const auto& c : docs[i]->codes)
      if (auto it = code_index.find(c); it != code_index.end()) truth[i].push_back(it->second);
    std::sort(truth[i].begin(), truth[i].end());
  }

  Vocabulary vocabulary(options.suggest.features);
  std::vector<TermCounts> counts;
  counts.reserve(docs.size());
  for (const auto* d : docs) counts.push_back(vocabulary.add(d->text));

  std::vector<double> conf;
  for (int fold = 0; fold < options.folds; ++fold) {
    std::vector<std::size_t> train, test;
    for (std::size_t i = 0; i < docs.size(); ++i) (ev.fold_of[i] == fold ? test : train).push_back(i);
    // The codes this fold can learn: enough training segments.
    std::vector<std::size_t> fold_support(ev.codes.size(), 0);
    for (auto i : train)
      for (auto c : truth[i]) ++fold_support[c];
    std::vector<std::size_t> fold_codes;  // fold label -> evaluated code
    std::vector<std::int32_t> label_of(ev.codes.size(), -1);
    for (std::size_t c = 0; c < ev.codes.size(); ++c)
      if (fold_support[c] >= min_support) {
        label_of[c] = static_cast<std::int32_t>(fold_codes.size());
        fold_codes.push_back(c);
      }

    std::vector<const TermCounts*> train_counts;
    for (auto i : train) train_counts.push_back(&counts[i]);
    const IdfTable idf = fit_idf(train_counts, vocabulary.size(), options.suggest.features.min_df);
    std::vector<SparseVector> vectors;
    vectors.reserve(train.size());
    std::vector<std::vector<std::uint32_t>> labels;
    for (auto i : train) {
      vectors.push_back(tfidf(counts[i], idf, vocabulary));
      std::vector<std::uint32_t> l;
      for (auto c : truth[i])
        if (label_of[c] >= 0) l.push_back(static_cast<std::uint32_t>(label_of[c]));
      labels.push_back(std::move(l));
    }
    std::vector<const SparseVector*> rows;
    for (const auto& v : vectors) rows.push_back(&v);
    const LinearModel model = train_logistic(rows, labels, idf.columns, fold_codes.size(), options.suggest.training);

    std::vector<bool> predicted(ev.codes.size());
    for (auto i : test) {
      std::fill(predicted.begin(), predicted.end(), false);
      if (!fold_codes.empty()) {
        model.confidences(tfidf(counts[i], idf, vocabulary), conf);
        const auto top = static_cast<std::size_t>(std::max_element(conf.begin(), conf.end()) - conf.begin());
        for (std::size_t l = 0; l < conf.size(); ++l)
          if (l == top || conf[l] >= options.threshold) predicted[fold_codes[l]] = true;
      }
      for (std::size_t c = 0; c < ev.codes.size(); ++c) {
        const bool actual = std::binary_search(truth[i].begin(), truth[i].end(), c);
        if (predicted[c] && actual) ++ev.codes[c].true_positives;
        else if (predicted[c]) ++ev.codes[c].false_positives;
        else if (actual) ++ev.codes[c].false_negatives;
      }
    }
  }

  std::size_t tp = 0, fp = 0, fn = 0;
  double sum_p = 0, sum_p2 = 0;
  for (auto& c : ev.codes) {
    c.scores = scores_of(c.true_positives, c.false_positives, c.false_negatives);
    tp += c.true_positives;
    fp += c.false_positives;
    fn += c.false_negatives;
    ev.macro.precision += c.scores.precision;
    ev.macro.recall += c.scores.recall;
    ev.macro.f1 += c.scores.f1;
    const double p = ratio(c.support, docs.size());
    sum_p += p;
    sum_p2 += p * p;
  }
  ev.micro = scores_of(tp, fp, fn);
  if (!ev.codes.empty()) {
    const auto n = static_cast<double>(ev.codes.size());
    ev.macro.precision /= n;
    ev.macro.recall /= n;
    ev.macro.f1 /= n;
  }
  ev.chance_f1 = sum_p > 0 ? sum_p2 / sum_p : 0.0;
  return ev;
}

}  // namespace qualrank::suggest
