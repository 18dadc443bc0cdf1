// The label-table agreement report (contract in include/qualrank/analysis/agreement/agreement.h).
//
// Which units enter which statistic:
//  * Fleiss' kappa (overall, per category, per group): the units rated by every coder; the others are
//    counted in dropped_units. This is statsmodels' fleiss_kappa on the unit x category count table.
//  * Krippendorff's alpha and percent agreement (the mean share of agreeing coder pairs per unit): every unit
//    with at least two ratings (missing allowed). all_agree (the share of units on which every coder gave the
//    same label): the units rated by every coder, as Fleiss' kappa.
//  * Cohen's kappa of a coder pair: the units both rated. Coder vs consensus: the units the coder rated
//    that have a consensus label.
//  * Groups (--group-by-level N): a unit belongs to the level-N ancestor of its consensus label; a group's
//    statistics use only its units, with whatever categories the coders gave them.
//  * Disputed units: units with at least two ratings whose coders do not all agree, ordered by the share of
//    agreeing coder pairs (lowest first), then by the number of distinct labels (most first), then by input
//    order.
#include "qualrank/analysis/agreement/agreement.h"

#include <algorithm>
#include <future>
#include <limits>
#include <map>

#include "qualrank/analysis/agreement/agreement_jackknife.h"
#include "qualrank/util/parallel.h"

namespace qualrank {

namespace {

std::vector<int> coder_column(const stats::RatingTable& t, int coder) {
  std::vector<int> out(static_cast<std::size_t>(t.units));
  const auto coders = static_cast<std::size_t>(t.coders);
  for (std::size_t u = 0; u < out.size(); ++u) out[u] = t.codes[u * coders + static_cast<std::size_t>(coder)];
  return out;
}

// The rows `units` of `t`, as a table of their own.
stats::RatingTable select_units(const stats::RatingTable& t, const std::vector<std::int64_t>& units) {
  stats::RatingTable out{static_cast<int>(units.size()), t.coders, t.categories, {}};
  const auto coders = static_cast<std::size_t>(t.coders);
  out.codes.reserve(units.size() * coders);
  for (auto u : units) {
    const auto* row = t.codes.data() + static_cast<std::size_t>(u) * coders;
    out.codes.insert(out.codes.end(), row, row + coders);
  }
  return out;
}

void find_disputed(const LabelTable& table, int how_many, LabelAgreement& out) {
  const auto& t = table.ratings;
  const auto coders = static_cast<std::size_t>(t.coders);
  struct Candidate {
    double agreement;
    int distinct;
    std::int64_t unit;
  };
  std::vector<Candidate> candidates;
  std::vector<int> count(static_cast<std::size_t>(t.categories), 0);
  for (std::int64_t u = 0; u < t.units; ++u) {
    const int* row = t.codes.data() + static_cast<std::size_t>(u) * coders;
    std::int64_t m = 0, agreeing = 0;
    int distinct = 0;
    for (std::size_t c = 0; c < coders; ++c) {
      if (row[c] < 0) continue;
      int& n = count[static_cast<std::size_t>(row[c])];
      agreeing += n;  // pairs this code forms with earlier equal codes
      distinct += n == 0;
      ++n;
      ++m;
    }
    for (std::size_t c = 0; c < coders; ++c)
      if (row[c] >= 0) count[static_cast<std::size_t>(row[c])] = 0;
    if (m < 2 || distinct < 2) continue;
    const double share = static_cast<double>(agreeing) / static_cast<double>(m * (m - 1) / 2);
    candidates.push_back({share, distinct, u});
  }
  const auto n = std::min(candidates.size(), static_cast<std::size_t>(std::max(0, how_many)));
  std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(n), candidates.end(),
                    [](const Candidate& a, const Candidate& b) {
                      if (a.agreement != b.agreement) return a.agreement < b.agreement;
                      if (a.distinct != b.distinct) return a.distinct > b.distinct;
                      return a.unit < b.unit;
                    });
  for (std::size_t i = 0; i < n; ++i) {
    const auto u = candidates[i].unit;
    DisputedUnit d;
    d.unit = std::string(table.unit_id(u));
    d.source = table.sources[static_cast<std::size_t>(table.unit_source[static_cast<std::size_t>(u)])];
    d.line = table.unit_line[static_cast<std::size_t>(u)];
    for (int c = 0; c < t.coders; ++c) d.labels.emplace_back(table.label(u, c));
    d.consensus = std::string(table.consensus_label(u));
    d.agreement = candidates[i].agreement;
    out.disagreements.push_back(std::move(d));
  }
}

// Groups units by the level-`level` ancestor of their consensus label.
void group_units(const LabelTable& table, const Taxonomy& taxonomy, int level, LabelAgreement& out) {
  // Category -> group name ("" = none), then group names in taxonomy order.
  std::vector<std::string> group_of_category;
  for (const auto& c : table.categories) group_of_category.push_back(taxonomy.ancestor_at(c, level).value_or(""));
  std::vector<std::string> names;
  for (const auto& g : group_of_category)
    if (!g.empty() && std::find(names.begin(), names.end(), g) == names.end()) names.push_back(g);
  std::sort(names.begin(), names.end(), [&](const std::string& a, const std::string& b) {
    return taxonomy.rank_of(a) < taxonomy.rank_of(b);
  });
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < names.size(); ++i) index[names[i]] = i;
  std::vector<int> group_index_of_category;
  for (const auto& g : group_of_category) group_index_of_category.push_back(g.empty() ? -1 : static_cast<int>(index[g]));

