// The consensus coding file of `qualrank reconcile` (consensus.h).
#include "qualrank/model/consensus.h"

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

// Splits "a | b | note: c | d" on " | ", the note (last) keeping any bars of its own.
std::vector<std::string> fields(std::string_view line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    if (line.substr(start).rfind("note: ", 0) == 0) {
      out.emplace_back(line.substr(start));
      break;
    }
    auto bar = line.find(" | ", start);
    out.emplace_back(text::trim(line.substr(start, bar == std::string_view::npos ? line.npos : bar - start)));
    if (bar == std::string_view::npos) break;
    start = bar + 3;
  }
  return out;
}

}  // namespace

std::vector<ConsensusUnit> read_consensus_decisions(const std::string& content, const std::string& file, Diagnostics& diags) {
  std::vector<ConsensusUnit> out;
  int lineno = 0;
  std::size_t start = 0;
  while (start < content.size()) {
    auto nl = content.find('\n', start);
    std::string_view line(content.data() + start, (nl == std::string::npos ? content.size() : nl) - start);
    start = nl == std::string::npos ? content.size() : nl + 1;
    ++lineno;
    line = text::trim(line);
    const bool decided = line.rfind("# decided ", 0) == 0, undecided = line.rfind("# undecided ", 0) == 0;
    if (!decided && !undecided) continue;
    auto parts = fields(line.substr(decided ? 10 : 12));
    ConsensusUnit u;
    u.disputed = true;
    u.decided = decided;
    u.line = lineno;
    std::string head = parts.front();
    if (decided) {
      // "t3 by ana on 2026-11-24: union"
      auto by = head.find(" by "), on = head.find(" on "), colon = head.rfind(": ");
      if (by == std::string::npos || on == std::string::npos || colon == std::string::npos || !(by < on && on < colon)) {
        diags.error({file, lineno, 1}, "a decision line reads '# decided UNIT by NAME on YYYY-MM-DD: DECISION | CODER: IDS ... | note: TEXT'");
        continue;
      }
      u.unit = head.substr(0, by);
      u.decided_by = head.substr(by + 4, on - by - 4);
      u.date = head.substr(on + 4, colon - on - 4);
      u.decision = head.substr(colon + 2);
    } else {
      u.unit = head;
    }
    for (std::size_t k = 1; k < parts.size(); ++k) {
      if (parts[k].rfind("note: ", 0) == 0) {
        u.note = parts[k].substr(6);
        continue;
      }
      auto colon = parts[k].find(": ");
      if (colon == std::string::npos) {
        diags.error({file, lineno, 1}, "expected 'CODER: IDS' in a decision line, found '" + parts[k] + "'");
        continue;
      }
      u.before.push_back({parts[k].substr(0, colon), split_codes(std::string_view(parts[k]).substr(colon + 2))});
    }
    out.push_back(std::move(u));
  }
  return out;
}

std::string format_consensus(const ConsensusFile& f) {
  std::string out = "# qualrank consensus of " + f.transcript + ": coders " + text::join(f.coders, ", ") + "; unit " + f.unit +
                    "\n# written by 'qualrank reconcile': a '# decided' line records each decision; the codes lines are the consensus\n";
  for (const auto& u : f.units) {
    std::string before;
    for (const auto& [coder, codes] : u.before) before += " | " + coder + ": " + codes_or_dash(codes);
    if (u.disputed && u.decided)
      out += "# decided " + u.unit + " by " + u.decided_by + " on " + u.date + ": " + u.decision + before +
             (u.note.empty() ? "" : " | note: " + u.note) + "\n";
    else if (u.disputed)
      out += "# undecided " + u.unit + before + "\n";
    if ((!u.disputed || u.decided) && !u.codes.empty()) out += u.unit + ": " + text::join(u.codes, ", ") + "\n";
  }
  return out;
}

}  // namespace qualrank
