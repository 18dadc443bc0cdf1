#include "qualrank/util/csv.h"

#include "qualrank/util/text.h"

namespace qualrank::csv {

int Table::column(std::string_view name) const {
  auto want = text::to_lower_ascii(text::trim(name));
  for (std::size_t i = 0; i < header.size(); ++i)
    if (text::to_lower_ascii(text::trim(header[i])) == want) return static_cast<int>(i);
  return -1;
}

Table parse(std::string_view text_in, const std::string& file, Diagnostics& diags) {
  Table table;
  bool have_header = false;
  for_each_record(text_in, file, diags, [&](int line, const std::vector<std::string_view>& fields) {
    if (!have_header) {
      for (auto f : fields) table.header.emplace_back(text::trim(f));
      table.header_line = line;
      have_header = true;
      return true;
    }
    if (fields.size() != table.header.size()) {
      diags.error({file, line, 0}, "row has " + std::to_string(fields.size()) + " fields, the header has " +
                                       std::to_string(table.header.size()));
      return true;
    }
    Record r;
    r.line = line;
    r.fields.assign(fields.begin(), fields.end());
    table.rows.push_back(std::move(r));
    return true;
  });
  if (!have_header && !diags.has_errors()) diags.error({file, 1, 0}, "empty CSV file (no header row)");
  return table;
}

std::string quote(std::string_view field, bool neutralise_formulas) {
  std::string f(field);
  if (neutralise_formulas && !f.empty() &&
      (f[0] == '=' || f[0] == '+' || f[0] == '-' || f[0] == '@' || f[0] == '\t' || f[0] == '\r'))
    f.insert(f.begin(), '\'');
  if (f.find_first_of(",\"\r\n") == std::string::npos) return f;
  std::string out = "\"";
  for (char c : f) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string format_record(const std::vector<std::string>& fields, bool neutralise_formulas) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    out += quote(fields[i], neutralise_formulas);
  }
  out += '\n';
  return out;
}

}  // namespace qualrank::csv