  std::vector<std::vector<std::int64_t>> members(names.size());
  std::vector<std::vector<std::int64_t>> per_source(table.sources.size(), std::vector<std::int64_t>(names.size(), 0));
  for (std::int64_t u = 0; u < table.units(); ++u) {
    const int c = table.consensus[static_cast<std::size_t>(u)];
    const int g = c < 0 ? -1 : group_index_of_category[static_cast<std::size_t>(c)];
    if (g < 0) {
      ++out.ungrouped_units;
      continue;
    }
    members[static_cast<std::size_t>(g)].push_back(u);
    ++per_source[static_cast<std::size_t>(table.unit_source[static_cast<std::size_t>(u)])][static_cast<std::size_t>(g)];
  }
  // Only groups that received units (a category used by coders but never as consensus makes no group).
  std::vector<std::size_t> kept;
  for (std::size_t g = 0; g < names.size(); ++g)
    if (!members[g].empty()) kept.push_back(g);
  for (std::size_t g : kept)
    out.groups.push_back({names[g], agreement_figures(select_units(table.ratings, members[g])),
                          taxonomy.find(names[g]) ? taxonomy.find(names[g])->name : std::string()});
  for (std::size_t s = 0; s < out.sources.size(); ++s)
    for (std::size_t g : kept) out.sources[s].groups.emplace_back(names[g], per_source[s][g]);
}

}  // namespace

AgreementFigures agreement_figures(const stats::RatingTable& table) {
  AgreementFigures f;
  const auto fleiss = stats::fleiss_kappa(table);
  f.units = table.units;
  f.dropped_units = fleiss.dropped_units;
  f.fleiss_kappa = fleiss.kappa;
  f.krippendorff_alpha = stats::krippendorff_alpha_nominal(table);
  f.percent_agreement = stats::percent_agreement(table);
  f.pairable_units = stats::pairable_units(table);
  f.all_agree = stats::all_agree(table);
  return f;
}

