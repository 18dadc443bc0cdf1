// Screening the retrieved documents: each screener's decisions (relevant, or a false positive with a reason)
// in corpus/screening/<screener>.csv, kept apart from the documents (keyed by "SOURCE#ID") so a re-import never
// touches them (docs/corpus.md).
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank::corpus {

enum class Decision { relevant, false_positive };

struct ScreeningDecision {
  std::string doc;     // "SOURCE#ID"
  Decision decision = Decision::relevant;
  std::string reason;  // false positives only: one of the configured reasons
  std::string note;
  int line = 0;        // where it was read (0: made here)
};

struct ScreenerDecisions {
  std::string screener;
  std::vector<ScreeningDecision> decisions;  // sorted by doc_less, one per document
};

// A screener name is 1-64 characters of [A-Za-z0-9._-], not starting with '.' or '-' (it names a file).
std::string screener_name_problem(std::string_view name);

// Order of document refs: by source, then by id in natural order (atlas#9 < atlas#10).
bool doc_less(std::string_view a, std::string_view b);

// Reads one screener's file: header "doc,decision,reason,note"; decision "relevant" or "false-positive"; a
// false positive needs a reason. A document listed twice is an error naming both lines.
std::vector<ScreeningDecision> read_screening(std::string_view text, const std::string& file, Diagnostics& diags);

// The file's text for `decisions` (sorted by doc_less), with the header.
std::string screening_text(const std::vector<ScreeningDecision>& decisions);

// Every screener's file in corpus/screening/, by name.
std::vector<ScreenerDecisions> read_all_screening(const std::filesystem::path& workspace, Diagnostics& diags);

// The reasons a false positive may give: corpus/screening.yaml's `reasons:` when that file exists, else
// corpus/keywords.yaml's, else kDefaultReasons (model/corpus/corpus_keywords.h).
std::vector<std::string> screening_reasons(const std::filesystem::path& workspace, Diagnostics& diags);

// Sets (or replaces) `d` in `decisions`, keeping them sorted; returns true when it replaced one.
bool set_decision(std::vector<ScreeningDecision>& decisions, ScreeningDecision d);

}  // namespace qualrank::corpus
