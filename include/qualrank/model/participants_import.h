// Participants from a spreadsheet (`qualrank participants import`): a classification sheet (one row per
// participant, as NVivo, MAXQDA and ATLAS.ti export and import them) merged into the transcripts' front matter.
// Planned first (every value converted and checked, every edit made in memory and checked by parsing the
// result), written only when the plan has no error, all files together. Rules: docs/participants.md.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qualrank/model/workspace.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

// A sheet of text cells with where each cell stands, read from CSV or from one sheet of an .xlsx.
struct ParticipantSheet {
  std::string source;                   // as printed in locations: "people.csv" or "people.xlsx:Sheet1"
  bool spreadsheet = false;             // xlsx: locations are row:column numbers; CSV: line:column
  std::vector<std::string> header;
  std::vector<Location> header_where;
  struct Row {
    std::vector<std::string> cells;     // as many as header (missing cells "")
    std::vector<Location> where;        // per cell
  };
  std::vector<Row> rows;
};

// A CSV text as a sheet (RFC 4180, util/csv.h); a cell's location is the line and character column where
// its field starts. Malformed CSV is reported; nullopt then.
std::optional<ParticipantSheet> sheet_from_csv(const std::string& text, const std::string& file, Diagnostics& diags);
// An .xlsx sheet (`sheet` by name, or the first one when empty) as a sheet; cells located as
// FILE:SHEET:ROW:COLUMN. nullopt when it cannot be read (reported).
std::optional<ParticipantSheet> sheet_from_xlsx(const std::filesystem::path& path, const std::string& display,
                                                const std::string& sheet, Diagnostics& diags);

// A number of years as people write it: "3", "1.5", "1,5", "3 years", "2 yrs", "1 year", "8 months",
// "8 Months", "18 mo", "3 Jahre", "6 Monate", "3y", "8m". Case is ignored; months are divided by 12. Returns
// nullopt for anything else (ranges, words, negative numbers, more than 100 years).
std::optional<double> parse_years(std::string_view text);
// A number of years as written into front matter: at most two decimals, no trailing zeros ("3", "1.5", "0.67").
std::string format_years(double years);

struct ParticipantImportOptions {
  std::string id_column;                                     // the column holding participant ids
  std::vector<std::pair<std::string, std::string>> map;      // COLUMN -> ATTRIBUTE
};

struct AttributeChange {
  std::string participant;
  std::string file;          // workspace-relative transcript
  std::string attribute;     // "role" or an attribute name
  std::string old_value;     // "" when the attribute was not set
  std::string new_value;
  Location source;           // the sheet cell it comes from
};

struct ParticipantImportPlan {
  std::map<std::string, std::string> files;         // workspace-relative transcript -> new content
  std::map<std::string, std::string> originals;     // the same transcripts' content the plan was made from
  std::vector<AttributeChange> changes;             // in sheet order; only values that differ
  std::vector<std::pair<std::string, std::string>> columns;  // column -> attribute, as used
  std::vector<std::string> ignored_columns;
  std::vector<std::string> sheet_only;              // participant ids with a row but no transcript
  std::vector<std::string> transcript_only;         // participant ids with a transcript but no row
  int rows = 0;                                     // participant rows read
  int unchanged = 0;                                // values already as in the sheet
};

// Plans the import of `sheet` into the workspace at `root`. Columns: the id column; every --map; every other
// column whose header equals (case-insensitively) `role`, the experience attribute, the attribute it is
// derived from, a background question's attribute, or an attribute some transcript has; the rest are ignored
// and listed. Roles and experience levels are matched case-insensitively against the guideline and written
// in its spelling; the experience scheme's `from` attribute goes through parse_years. Every problem is
// reported located in the sheet (or the transcript); participants on one side only are warnings. Returns
// nullopt when there is an error.
std::optional<ParticipantImportPlan> plan_participants_import(const std::filesystem::path& root,
                                                              const ParticipantSheet& sheet,
                                                              const ParticipantImportOptions& options,
                                                              Diagnostics& diags);

// Writes every planned file: each to a temp file first; then, when no transcript changed since planning,
// renames them all into place. Returns false with `error` set (and nothing renamed) otherwise.
bool write_participants_import(const std::filesystem::path& root, const ParticipantImportPlan& plan, std::string* error);

}  // namespace qualrank
