// A participants sheet (qualrank participants import FILE.csv|FILE.xlsx): read as CSV and as an .xlsx
// workbook, and every cell through the years rule.
#include "fuzz_target.h"
#include "qualrank/model/participants_import.h"

QUALRANK_FUZZ_TARGET(participants) {
  using namespace qualrank;
  const std::string text(reinterpret_cast<const char*>(data), size);
  {
    Diagnostics diags;
    auto sheet = sheet_from_csv(text, "people.csv", diags);
    fuzz::check_located(diags);
    if (sheet)
      for (const auto& row : sheet->rows)
        for (const auto& cell : row.cells) {
          if (!diags.has_errors()) fuzz::check_utf8(cell, "a sheet cell");
          if (auto years = parse_years(cell); years && !(*years >= 0 && *years <= 100)) __builtin_trap();
        }
  }
  {
    Diagnostics diags;
    auto path = fuzz::temp_file(text, ".xlsx");
    auto sheet = sheet_from_xlsx(path, "people.xlsx", "", diags);
    fuzz::check_located(diags);
    if (sheet && !diags.has_errors())
      for (const auto& row : sheet->rows)
        for (const auto& cell : row.cells) fuzz::check_utf8(cell, "a sheet cell");
  }
  return 0;
}
