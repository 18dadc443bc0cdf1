// One sheet of an .xlsx (Office Open XML, ECMA-376 Part 1, §18.3 worksheets, §18.4 shared strings) as text
// cells. The path to the sheet is taken from xl/workbook.xml (<sheet name r:id>) and
// xl/_rels/workbook.xml.rels (Relationship Id -> Target), as Excel, LibreOffice and openpyxl write them.
#include "qualrank/util/xlsx_read.h"

#include <pugixml.hpp>

#include <algorithm>

#include "qualrank/util/text.h"
#include "qualrank/util/xml_names.h"
#include "qualrank/util/zip.h"

namespace qualrank::xlsx {

namespace {

using xml::attribute;
using xml::child;
using xml::children;
using xml::local_name;

// The text of a string item (<si> or <is>): its <t>, or the <t> of every rich-text run <r>; phonetic runs
// (<rPh>) are left out.
std::string string_item(const pugi::xml_node& si) {
  std::string out;
  for (auto c : si.children()) {
    if (c.type() != pugi::node_element) continue;
    if (local_name(c) == "t") out += c.text().get();
    else if (local_name(c) == "r")
      if (auto t = child(c, "t")) out += t.text().get();
  }
  return out;
}

// "B12" -> column 2, row 12; false when malformed or beyond the limits.
bool parse_ref(std::string_view ref, int& row, int& column) {
  std::size_t i = 0;
  long col = 0;
  while (i < ref.size() && ref[i] >= 'A' && ref[i] <= 'Z') {
    col = col * 26 + (ref[i] - 'A' + 1);
    if (col > 16384) return false;
    ++i;
  }
  if (i == 0 || i == ref.size()) return false;
  long r = 0;
  for (; i < ref.size(); ++i) {
    if (ref[i] < '0' || ref[i] > '9') return false;
    r = r * 10 + (ref[i] - '0');
    if (r > 1048576) return false;
  }
  if (r < 1) return false;
  row = static_cast<int>(r);
  column = static_cast<int>(col);
  return true;
}

struct Loader {
  zip::Reader& zip;
  const std::string& display;
  Diagnostics& diags;

