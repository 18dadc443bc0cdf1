// LaTeX escaping and booktabs tables (include/qualrank/report/latex/latex_escape.h).
#include "qualrank/report/latex/latex_escape.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>

#include "latex_internal.h"
#include "qualrank/util/text.h"

namespace qualrank::latex {

const char* const kPreambleLines =
    "\\usepackage[utf8]{inputenc}\n"
    "\\usepackage[T1]{fontenc}\n"
    "\\usepackage{lmodern}\n"
    "\\usepackage{booktabs}\n"
    "\\usepackage{longtable}\n"
    "\\usepackage{array}\n";

namespace {

// The code points from U+00A0 that LaTeX's utf8 input encoding declares (utf8enc.dfu, t1enc.dfu, ts1enc.dfu,
// ot1enc.dfu, omsenc.dfu of TeX Live 2022) and that pdflatex then typesets with \usepackage[T1]{fontenc} and no
// other package (each compiled once in one document; the Cyrillic, Greek and others that need more are left
// out), as closed ranges.
constexpr std::pair<std::uint32_t, std::uint32_t> kDeclared[] = {
    {0x00A0, 0x0125}, {0x0128, 0x0137}, {0x0139, 0x013E}, {0x0141, 0x0148}, {0x014A, 0x0165}, {0x0168, 0x017E},
    {0x0192, 0x0192}, {0x01C4, 0x01D4}, {0x01E2, 0x01E3}, {0x01E6, 0x01EB}, {0x01F0, 0x01F0}, {0x01F4, 0x01F5},
    {0x0218, 0x021B}, {0x0232, 0x0233}, {0x0237, 0x0237}, {0x02C6, 0x02C7}, {0x02D8, 0x02D9}, {0x02DB, 0x02DD},
    {0x0E3F, 0x0E3F}, {0x1E02, 0x1E03}, {0x1E0D, 0x1E0D}, {0x1E1E, 0x1E21}, {0x1E25, 0x1E25}, {0x1E30, 0x1E31},
    {0x1E37, 0x1E37}, {0x1E43, 0x1E43}, {0x1E45, 0x1E45}, {0x1E47, 0x1E47}, {0x1E5B, 0x1E5B}, {0x1E63, 0x1E63},
    {0x1E6D, 0x1E6D}, {0x1E8E, 0x1E91}, {0x1E9E, 0x1E9E}, {0x1EF2, 0x1EF3}, {0x2010, 0x2016}, {0x2018, 0x201A},
    {0x201C, 0x201E}, {0x2020, 0x2022}, {0x2026, 0x2026}, {0x2030, 0x2031}, {0x2039, 0x203B}, {0x203D, 0x203D},
    {0x2044, 0x2044}, {0x204E, 0x204E}, {0x2052, 0x2052}, {0x20A1, 0x20A1}, {0x20A4, 0x20A4}, {0x20A6, 0x20A6},
    {0x20A9, 0x20A9}, {0x20AB, 0x20AC}, {0x20B1, 0x20B1}, {0x2103, 0x2103}, {0x2116, 0x2117}, {0x211E, 0x211E},
    {0x2120, 0x2120}, {0x2122, 0x2122}, {0x2126, 0x2127}, {0x212E, 0x212E}, {0x2190, 0x2193}, {0x2329, 0x232A},
    {0x2422, 0x2423}, {0x25E6, 0x25E6}, {0x25EF, 0x25EF}, {0x266A, 0x266A}, {0x27E8, 0x27E9}, {0x3008, 0x3009},
    {0xFB00, 0xFB06}};

bool declared(std::uint32_t cp) {
  const auto* it = std::upper_bound(std::begin(kDeclared), std::end(kDeclared), cp,
                                    [](std::uint32_t c, const auto& range) { return c < range.first; });
  return it != std::begin(kDeclared) && cp <= std::prev(it)->second;
}

// Greek letters as math: α..ω (U+03B1..U+03C9) and the capitals (U+0391..U+03A9); Latin-looking capitals and
// omicron as upright letters.
const char* greek(std::uint32_t cp) {
  static const char* const lower[] = {"\\alpha", "\\beta",    "\\gamma", "\\delta",   "\\epsilon", "\\zeta",   "\\eta",
                                      "\\theta", "\\iota",    "\\kappa", "\\lambda",  "\\mu",      "\\nu",     "\\xi",
                                      "o",       "\\pi",      "\\rho",   "\\varsigma", "\\sigma",  "\\tau",    "\\upsilon",
                                      "\\phi",   "\\chi",     "\\psi",   "\\omega"};
  static const char* const upper[] = {"\\mathrm{A}", "\\mathrm{B}", "\\Gamma",     "\\Delta", "\\mathrm{E}", "\\mathrm{Z}",
                                      "\\mathrm{H}", "\\Theta",     "\\mathrm{I}", "\\mathrm{K}", "\\Lambda", "\\mathrm{M}",
                                      "\\mathrm{N}", "\\Xi",        "\\mathrm{O}", "\\Pi",     "\\mathrm{P}", nullptr,
                                      "\\Sigma",     "\\mathrm{T}", "\\Upsilon",   "\\Phi",   "\\mathrm{X}", "\\Psi",
                                      "\\Omega"};
  if (cp >= 0x03B1 && cp <= 0x03C9) return lower[cp - 0x03B1];
  if (cp >= 0x0391 && cp <= 0x03A9) return upper[cp - 0x0391];
  return nullptr;
}

// Decodes one UTF-8 sequence at s[i]; returns its code point and length, or (U+FFFD, 1) for a byte that does
// not start a well-formed sequence.
std::pair<std::uint32_t, std::size_t> decode(std::string_view s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  std::size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + len > s.size()) return {0xFFFD, 1};
  std::uint32_t cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
  for (std::size_t k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return {0xFFFD, 1};
    cp = (cp << 6) | (c & 0x3F);
  }
  static const std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {0xFFFD, 1};
  return {cp, len};
}

bool ligature(char a, char b) {
  return (a == '-' && b == '-') || (a == '`' && b == '`') || (a == '\'' && b == '\'') || (a == ',' && b == ',') ||
         ((a == '!' || a == '?') && b == '`');
}

}  // namespace

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x80) {
      switch (c) {
        case '&': out += "\\&"; break;
        case '%': out += "\\%"; break;
        case '$': out += "\\$"; break;
        case '#': out += "\\#"; break;
        case '_': out += "\\_"; break;
        case '{': out += "\\{"; break;
        case '}': out += "\\}"; break;
        case '\\': out += "\\textbackslash{}"; break;
        case '~': out += "\\textasciitilde{}"; break;
        case '^': out += "\\textasciicircum{}"; break;
        case '<': out += "\\textless{}"; break;
        case '>': out += "\\textgreater{}"; break;
        case '|': out += "\\textbar{}"; break;
        case '"': out += "\\textquotedbl{}"; break;
        case '/': out += "\\slash{}"; break;  // a line may break after it ("Multi-Process/Distributed")
        case '[': out += "{[}"; break;
        case ']': out += "{]}"; break;
        default:
          if (b < 0x20 || b == 0x7F) out += ' ';
          else out += c;
      }
      if (i + 1 < s.size() && ligature(c, s[i + 1])) out += "{}";
      ++i;
      continue;
    }
    const auto [cp, len] = decode(s, i);
    if (cp != 0xFFFD && declared(cp)) {
      out.append(s.substr(i, len));
    } else if (const char* g = greek(cp)) {
      out += "\\ensuremath{";
      out += g;
      out += '}';
    } else if (cp == 0x2212) {
      out += "\\ensuremath{-}";
    } else if (cp == 0x2264 || cp == 0x2265 || cp == 0x2260) {
      out += cp == 0x2264 ? "\\ensuremath{\\leq}" : cp == 0x2265 ? "\\ensuremath{\\geq}" : "\\ensuremath{\\neq}";
    } else {
      char buf[16];
      std::snprintf(buf, sizeof buf, "{[}U+%04X{]}", static_cast<unsigned>(cp));
      out += buf;
    }
    i += len;
  }
  return out;
}

