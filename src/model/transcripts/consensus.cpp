// The consensus coding file of `qualrank reconcile` (consensus.h): its header, its decision lines and how
// its codings are written.
#include "qualrank/model/transcripts/consensus.h"
#include "qualrank/model/transcripts/transcript.h"

#include <cctype>
#include <cstdio>

#include "qualrank/util/text.h"

namespace qualrank {

namespace {

std::string codes_or_dash(const std::vector<std::string>& codes) { return codes.empty() ? "-" : text::join(codes, ", "); }

std::vector<std::string> split_codes(std::string_view s) {
  std::vector<std::string> out;
  if (text::trim(s) == "-") return out;
  for (auto& piece : text::split_nonempty(std::string(s), ',')) {
    std::string id(text::trim(piece));
    if (!id.empty()) out.push_back(id);
  }
  return out;
}

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Reads a unit at the start of `s` (`tN`, `tN "span"`, `tN "span"#K`, the span's `\"` and `\\` escapes);
// sets `u.unit` (as written) and `u.turn`, returns the bytes read, 0 when `s` does not start with a unit.
std::size_t read_unit(std::string_view s, ConsensusUnit& u) {
  if (s.size() < 2 || s[0] != 't' || !is_digit(s[1])) return 0;
  std::size_t i = 1;
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i > 10) return 0;
  u.turn = std::stoi(std::string(s.substr(1, i - 1)));
  if (i + 1 < s.size() && s[i] == ' ' && s[i + 1] == '"') {
    std::size_t q = i + 2;
    for (; q < s.size() && s[q] != '"'; ++q)
      if (s[q] == '\\' && q + 1 < s.size()) ++q;
    if (q >= s.size()) return 0;
    i = q + 1;
    if (i < s.size() && s[i] == '#') {
      std::size_t d = i + 1;
      while (d < s.size() && is_digit(s[d])) ++d;
      if (d == i + 1) return 0;
      i = d;
    }
  }
  u.unit = std::string(s.substr(0, i));
  return i;
}

// " on YYYY-MM-DD: " at `pos` of `s`.
bool date_at(std::string_view s, std::size_t pos) {
  if (pos + 16 > s.size() || s.substr(pos, 4) != " on ") return false;
  std::string_view d = s.substr(pos + 4, 10);
  for (std::size_t k = 0; k < 10; ++k)
    if ((k == 4 || k == 7) ? d[k] != '-' : !is_digit(d[k])) return false;
  return s.substr(pos + 14, 2) == ": ";
}

// A memo as written after `memo: ` in a codes line: on one line, its markup characters escaped.
std::string escape_memo(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (c == '[' || c == ']' || c == '{' || c == '}' || c == '\\' || c == '|') out += '\\';
    out += c;
  }
  return out;
}

const char* kBadDecided = "a decision line reads '# decided UNIT by NAME on YYYY-MM-DD: DECISION | CODER: IDS ... | hash H | note: TEXT'";
const char* kBadUndecided = "an open unit's line reads '# undecided UNIT | CODER: IDS ...'";

}  // namespace

std::string escape_note(std::string_view note) {
  std::string out;
  char buf[8];
  for (char ch : note) {
    const unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '|': out += "\\|"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          std::snprintf(buf, sizeof buf, "\\x%02X", c);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  return out;
}

std::string unescape_note(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char n = s[i + 1];
    if (n == '\\' || n == '|') out += n;
    else if (n == 'n') out += '\n';
    else if (n == 'r') out += '\r';
    else if (n == 't') out += '\t';
    else if (n == 'x' && i + 3 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 2])) &&
             std::isxdigit(static_cast<unsigned char>(s[i + 3]))) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 2, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];  // a backslash before anything else is a backslash (notes written before escapes)
      continue;
    }
    ++i;
  }
  return out;
}

std::string decider_name_problem(std::string_view name) {
  if (text::trim(name).empty()) return "is empty";
  if (name.size() > 100) return "is longer than 100 bytes";
  if (text::trim(name).size() != name.size()) return "starts or ends with white space";
  for (char c : name) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return "contains a control character";
    if (c == '|' || c == ':') return std::string("contains '") + c + "' (it would change how the decision line reads)";
  }
  return text::invisible_character_problem(name);
}

