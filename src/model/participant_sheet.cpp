// The sheet side of `qualrank participants import`: a CSV text or one .xlsx sheet as located text cells,
// and the rules that turn "3 years", "1,5" or "8 months" into a number of years (docs/participants.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "qualrank/model/participants_import.h"
#include "qualrank/util/csv.h"
#include "qualrank/util/text.h"
#include "qualrank/util/xlsx_read.h"

namespace qualrank {

namespace fs = std::filesystem;

// ---- reading the sheet -------------------------------------------------------------------------------

namespace {

// Where each field of the CSV record starting at byte `pos` begins: (line, column in code points). Columns
// are counted on from the previous field's, so a record is one pass however many fields it has.
std::vector<std::pair<int, int>> field_starts(std::string_view text, std::size_t pos, int line) {
  std::vector<std::pair<int, int>> out;
  std::size_t line_begin = pos, counted_to = pos;
  std::size_t points = 0;  // code points from line_begin to counted_to
  auto column = [&](std::size_t at) {
    points += text::count_code_points(text.substr(counted_to, at - counted_to));
    counted_to = at;
    return static_cast<int>(points) + 1;
  };
  out.emplace_back(line, column(pos));
  bool quoted = false;
  for (std::size_t i = pos; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') ++i;
        else quoted = false;
      } else if (c == '\n') {
        ++line;
        line_begin = i + 1;
        points = 0;
        counted_to = line_begin;
      }
      continue;
    }
    if (c == '"') quoted = true;
    else if (c == ',') out.emplace_back(line, column(i + 1));
    else if (c == '\n' || c == '\r') break;
  }
  return out;
}

}  // namespace

std::optional<ParticipantSheet> sheet_from_csv(const std::string& text_in, const std::string& file, Diagnostics& diags) {
  if (auto bad = text::find_invalid_utf8(text_in)) {
    diags.error({file, bad->line, bad->column}, "invalid UTF-8 (save the sheet as UTF-8 CSV)");
    return std::nullopt;
  }
  int before = diags.error_count();
  auto table = csv::parse(text_in, file, diags);
  if (diags.error_count() > before) return std::nullopt;
  if (table.rows.size() > static_cast<std::size_t>(xlsx::kMaxReadRows)) {
    diags.error({file, table.rows[static_cast<std::size_t>(xlsx::kMaxReadRows)].line, 1},
                "more than " + std::to_string(xlsx::kMaxReadRows) + " rows; qualrank reads at most that many participants");
    return std::nullopt;
  }
  std::string_view text(text_in);
  std::vector<std::size_t> line_starts{0};
  if (text.substr(0, 3) == "\xEF\xBB\xBF") line_starts[0] = 3;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') line_starts.push_back(i + 1);
  auto starts_of = [&](int line, std::size_t n) {
    std::vector<Location> where;
    std::vector<std::pair<int, int>> s;
    if (line >= 1 && static_cast<std::size_t>(line) <= line_starts.size())
      s = field_starts(text, line_starts[static_cast<std::size_t>(line - 1)], line);
    for (std::size_t k = 0; k < n; ++k)
      where.push_back(k < s.size() ? Location{file, s[k].first, s[k].second} : Location{file, line, 0});
    return where;
  };
  ParticipantSheet sheet;
  sheet.source = file;
  sheet.header = table.header;
  sheet.header_where = starts_of(table.header_line, table.header.size());
  for (const auto& r : table.rows) {
    ParticipantSheet::Row row;
    row.cells = r.fields;
    row.cells.resize(table.header.size());
    row.where = starts_of(r.line, table.header.size());
    sheet.rows.push_back(std::move(row));
  }
  return sheet;
}

std::optional<ParticipantSheet> sheet_from_xlsx(const fs::path& path, const std::string& display, const std::string& name,
                                                Diagnostics& diags) {
  auto grid = xlsx::read_sheet(path, name, display, diags);
  if (!grid) return std::nullopt;
  ParticipantSheet sheet;
  sheet.source = display + ":" + grid->name;
  sheet.spreadsheet = true;
  if (grid->rows.empty()) {
    diags.error({sheet.source, 1, 1}, "the sheet is empty (its first row must name the columns)");
    return std::nullopt;
  }
  const auto width = grid->rows.front().size();
  for (std::size_t c = 0; c < width; ++c) {
    sheet.header.push_back(grid->rows.front()[c]);
    sheet.header_where.push_back({sheet.source, 1, static_cast<int>(c) + 1});
  }
  for (std::size_t r = 1; r < grid->rows.size(); ++r) {
    const auto& cells = grid->rows[r];
    if (std::all_of(cells.begin(), cells.end(), [](const std::string& s) { return text::trim(s).empty(); })) continue;
    ParticipantSheet::Row row;
    row.cells = cells;
    for (std::size_t c = 0; c < width; ++c) {
      row.where.push_back({sheet.source, static_cast<int>(r) + 1, static_cast<int>(c) + 1});
      if (auto bad = text::find_invalid_utf8(row.cells[c])) {
        diags.error(row.where.back(), "invalid UTF-8 in the cell");
        row.cells[c].clear();
      }
    }
    sheet.rows.push_back(std::move(row));
  }
  return sheet;
}

// ---- years -------------------------------------------------------------------------------------------

std::optional<double> parse_years(std::string_view in) {
  auto s = std::string(text::trim(in));
  std::size_t i = 0;
  std::string number;
  bool separator = false;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == ',')) {
    if (s[i] == '.' || s[i] == ',') {
      if (separator || number.empty()) return std::nullopt;
      separator = true;
      number += '.';
    } else {
      number += s[i];
    }
    ++i;
  }
  if (number.empty() || number.back() == '.') return std::nullopt;
  auto unit = text::to_lower_ascii(text::trim(std::string_view(s).substr(i)));
  static const std::set<std::string> year_units{"", "y", "yr", "yrs", "year", "years", "jahr", "jahre"};
  static const std::set<std::string> month_units{"m", "mo", "mos", "month", "months", "monat", "monate"};
  double value = std::strtod(number.c_str(), nullptr);
  if (month_units.count(unit)) value /= 12.0;
  else if (!year_units.count(unit)) return std::nullopt;
  if (!std::isfinite(value) || value > 100.0) return std::nullopt;
  return value;
}

std::string format_years(double years) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", std::round(years * 100.0) / 100.0);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace qualrank
