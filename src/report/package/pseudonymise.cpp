// Names and e-mail addresses replaced by consistent pseudonyms (report/package/pseudonymise.h). Names are found by
// meaning: the text is folded (util/name_fold.h) and searched by one Aho-Corasick automaton over the folded
// names (name_search.h), so a text is scanned once whatever the length of the list; a second automaton over
// the names' accent-stripped forms finds the near misses.
#include "qualrank/report/package/pseudonymise.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <map>
#include <set>

#include "name_search.h"
#include "qualrank/analysis/autocode.h"
#include "qualrank/util/csv.h"
#include "qualrank/util/name_fold.h"
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
  std::map<std::string, int> seen;          // folded name (text::folded_name) -> line
  std::map<std::string, int> generated;     // kind -> names generated so far
  for (const auto& row : table.rows) {
    NameEntry e;
    e.line = row.line;
    e.name = std::string(text::trim(row.fields[name_col]));
    e.pseudonym = pseudonym_col >= 0 ? std::string(text::trim(row.fields[pseudonym_col])) : "";
    e.kind = kind_col >= 0 ? std::string(text::trim(row.fields[kind_col])) : "";
    if (e.kind.empty()) e.kind = "person";
    const std::string key = text::folded_name(e.name, text::NameFold::exact);
    if (folded_code_points(e.name).size() < 2 || folded_code_points(key).size() < 2) {
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
    auto [it, fresh] = seen.emplace(key, row.line);
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
  std::vector<std::string> keys, unaccented;
  for (std::size_t i = 0; i < names_.size(); ++i) {
    keys.push_back(text::folded_name(names_[i].name, text::NameFold::exact));
    std::string plain = text::folded_name(names_[i].name, text::NameFold::unaccented);
    if (plain != keys.back()) {
      unaccented.push_back(std::move(plain));
      unaccented_entry_.push_back(i);
    }
  }
  matcher_ = std::make_unique<KeywordMatcher>(keys, KeywordMatcher::Verbatim{});
  if (!unaccented.empty()) unaccented_ = std::make_unique<KeywordMatcher>(unaccented, KeywordMatcher::Verbatim{});
}

Pseudonymiser::~Pseudonymiser() = default;

std::string Pseudonymiser::apply(std::string_view text, std::vector<NameFound>* near_misses) {
  if (near_misses) find_near_misses(text, *near_misses);
  return replace_names(replace_emails(text));
}

namespace {

// The e-mail addresses of `s` (local@domain.tld, ASCII), as [begin, end) byte ranges in order.
std::vector<std::pair<std::size_t, std::size_t>> email_ranges(std::string_view s) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::size_t taken = 0;  // the end of the last address
  for (std::size_t at = s.find('@'); at != std::string_view::npos; at = s.find('@', at + 1)) {
    if (at < taken) continue;
    std::size_t begin = at;
    while (begin > taken && local_char(s[begin - 1])) --begin;
    while (begin < at && s[begin] == '.') ++begin;  // a sentence's full stop before the address
    std::size_t end = at + 1;
    while (end < s.size() && domain_char(s[end])) ++end;
    while (end > at + 1 && (s[end - 1] == '.' || s[end - 1] == '-')) --end;  // the full stop after it
    if (begin == at) continue;
    std::string_view domain = s.substr(at + 1, end - at - 1);
    auto dot = domain.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || domain.size() - dot - 1 < 2) continue;
    if (!std::all_of(domain.begin() + static_cast<std::ptrdiff_t>(dot) + 1, domain.end(), alpha)) continue;
    out.emplace_back(begin, end);
    taken = end;
  }
  return out;
}

}  // namespace

