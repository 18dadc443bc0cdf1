// "Table I" of a study of issue reports, whole: per source of the workspace's corpus, the documents retrieved
// by keywords, those screened out as false positives, those kept, the false-positive rate, and the labelled
// units (the exported label tables of the samples, codebooks/labels/<sample>.csv) per year of creation and
// top-level node of their Final_Label. Reads the corpus's files; the counting is corpus_table's.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "qualrank/analysis/corpus/corpus_screening.h"
#include "qualrank/analysis/corpus/corpus_table.h"
#include "qualrank/model/node_resolver.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank::corpus {

// The table: one row per source of corpus/manifest.json (name order; a source met only in a label table's
// units after them), with retrieved (corpus/retrieved.jsonl), screened out (screening_status under `rule`),
// kept; units = rows of the label tables of `samples` (empty: every sample in corpus/samples/ whose
// codebooks/labels/<sample>.csv exists), each counted in its source (the SOURCE of its unit SOURCE#ID), the
// year of its document's `created` (none: "no period") and the level-`level` ancestor of its Final_Label.
// A named sample without an exported table is an error; problems reading any file are located in `diags`.
// nullopt when the workspace has no corpus or after errors.
// The samples Table I counts by default: those of corpus/samples/ whose label table codebooks/labels/<sample>.csv
// exists, in name order.
std::vector<std::string> exported_samples(const std::filesystem::path& workspace);

// With `apart`, also each sample's table alone (in the order of the samples counted), as corpus_overview of
// that one sample would give it, from the same single reading of the corpus (its screening is not shown:
// CorpusTable::screening false).
std::optional<CorpusTable> corpus_overview(const std::filesystem::path& workspace, const Taxonomy& taxonomy,
                                           const NodeResolver& resolve, int level, ExclusionRule rule,
                                           const std::vector<std::string>& samples, Diagnostics& diags,
                                           std::vector<std::pair<std::string, CorpusTable>>* apart = nullptr);

}  // namespace qualrank::corpus
