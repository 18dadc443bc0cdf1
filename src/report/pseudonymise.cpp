// Names and e-mail addresses replaced by consistent pseudonyms (report/pseudonymise.h). Names are found by the
// keyword matcher of auto-coding (analysis/autocode.h: an Aho-Corasick automaton over case-folded UTF-8, whole
// words only), so a text is scanned once whatever the length of the list.
#include "qualrank/report/pseudonymise.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <map>
#include <set>

#include "qualrank/analysis/autocode.h"
#include "qualrank/util/csv.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

// The code points of valid UTF-8 `s`, case-folded; invalid bytes as U+FFFD.
std::vector<int> folded_code_points(std::string_view s) {
  std::vector<int> out;
  int32_t i = 0, n = static_cast<int32_t>(s.size());
  while (i < n) {
    UChar32 c;
    U8_NEXT(s.data(), i, n, c);
    out.push_back(c < 0 ? 0xFFFD : u_foldCase(c, U_FOLD_CASE_DEFAULT));
  }
  return out;
}

std::string capitalised(const std::string& kind) {
  std::string s = kind;
  if (!s.empty()) s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

// Why `p` cannot be a pseudonym, or "".
std::string pseudonym_problem(std::string_view p) {
  if (text::trim(p).empty()) return "is empty";
  if (p.front() == '.') return "starts with '.'";
  for (char c : p) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return "holds a control character";
    if (std::string_view("[]{}|\\@/:\"#").find(c) != std::string_view::npos)
      return std::string("holds '") + c + "' (coding markup or a path character)";
  }
  // Letters, digits, space, '-', '_', '.' only: nothing YAML, CSV or a file name reads specially.
  auto cps = folded_code_points(p);
  if (!u_isalnum(cps.front())) return "does not start with a letter or digit";
  for (int c : cps)
    if (!u_isalnum(c) && c != ' ' && c != '-' && c != '_' && c != '.')
      return "holds a character other than letters, digits, space, '-', '_' and '.'";
  return "";
}

bool local_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '%' || c == '+' || c == '-';
}
bool domain_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
}
bool alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace

std::optional<std::vector<NameEntry>> parse_names_list(std::string_view text, const std::string& file,
                                                       Diagnostics& diags) {
  if (text.size() > kMaxNamesFileBytes) {
    diags.error({file, 0, 0}, "a names list holds at most " + std::to_string(kMaxNamesFileBytes) + " bytes, not " +
                                  std::to_string(text.size()));
    return std::nullopt;
  }
  if (auto bad = text::find_invalid_utf8(text)) {
    diags.error({file, bad->line, bad->column}, "invalid UTF-8");
    return std::nullopt;
  }
  Diagnostics local;
  csv::Table table = csv::parse(text, file, local);
  diags.append(local);
  if (local.has_errors()) return std::nullopt;
  const int name_col = table.column("name"), pseudonym_col = table.column("pseudonym"), kind_col = table.column("kind");
  bool ok = true;
  if (name_col < 0) {
    diags.error({file, table.header_line, 1}, "a names list needs a 'name' column (and optionally 'pseudonym' and 'kind')");
    return std::nullopt;
  }
  for (std::size_t c = 0; c < table.header.size(); ++c) {
    auto h = text::to_lower_ascii(text::trim(table.header[c]));
    if (h != "name" && h != "pseudonym" && h != "kind") {
      diags.error({file, table.header_line, 0}, "unknown column '" + table.header[c] + "' (name, pseudonym, kind)");
      ok = false;
    }
  }
  if (table.rows.size() > kMaxNames) {
    diags.error({file, table.rows[kMaxNames].line, 1},
                "a names list holds at most " + std::to_string(kMaxNames) + " names");
    return std::nullopt;
  }
  std::vector<NameEntry> out;
  std::map<std::string, int> seen;          // folded name -> line
  std::map<std::string, int> generated;     // kind -> names generated so far
  for (const auto& row : table.rows) {
    NameEntry e;
    e.line = row.line;
    e.name = std::string(text::trim(row.fields[name_col]));
    e.pseudonym = pseudonym_col >= 0 ? std::string(text::trim(row.fields[pseudonym_col])) : "";
    e.kind = kind_col >= 0 ? std::string(text::trim(row.fields[kind_col])) : "";
    if (e.kind.empty()) e.kind = "person";
    if (folded_code_points(e.name).size() < 2) {
      diags.error({file, row.line, 1}, "a name has at least 2 characters, not '" + e.name + "'");
      ok = false;
      continue;
    }
    if (e.name.size() > kMaxNameBytes) {
      diags.error({file, row.line, 1}, "a name is at most " + std::to_string(kMaxNameBytes) + " bytes");
      ok = false;
      continue;
    }
    if (e.name.find_first_of("\r\n") != std::string::npos) {
      diags.error({file, row.line, 1}, "a name is one line");
      ok = false;
      continue;
    }
    if (!std::all_of(e.kind.begin(), e.kind.end(), [](char c) { return c >= 'a' && c <= 'z'; })) {
      diags.error({file, row.line, 1}, "a kind is lower-case letters (person, organisation, ...), not '" + e.kind + "'");
      ok = false;
      continue;
    }
    auto [it, fresh] = seen.emplace(text::fold_case(e.name), row.line);
    if (!fresh) {
      diags.error({file, row.line, 1}, "'" + e.name + "' is listed twice (first on line " + std::to_string(it->second) +
                                           "); give each name once");
      ok = false;
      continue;
    }
    if (e.pseudonym.empty()) e.pseudonym = capitalised(e.kind) + "-" + std::to_string(++generated[e.kind]);
    else if (auto why = pseudonym_problem(e.pseudonym); !why.empty()) {
      diags.error({file, row.line, 1}, "the pseudonym '" + e.pseudonym + "' " + why);
      ok = false;
      continue;
    }
    out.push_back(std::move(e));
  }
  if (!ok) return std::nullopt;
  // A pseudonym that contains a listed name would carry it into the package.
  Pseudonymiser probe(out);
  for (const auto& e : out) {
    probe.apply(e.pseudonym);
    if (probe.replacements() > 0) {
      diags.error({file, e.line, 1}, "the pseudonym '" + e.pseudonym +
                                         "' contains a listed name or an e-mail address; it would appear in the package");
      return std::nullopt;
    }
  }
  return out;
}

