// Inline streaming CSV parser used by csv::parse and by the hot path of label tables.
#pragma once
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace qualrank::csv {

template <class F>
bool for_each_record(std::string_view text, const std::string& file, Diagnostics& diags, F&& on_record) {
  std::size_t i = 0, n = text.size();
  if (n >= 3 && static_cast<unsigned char>(text[0]) == 0xEF && static_cast<unsigned char>(text[1]) == 0xBB &&
      static_cast<unsigned char>(text[2]) == 0xBF)
    i = 3;
  int line = 1;
  std::vector<std::string_view> fields;
  // Storage for quoted fields of the current record. A deque, so growing it never moves the strings that
  // earlier views of this record point into (a vector would move them, and short strings live inline).
  std::deque<std::string> scratch;
  std::size_t scratch_used = 0;
  while (i < n) {
    int record_line = line;
    fields.clear();
    scratch_used = 0;
    bool blank = true;
    while (true) {
      // one field
      if (i < n && text[i] == '"') {
        blank = false;
        int field_line = line;
        std::size_t field_col = 0;
        (void)field_col;
        ++i;
        if (scratch_used == scratch.size()) scratch.emplace_back();
        std::string& buf = scratch[scratch_used++];
        buf.clear();
        bool closed = false;
        while (i < n) {
          char c = text[i];
          if (c == '"') {
            if (i + 1 < n && text[i + 1] == '"') {
              buf.push_back('"');
              i += 2;
              continue;
            }
            ++i;
            closed = true;
            break;
          }
          if (c == '\n') ++line;
          buf.push_back(c);
          ++i;
        }
        if (!closed) {
          diags.error({file, field_line, 0}, "unterminated quoted field");
          return false;
        }
        if (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
          diags.error({file, line, 0}, "unexpected text after a closing quote");
          return false;
        }
        fields.emplace_back(buf);
      } else {
        std::size_t start = i;
        while (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
          if (text[i] == '"') {
            diags.error({file, line, 0}, "a quote inside an unquoted field (quote the whole field)");
            return false;
          }
          ++i;
        }
        if (i > start) blank = false;
        fields.emplace_back(text.substr(start, i - start));
      }
      if (i < n && text[i] == ',') {
        blank = false;
        ++i;
        continue;
      }
      // end of record
      if (i < n && text[i] == '\r') ++i;
      if (i < n && text[i] == '\n') {
        ++i;
        ++line;
      }
      break;
    }
    if (blank) continue;
    if (!on_record(record_line, fields)) return false;
  }
  return true;
}

}  // namespace qualrank::csv
