// What the codebook workbook shows, gathered from a study (transcripts) or from an imported coded-quote table,
// and the matrix / co-occurrence tables as JSON and CSV (`qualrank codebook --format json|csv`).
// See docs/codebook.md.
#pragma once
#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "qualrank/analysis/coding.h"
#include "qualrank/analysis/crosstab.h"
#include "qualrank/analysis/suggest/query.h"
#include "qualrank/model/guideline.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct Study;

struct CodebookOptions {
  int level = 2;                  // taxonomy level of the co-occurrence table (1 = the roots)
  std::string context_attribute;  // the context column shows this attribute; "" = the guideline's codebook_context
};

// The context column of the Coded segments sheet: which participant attribute it shows and its header. No
// attribute = no column.
struct CodebookContext {
  std::string attribute;
  std::string label;
  bool enabled() const { return !attribute.empty(); }
};

// `options.context_attribute` when given (headed by the guideline's label when the guideline names the same
// attribute, else by the attribute's name), else the guideline's `codebook_context`, else none.
// (Inline: the codebook import, which the fuzz replay links without the rest of the codebook, uses it too.)
inline CodebookContext codebook_context(const CodebookOptions& options, const Guideline& guideline) {
  const auto& setting = guideline.codebook_context;
  if (!options.context_attribute.empty()) {
    bool same = setting && setting->attribute == options.context_attribute;
    return {options.context_attribute, same ? setting->label : options.context_attribute};
  }
  if (setting) return {setting->attribute, setting->label};
  return {};
}

// A row of the Participants sheet.
struct CodebookParticipant {
  std::string id;
  std::string role;
  std::map<std::string, std::string> attributes;     // every attribute (experience derived or given)
  std::map<std::string, Location> attribute_where;
  std::string coder;
  Location where;                                    // the transcript, or the table row first naming them
};

// One row of the Coded segments sheet: a segment with at least one code, and how it is shown.
struct CodebookSegment {
  // The segment: the study's own (kept alive by the caller, as the taxonomy is) or, for a table read back,
  // `owned`. A pointer, so that the report's 240,000 rows do not copy the study's segments.
  const CodedSegment* segment = nullptr;
  std::shared_ptr<const CodedSegment> owned;
  // Prompt Category: "II.1 Which questions ...", or the part, or as imported. Shared by the rows of one
  // question (each of 240,000 rows held a copy of its question's text); never null in a row that is read.
  std::shared_ptr<const std::string> prompt;
  // context, experience and memo repeat over a transcript's rows (or are empty): SharedText, 8 bytes a row.
  SharedText context;      // the context attribute's value (CodebookData::context)
  Location context_where;  // where that value is written (the attribute, or the table row); unset without a context
  SharedText experience;   // Experience Level
  SharedText memo;         // Research Insight: the codes' memos, distinct, joined " | "
  std::string source;      // Source as a table gave it; "" for a workspace's row (see source_text)

  // Source: `source`, or "file:line" of the segment (made when shown, not kept for every row).
  std::string source_text() const;
};

// Everything the workbook shows. Holds pointers into the Study / TaxonomyVersion it came from: keep them alive.
struct CodebookData {
  const Taxonomy* taxonomy = nullptr;
  const Guideline* guideline = nullptr;
  int version = 1;
  std::string version_name;
  std::string origin;                          // "workspace" or the imported table's path
  std::string coding;                          // whose coding is counted (CodingChoice::describe()); "" = as imported
  std::string experience_attribute;            // "" when the guideline has no experience scheme
  CodebookContext context;                     // the context column (none when !context.enabled())
  std::vector<CodebookParticipant> participants;
  std::vector<CodebookSegment> segments;       // coded segments only, in source order
  // The study's segments the rows point into (a workspace's data; nullptr for a table read back). The
  // tables count them directly: their uncoded segments add nothing, and no copy of 240,000 segments is made.
  const std::vector<CodedSegment>* study_segments = nullptr;
  std::vector<CrosstabParticipant> crosstab_participants() const;
  std::vector<CodedSegment> coded_segments() const;
};

// The codebook data of a loaded study: its participants (one per transcript) and its segments that carry
// codes (keyword suggestions alone do not make a segment coded).
CodebookData codebook_data(const Study& study, const CodebookOptions& options);


// Label of a group column: "Role: manager", "Experience Level: junior", "Experience Level: (not set)".
std::string group_label(const ParticipantGroup& group, const std::string& experience_attribute);

// The Matrix (node x group participant counts) and the Co-occurrence table of `data`, at `options.level`:
// what the workbook, the JSON and the CSV all show.
struct CodebookTables {
  NodeCrosstab matrix;
  Cooccurrence cooccurrence;
  std::map<std::string, std::vector<ExemplarQuote>> exemplars;  // per node, as picked (analysis/suggest/query.h)
};
CodebookTables codebook_tables(const CodebookData& data, const CodebookOptions& options);

// The matrix and co-occurrence tables (keys in docs/codebook.md):
// {"taxonomy":{"name","version"},"counting":"...","participants":N,
//  "matrix":{"groups":[{"attribute","value","label","participants"}],
//            "rows":[{"node","level","name","segments","participants","counts":[..],"percents":[..],
//                     "exemplars":[{"quote","participant","segment","source"}]}]},
//  "cooccurrence":{"level","nodes":[..],"counts":[[..]],"segments_above_level"}}
nlohmann::ordered_json codebook_tables_json(const CodebookData& data, const CodebookOptions& options);
// The same from tables already computed by codebook_tables(data, options).
nlohmann::ordered_json codebook_tables_json(const CodebookData& data, const CodebookOptions& options,
                                            const CodebookTables& tables);

// The same tables as one tidy CSV: table,row,column,count,group_size,percent. Matrix rows have column "all"
// or ATTRIBUTE=VALUE (an empty VALUE = no value); co-occurrence rows name the other node in `column`.
// Fields are neutralised against CSV formula injection (OWASP).
std::string codebook_tables_csv(const CodebookData& data, const CodebookOptions& options);

}  // namespace qualrank
