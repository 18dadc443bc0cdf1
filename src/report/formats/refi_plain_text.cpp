// A transcript as the plain text of a REFI-QDA source. The text is rebuilt from the parsed transcript, not
// copied from the file, so that every participant turn's text (markup removed) appears verbatim and its
// offset is known: items (section headings, turns, @rank and @answer lines) are merged in file order by line.
// The result is itself a transcript body: re-importing it, with front matter made from the case, gives the
// same turns, sections, rankings and answers. The rebuilt text is parsed again to check exactly that.
#include <algorithm>

#include "qualrank/report/formats/refi_export.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

struct Item {
  int line = 0;
  int order = 0;         // tie-break: keeps the parser's order for items on one line
  bool block = true;     // a block (heading, turn) starts after a blank line; a directive follows directly
  std::string text;
  int turn = 0;          // participant turn number, 0 otherwise
  std::size_t prefix = 0;  // bytes before the turn text ("SPEAKER: ")
};

std::string ranking_line(const RankingAnswer& r, const Taxonomy* taxonomy, const NodeResolver* resolve) {
  std::vector<std::string> tiers;
  for (const auto& tier : r.tiers) {
    std::vector<std::string> items;
    for (const auto& item : tier) {
      std::optional<std::string> id;
      if (taxonomy && resolve && !taxonomy->resolve(item)) id = (*resolve)(item).node;
      items.push_back(id.value_or(item));
    }
    tiers.push_back(text::join(items, " = "));
  }
  return "@rank " + text::join(tiers, " > ");
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string front_matter(const Transcript& t) {
  std::string fm = "---\nparticipant: " + quoted(t.participant) + "\nrole: x\ninterviewer: [";
  for (std::size_t i = 0; i < t.interviewer_labels.size(); ++i) fm += (i ? ", " : "") + quoted(t.interviewer_labels[i]);
  return fm + "]\n---\n";
}

}  // namespace

RefiPlainText refi_plain_text(const Transcript& t, Diagnostics& diags, const Taxonomy* taxonomy,
                              const NodeResolver* resolve) {
  std::vector<Item> items;
  int order = 0;
  for (const auto& s : t.sections)
    items.push_back({s.where.line, order++, true, "## " + s.question + (s.title.empty() ? "" : " " + s.title), 0, 0});
  for (const auto& turn : t.turns) {
    std::string prefix = turn.speaker + ": ";
    items.push_back({turn.line, order++, true, prefix + turn.text, turn.interviewer ? 0 : turn.number, prefix.size()});
  }
  for (const auto& r : t.rankings) items.push_back({r.line.line, order++, false, ranking_line(r, taxonomy, resolve), 0, 0});
  for (const auto& a : t.answers) items.push_back({a.where.line, order++, false, "@answer " + a.value, 0, 0});
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return a.line != b.line ? a.line < b.line : a.order < b.order;
  });

  RefiPlainText out;
  std::size_t cp = 0;
  auto append = [&](const std::string& s) {
    out.text += s;
    cp += text::count_code_points(s);
  };
  bool first = true;
  for (const auto& item : items) {
    if (!first) append(item.block ? "\n\n" : "\n");
    first = false;
    if (item.turn) out.turn_offsets[item.turn] = cp + text::count_code_points(item.text.substr(0, item.prefix));
    append(item.text);
  }
  if (!out.text.empty()) out.text += '\n';

  // Check: the text parses back to the same participant turns.
  Diagnostics scratch;
  auto back = parse_transcript(front_matter(t) + out.text, t.file, scratch);
  for (const auto& turn : t.turns) {
    if (turn.interviewer) continue;
    const Turn* again = back ? back->participant_turn(turn.number) : nullptr;
    if (!again || again->text != turn.text || again->section != turn.section)
      diags.warning({t.file, turn.line, 1}, "turn t" + std::to_string(turn.number) +
                                                " cannot be written as plain text that reads back the same "
                                                "(e.g. it starts or ends with a space); its export may be inexact");
  }
  return out;
}

}  // namespace qualrank