LabelAgreement label_agreement(const LabelTable& table, const Taxonomy* taxonomy, const AgreementOptions& options,
                               Diagnostics& diags) {
  const auto& t = table.ratings;
  LabelAgreement out;
  out.coders = table.coders;
  out.overall = agreement_figures(t);

  std::vector<bool> used(static_cast<std::size_t>(t.categories), false);
  for (int c : t.codes)
    if (c >= 0) used[static_cast<std::size_t>(c)] = true;
  const auto per_category = stats::fleiss_kappa_per_category(t);
  for (std::size_t c = 0; c < table.categories.size(); ++c) {
    if (!used[c]) continue;
    out.categories.push_back(table.categories[c]);
    out.per_category.push_back({table.categories[c], per_category[c]});
  }

  // The intervals (a bootstrap or, from 100,000 units, a jackknife) on a thread of their own while the pairs
  // are computed here: no output depends on which finishes first.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  out.fleiss_ci = out.alpha_ci = {nan, nan};
  out.resamples = options.resamples;
  out.seed = options.seed;
  out.level = options.level;
  std::future<stats::AgreementIntervals> intervals;
  if (options.resamples > 0 && t.units > 0) {
    out.ci_method = stats::interval_method(t.units);
    intervals = std::async(worker_threads() > 1 ? std::launch::async : std::launch::deferred,
                           [&t, method = out.ci_method, &options] {
                             return stats::agreement_intervals(t, method, options.resamples, options.seed, options.level);
                           });
  }

  std::vector<std::vector<int>> columns;
  for (int c = 0; c < t.coders; ++c) columns.push_back(coder_column(t, c));
  auto both = [](const std::vector<int>& a, const std::vector<int>& b) {
    std::int64_t n = 0;
    for (std::size_t i = 0; i < a.size(); ++i) n += a[i] >= 0 && b[i] >= 0;
    return n;
  };
  for (int a = 0; a < t.coders; ++a)
    for (int b = a + 1; b < t.coders; ++b) {
      const auto& ca = columns[static_cast<std::size_t>(a)];
      const auto& cb = columns[static_cast<std::size_t>(b)];
      out.pairs.push_back({table.coders[static_cast<std::size_t>(a)], table.coders[static_cast<std::size_t>(b)],
                           stats::cohen_kappa(ca, cb, t.categories), both(ca, cb)});
    }

  out.has_consensus = table.has_consensus;
  if (table.has_consensus) {
    for (int c = 0; c < t.coders; ++c) {
      const auto& col = columns[static_cast<std::size_t>(c)];
      std::int64_t n = 0, same = 0;
      for (std::size_t u = 0; u < col.size(); ++u) {
        if (col[u] < 0 || table.consensus[u] < 0) continue;
        ++n;
        same += col[u] == table.consensus[u];
      }
      const double share = n == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(same) / static_cast<double>(n);
      out.coder_vs_final.push_back({table.coders[static_cast<std::size_t>(c)], share,
                                    stats::cohen_kappa(col, table.consensus, t.categories), n});
    }
  }

  if (intervals.valid()) {
    const auto ci = intervals.get();
    out.fleiss_ci = ci.fleiss_kappa;
    out.alpha_ci = ci.krippendorff_alpha;
    out.ci_warning = stats::small_sample_ci_warning(t.units, "units", options.level);
  }

  for (std::size_t s = 0; s < table.sources.size(); ++s) out.sources.push_back({table.sources[s], 0, {}});
  for (int s : table.unit_source) ++out.sources[static_cast<std::size_t>(s)].units;
  if (options.group_by_level > 0) {
    if (!taxonomy) {
      diags.error({}, "--group-by-level needs a taxonomy (the workspace has none, so labels are free categories)");
    } else if (!table.has_consensus) {
      diags.error({}, "--group-by-level groups units by their consensus label, and no label table has a consensus "
                      "column (Final_Label or final; or name it with --final-col)");
    } else if (options.group_by_level > taxonomy->max_level()) {
      diags.error({}, "--group-by-level " + std::to_string(options.group_by_level) + ": the taxonomy has " +
                          std::to_string(taxonomy->max_level()) + " levels");
    } else {
      out.group_level = options.group_by_level;
      group_units(table, *taxonomy, options.group_by_level, out);
    }
  }
  if (options.disagreements > 0) find_disputed(table, options.disagreements, out);
  return out;
}

}  // namespace qualrank
