// Corpus statistics of label tables ("Table I" of a study that coded units from several sources over
// several periods): units per source x period x top-level node of the consensus label. The periods come from
// per-period id lists, one file per source and period named SOURCE_PERIOD.txt (one unit id per line), as a
// study's published data often has them (issue URLs per repository and year). Pure functions.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qualrank/analysis/agreement/label_table.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct PeriodList {
  std::string source;  // the label table's source it lists units of (the file name before the last '_')
  std::string period;  // the file name after the last '_', without .txt (e.g. 2024, 2024-H1)
  std::string file;    // as shown in messages
  std::vector<std::pair<std::string, int>> ids;  // unit id, line
};

// Reads one period list: the name must be SOURCE_PERIOD.txt (else a located error and nullopt); blank lines
// and surrounding blanks are ignored, and a byte order mark at the start; at most kMaxPeriodIds ids; text that
// is not UTF-8 is an error at its first invalid byte.
inline constexpr std::size_t kMaxPeriodIds = 10'000'000;
std::optional<PeriodList> parse_period_list(const std::string& text, const std::string& file, Diagnostics& diags);

struct CorpusRow {
  std::string source;
  std::int64_t units = 0;
  std::vector<std::int64_t> by_period;  // parallel to CorpusTable::periods
  std::int64_t no_period = 0;           // units of the source in no period list
  std::vector<std::int64_t> by_group;   // parallel to CorpusTable::groups
  std::int64_t open = 0;                // no consensus label yet: a disagreement or a unit some coders did not
                                        // label, not decided (corpus reconcile lists them)
  std::int64_t ungrouped = 0;           // a consensus label above the grouping level
  // Screening of the corpus (CorpusTable::screening only: corpus_overview): documents stored (imported), in
  // the retrieval's window, retrieved by keywords, screened (by at least one screener), excluded as false
  // positives, and kept (retrieved - screened_out).
  std::int64_t stored = 0, in_window = 0, retrieved = 0, screened = 0, screened_out = 0, kept = 0;
};

// The false-positive rate of a row: screened out / retrieved; NaN when nothing was retrieved. Of the total row
// this is the pooled rate (over every source's documents), which differs from the mean of the sources' rates
// (CorpusTable::mean_fp_rate) that papers often print as "Average".
double fp_rate(const CorpusRow& row);

struct CorpusTable {
  int level = 1;                        // the taxonomy level the groups are taken at
  std::vector<std::string> periods;     // in natural order
  std::vector<std::string> groups;      // node ids at `level`, taxonomy order (only those with units)
  std::vector<CorpusRow> rows;          // one per source, in input order
  CorpusRow total;
  bool screening = false;               // rows carry retrieved / screened_out / kept (Table I whole)
  std::string rule;                     // screening's exclusion rule, when `screening`
  std::string window;                   // the retrieval's window in words ("2023-01 to 2025-04"), when `screening`
  // The mean of the per-source false-positive rates over the sources that retrieved anything (NaN: none).
  double mean_fp_rate() const;
};

// Counts every unit (row) of `table` once: its source's row, the period whose list names its id, and the
// level-`level` ancestor of its consensus label. Problems, located and reported to `diags`: a period list
// naming a source that no label table has (error); an id listed in two periods of one source (error at the
// second listing); ids listed that are not in the source's table (one warning per list, with the count and
// the first); units in no period list (one warning per source, with the count). Needs the consensus column.
CorpusTable corpus_table(const LabelTable& table, const Taxonomy& taxonomy, int level, const std::vector<PeriodList>& periods,
                         Diagnostics& diags);

}  // namespace qualrank
