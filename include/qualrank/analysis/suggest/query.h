// Retrieval of coded segments (`qualrank query`): which segments carry a code (or one of its descendants),
// come from some participants, questions or coders, or contain a phrase; which participant turns are still
// uncoded; how the codes of the segments found spread over the groups of an attribute; and the exemplar
// quotes researchers picked. Pure functions over a loaded study. Semantics in full: docs/query.md.
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qualrank/analysis/coding.h"
#include "qualrank/analysis/study.h"

namespace qualrank {

struct SegmentQuery {
  std::vector<std::string> all_of;                 // --code: every one must be on the segment
  std::vector<std::vector<std::string>> any_of;    // --any-code A,B: at least one of each list
  std::vector<std::string> none_of;                // --not-code: none may be on the segment
  bool exact = false;                              // a node stands for itself only, not its descendants
  std::vector<std::pair<std::string, std::string>> where;  // ATTRIBUTE=VALUE, all must hold ("role" included)
  std::vector<std::string> participants;           // any of these participant ids
  std::vector<std::string> questions;              // any of these question (or part) ids
  std::vector<std::string> coders;                 // only the codes of these coders count (case-insensitive)
  std::optional<std::string> text;                 // ICU regular expression, case-insensitive
  bool fixed = false;                              // `text` is a plain phrase (case-folded), not a regex
  bool uncoded = false;                            // participant turns that carry no code instead
  bool all = false;                                // also turns with neither codes nor suggestions
  bool suggestions = true;                         // keyword suggestions on the segments returned
};

// A byte range [begin, end) of a segment's text.
struct TextRange {
  std::size_t begin = 0, end = 0;
};

struct QueryResult {
  std::vector<CodedSegment> segments;              // study order; suggestions filled when asked for
  std::vector<std::vector<TextRange>> highlights;  // per segment: where `text` matched (empty without text)
};

// How a study must be loaded for query_segments to run `query`: suggestions are left to the query (it
// computes them for the segments it returns only, so a search does not pay for them on every turn), and
// turns without codes are loaded unless a code filter rules them out anyway.
StudyOptions query_study_options(const SegmentQuery& query, const std::optional<std::string>& at);

// Checks `query` against `study`: every node resolves at the study's version (a "did you mean" for a near
// miss), every attribute, participant, question and coder exists, `where` values occur, the pattern is a
// valid ICU regular expression (ICU's reason otherwise), and --uncoded is not combined with code filters.
// Returns one message per problem, without a prefix; empty when the query can run.
std::vector<std::string> check_query(const Study& study, const SegmentQuery& query);

// The segments of `study` (loaded with query_study_options(query, ...)) that `query` selects. Without --all or
// --uncoded these are the segments `qualrank code` lists: those with a code or a keyword suggestion.
// Throws std::invalid_argument for a query check_query rejects.
QueryResult query_segments(const Study& study, const SegmentQuery& query);

// Counts of the segments found, per group of an attribute (`--by`). One row per node applied to the
// segments (the node itself, not rolled up to its ancestors), in taxonomy order; `total` counts every
// segment. A cell counts segments and distinct participants.
struct QueryCell {
  std::size_t segments = 0;
  std::size_t participants = 0;
};
struct QueryMatrixRow {
  std::string node;                 // "" for the total row
  std::vector<QueryCell> cells;     // aligned with QueryMatrix::groups
  QueryCell all;                    // every group together (and segments of participants without a value)
};
struct QueryMatrix {
  std::string by;
  std::vector<std::string> groups;            // the attribute's values, workspace order; "" = no value
  std::vector<std::size_t> group_sizes;       // participants of the study in each group
  std::vector<QueryMatrixRow> rows;
  QueryMatrixRow total;
};
// `by` must be an attribute of the study (check_query's rule); `segments` usually a QueryResult's.
QueryMatrix query_matrix(const Study& study, const std::vector<CodedSegment>& segments, const std::string& by);

// True when `name` is "role", the experience attribute or an attribute some participant has.
bool is_study_attribute(const Workspace& ws, const std::string& name);

// A quote a researcher picked as exemplar for a node (`@exemplar`, `| exemplar`).
struct ExemplarQuote {
  std::string quote;        // the segment's text
  std::string participant;
  std::string role;
  std::string segment;      // segment id
  Location where;           // the segment's source, for diagnostics
  std::string source;       // where it is, as shown: "FILE:LINE"
};
inline constexpr std::size_t kMaxExemplarsPerNode = 3;
// The exemplar quotes of each node, in segment order, at most `per_node` each (the first picks). A segment
// picked for a node counts once for it however many coders picked it. None is ever invented.
std::map<std::string, std::vector<ExemplarQuote>> exemplar_quotes(const std::vector<CodedSegment>& segments,
                                                                  std::size_t per_node = kMaxExemplarsPerNode);

}  // namespace qualrank
