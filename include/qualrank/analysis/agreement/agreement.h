// Inter-coder agreement on label tables: the full report of `qualrank agreement --labels` (overall,
// per category, per coder pair, each coder against the consensus, per taxonomy group and per source,
// bootstrap intervals, the units the coders disagreed on most). The statistics themselves are the pure
// functions of agreement_stats.h; this file decides which units and categories go into each of them.
// Definitions and JSON keys: docs/agreement.md.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "qualrank/analysis/agreement/agreement_jackknife.h"
#include "qualrank/analysis/agreement/label_table.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct AgreementOptions {
  int group_by_level = 0;          // 0 = no grouping; N = the level-N ancestor of the consensus label
  int resamples = 1000;            // bootstrap replicates; 0 = no confidence intervals (from
                                   // stats::kJackknifeFromUnits units on, jackknife intervals: see ci_method)
  std::uint64_t seed = 20250101;   // bootstrap seed (fixed default: same input, same output)
  double level = 0.95;             // confidence level
  int disagreements = 0;           // how many of the most disputed units to list
};

struct CoderPairKappa {
  std::string a, b;
  double kappa;        // Cohen's kappa over the units both rated (NaN when undefined)
  std::int64_t units;  // units both rated
};

struct CoderVsConsensus {
  std::string coder;
  double agreement;    // share of units (rated by the coder, with a consensus) where the label equals it
  double cohen_kappa;  // Cohen's kappa of the coder against the consensus over the same units
  std::int64_t units;
};

struct CategoryKappa {
  std::string category;
  double fleiss_kappa;  // Fleiss' per-category kappa over the complete units (NaN when undefined)
};

// The core statistics of one set of units (definitions: docs/agreement.md, Statistics).
struct AgreementFigures {
  std::int64_t units = 0;
  std::int64_t dropped_units = 0;   // units not rated by every coder (left out of Fleiss' kappa)
  std::int64_t pairable_units = 0;  // units with two or more ratings (those of alpha and percent agreement)
  double fleiss_kappa;
  double krippendorff_alpha;
  double percent_agreement;         // mean share of agreeing coder pairs per unit, over the pairable units
  stats::AllAgree all_agree;        // units rated by every coder on which all gave the same label
};

struct GroupAgreement {
  std::string group;  // taxonomy node id at the grouping level
  AgreementFigures figures;
  std::string name;   // the node's name (tables head the group "ID Name", never the bare id)
};

struct SourceGroups {
  std::string source;                                        // file stem
  std::int64_t units = 0;
  std::vector<std::pair<std::string, std::int64_t>> groups;  // every reported group, in group order (0s kept)
};

struct DisputedUnit {
  std::string unit;
  std::string source;
  int line = 0;
  std::vector<std::string> labels;  // per coder, "" = no rating
  std::string consensus;            // "" = none
  double agreement;                 // share of agreeing coder pairs on this unit (lowest first)
};

struct LabelAgreement {
  std::vector<std::string> coders;
  std::vector<std::string> categories;  // the categories coders used, in table order
  AgreementFigures overall;
  std::vector<CoderPairKappa> pairs;           // every coder pair, in coder order
  std::vector<CategoryKappa> per_category;     // parallel to categories
  bool has_consensus = false;
  std::vector<CoderVsConsensus> coder_vs_final;  // empty without a consensus column
  int resamples = 0;                           // 0 = no intervals
  std::uint64_t seed = 0;
  double level = 0.95;
  std::pair<double, double> fleiss_ci, alpha_ci;
  stats::IntervalMethod ci_method = stats::IntervalMethod::bootstrap;  // stats::interval_method(units)
  std::string ci_warning;                      // "" or why the intervals are not to be trusted (< 5 units)
  int group_level = 0;                         // 0 = no grouping
  std::vector<GroupAgreement> groups;          // groups with at least one unit, taxonomy order
  std::int64_t ungrouped_units = 0;            // no consensus, or a consensus above the grouping level
  std::vector<SourceGroups> sources;           // one per input file
  std::vector<DisputedUnit> disagreements;     // at most options.disagreements, most disputed first
};

// Overall figures of a rating table (Fleiss and all_agree over the units rated by every coder, alpha and
// percent agreement over the units with two or more ratings).
AgreementFigures agreement_figures(const stats::RatingTable& table);

// Computes the report. `taxonomy` is needed for --group-by-level (grouping by the consensus label's
// ancestor, ancestor_at); a grouping level without a taxonomy or without a consensus column is an error in
// `diags` (no location), and the report then has no groups. Per group, every statistic is computed over the
// units whose consensus falls in the group, with every category the coders used on them.
LabelAgreement label_agreement(const LabelTable& table, const Taxonomy* taxonomy, const AgreementOptions& options,
                               Diagnostics& diags);

}  // namespace qualrank
