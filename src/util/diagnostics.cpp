#include "qualrank/util/diagnostics.h"

#include <unordered_set>
#include <unordered_map>
#include <algorithm>

#include "qualrank/util/text.h"

namespace qualrank {

namespace {

// `s` with every byte that is not part of valid UTF-8 written as \xNN: a message quotes input, and input
// read before its encoding was checked must not reach the terminal (or a JSON report) as invalid text.
std::string escape_invalid_utf8(const std::string& s) {
  if (!text::find_invalid_utf8(s)) return s;
  std::string out;
  std::string_view rest = s;
  while (auto bad = text::find_invalid_utf8(rest)) {
    out.append(rest.substr(0, bad->offset));
    static const char* hex = "0123456789ABCDEF";
    const auto byte = static_cast<unsigned char>(rest[bad->offset]);
    out += "\\x";
    out += hex[byte >> 4];
    out += hex[byte & 15];
    rest.remove_prefix(bad->offset + 1);
  }
  out.append(rest);
  return out;
}

// Backs `cut` up to the start of a UTF-8 character.
std::size_t char_start(const std::string& s, std::size_t cut) {
  while (cut > 0 && cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return cut;
}

// Quoted values ('...' opened after a space, '(' or the start) longer than kQuoteBytes are cut to their first
// kQuoteExcerpt bytes, "…", and their length, so a 2 MB cell is not echoed in full. One pass.
std::string shorten_quotes(const std::string& m) {
  std::string out;
  std::size_t i = 0;
  while (i < m.size()) {
    std::size_t open = m.find('\'', i);
    if (open == std::string::npos) break;
    bool opens = open == 0 || m[open - 1] == ' ' || m[open - 1] == '(';
    std::size_t close = opens ? m.find('\'', open + 1) : std::string::npos;
    if (close == std::string::npos || close - open - 1 <= Diagnostics::kQuoteBytes) {
      std::size_t next = close == std::string::npos ? open + 1 : close + 1;
      out.append(m, i, next - i);
      i = next;
      continue;
    }
    std::size_t keep = char_start(m, open + 1 + Diagnostics::kQuoteExcerpt);
    out.append(m, i, keep - i);
    out += "…' (" + std::to_string(close - open - 1) + " bytes";
    out += ")";
    i = close + 1;
  }
  out.append(m, i, std::string::npos);
  return out;
}

// The kind of a message: its text with quoted values and numbers left out ("unknown node 'X' at 3" and
// "unknown node 'Y' at 9" are one kind).
std::string kind_of(const std::string& m) {
  std::string k;
  bool quoted = false;
  for (std::size_t i = 0; i < m.size(); ++i) {
    char c = m[i];
    if (c == '\'' && (quoted || i == 0 || m[i - 1] == ' ' || m[i - 1] == '(')) {
      quoted = !quoted;
      k += c;
    } else if (!quoted && !(c >= '0' && c <= '9')) {
      k += c;
    }
  }
  return k;
}

}  // namespace

std::string format_diagnostic(const Diagnostic& d) {
  std::string s = d.where.file.empty() ? std::string("qualrank") : d.where.file.str();
  if (d.where.line > 0) {
    s += ':' + std::to_string(d.where.line);
    if (d.where.column > 0) s += ':' + std::to_string(d.where.column);
  }
  switch (d.severity) {
    case Severity::error: s += ": error: "; break;
    case Severity::warning: s += ": warning: "; break;
    case Severity::note: s += ": note: "; break;
  }
  // A message quoting input (a library's parse error naming a NUL or an escape byte) never passes a control
  // character to the terminal: each is written \xNN (line breaks of a multi-line message stay).
  for (unsigned char c : d.message) {
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
      static const char* hex = "0123456789abcdef";
      s += "\\x";
      s += hex[c >> 4];
      s += hex[c & 15];
    } else {
      s += static_cast<char>(c);
    }
  }
  return s;
}

void Diagnostics::error(Location where, std::string message) {
  add({Severity::error, std::move(where), std::move(message)});
}
void Diagnostics::warning(Location where, std::string message) {
  add({Severity::warning, std::move(where), std::move(message)});
}
void Diagnostics::note(Location where, std::string message) {
  add({Severity::note, std::move(where), std::move(message)});
}
void Diagnostics::add(Diagnostic d) {
  if (d.severity == Severity::error) ++error_count_;
  auto key = std::make_pair(d.where.file, d.severity);
  if (d.severity != Severity::note && ++per_file_[key] > kPerFile) {
    ++dropped_[key];
    return;
  }
  d.message = shorten_quotes(escape_invalid_utf8(d.message));
  if (d.message.size() > kMessageBytes) {
    std::size_t cut = char_start(d.message, kMessageBytes);  // a whole character
    d.message = d.message.substr(0, cut) + "… (message cut)";
  }
  if (d.severity != Severity::note && ++per_kind_[{d.where.file, d.severity, kind_of(d.message)}] > kPerKind) {
    --per_file_[key];
    ++dropped_[key];
    return;
  }
  // A file name given on the command line may not be UTF-8 either.
  if (text::find_invalid_utf8(d.where.file.str())) d.where.file = escape_invalid_utf8(d.where.file.str());
  items_.push_back(std::move(d));
}
void Diagnostics::count_dropped(const std::string& file, Severity severity, int n) {
  if (n <= 0 || severity == Severity::note) return;
  if (severity == Severity::error) error_count_ += n;
  dropped_[{file, severity}] += n;
}
void Diagnostics::append(const Diagnostics& other) {
  for (const auto& d : other.items_) add(d);
  for (const auto& [key, n] : other.dropped_) {
    dropped_[key] += n;
    per_file_[key] += n;
    if (key.second == Severity::error) error_count_ += n;
  }
}
int Diagnostics::dropped() const {
  int n = 0;
  for (const auto& [key, count] : dropped_) n += count;
  return n;
}
void Diagnostics::print(std::ostream& out) const {
  print(out, [](const Diagnostic&) { return true; });
}
void Diagnostics::print(std::ostream& out, const std::function<bool(const Diagnostic&)>& keep) const {
  // Each distinct diagnostic once (a problem met by two steps of one command is one problem), and in the order
  // of the input: the files in the order they were first met, within a file by line and column (the checks
  // of one file run in several passes; a reader goes down the file).
  // A note stays after the diagnostic it follows (it says more about that one).
  std::unordered_map<std::string, std::size_t> file_rank;
  std::vector<std::pair<std::size_t, std::size_t>> blocks;  // [first, last) of items_: a diagnostic and its notes
  for (std::size_t i = 0; i < items_.size(); ++i) {
    file_rank.emplace(items_[i].where.file.str(), file_rank.size());
    if (items_[i].severity == Severity::note && !blocks.empty()) blocks.back().second = i + 1;
    else blocks.emplace_back(i, i + 1);
  }
  std::stable_sort(blocks.begin(), blocks.end(), [&](const auto& a, const auto& b) {
    const auto& x = items_[a.first].where;
    const auto& y = items_[b.first].where;
    const std::size_t fx = file_rank.at(x.file.str()), fy = file_rank.at(y.file.str());
    if (fx != fy) return fx < fy;
    return std::pair(x.line, x.column) < std::pair(y.line, y.column);
  });
  std::vector<std::size_t> order;
  order.reserve(items_.size());
  for (const auto& [first, last] : blocks)
    for (std::size_t i = first; i < last; ++i) order.push_back(i);
  std::unordered_set<std::string> said;
  for (std::size_t i : order) {
    const auto& d = items_[i];
    if (!keep(d)) continue;
    if (std::string line = format_diagnostic(d); said.insert(line).second) out << line << '\n';
  }
  for (const auto& [key, n] : dropped_)
    out << (key.first.empty() ? std::string("qualrank") : key.first) << ": note: " << n << " more "
        << (key.second == Severity::error ? "errors" : "warnings") << " in this file not shown (at most " << kPerFile
        << " are listed, " << kPerKind << " of one kind)\n";
}
void Diagnostics::clear() {
  items_.clear();
  error_count_ = 0;
  per_file_.clear();
  per_kind_.clear();
  dropped_.clear();
}

}  // namespace qualrank