Pseudonymiser::Pseudonymiser(std::vector<NameEntry> names) : names_(std::move(names)), counts_(names_.size(), 0) {
  if (names_.empty()) return;
  std::vector<KeywordRule> rules;
  for (const auto& n : names_) rules.push_back({n.name, ""});
  matcher_ = std::make_unique<KeywordMatcher>(rules);
}

Pseudonymiser::~Pseudonymiser() = default;

std::string Pseudonymiser::apply(std::string_view text) { return replace_names(replace_emails(text)); }

std::string Pseudonymiser::replace_emails(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t copied = 0;  // s[copied..] not yet in out
  for (std::size_t at = s.find('@'); at != std::string_view::npos; at = s.find('@', at + 1)) {
    if (at < copied) continue;
    std::size_t begin = at;
    while (begin > copied && local_char(s[begin - 1])) --begin;
    while (begin < at && s[begin] == '.') ++begin;  // a sentence's full stop before the address
    std::size_t end = at + 1;
    while (end < s.size() && domain_char(s[end])) ++end;
    while (end > at + 1 && (s[end - 1] == '.' || s[end - 1] == '-')) --end;  // the full stop after it
    if (begin == at) continue;
    std::string_view domain = s.substr(at + 1, end - at - 1);
    auto dot = domain.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || domain.size() - dot - 1 < 2) continue;
    if (!std::all_of(domain.begin() + static_cast<std::ptrdiff_t>(dot) + 1, domain.end(), alpha)) continue;
    std::string_view address = s.substr(begin, end - begin);
    std::string folded = text::to_lower_ascii(address);
    auto it = std::find_if(emails_.begin(), emails_.end(), [&](const Email& e) { return e.folded == folded; });
    if (it == emails_.end()) {
      emails_.push_back({folded, std::string(address), "Email-" + std::to_string(emails_.size() + 1), 0});
      it = emails_.end() - 1;
    }
    ++it->count;
    ++replacements_;
    out.append(s.substr(copied, begin - copied));
    out += it->pseudonym;
    copied = end;
  }
  out.append(s.substr(copied));
  return out;
}

std::vector<Pseudonymiser::Hit> Pseudonymiser::hits(std::string_view s) const {
  std::vector<Hit> found;
  if (!matcher_) return found;
  matcher_->scan_impl(
      s,
      [](void* ctx, int32_t rule, std::size_t begin, std::size_t end) {
        static_cast<std::vector<Hit>*>(ctx)->push_back({begin, end, static_cast<std::size_t>(rule)});
      },
      &found);
  // Leftmost first; where several start at one place, the longest.
  std::sort(found.begin(), found.end(), [](const Hit& a, const Hit& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
  return found;
}

std::string Pseudonymiser::replace_names(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t copied = 0;
  for (const Hit& h : hits(s)) {
    if (h.begin < copied) continue;  // inside a longer name replaced already
    out.append(s.substr(copied, h.begin - copied));
    out += names_[h.entry].pseudonym;
    ++counts_[h.entry];
    ++replacements_;
    copied = h.end;
  }
  out.append(s.substr(copied));
  return out;
}

const NameEntry* Pseudonymiser::find_name(std::string_view s) const {
  auto found = hits(s);
  return found.empty() ? nullptr : &names_[found.front().entry];
}

std::size_t Pseudonymiser::names_found() const {
  return static_cast<std::size_t>(std::count_if(counts_.begin(), counts_.end(), [](std::size_t c) { return c > 0; }));
}

std::string Pseudonymiser::key_csv() const {
  std::string out = csv::format_record({"kind", "original", "pseudonym", "occurrences"}, true);
  for (std::size_t i = 0; i < names_.size(); ++i)
    out += csv::format_record({names_[i].kind, names_[i].name, names_[i].pseudonym, std::to_string(counts_[i])}, true);
  for (const auto& e : emails_) out += csv::format_record({"email", e.original, e.pseudonym, std::to_string(e.count)}, true);
  return out;
}

}  // namespace qualrank
