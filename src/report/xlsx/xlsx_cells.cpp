#include "qualrank/report/xlsx/xlsx_cells.h"

#include <charconv>

#include "qualrank/util/xlsx_read.h"  // append_column_letters

namespace qualrank::xlsx {

void append_cell_name(std::string& out, int row, int col) {
  append_column_letters(out, col + 1);
  char digits[16];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, row + 1).ptr);
}

std::string cell_name(int row, int col) {
  std::string out;
  append_cell_name(out, row, col);
  return out;
}

}  // namespace qualrank::xlsx
