// Reading an existing coded-quote table (`qualrank codebook --import-table FILE.csv`), so teams that coded in
// a spreadsheet get the same workbook and crosstabs. The table has the Coded segments sheet's columns; see
// docs/codebook.md for the format.
#pragma once
#include <optional>
#include <string>

#include "qualrank/model/guideline.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/report/outputs/codebook_data.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

// Parses `text`, the contents of the CSV `file` (the name diagnostics show): RFC 4180, UTF-8 (a BOM is
// skipped), header names matched case-insensitively. Each id in "Linked Taxonomy Node(s)" (comma-separated;
// ids, names or aliases) is resolved with `version.resolve`; every id that does not resolve is reported as
// `FILE:LINE: error: unknown taxonomy node 'ID'`. Participants are taken from the rows (the first row naming a
// participant gives its Type, Experience Level and context attribute,
// codebook_context(options, guideline), read from the column headed by its label or by the attribute's name; later disagreements are warnings).
// Returns nullopt when any error was reported. The result points into `version` and `guideline`.
std::optional<CodebookData> import_coded_table(const std::string& text, const std::string& file,
                                               const TaxonomyVersion& version, const Guideline& guideline,
                                               const CodebookOptions& options, Diagnostics& diags);

}  // namespace qualrank
