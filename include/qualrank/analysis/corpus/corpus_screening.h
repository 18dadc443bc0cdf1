// Screening agreement and exclusion: which retrieved documents the screeners exclude as false positives (by
// a rule), how far they agree on relevant vs false positive, and the false-positive rate per source.
#pragma once
#include <string>
#include <vector>

#include "qualrank/analysis/corpus/corpus_retrieve.h"
#include "qualrank/model/corpus/corpus_screening.h"

namespace qualrank::corpus {

// unanimous: excluded when every screener who screened it said false positive (the study's rule: all must
// agree to exclude a report); majority: when more than half of those who screened it did.
enum class ExclusionRule { unanimous, majority };

struct SourceScreening {
  std::string source;
  std::size_t retrieved = 0, screened = 0, excluded = 0;
  double fp_rate = 0;  // excluded / retrieved (NaN when nothing was retrieved)
};

struct ScreeningStatus {
  std::vector<std::string> screeners;
  std::vector<std::size_t> screened_per_screener;  // retrieved documents each one decided on
  std::size_t retrieved = 0;
  std::size_t screened = 0;            // by at least one screener
  std::size_t screened_by_all = 0;     // the units of the kappas and of all_agree
  std::size_t agreeing = 0;            // of those, the ones all screeners decided alike
  double all_agree = 0;                // agreeing / screened_by_all: "all screeners agree on X% of documents" (NaN when none)
  std::size_t screened_by_two = 0;     // documents two or more screeners decided on: the units of percent_agreement
  double percent_agreement = 0;        // the mean share of agreeing screener pairs per document, over screened_by_two
                                       // (stats::percent_agreement, as `qualrank agreement`; NaN when none)
  double cohen_kappa = 0;              // two screeners only (NaN otherwise or when undefined)
  double fleiss_kappa = 0;             // two or more screeners (NaN when undefined)
  std::size_t excluded = 0;
  std::vector<SourceScreening> sources;  // in the order of the retrieved documents' sources
  std::vector<std::string> excluded_docs;  // sorted by doc_less
  std::vector<std::string> not_retrieved;  // decisions on documents not in retrieved.jsonl ("SCREENER: DOC")
};

// The status of screening the `retrieved` documents. Kappas over the documents every screener decided on,
// categories relevant / false positive (analysis/agreement/agreement_stats.h: statsmodels' cohens_kappa and
// fleiss_kappa). Pure: no I/O.
ScreeningStatus screening_status(const std::vector<RetrievedRef>& retrieved,
                                 const std::vector<ScreenerDecisions>& screeners, ExclusionRule rule);

}  // namespace qualrank::corpus
