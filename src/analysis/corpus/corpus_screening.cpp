// Screening status: the exclusion of false positives from the retrieved documents and the screeners'
// agreement on it. A document is excluded under the unanimous rule when every screener who decided on it
// marked it a false positive (the study's "all volunteers must agree to exclude a report"), under the majority
// rule when more than half of them did. Agreement is Cohen's (1960) kappa for two screeners and Fleiss' (1971)
// kappa for any number, over the documents every screener decided on (relevant = 0, false positive = 1),
// computed by analysis/agreement/agreement_stats.h; beside them the share of those documents all screeners decided alike
// (all_agree) and the percent agreement of `qualrank agreement` (the mean share of agreeing screener pairs per
// document, over the documents two or more screeners decided on). The false-positive rate of a source is excluded / retrieved.
#include "qualrank/analysis/corpus/corpus_screening.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

#include "qualrank/analysis/agreement/agreement_stats.h"

namespace qualrank::corpus {

ScreeningStatus screening_status(const std::vector<RetrievedRef>& retrieved,
                                 const std::vector<ScreenerDecisions>& screeners, ExclusionRule rule) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ScreeningStatus s;
  const std::size_t m = screeners.size();
  for (const auto& sc : screeners) s.screeners.push_back(sc.screener);
  s.screened_per_screener.assign(m, 0);
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t k = 0; k < retrieved.size(); ++k) index.emplace(retrieved[k].doc, k);
  s.retrieved = retrieved.size();
  std::vector<int> codes(retrieved.size() * m, -1);
  for (std::size_t c = 0; c < m; ++c)
    for (const auto& d : screeners[c].decisions) {
      auto it = index.find(d.doc);
      if (it == index.end()) {
        s.not_retrieved.push_back(screeners[c].screener + ": " + d.doc);
        continue;
      }
      codes[it->second * m + c] = d.decision == Decision::false_positive ? 1 : 0;
      ++s.screened_per_screener[c];
    }
  std::map<std::string, std::size_t> source_at;
  std::vector<int> a, b;
  for (std::size_t k = 0; k < retrieved.size(); ++k) {
    auto [it, fresh] = source_at.emplace(retrieved[k].source, s.sources.size());
    if (fresh) s.sources.push_back({retrieved[k].source, 0, 0, 0, 0});
    auto& src = s.sources[it->second];
    ++src.retrieved;
    std::size_t votes = 0, fp = 0;
    for (std::size_t c = 0; c < m; ++c) {
      int v = codes[k * m + c];
      if (v < 0) continue;
      ++votes;
      fp += static_cast<std::size_t>(v);
    }
    if (votes == 0) continue;
    ++s.screened;
    ++src.screened;
    if (votes == m) {
      ++s.screened_by_all;
      if (fp == 0 || fp == m) ++s.agreeing;
    }
    bool out = rule == ExclusionRule::unanimous ? fp == votes : 2 * fp > votes;
    if (out) {
      ++s.excluded;
      ++src.excluded;
      s.excluded_docs.push_back(retrieved[k].doc);
    }
  }
  for (auto& src : s.sources) src.fp_rate = src.retrieved ? static_cast<double>(src.excluded) / static_cast<double>(src.retrieved) : nan;
  std::sort(s.excluded_docs.begin(), s.excluded_docs.end(), [](const auto& x, const auto& y) { return doc_less(x, y); });
  s.all_agree = s.screened_by_all ? static_cast<double>(s.agreeing) / static_cast<double>(s.screened_by_all) : nan;
  s.percent_agreement = nan;
  s.cohen_kappa = nan;
  s.fleiss_kappa = nan;
  if (m >= 2) {
    stats::RatingTable t;
    t.units = static_cast<int>(retrieved.size());
    t.coders = static_cast<int>(m);
    t.categories = 2;
    t.codes = codes;
    s.fleiss_kappa = stats::fleiss_kappa(t).kappa;
    s.screened_by_two = static_cast<std::size_t>(stats::pairable_units(t));
    s.percent_agreement = stats::percent_agreement(t);
    if (m == 2) {
      for (std::size_t k = 0; k < retrieved.size(); ++k) {
        a.push_back(codes[k * 2]);
        b.push_back(codes[k * 2 + 1]);
      }
      s.cohen_kappa = stats::cohen_kappa(a, b, 2);
    }
  }
  return s;
}

}  // namespace qualrank::corpus
