// The corpus's retrieval keywords and screening reasons: corpus/keywords.yaml (docs/corpus.md), and turning
// the Python-like keyword lists studies publish (`atlas_keywords = ['cache miss', "QKV", ...]`) into it.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank::corpus {

inline constexpr std::size_t kMaxTermBytes = 200;  // one keyword (the matcher's window is 256 folded bytes)

struct KeywordTerm {
  std::string term;             // a word or a phrase (words apart by any run of whitespace in the text)
  bool whole_word = true;       // `match: substring` makes it false
  bool case_sensitive = false;  // `case: sensitive`
  Location where;
};

struct KeywordConfig {
  std::map<std::string, std::vector<KeywordTerm>> sources;  // a source with no list is taken whole
  std::string from, to;          // date window bounds YYYY[-MM[-DD]], "" = open
  std::vector<std::string> reasons;  // screening reasons (empty: not given here)
};

// Reads keywords.yaml:
//   from: 2023-01            # optional, YYYY, YYYY-MM or YYYY-MM-DD (inclusive)
//   to: 2025-04
//   reasons: [not-about-topic, keyword-in-code-only, duplicate]   # optional
//   sources:
//     atlas: [cache miss, {term: QKV, case: sensitive}, {term: shard, match: substring}]
// A term listed twice in one source (same spelling, match and case) is a warning and kept once. Errors are
// located; returns nullopt after a syntax error (other errors leave the config partial, diags has them).
std::optional<KeywordConfig> read_keywords(const std::string& text, const std::string& file, Diagnostics& diags);

// Whether `bound` is a date bound YYYY, YYYY-MM or YYYY-MM-DD.
bool is_date_bound(std::string_view bound);

// Whether the ISO 8601 date-time `created` lies in [from, to] at the bounds' precision ("" bounds are open).
// A document without a date is outside any window that has a bound.
bool in_window(std::string_view created, std::string_view from, std::string_view to);

// The lists of a Python-like keyword file: NAME = [ 'term', "term", ... ] (comments '#', trailing commas);
// NAME_keywords names source NAME. Per source the distinct terms in first-seen order; a term listed twice is a
// warning naming both lines. Located errors for anything else.
struct KeywordLists {
  std::vector<std::pair<std::string, std::vector<std::string>>> sources;
  std::map<std::string, std::size_t> listed;  // per source: entries as written, repeats included
};
KeywordLists read_keyword_lists(std::string_view text, const std::string& file, Diagnostics& diags);

// keywords.yaml text for `lists` (every term with the defaults: whole word, case-insensitive), with a
// comment naming where it came from. `reasons` are written when not empty.
std::string keywords_yaml(const KeywordLists& lists, const std::string& from_file);

// The screening reasons: corpus/screening.yaml's `reasons:` when that file exists, else keywords.yaml's, else
// kDefaultReasons.
inline const std::vector<std::string> kDefaultReasons = {"not-about-topic", "keyword-in-code-only", "duplicate"};

}  // namespace qualrank::corpus