std::string Pseudonymiser::replace_emails(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t copied = 0;  // s[copied..] not yet in out
  for (const auto& [begin, end] : email_ranges(s)) {
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

namespace {

// What replaces the occurrence s[h.begin, h.end): the line breaks inside it and the indentation after the
// last (lines stay where they were), then the pseudonym with the emphasis that stood inside the name kept
// balanced: runs that pair up inside it (`Jo**nas** Becker`) emphasised part of the name and are dropped; an
// unpaired run closes emphasis opened before the name (`**Mar**ia`, `*Jonas* Becker`: after the pseudonym) or
// opens emphasis closed after it (`Jonas **Becker**`: before the pseudonym).
void append_replacement(std::string& out, std::string_view s, const name_search::Hit& h, const std::string& pseudonym,
                        const std::vector<std::pair<std::size_t, std::size_t>>& markup, std::size_t& next_markup) {
  const std::string_view r = s.substr(h.begin, h.end - h.begin);
  if (auto last = r.find_last_of("\r\n"); last != std::string_view::npos) {
    for (char c : r)
      if (c == '\r' || c == '\n') out += c;
    for (std::size_t k = last + 1; k < r.size() && (r[k] == ' ' || r[k] == '\t'); ++k) out += r[k];
  }
  while (next_markup < markup.size() && markup[next_markup].first < h.begin) ++next_markup;
  std::vector<std::string_view> inside;
  for (; next_markup < markup.size() && markup[next_markup].first < h.end; ++next_markup)
    inside.push_back(s.substr(markup[next_markup].first, markup[next_markup].second - markup[next_markup].first));
  bool paired = inside.size() % 2 == 0;
  for (std::size_t k = 0; paired && k < inside.size(); k += 2) paired = inside[k] == inside[k + 1];
  std::string runs;
  if (!paired)
    for (auto run : inside) runs += run;
  const bool closes = h.begin > 0 && s[h.begin - 1] == '*';  // its partner stands just before the name
  if (!closes) out += runs;
  out += pseudonym;
  if (closes) out += runs;
}

}  // namespace

void Pseudonymiser::find_near_misses(std::string_view s, std::vector<NameFound>& out) const {
  if (!unaccented_) return;
  // Accent-stripped occurrences that overlap no occurrence of a listed name and no e-mail address (both
  // replaced).
  auto exact = name_search::leftmost_longest(name_search::scan(s, text::NameFold::exact, *matcher_).hits);
  for (const auto& [begin, end] : email_ranges(s)) exact.push_back({begin, end, 0});
  std::sort(exact.begin(), exact.end(), [](const auto& a, const auto& b) { return a.begin < b.begin; });
  auto plain = name_search::leftmost_longest(name_search::scan(s, text::NameFold::unaccented, *unaccented_).hits);
  std::vector<name_search::Hit> kept;
  std::size_t e = 0;
  for (const auto& h : plain) {
    while (e < exact.size() && exact[e].end <= h.begin) ++e;
    if (e == exact.size() || exact[e].begin >= h.end) kept.push_back(h);
  }
  std::vector<std::size_t> offsets;
  for (const auto& h : kept) offsets.push_back(h.begin);
  auto where = name_search::line_columns(s, offsets);
  for (std::size_t k = 0; k < kept.size(); ++k)
    out.push_back({&names_[unaccented_entry_[kept[k].key]], kept[k].begin, kept[k].end, where[k].first,
                   where[k].second});
}

std::string Pseudonymiser::replace_names(std::string_view s) {
  if (!matcher_) return std::string(s);
  auto scan = name_search::scan(s, text::NameFold::exact, *matcher_);
  std::string out;
  out.reserve(s.size());
  std::size_t copied = 0, next_markup = 0;
  for (const auto& h : name_search::leftmost_longest(std::move(scan.hits))) {
    out.append(s.substr(copied, h.begin - copied));
    append_replacement(out, s, h, names_[h.key].pseudonym, scan.markup, next_markup);
    ++counts_[h.key];
    ++replacements_;
    copied = h.end;
  }
  out.append(s.substr(copied));
  return out;
}

std::vector<NameFound> Pseudonymiser::find_names(std::string_view s) const {
  std::vector<NameFound> out;
  if (!matcher_) return out;
  auto hits = name_search::leftmost_longest(name_search::scan(s, text::NameFold::exact, *matcher_).hits);
  std::vector<std::size_t> offsets;
  for (const auto& h : hits) offsets.push_back(h.begin);
  auto where = name_search::line_columns(s, offsets);
  for (std::size_t k = 0; k < hits.size(); ++k)
    out.push_back({&names_[hits[k].key], hits[k].begin, hits[k].end, where[k].first, where[k].second});
  return out;
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
