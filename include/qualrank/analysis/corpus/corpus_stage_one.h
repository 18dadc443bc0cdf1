// Stage one of a study of issue reports, as a paper's method section reports it: the keywords and the date
// window of the retrieval, what each keyword retrieved, the screeners, their rule and agreement, the exclusions
// per reason, each sample (Cochran's size with its inputs, the allocation per source, the seed), the coders'
// agreement before reconciliation (overall and per category) and how the reconciliation resolved the
// disagreements. Read from the corpus's files; the counting is the corpus_* functions'.
#pragma once
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qualrank/analysis/corpus/corpus_labels.h"
#include "qualrank/analysis/corpus/corpus_provenance.h"
#include "qualrank/analysis/corpus/corpus_screening.h"
#include "qualrank/model/node_resolver.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank::corpus {

struct StageOneSource {
  std::string source;
  bool whole = false;         // no keyword list: every document in the window retrieved
  std::size_t retrieved = 0;  // documents of corpus/retrieved.jsonl
  // Each keyword of the source's list (the keywords file's order; a file outside the workspace: the terms
  // that matched, in first-match order) and the retrieved documents it matched.
  std::vector<std::pair<std::string, std::size_t>> keywords;
};

struct StageOneSample {
  std::string name;
  std::optional<SampleProvenance> provenance;  // nullopt: drawn before samples recorded it
  std::size_t n = 0;                            // documents listed
  std::vector<std::pair<std::string, std::size_t>> allocation;  // per source (name order)
  bool cochran = false;                         // the size by Cochran's formula (else --size gave it)
  double confidence = 0, margin = 0, proportion = 0, z = 0, n0 = 0;  // Cochran's inputs and n0 (cochran only)
  std::size_t cochran_n = 0;                    // Cochran's n computed again from them and N
  std::vector<std::string> drawn_apart_from;    // the samples its draw left out (--exclude)
  // The labels (coders empty: nobody labelled it yet).
  std::vector<std::string> coders;
  std::size_t labelled = 0;  // documents labelled by at least one coder
  LabelAgreement agreement;
  // The reconciliation: its decisions by how ("majority", "coder" = kept one coder's label, "other") and by
  // decider; documents labelled but without a final label yet.
  std::size_t decisions = 0, by_majority = 0, by_keeping_coder = 0, by_other = 0, open = 0;
  std::map<std::string, std::size_t> by_decider;
};

struct StageOne {
  std::string from, to, window;  // the retrieval's window (window_text)
  std::vector<std::pair<std::string, std::size_t>> keyword_files;  // as the retrieval recorded them -> terms listed
  std::size_t keywords = 0;      // terms over all sources' lists
  std::vector<StageOneSource> sources;  // the corpus's sources, name order
  std::string rule;              // the screening rule: unanimous or majority
  ScreeningStatus screening;
  std::vector<std::pair<std::string, std::size_t>> excluded_by_reason;   // excluded documents per reason (one
                                                                         // reason given by all who excluded it,
                                                                         // else "reasons differ")
  std::vector<std::pair<std::string, std::size_t>> decisions_by_reason;  // screeners' false-positive decisions
                                                                         // on retrieved documents per reason
  std::vector<StageOneSample> samples;  // corpus/samples/*.txt, each after those it was drawn apart from, else by name
};

// Stage one of the workspace's corpus under the screening `rule` (nullopt: no corpus, no retrieval yet, or
// after errors, which are located in `diags`).
std::optional<StageOne> stage_one(const std::filesystem::path& workspace, const Taxonomy& taxonomy, const NodeResolver& resolve,
                                  ExclusionRule rule, Diagnostics& diags);

}  // namespace qualrank::corpus
