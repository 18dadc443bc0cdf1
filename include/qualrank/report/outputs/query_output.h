// What `qualrank query` prints: a readable listing of the segments found (wrapped, `FILE:LINE` to jump to,
// matches highlighted on a terminal), a Markdown quote list to paste into a paper, the counts, and the
// `--by` matrix as a table, JSON, CSV or Markdown. The segments' JSON and CSV are segments_output.h's.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

#include "qualrank/analysis/suggest/query.h"
#include "qualrank/analysis/suggest/suggest.h"

namespace qualrank {

struct ListingOptions {
  std::size_t width = 80;   // wrap lines to this many code points
  bool highlight = false;   // ANSI bold/reverse around text matches and bold headers (terminals only)
  bool turns = false;       // the segments are uncoded turns: count them as such
  // Codes learned from the researcher's codings, per segment (aligned with the result), shown as "learned: ...".
  const std::vector<std::vector<suggest::CodeConfidence>>* learned = nullptr;
};

// One block per segment: "PARTICIPANT (ROLE) · QUESTION · FILE:LINE", the codes with names and coders (or the
// keyword suggestions of a segment without codes), memos, then the quote, wrapped; a count at the end.
std::string query_listing(const QueryResult& result, const Taxonomy& taxonomy, const ListingOptions& options);

// A quote list: "> quote" then "> — participant (role), question, codes" per segment, Markdown-escaped so
// that no quote becomes a link, an emphasis or raw HTML.
std::string query_markdown(const QueryResult& result, const Taxonomy& taxonomy);

// `--count`: "N segments from M participants" (format "text" or "md"), {"segments":N,"participants":M}
// ("json") or a CSV header and row ("csv").
std::string query_count(const QueryResult& result, const std::string& format);

// The `--by` matrix (analysis/suggest/query.h). Cells are participants and segments.
nlohmann::ordered_json query_matrix_json(const QueryMatrix& matrix, const Taxonomy& taxonomy);
// One row per node and cell: node,name,group,participants,segments; group "all" for every group together,
// ATTRIBUTE=VALUE otherwise (empty VALUE = no value); the total row has node "all". Formula-neutralised.
std::string query_matrix_csv(const QueryMatrix& matrix, const Taxonomy& taxonomy);
// A fixed-width table ("participants/segments" per cell), or the same as a Markdown table.
std::string query_matrix_table(const QueryMatrix& matrix, const Taxonomy& taxonomy, bool markdown);

// An exemplar quote as JSON: {"quote","participant","segment","source":"FILE:LINE"} (codebook and report).
nlohmann::ordered_json exemplar_json(const ExemplarQuote& quote);

// report.json's "What is coded" (`"coded"`): every node applied to a coded segment of `study` (a segment with
// at least one code), taxonomy order, counted where it was applied (not rolled up), with its participants per
// role and its exemplar quotes:
// {"by":"role","groups":[{"value","participants"}],
//  "codes":[{"node","name","level","segments","participants":{ROLE:n},"exemplars":[{"quote","participant","segment","source"}]}]}
nlohmann::ordered_json what_is_coded_json(const Study& study);

}  // namespace qualrank
