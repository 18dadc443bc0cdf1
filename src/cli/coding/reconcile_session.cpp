// `qualrank reconcile`'s listing, terminal walk and saving (reconcile_session.h).
#include "reconcile_session.h"

#include <algorithm>
#include <iostream>

#include "qualrank/model/coding_edit.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/workspace_lock.h"

namespace qualrank::cli::reconcile {

namespace fs = std::filesystem;

namespace {

// The letters a coder's key may be: every lower-case letter but those of the other answers (k keep, n neither,
// o other, q stop, s skip, u union).
constexpr std::string_view kKeyLetters = "abcdefghijlmprtvwxyz";

std::string codes_text(const std::vector<std::string>& codes) { return codes.empty() ? "-" : text::join(codes, ", "); }

// A coder's codes as the walk shows them: each "ID Name" (the taxonomy's name; the id alone when it has none),
// "; " between them (a name may hold a comma); "-" for none.
std::string named_codes(const Taxonomy& taxonomy, const std::vector<std::string>& codes) {
  std::vector<std::string> shown;
  for (const auto& id : codes) {
    const auto* n = taxonomy.find(id);
    shown.push_back(n && !n->name.empty() ? id + " " + n->name : id);
  }
  return shown.empty() ? "-" : text::join(shown, "; ");
}

// A coder's memos on a unit, each once with the codes it is written on ("A.1, B.2: TEXT"), in coding order.
std::vector<std::string> memos_of(const CoderCodings& c) {
  std::vector<std::pair<std::string, std::vector<std::string>>> memos;
  for (const auto& coding : c.codings) {
    if (coding.memo.empty()) continue;
    auto it = std::find_if(memos.begin(), memos.end(), [&](const auto& m) { return m.first == coding.memo; });
    if (it == memos.end()) memos.push_back({coding.memo, {}}), it = memos.end() - 1;
    if (std::find(it->second.begin(), it->second.end(), coding.node) == it->second.end()) it->second.push_back(coding.node);
  }
  std::vector<std::string> out;
  for (const auto& [memo, nodes] : memos) out.push_back(text::join(nodes, ", ") + ": " + memo);
  return out;
}

// At most `max` lines of `lines` (each ending in '\n'), then "INDENT… (N more lines)" for the rest.
std::string at_most(const std::string& lines, std::size_t max, const std::string& indent) {
  std::size_t at = 0, kept = 0;
  while (kept < max && at < lines.size()) {
    auto nl = lines.find('\n', at);
    at = nl == std::string::npos ? lines.size() : nl + 1;
    ++kept;
  }
  if (at >= lines.size()) return lines;
  const auto rest = static_cast<std::size_t>(std::count(lines.begin() + static_cast<std::ptrdiff_t>(at), lines.end(), '\n'));
  return lines.substr(0, at) + indent + "\u2026 (" + std::to_string(rest) + " more line" + (rest == 1 ? "" : "s") + ")\n";
}

// The unit's coders in the order of their keys (the workspace's coders by name).
std::vector<const CoderCodings*> in_key_order(const Session& s, const ReconcileUnit& u) {
  std::vector<const CoderCodings*> out;
  for (const auto& name : s.keys)
    for (const auto& c : u.coders)
      if (text::fold_case(c.coder) == text::fold_case(name)) out.push_back(&c);
  for (const auto& c : u.coders)
    if (std::find(out.begin(), out.end(), &c) == out.end()) out.push_back(&c);
  return out;
}

// The unit's file, line, participant and question, on one line as the terminal shows it (text::terminal_safe).
std::string unit_heading(const TranscriptSession& t, const PlannedUnit& p) {
  const ReconcileUnit* u = p.unit;
  const std::string q = u ? t.units.question_of(*u) : "";
  return text::terminal_safe(t.transcript->file + ":" + std::to_string(u ? u->line : 0) + ": " + t.transcript->participant + "#" + p.record.unit +
         (q.empty() ? "" : " (" + q + ")"));
}

// `walk`: the walk's screen (key letters, the turn before as context, codes with their names, the memos), `lead`
// opening the heading line ("unit k of N: "); else --list's lines (ids only).
void print_unit(std::ostream& out, const Session& s, const TranscriptSession& t, const PlannedUnit& p, bool walk,
                const std::string& lead = "") {
  out << lead << unit_heading(t, p) << '\n';
  const Taxonomy& taxonomy = s.study->taxonomy();
  // Input text goes to the terminal through text::terminal_safe: a turn's ESC c cannot reset the terminal.
  // The turn before the unit's (the interviewer's question, most often) first, as context: at most 6 lines.
  if (walk && p.unit && p.unit->turn_ref) {
    const auto& turns = t.transcript->turns;
    const Turn* turn = p.unit->turn_ref;
    if (!turns.empty() && turn > &turns.front() && turn <= &turns.back()) {
      const Turn& before = *(turn - 1);
      out << at_most(wrapped(text::terminal_safe(before.speaker + ": " + before.text, true), 74, "    "), 6, "    ");
    }
  }
  if (p.unit) out << wrapped("\"" + text::terminal_safe(p.unit->text(), true) + "\"", 76, "    ");
  if (p.unit)
    for (const CoderCodings* c : in_key_order(s, *p.unit)) {
      std::string k = walk ? key_of(s, c->coder) : "";
      const std::string at = "  " + (k.empty() ? "" : k + ") ");
      out << at << text::terminal_safe(c->coder) << ": " << text::terminal_safe(walk ? named_codes(taxonomy, c->nodes) : codes_text(c->nodes)) << '\n';
      if (walk)
        for (const auto& memo : memos_of(*c))
          out << wrapped(text::terminal_safe("memo " + memo, true), 76 - at.size(), std::string(at.size(), ' '));
    }
  if (p.state == UnitState::stale || p.state == UnitState::orphan) {
    out << "  decided earlier: " << text::terminal_safe(p.record.decision) << " by " << text::terminal_safe(p.record.decided_by)
        << " on " << text::terminal_safe(p.record.date)
        << (p.record.note.empty() ? "" : " (note: " + text::terminal_safe(escape_note(p.record.note)) + ")") << '\n';
    out << "  " << (p.state == UnitState::stale ? "stale: " : "kept: ") << p.why << '\n';
  }
}

std::optional<std::string> read_line(std::ostream& out, const std::string& prompt) {
  out << prompt << std::flush;
  std::string line;
  if (!std::getline(std::cin, line)) return std::nullopt;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return std::string(text::trim(line));
}

}  // namespace

std::string key_of(const Session& s, const std::string& coder) {
  for (std::size_t k = 0; k < s.keys.size() && k < kKeyLetters.size(); ++k)
    if (text::fold_case(s.keys[k]) == text::fold_case(coder)) return std::string(1, kKeyLetters[k]);
  return "";
}

std::string wrapped(const std::string& input, std::size_t width, const std::string& indent) {
  std::string out;
  for (const auto& paragraph : text::split(input, '\n')) {
    std::string line;
    std::size_t line_width = 0;
    std::size_t i = 0;
    while (i < paragraph.size()) {
      while (i < paragraph.size() && (paragraph[i] == ' ' || paragraph[i] == '\t')) ++i;
      std::size_t j = i;
      while (j < paragraph.size() && paragraph[j] != ' ' && paragraph[j] != '\t') ++j;
      if (j == i) break;
      const std::string word = paragraph.substr(i, j - i);
      const std::size_t w = text::count_code_points(word);
      if (!line.empty() && line_width + 1 + w > width) {
        out += indent + line + '\n';
        line.clear();
        line_width = 0;
      }
      line += (line.empty() ? "" : " ") + word;
      line_width += (line_width ? 1 : 0) + w;
      i = j;
    }
    out += indent + line + '\n';
  }
  return out;
}

std::string save(Session& s, TranscriptSession& t) {
  const std::string text = format_consensus(t.plan.to_file());
  if (text == t.written) return "";
  files::WorkspaceLock lock(s.workspace);
  if (!lock.locked()) return lock.why();
  for (const auto& [file, bytes] : t.inputs)
    if (!files::still_as_read(s.workspace / file, bytes))
      return file + " changed on disk since it was read (another coder's edit?): run 'qualrank reconcile' again to see it";
  if (!files::still_as_read(s.workspace / t.consensus_file, t.written))
    return t.consensus_file + " changed on disk since it was read";
  auto target = files::resolve_inside(s.workspace, t.consensus_file);
  std::string err;
  if (!target) return t.consensus_file + " leads outside the workspace";
  if (!files::write_atomic(*target, text, &err)) return "cannot write " + t.consensus_file + ": " + err;
  t.written = text;
  return "";
}

std::pair<int, int> list(const Context& ctx, const Session& s) {
  int open = 0, stale = 0;
  for (const auto& t : s.transcripts)
    for (const auto& p : t.plan.units) {
      if (p.state != UnitState::open && p.state != UnitState::stale && p.state != UnitState::orphan) continue;
      open += p.state == UnitState::open;
      stale += p.state == UnitState::stale;
      print_unit(*ctx.out, s, t, p, false);
    }
  return {open, stale};
}

int walk(Context& ctx, Session& s, const std::string& note_default) {
  std::ostream& out = *ctx.out;
  const Taxonomy& taxonomy = s.study->taxonomy();
  bool stop = false;
  int decided_now = 0;
  std::size_t to_ask = 0, asked_all = 0;  // "unit k of N" over the whole walk
  for (const auto& t : s.transcripts)
    for (const auto& p : t.plan.units) to_ask += p.state == UnitState::open || p.state == UnitState::stale;
  for (auto& t : s.transcripts) {
    int asked = 0;
    const std::string at_start = t.written;
    for (std::size_t i = 0; i < t.plan.units.size() && !stop; ++i) {
      PlannedUnit& p = t.plan.units[i];
      if (p.state != UnitState::open && p.state != UnitState::stale) continue;
      ++asked;
      out << '\n';
      print_unit(out, s, t, p, true, "unit " + std::to_string(++asked_all) + " of " + std::to_string(to_ask) + ": ");
      std::string keys;
      for (const CoderCodings* c : in_key_order(s, *p.unit)) keys += key_of(s, c->coder);
      std::string choice;
      while (choice.empty()) {
        std::string letters;
        for (char k : keys) letters += (letters.empty() ? "" : "/") + std::string(1, k);
        auto line = read_line(out, "decide: " + (keys.empty() ? std::string() : letters + " keep that coder's codes, ") + "u union, n neither, o ID[,ID] other codes" +
                                       (p.state == UnitState::stale ? ", k keep the earlier decision" : "") + ", s skip, q stop > ");
        if (!line || *line == "q") {
          stop = true;
          break;
        }
        if (*line == "s") break;
        if (*line == "u") choice = "union";
        else if (*line == "n") choice = "neither";
        else if (*line == "k" && p.state == UnitState::stale) choice = p.record.decision;
        else if (*line == "o" || line->starts_with("o ") || line->starts_with("o\t")) {
          // Other codes, on this line (o ID[,ID]) or the next: checked as they are typed; a typo asks again,
          // with the nearest id.
          auto resolve = [&](const std::string& given) -> bool {
            std::vector<std::string> written;
            for (auto& piece : text::split_nonempty(given, ',')) written.push_back(std::string(text::trim(piece)));
            Diagnostics d;
            auto resolved = resolve_node_ids(written, taxonomy, s.study->version->resolve, {t.transcript->file, p.unit->line, 0}, d);
            if (resolved && !resolved->empty()) {
              choice = "codes:" + text::join(*resolved, ",");
              return true;
            }
            for (const auto& diag : d.items()) out << "  " << text::terminal_safe(diag.message) << '\n';
            return false;
          };
          if (*line != "o") {
            resolve(line->substr(2));  // an error is printed and the unit asked again
          } else {
            while (true) {
              auto ids = read_line(out, "codes (ids or names, comma-separated; Enter to go back) > ");
              if (!ids || ids->empty() || resolve(*ids)) break;
            }
          }
        } else {
          for (const auto& c : p.unit->coders)
            if (key_of(s, c.coder) == *line || text::fold_case(c.coder) == text::fold_case(*line)) choice = c.coder;
          if (choice.empty())
            out << (line->empty() ? std::string("an answer is needed") : "'" + text::terminal_safe(*line) + "' is not a choice")
                << ": " << (keys.empty() ? std::string() : letters + " (a coder's codes), ") << "u, n, o ID"
                << (p.state == UnitState::stale ? ", k" : "") << ", s or q\n";
        }
      }
      if (stop || choice.empty()) continue;
      const std::string suggested = p.state == UnitState::stale && choice == p.record.decision ? p.record.note : note_default;
      auto note = read_line(out, "note (Enter for " + (suggested.empty() ? std::string("none") : "'" + text::terminal_safe(suggested) + "'") + ") > ");
      if (!note) {
        stop = true;
        continue;
      }
      if (auto why = decide_unit(t.plan, i, choice, s.decider, s.date, note->empty() ? suggested : *note, taxonomy); !why.empty()) {
        out << why << '\n';
        --i, --asked_all;  // ask again
        continue;
      }
      if (auto why = save(s, t); !why.empty()) {
        *ctx.err << "qualrank reconcile: error: " << why << "; the " << decided_now << " decision(s) made before this one are saved\n";
        return 1;
      }
      ++decided_now;
      {
        const auto& rec = t.plan.units[i].record;
        const std::string& d = rec.decision;
        out << "decided " << text::terminal_safe(rec.unit) << ": "
            << (d == "union" ? std::string("the union of the coders' codes")
                : d == "neither" ? std::string("no code")
                : d.starts_with("codes:") ? "the codes " + d.substr(6)
                                          : text::terminal_safe(d) + "'s codes")
            << " (saved in " << t.consensus_file << ")\n";
      }
    }
    // The agreed units refreshed even when nothing was decided.
    if (auto why = save(s, t); !why.empty()) {
      *ctx.err << "qualrank reconcile: error: " << why << '\n';
      return 1;
    }
    if (!ctx.quiet)
      *ctx.err << "qualrank reconcile: " << t.transcript->file << ": " << t.plan.count(UnitState::decided) << " decided, "
               << t.plan.count(UnitState::open) << " open, " << t.plan.count(UnitState::stale) << " stale ("
               << t.units.unit_kind << " units); " << (t.written != at_start ? "wrote " : "unchanged ") << t.consensus_file
               << (asked ? "" : " (nothing to decide)") << '\n';
    if (stop) break;
  }
  return 0;
}

}  // namespace qualrank::cli::reconcile
