// The Excel codebook (`qualrank codebook`, and `qualrank report`): sheets Codebook, Coded segments,
// Participants, Matrix, Co-occurrence and About. Columns, counting rule and safety rules: docs/codebook.md.
#pragma once
#include <filesystem>
#include <functional>

#include "qualrank/report/outputs/codebook_data.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct Study;

// Writes the workbook of `data` to `out` atomically (a temp file renamed into place; the folder is created).
// Cell-content problems (control characters removed, over-long text cut) are warnings in `diags`, located at
// the text's source. Returns false, with an error in `diags` located at `out`, when the file cannot be
// written; `out` is then untouched. `may_commit`, when given, is asked once the workbook is complete whether
// to rename it into place (false: nothing written, no error added; see xlsx::Book::commit).
bool write_codebook_workbook(const CodebookData& data, const CodebookOptions& options,
                             const std::filesystem::path& out, Diagnostics& diags,
                             const std::function<bool()>& may_commit = nullptr);
// The same from tables already computed by codebook_tables(data, options).
bool write_codebook_workbook(const CodebookData& data, const CodebookOptions& options, const CodebookTables& tables,
                             const std::filesystem::path& out, Diagnostics& diags,
                             const std::function<bool()>& may_commit = nullptr);

// The same for a loaded study (codebook_data(study, options)).
bool write_codebook_workbook(const Study& study, const CodebookOptions& options, const std::filesystem::path& out,
                             Diagnostics& diags);

}  // namespace qualrank
