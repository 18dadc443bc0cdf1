// Cell references in "A1" style, shared by the workbook layer (xlsx_book.h) and the streamed writer
// (xlsx_stream.h), so that neither includes the other.
#pragma once
#include <string>

namespace qualrank::xlsx {

// The cell reference "A1" style for 0-based (row, col), e.g. (0, 0) -> "A1", (11, 27) -> "AB12".
std::string cell_name(int row, int col);
// cell_name(row, col) appended to `out`.
void append_cell_name(std::string& out, int row, int col);

}  // namespace qualrank::xlsx
