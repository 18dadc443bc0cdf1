// Plain scalars are used only for a conservative character set (letters, digits, spaces and a few safe
// punctuation marks, no leading indicator, no ": " or " #"), so they never change meaning; everything else
// is double-quoted with YAML escapes.
#include "qualrank/util/yaml_emit.h"

#include <cctype>
#include <cstdio>

namespace qualrank::yaml {

namespace {

bool plain_safe(std::string_view s, bool in_flow) {
  if (s.empty() || s.front() == ' ' || s.back() == ' ' || s.back() == ':') return false;
  static const std::string_view reserved_words[] = {"null", "Null", "NULL", "~", "true", "false", "True", "False",
                                                    "TRUE", "FALSE", "yes", "no", "Yes", "No", "on", "off"};
  for (auto w : reserved_words)
    if (s == w) return false;
  unsigned char first = static_cast<unsigned char>(s.front());
  if (!(std::isalnum(first) || first == '_' || first == '(' || first == '/' || first >= 0x80)) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) continue;  // UTF-8 text
    if (std::isalnum(c)) continue;
    switch (c) {
      case ' ': case '.': case '_': case '-': case '/': case '(': case ')': case '+': case '\'': case '=':
      case ';': case '?': case '!': case '$': case '^': case '~': case '<': case '>':
        break;
      case ':':
        if (in_flow || (i + 1 < s.size() && s[i + 1] == ' ')) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

std::string quote_scalar(std::string_view s, bool in_flow) {
  if (plain_safe(s, in_flow)) return std::string(s);
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out += '"';
  return out;
}

}  // namespace

std::string quote(std::string_view s) { return quote_scalar(s, false); }

std::string flow_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += quote_scalar(items[i], true);  // ',' '[' ']' ':' are quoted
  }
  return out + "]";
}

}  // namespace qualrank::yaml