const char* const kUndefined = "---";

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// The number of digits in s from `from` on (forward) or before `to` (backward).
std::size_t digits_after(std::string_view s, std::size_t from) {
  std::size_t n = 0;
  while (from + n < s.size() && digit(s[from + n])) ++n;
  return n;
}
std::size_t digits_before(std::string_view s, std::size_t to) {
  std::size_t n = 0;
  while (n < to && digit(s[to - n - 1])) ++n;
  return n;
}

// The hyphen at s[i], between digits, is part of a date: YYYY-MM or YYYY-MM-DD.
bool date_hyphen(std::string_view s, std::size_t i) {
  const std::size_t before = digits_before(s, i), after = digits_after(s, i + 1);
  if (before == 4 && after == 2) return true;
  return before == 2 && after == 2 && i >= 7 && s[i - 3] == '-' && digits_before(s, i - 3) == 4;
}

}  // namespace

std::string prose(std::string_view s) {
  std::string out;
  std::size_t start = 0;  // the text from here on is not written yet
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char* math = nullptr;
    std::size_t skip = 0;
    if ((s[i] == '<' || s[i] == '>') && i + 1 < s.size() && s[i + 1] == '=') {
      math = s[i] == '<' ? "$\\le$" : "$\\ge$";
      skip = 2;
    } else if (s[i] == '-' && i > 0 && digit(s[i - 1]) && i + 1 < s.size() && digit(s[i + 1]) && !date_hyphen(s, i)) {
      math = "--";  // an en dash
      skip = 1;
    }
    if (!math) continue;
    out += escape(s.substr(start, i - start));
    out += math;
    start = i + skip;
    i = start - 1;
  }
  out += escape(s.substr(start));
  return out;
}

