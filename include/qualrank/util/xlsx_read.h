// Reading one sheet of an .xlsx workbook as a grid of text cells (libzip + pugixml): shared strings, inline
// strings, formula results stored as strings, numbers (as written in the file, e.g. "3" or "1.5") and booleans
// ("TRUE"/"FALSE"). Styles are not applied: a date cell reads as its serial number. Formulas are never
// evaluated; their cached value is read. Bounded: each XML part at most kMaxPartBytes, at most kMaxReadRows rows
// and kMaxReadColumns columns (more is an error, nothing is read).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank::xlsx {

constexpr std::size_t kMaxPartBytes = 64u * 1024u * 1024u;
constexpr int kMaxReadRows = 100000;
constexpr int kMaxReadColumns = 1000;

struct SheetGrid {
  std::string name;                            // the sheet's name, as in the workbook
  std::vector<std::string> sheet_names;        // every sheet, in workbook order
  std::vector<std::vector<std::string>> rows;  // rows[r][c] = cell at row r+1, column c+1 ("" when empty);
                                               // trailing empty rows dropped, rows padded to the same width
};

// "A" for 1, "Z" for 26, "AA" for 27.
std::string column_letters(int column);
// column_letters(column) appended to `out` (no string of its own: a streamed sheet names millions of cells).
void append_column_letters(std::string& out, int column);

// Reads the sheet named `sheet` (matched exactly, then case-insensitively), or the first sheet when `sheet`
// is empty. Problems (not a zip, no workbook, unknown sheet with a "did you mean", a part too large, malformed
// XML or cell references, a shared-string index out of range) are reported as errors at `display`; returns
// nullopt then.
std::optional<SheetGrid> read_sheet(const std::filesystem::path& path, const std::string& sheet,
                                    const std::string& display, Diagnostics& diags);

}  // namespace qualrank::xlsx