ConsensusRecord read_consensus_record(const std::string& content, const std::string& file, Diagnostics& diags) {
  ConsensusRecord out;
  out.file = file;
  int lineno = 0;
  std::size_t start = 0;
  while (start < content.size()) {
    auto nl = content.find('\n', start);
    std::string_view line(content.data() + start, (nl == std::string::npos ? content.size() : nl) - start);
    start = nl == std::string::npos ? content.size() : nl + 1;
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    line = text::trim(line);
    if (line.rfind("# qualrank consensus of ", 0) == 0 && !out.has_header) {
      auto coders = line.find(": coders "), unit = line.rfind("; unit ");
      if (coders != std::string_view::npos && unit != std::string_view::npos && coders < unit) {
        out.has_header = true;
        out.coders = split_codes(line.substr(coders + 9, unit - coders - 9));
        out.unit = std::string(text::trim(line.substr(unit + 7)));
        if (out.unit != "turn" && out.unit != "segment") {
          diags.error({file, lineno, static_cast<int>(unit + 8)}, "the unit is 'turn' or 'segment', not '" + out.unit + "'");
          out.unit.clear();
        }
      }
      continue;
    }
    const bool decided = line.rfind("# decided ", 0) == 0, undecided = line.rfind("# undecided ", 0) == 0;
    if (!decided && !undecided) continue;
    std::string_view rest = line.substr(decided ? 10 : 12);
    ConsensusUnit u;
    u.disputed = true;
    u.decided = decided;
    u.line = lineno;
    const std::size_t unit_len = read_unit(rest, u);
    if (unit_len == 0) {
      diags.error({file, lineno, 1}, decided ? kBadDecided : kBadUndecided);
      continue;
    }
    rest = rest.substr(unit_len);
    if (decided) {
      // " by NAME on YYYY-MM-DD: DECISION"
      std::size_t on = std::string_view::npos;
      if (rest.rfind(" by ", 0) == 0)
        for (auto p = rest.find(" on ", 4); p != std::string_view::npos; p = rest.find(" on ", p + 1))
          if (date_at(rest, p)) {
            on = p;
            break;
          }
      if (on == std::string_view::npos) {
        diags.error({file, lineno, 1}, kBadDecided);
        continue;
      }
      u.decided_by = std::string(rest.substr(4, on - 4));
      u.date = std::string(rest.substr(on + 4, 10));
      rest = rest.substr(on + 16);
      auto bar = rest.find(" | ");
      u.decision = std::string(text::trim(rest.substr(0, bar)));
      rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar);
      if (u.decided_by.empty() || u.decision.empty()) {
        diags.error({file, lineno, 1}, kBadDecided);
        continue;
      }
    } else if (!rest.empty() && rest.rfind(" | ", 0) != 0) {
      diags.error({file, lineno, 1}, kBadUndecided);
      continue;
    }
    // The fields: " | CODER: IDS", " | hash H", and last " | note: TEXT" (which runs to the end of the line).
    bool ok = true;
    while (ok && rest.rfind(" | ", 0) == 0) {
      rest = rest.substr(3);
      if (rest.rfind("note: ", 0) == 0) {
        u.note = unescape_note(rest.substr(6));
        rest = {};
        break;
      }
      auto bar = rest.find(" | ");
      std::string_view field = text::trim(rest.substr(0, bar));
      rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar);
      if (field.rfind("hash ", 0) == 0) {
        u.hash = std::string(text::trim(field.substr(5)));
        continue;
      }
      auto colon = field.find(": ");
      if (colon == std::string_view::npos) {
        diags.error({file, lineno, 1}, "expected 'CODER: IDS' in a decision line, found '" + std::string(field) + "'");
        ok = false;
        break;
      }
      u.before.push_back({std::string(field.substr(0, colon)), split_codes(field.substr(colon + 2))});
    }
    if (!ok) continue;
    if (!text::trim(rest).empty()) {
      diags.error({file, lineno, 1}, decided ? kBadDecided : kBadUndecided);
      continue;
    }
    out.units.push_back(std::move(u));
  }
  return out;
}

std::vector<ConsensusUnit> read_consensus_decisions(const std::string& text, const std::string& file, Diagnostics& diags) {
  return read_consensus_record(text, file, diags).units;
}

std::string format_consensus(const ConsensusFile& f) {
  std::string out = "# qualrank consensus of " + f.transcript + ": coders " + text::join(f.coders, ", ") + "; unit " + f.unit +
                    "\n# written by 'qualrank reconcile': a '# decided' line records each decision, '# undecided' a unit still "
                    "open; the codes lines are the consensus\n";
  for (const auto& u : f.units) {
    std::string before;
    for (const auto& [coder, codes] : u.before) before += " | " + coder + ": " + codes_or_dash(codes);
    if (u.disputed && u.decided)
      out += "# decided " + u.unit + " by " + u.decided_by + " on " + u.date + ": " + u.decision + before +
             (u.hash.empty() ? "" : " | hash " + u.hash) + (u.note.empty() ? "" : " | note: " + escape_note(u.note)) + "\n";
    else if (u.disputed)
      out += "# undecided " + u.unit + before + "\n";
    // One line per span, exemplar mark and memo, in the order of their first coding.
    std::vector<bool> done(u.codings.size(), false);
    for (std::size_t i = 0; i < u.codings.size(); ++i) {
      if (done[i]) continue;
      const ConsensusCoding& c = u.codings[i];
      std::vector<std::string> nodes;
      for (std::size_t j = i; j < u.codings.size(); ++j) {
        const ConsensusCoding& d = u.codings[j];
        if (done[j] || d.span != c.span || d.occurrence != c.occurrence || d.exemplar != c.exemplar || d.memo != c.memo) continue;
        done[j] = true;
        nodes.push_back(d.node);
      }
      out += "t" + std::to_string(u.turn);
      if (c.span) out += " " + quote_span(*c.span) + (c.occurrence > 0 ? "#" + std::to_string(c.occurrence) : "");
      out += ": " + text::join(nodes, ", ");
      if (c.exemplar) out += " | exemplar";
      if (!c.memo.empty()) out += " | memo: " + escape_memo(c.memo);
      out += "\n";
    }
  }
  return out;
}

}  // namespace qualrank