std::string shortened(std::string_view text, std::size_t max_chars) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < text.size();) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < text.size() && !(text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r')) ++j;
    if (j > i) words.emplace_back(text.substr(i, j - i));
    i = j;
  }
  const std::string whole = text::join(words, " ");
  if (text::count_code_points(whole) <= max_chars) return whole;
  const std::string ellipsis = "\u2026";
  std::string out;
  std::size_t chars = 0;
  for (const auto& w : words) {
    const std::size_t n = text::count_code_points(w) + (out.empty() ? 0 : 1);
    if (chars + n + 1 > max_chars) break;  // room for the ellipsis
    out += (out.empty() ? "" : " ") + w;
    chars += n;
  }
  if (out.empty()) {  // one word longer than the whole: cut it at a character
    for (std::size_t i = 0; i < whole.size() && chars + 1 < max_chars;) {
      std::size_t len = 1;
      while (i + len < whole.size() && (static_cast<unsigned char>(whole[i + len]) & 0xC0) == 0x80) ++len;
      out.append(whole, i, len);
      i += len;
      ++chars;
    }
  }
  // no dangling punctuation before the ellipsis ("the tools, …")
  while (!out.empty() && (out.back() == ',' || out.back() == ';' || out.back() == ':' || out.back() == '-')) out.pop_back();
  return out + ellipsis;
}

std::string slug(std::string_view text) {
  std::string out;
  for (char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) out += c;
    else if (c >= 'A' && c <= 'Z') out += static_cast<char>(c - 'A' + 'a');
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "item" : out;
}

std::string number(const nlohmann::ordered_json& value, int digits) {
  if (!value.is_number()) return kUndefined;
  std::string s = text::fixed(value.get<double>(), digits);
  if (!s.empty() && s[0] == '-') s.replace(0, 1, "$-$");
  return s;
}

std::string integer(const nlohmann::ordered_json& value) {
  if (value.is_number_integer()) return value.dump();
  return number(value, 0);
}

std::string p_value(const nlohmann::ordered_json& value) {
  if (!value.is_number()) return kUndefined;
  if (value.get<double>() < 0.001) return "\\textless{} 0.001";
  return number(value, 3);
}

std::string stacked(const std::vector<std::string>& lines, char align, bool head) {
  if (lines.size() == 1) return lines.front();
  std::string o = std::string("\\begin{tabular}[") + (head ? 'b' : 't') + "]{@{}" + align + "@{}}";
  for (std::size_t i = 0; i < lines.size(); ++i) o += (i ? "\\\\ " : "") + lines[i];
  return o + "\\end{tabular}";
}

namespace {

// A word of a cell that TeX can set alone in an \hbox: balanced braces, no environment, no line break.
bool measurable_word(std::string_view w) {
  if (w.empty() || w.find("\\begin") != std::string_view::npos || w.find("\\end") != std::string_view::npos ||
      w.find("\\\\") != std::string_view::npos || w.back() == '\\')
    return false;
  int depth = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i] == '\\') {
      ++i;  // an escaped character (\{ \} \% \&) or a command's first letter
      continue;
    }
    if (w[i] == '{') ++depth;
    if (w[i] == '}' && --depth < 0) return false;
    if (w[i] == '&' || w[i] == '%') return false;
  }
  return depth == 0;
}

