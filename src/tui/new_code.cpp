// The id of a code proposed from the terminal coder (new_code.h).
#include "new_code.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace qualrank::tui {

std::string roman_numeral(int n) {
  static const std::pair<int, const char*> table[] = {{1000, "m"}, {900, "cm"}, {500, "d"}, {400, "cd"}, {100, "c"},
                                                      {90, "xc"},  {50, "l"},   {40, "xl"},  {10, "x"},   {9, "ix"},
                                                      {5, "v"},    {4, "iv"},   {1, "i"}};
  if (n < 1 || n > 3999) return "";
  std::string s;
  for (const auto& [v, r] : table)
    while (n >= v) {
      s += r;
      n -= v;
    }
  return s;
}

int roman_value(const std::string& s) {
  // Canonical only: the value's own numeral must be `s` (so "iiii" or "ic" are not numerals).
  static const std::string digits = "ivxlcdm";
  if (s.empty() || s.size() > 15 || s.find_first_not_of(digits) != std::string::npos) return -1;
  auto val = [](char c) {
    switch (c) {
      case 'i': return 1;
      case 'v': return 5;
      case 'x': return 10;
      case 'l': return 50;
      case 'c': return 100;
      case 'd': return 500;
      default: return 1000;
    }
  };
  int total = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    int v = val(s[i]), next = i + 1 < s.size() ? val(s[i + 1]) : 0;
    total += v < next ? -v : v;
  }
  return roman_numeral(total) == s ? total : -1;
}

namespace {

enum class Style { numbers, lower, upper, roman };

// The numbering style of the last pieces of the children's ids ("a", "ii", "3").
Style style_of(const std::vector<std::string>& pieces) {
  if (pieces.empty()) return Style::numbers;
  auto all = [&](auto pred) { return std::all_of(pieces.begin(), pieces.end(), pred); };
  const bool long_piece = std::any_of(pieces.begin(), pieces.end(), [](const std::string& p) { return p.size() > 1; });
  if (all([](const std::string& p) { return roman_value(p) > 0; }) && (long_piece || (pieces.size() == 1 && pieces[0] == "i")))
    return Style::roman;
  auto single = [](const std::string& p, auto is) { return p.size() == 1 && is(static_cast<unsigned char>(p[0])); };
  if (all([&](const std::string& p) { return single(p, ::islower); })) return Style::lower;
  if (all([&](const std::string& p) { return single(p, ::isupper); })) return Style::upper;
  return Style::numbers;
}

std::string piece(Style style, int k) {
  switch (style) {
    case Style::roman: return roman_numeral(k);
    case Style::lower: return k <= 26 ? std::string(1, static_cast<char>('a' + k - 1)) : std::to_string(k);
    case Style::upper: return k <= 26 ? std::string(1, static_cast<char>('A' + k - 1)) : std::to_string(k);
    case Style::numbers: break;
  }
  return std::to_string(k);
}

}  // namespace

std::string new_child_id(const Taxonomy& taxonomy, const std::string& parent, const std::string& name, int skip) {
  std::vector<std::string> pieces;
  for (const auto& id : taxonomy.order())
    if (const auto* n = taxonomy.find(id); n && n->parent == parent && !parent.empty())
      pieces.push_back(id.substr(id.find_last_of('.') + 1));
  const Style style = style_of(pieces);
  // After the highest child in that style (a gap left by a removed child is not filled).
  int start = 1;
  for (const auto& p : pieces) {
    int v = 0;
    if (style == Style::roman) v = roman_value(p);
    else if (style == Style::lower || style == Style::upper) v = std::tolower(static_cast<unsigned char>(p[0])) - 'a' + 1;
    else if (!p.empty() && p.size() < 6 && p.find_first_not_of("0123456789") == std::string::npos) v = std::stoi(p);
    start = std::max(start, v + 1);
  }
  for (int k = parent.empty() ? 1 : start; k < start + 1000; ++k) {
    std::string id;
    if (parent.empty()) {
      for (char c : name)
        if (std::isalnum(static_cast<unsigned char>(c)) && id.size() < 4) id += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (id.empty()) id = "NEW";
      if (k > 1) id += std::to_string(k);
    } else {
      id = parent + "." + piece(style, k);
    }
    if (!taxonomy.find(id) && skip-- <= 0) return id;
  }
  return parent + ".new";
}

}  // namespace qualrank::tui