  std::optional<pugi::xml_document> part(const std::string& name, bool required) {
    auto bytes = zip.read(name, true, kMaxPartBytes);
    if (!bytes) {
      if (required) diags.error({display, 0, 0}, "not a readable .xlsx workbook: " + zip.error());
      return std::nullopt;
    }
    pugi::xml_document doc;
    auto res = doc.load_buffer(bytes->data(), bytes->size(), pugi::parse_default, pugi::encoding_utf8);
    if (!res) {
      diags.error({display, 0, 0}, "malformed XML in " + name + ": " + res.description());
      return std::nullopt;
    }
    return doc;
  }
};

}  // namespace

void append_column_letters(std::string& out, int column) {
  char letters[8];  // column <= 16,384 ("XFD") in a sheet; 8 letters hold any int
  char* const end = letters + sizeof letters;
  char* p = end;
  for (; column > 0 && p > letters; column = (column - 1) / 26) *--p = static_cast<char>('A' + (column - 1) % 26);
  out.append(p, end);
}

std::string column_letters(int column) {
  std::string out;
  append_column_letters(out, column);
  return out;
}

std::optional<SheetGrid> read_sheet(const std::filesystem::path& path, const std::string& sheet,
                                    const std::string& display, Diagnostics& diags) {
  zip::Reader zip(path);
  if (!zip.ok()) {
    diags.error({display, 0, 0}, "not a readable .xlsx workbook: " + zip.error());
    return std::nullopt;
  }
  Loader L{zip, display, diags};
  auto workbook = L.part("xl/workbook.xml", true);
  if (!workbook) return std::nullopt;
  auto rels = L.part("xl/_rels/workbook.xml.rels", true);
  if (!rels) return std::nullopt;

  SheetGrid grid;
  std::vector<std::string> rids;
  for (auto s : children(child(workbook->document_element(), "sheets"), "sheet")) {
    grid.sheet_names.push_back(s.attribute("name").value());
    rids.push_back(attribute(s, "id").value());
  }
  if (grid.sheet_names.empty()) {
    diags.error({display, 0, 0}, "the workbook has no sheets");
    return std::nullopt;
  }
  std::size_t index = 0;
  if (!sheet.empty()) {
    auto it = std::find(grid.sheet_names.begin(), grid.sheet_names.end(), sheet);
    if (it == grid.sheet_names.end())
      it = std::find_if(grid.sheet_names.begin(), grid.sheet_names.end(),
                        [&](const std::string& n) { return text::fold_case(n) == text::fold_case(sheet); });
    if (it == grid.sheet_names.end()) {
      auto hint = text::closest(sheet, grid.sheet_names);
      diags.error({display, 0, 0}, "no sheet '" + sheet + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                                       " (sheets: " + text::join(grid.sheet_names, ", ") + ")");
      return std::nullopt;
    }
    index = static_cast<std::size_t>(it - grid.sheet_names.begin());
  }
  grid.name = grid.sheet_names[index];
  std::string target;
  for (auto r : children(rels->document_element(), "Relationship"))
    if (rids[index] == r.attribute("Id").value()) target = r.attribute("Target").value();
  if (target.empty()) {
    diags.error({display, 0, 0}, "sheet '" + grid.name + "' has no part in the workbook's relationships");
    return std::nullopt;
  }
  // Targets are relative to xl/ ("worksheets/sheet1.xml") or absolute in the package ("/xl/worksheets/...").
  std::string part_name = target.front() == '/' ? target.substr(1) : "xl/" + target;

  std::vector<std::string> shared;
  if (auto sst = L.part("xl/sharedStrings.xml", false)) {
    for (auto si : children(sst->document_element(), "si")) shared.push_back(string_item(si));
  } else if (diags.has_errors()) {
    return std::nullopt;
  }
  auto ws = L.part(part_name, true);
  if (!ws) return std::nullopt;
  std::string where = display + ":" + grid.name;
  int errors_before = diags.error_count();
  int width = 0;
  for (auto row : children(child(ws->document_element(), "sheetData"), "row")) {
    int next_column = 1;
    int row_number = 0;
    if (auto r = row.attribute("r")) row_number = r.as_int();
    else row_number = static_cast<int>(grid.rows.size()) + 1;
    if (row_number < 1 || row_number > kMaxReadRows) {
      diags.error({where, row_number, 0}, "row " + std::to_string(row_number) + " is beyond the " +
                                              std::to_string(kMaxReadRows) + " rows qualrank reads");
      return std::nullopt;
    }
    for (auto c : children(row, "c")) {
      int r = row_number, col = next_column;
      if (auto ref = c.attribute("r")) {
        if (!parse_ref(ref.value(), r, col) || r != row_number) {
          diags.error({where, row_number, 0}, std::string("malformed cell reference '") + ref.value() + "'");
          continue;
        }
      }
      next_column = col + 1;
      if (col > kMaxReadColumns) {
        diags.error({where, r, col}, "column " + column_letters(col) + " is beyond the " + std::to_string(kMaxReadColumns) +
                                         " columns qualrank reads");
        return std::nullopt;
      }
      std::string type = c.attribute("t").value();
      std::string value;
      if (type == "inlineStr") {
        value = string_item(child(c, "is"));
      } else {
        std::string v = child(c, "v").text().get();
        if (type == "s") {
          char* end = nullptr;
          long k = std::strtol(v.c_str(), &end, 10);
          if (v.empty() || *end != '\0' || k < 0 || static_cast<std::size_t>(k) >= shared.size()) {
            diags.error({where, r, col}, "shared string index '" + v + "' out of range");
            continue;
          }
          value = shared[static_cast<std::size_t>(k)];
        } else if (type == "b") {
          value = v == "1" ? "TRUE" : "FALSE";
        } else {
          value = v;  // n (number, as written), str (formula result), e (error value such as #N/A)
        }
      }
      if (value.empty()) continue;
      if (static_cast<int>(grid.rows.size()) < r) grid.rows.resize(static_cast<std::size_t>(r));
      auto& cells = grid.rows[static_cast<std::size_t>(r - 1)];
      if (static_cast<int>(cells.size()) < col) cells.resize(static_cast<std::size_t>(col));
      cells[static_cast<std::size_t>(col - 1)] = std::move(value);
      width = std::max(width, col);
    }
  }
  if (diags.error_count() > errors_before) return std::nullopt;
  for (auto& cells : grid.rows) cells.resize(static_cast<std::size_t>(width));
  return grid;
}

}  // namespace qualrank::xlsx