// The `n` longest distinct `texts` (by bytes, a stand-in for their width), longest first; ties in order.
std::vector<std::string_view> longest(const std::vector<std::string_view>& texts, std::size_t n) {
  std::vector<std::string_view> sorted(texts);
  std::stable_sort(sorted.begin(), sorted.end(), [](std::string_view a, std::string_view b) { return a.size() > b.size(); });
  std::vector<std::string_view> out;  // distinct
  for (auto t : sorted) {
    if (out.size() == n) break;
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

// TeX that sets \dimen2 to the widest of `texts` set in an \hbox.
std::string widest_of(const std::vector<std::string_view>& texts) {
  std::string o = "\\dimen2=0pt";
  for (auto t : texts) o += "\\setbox0=\\hbox{" + std::string(t) + "}\\ifdim\\wd0>\\dimen2 \\dimen2=\\wd0 \\fi";
  return o + "\n";
}

// The head and the cells of column `c`.
std::vector<std::string_view> column_cells(const Table& t, std::size_t c) {
  std::vector<std::string_view> cells{t.columns[c].head};
  for (const auto& row : t.rows)
    if (c < row.size()) cells.push_back(row[c]);
  return cells;
}

// What a line of `cells` cannot break inside, measurable alone: the words, and a word's pieces up to each
// hyphen (TeX may break after an explicit one: "mixture-", "of-", "experts") or \slash{}.
std::vector<std::string_view> unbreakable_pieces(const std::vector<std::string_view>& cells) {
  std::vector<std::string_view> out;
  for (auto cell : cells)
    for (std::size_t start = 0; start <= cell.size();) {
      auto end = cell.find(' ', start);
      if (end == std::string_view::npos) end = cell.size();
      const auto w = cell.substr(start, end - start);
      for (std::size_t from = 0; from < w.size();) {
        const auto dash = w.find('-', from);
        const auto slash = w.find("\\slash{}", from);  // escape's "/", after which a line may break
        std::size_t to = dash == std::string_view::npos ? w.size() : dash + 1;
        if (slash != std::string_view::npos && slash + 8 < to) to = slash + 8;
        if (auto piece = w.substr(from, to - from); measurable_word(piece)) out.push_back(piece);
        from = to;
      }
      start = end + 1;
    }
  return out;
}

// The widths of the wrapped ("X") columns, computed by TeX where the table is set (its font, its \linewidth):
// each fixed column ("l", "r", "c") as wide as its widest cell, measured (a "p{W}" column W); the rest of the
// line, less the space between columns, shared by the wrapped columns in proportion to their longest cell (in
// bytes, at most 80), each at least as wide as its longest unbreakable piece (a column pinned at that width
// leaves the rest to the others), so that no word runs into the
// next column. Defines \qualrankwa, \qualrankwb, ... (one per wrapped column, local to the table's group).
// Measured in the table's font; when those pieces alone make the table wider than the line (\dimen8),
// measured again in \small, then in \footnotesize with 2pt between columns, then in \scriptsize with 1.5pt, which
// the table is then set in (a Table with `split` is set in two parts when even that is too wide).
std::string wrapped_widths(const Table& t, std::vector<std::string>& names) {
  constexpr std::size_t kMeasured = 3;  // cells (or pieces) measured per column: the longest by bytes
  std::string o = "\\dimen0=0pt\n";
  std::vector<std::size_t> wrapped, desire;
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    const auto& spec = t.columns[c].spec;
    const auto cells = column_cells(t, c);
    if (spec == "X") {
      std::size_t d = 1;
      for (auto cell : cells) d = std::max(d, cell.size());
      wrapped.push_back(c);
      desire.push_back(std::min<std::size_t>(d, 80));
    } else if (auto p = spec.rfind("p{"); p != std::string::npos && spec.back() == '}') {  // a width given
      o += "\\advance\\dimen0 by " + spec.substr(p + 2, spec.size() - p - 3) + "\n";
    } else {
      o += widest_of(longest(cells, kMeasured)) + "\\advance\\dimen0 by \\dimen2\n";
    }
  }
  const std::size_t gaps = 2 * (t.columns.size() - 1);
  o += "\\dimen4=\\dimexpr\\linewidth-\\dimen0-" + std::to_string(gaps) + "\\tabcolsep\\relax\n";
  o += "\\dimen8=\\dimexpr\\dimen0+" + std::to_string(gaps) + "\\tabcolsep\\relax\n";
  // Each wrapped column's least width (its longest unbreakable piece) in \qualrankm<x>; a column whose share of
  // the rest of the line (\dimen4) is less than that is pinned at it (\qualrankp<x> 1), and the others share
  // what is left, in proportion to their longest cells; as many rounds as columns settle it.
  std::vector<std::string> mins, pins, desires;
  for (std::size_t i = 0; i < wrapped.size(); ++i) {
    std::string x(1, static_cast<char>('a' + static_cast<int>(i % 26)));
    if (i >= 26) x += static_cast<char>('a' + static_cast<int>(i / 26 - 1));
    names.push_back("\\qualrankw" + x);
    mins.push_back("\\qualrankm" + x);
    pins.push_back("\\qualrankp" + x);
    desires.push_back(std::to_string(desire[i]));
    o += widest_of(longest(unbreakable_pieces(column_cells(t, wrapped[i])), kMeasured));
    o += "\\edef" + mins[i] + "{\\the\\dimen2}\\def" + pins[i] + "{0}\n";
  }
  // \dimen6: the width left for the columns not pinned; \dimen9: their longest cells' sum, in sp.
  std::string sum = "\\dimen6=\\dimen4 \\dimen9=0pt";
  for (std::size_t i = 0; i < wrapped.size(); ++i)
    sum += "\\if1" + pins[i] + " \\advance\\dimen6 by -" + mins[i] + "\\relax\\else\\advance\\dimen9 by " + desires[i] + "sp\\relax\\fi";
  sum += "\n";
  auto share = [&](std::size_t i) { return "\\dimexpr\\dimen6*" + desires[i] + "/\\number\\dimen9\\relax"; };
  for (std::size_t round = 0; round < wrapped.size(); ++round) {
    o += sum;
    for (std::size_t i = 0; i < wrapped.size(); ++i)
      o += "\\if0" + pins[i] + " \\ifdim" + share(i) + "<" + mins[i] + " \\def" + pins[i] + "{1}\\fi\\fi";
    o += "\n";
  }
  o += sum;
  for (std::size_t i = 0; i < wrapped.size(); ++i)
    o += "\\if1" + pins[i] + " \\edef" + names[i] + "{" + mins[i] + "}\\else\\edef" + names[i] + "{\\the" + share(i) + "}\\fi\\advance\\dimen8 by " +
         names[i] + "\\relax\n";
  return "\\def\\qualrankwidths{%\n" + o + "}\\qualrankwidths\n"
         "\\ifdim\\dimen8>\\linewidth \\small\\qualrankwidths\\ifdim\\dimen8>\\linewidth \\footnotesize\\tabcolsep=2pt\\qualrankwidths"
         "\\ifdim\\dimen8>\\linewidth \\scriptsize\\tabcolsep=1.5pt\\qualrankwidths\\fi\\fi\\fi\n";
}

// What a table is made of: the widths TeX computes (wrapped_widths), the column spec, the head and the rows.
struct Pieces {
  std::string widths, spec, head, body;
};

Pieces pieces_of(const Table& t) {
  // "X" columns wrap their text, ragged right, at widths TeX computes where the table is set
  // (wrapped_widths): the fixed columns first, the rest of the line shared. A float without one is measured
  // too, so that it can fall back on \small, \footnotesize and \scriptsize when wider than the line.
  Pieces p;
  const auto stretched = std::count_if(t.columns.begin(), t.columns.end(), [](const Column& c) { return c.spec == "X"; });
  std::vector<std::string> names;
  if (stretched || !t.long_table) p.widths = wrapped_widths(t, names);
  std::size_t next = 0;
  for (const auto& c : t.columns) {
    if (c.spec != "X") p.spec += c.spec;
    else p.spec += ">{\\raggedright\\arraybackslash}p{" + names[next++] + "}";
  }
  for (std::size_t i = 0; i < t.columns.size(); ++i) p.head += (i ? " & " : "") + t.columns[i].head;
  p.head += " \\\\\n";
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (r > 0 && std::find(t.rules.begin(), t.rules.end(), r) != t.rules.end()) p.body += "\\midrule\n";
    const auto& row = t.rows[r];
    for (std::size_t i = 0; i < row.size(); ++i) p.body += (i ? " & " : "") + row[i];
    p.body += " \\\\\n";
  }
  return p;
}

std::string tabular(const Pieces& p) {
  return "\\begin{tabular}{@{}" + p.spec + "@{}}\n\\toprule\n" + p.head + "\\midrule\n" + p.body + "\\bottomrule\n\\end{tabular}\n";
}

}  // namespace

std::string render(const Table& t) { return detail::render_table(t, false); }

std::string detail::render_table(const Table& t, bool wide) {
  const Pieces p = pieces_of(t);
  std::string o;
  if (t.long_table) {
    const std::string n = std::to_string(t.columns.size());
    o += "\\begingroup\n\\setlength{\\tabcolsep}{4pt}\n" + p.widths + "\\begin{longtable}{@{}" + p.spec + "@{}}\n";
    o += "\\caption{" + t.caption + "}\\label{" + t.label + "}\\\\\n";
    o += "\\toprule\n" + p.head + "\\midrule\n\\endfirsthead\n";
    o += "\\multicolumn{" + n + "}{@{}l}{\\emph{Table \\thetable, continued}}\\\\\n";
    o += "\\toprule\n" + p.head + "\\midrule\n\\endhead\n";
    o += "\\midrule\n\\multicolumn{" + n + "}{@{}r}{\\emph{continued on the next page}}\\\\\n\\endfoot\n";
    o += "\\bottomrule\n\\endlastfoot\n";
    o += p.body;
    o += "\\end{longtable}\n\\endgroup\n";
    if (!t.note.empty()) o += "\\par\\noindent{}" + t.note + "\n";
    return o;
  }
  const std::string env = wide ? "table*" : "table";
  o += "\\begin{" + env + "}[tbp]\n\\centering\n\\setlength{\\tabcolsep}{4pt}\n";
  o += "\\caption{" + t.caption + "}\\label{" + t.label + "}\n";
  if (t.split > 1 && t.split < t.columns.size()) {
    // Measured whole in a group (its font changes stay there); too wide even in \scriptsize: the two parts,
    // each column 0 and a run of the others, measured and set in a group of its own.
    auto part = [&](std::size_t from, std::size_t to) {
      Table q;
      q.columns.push_back(t.columns[0]);
      q.columns.insert(q.columns.end(), t.columns.begin() + static_cast<std::ptrdiff_t>(from), t.columns.begin() + static_cast<std::ptrdiff_t>(to));
      q.rules = t.rules;
      for (const auto& row : t.rows) {
        q.rows.push_back({row[0]});
        q.rows.back().insert(q.rows.back().end(), row.begin() + static_cast<std::ptrdiff_t>(from), row.begin() + static_cast<std::ptrdiff_t>(to));
      }
      const Pieces qp = pieces_of(q);
      return "\\begingroup\n" + qp.widths + tabular(qp) + "\\endgroup\n";
    };
    o += "\\begingroup\n" + p.widths + "\\ifdim\\dimen8>\\linewidth \\gdef\\qualranksplit{1}\\else\\gdef\\qualranksplit{0}\\fi\n" +
         "\\if0\\qualranksplit\n" + tabular(p) + "\\fi\n\\endgroup\n\\if1\\qualranksplit\n" + part(1, t.split) + "\\par\\medskip\n" +
         part(t.split, t.columns.size()) + "\\fi\n";
  } else {
    o += p.widths + tabular(p);
  }
  if (!t.note.empty()) o += "\\par\\medskip\n\\parbox{\\linewidth}{" + t.note + "}\n";
  o += "\\end{" + env + "}\n";
  return o;
}

std::string file(std::string_view what, std::string_view qualrank_version, std::string_view body) {
  std::string o = "% " + std::string(what) + "\n";
  o += "% Written by qualrank " + std::string(qualrank_version) +
       " from report.json (every number as there); re-run qualrank report rather than edit.\n";
  o += "% UTF-8. The document's preamble needs:\n";
  std::string_view lines = kPreambleLines;
  while (!lines.empty()) {
    const auto nl = lines.find('\n');
    o += "%   " + std::string(lines.substr(0, nl)) + "\n";
    lines.remove_prefix(nl == std::string_view::npos ? lines.size() : nl + 1);
  }
  o += body;
  return o;
}

}  // namespace qualrank::latex
