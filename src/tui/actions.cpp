// The action table of the terminal coder (actions.h).
#include "actions.h"

#include <algorithm>

namespace qualrank::tui {

namespace {

void code(ActionContext& c) {
  auto node = c.ui.pick_code(c.model);
  if (node) c.model.add_code(*node);
}

void memo(ActionContext& c) {
  auto current = c.model.highlighted_memo();
  if (!current) {
    c.model.set_message("error: this turn has no coding to write a memo for (code it first)");
    return;
  }
  auto list = c.model.codings();
  auto text = c.ui.prompt("memo for " + c.model.node_id(list[c.model.highlighted()].written) + ": ", *current);
  if (text) c.model.set_memo(*text);
  else c.model.set_message("memo cancelled");
}

// Saves; when the file changed on disk since it was read (another program, `qualrank code add`, a second
// annotate), offers to reload it and re-apply the unsaved changes instead of overwriting the other change.
void save(ActionContext& c) {
  if (c.model.save() || !c.model.conflict()) return;
  const std::string why = c.model.message();
  if (c.ui.confirm("changed on disk since read: reload it and re-apply your unsaved changes, then save? (y/n)"))
    c.model.reload(true);
  else
    c.model.set_message(why + " ('w' again offers to reload)");
}

// The prompt starts empty (typing is a new search); Enter alone repeats the last search.
void search(ActionContext& c) {
  const std::string& last = c.model.last_search();
  auto q = c.ui.prompt(last.empty() ? "search: " : "search (Enter: \"" + last + "\"): ", "");
  if (!q) c.model.set_message("search cancelled");
  else if (!q->empty() || !last.empty()) c.model.search(*q, 1);
  else c.model.set_message("nothing to search for");
}

// Asks for a turn number ("12" or "t12") and goes there.
void go_to(ActionContext& c) {
  const auto& turns = c.model.participant_turns();
  if (turns.empty()) return;
  const auto& all = c.model.document().transcript().turns;
  const std::string range = "t" + std::to_string(all[turns.front()].number) + "-t" + std::to_string(all[turns.back()].number);
  auto answer = c.ui.prompt("go to turn (" + range + "): t", "");
  if (!answer || answer->empty()) {
    c.model.set_message("staying at t" + std::to_string(c.model.current_number()));
    return;
  }
  std::string digits = *answer;
  if (!digits.empty() && (digits[0] == 't' || digits[0] == 'T')) digits.erase(0, 1);
  int number = 0;
  bool ok = !digits.empty() && digits.size() < 7 && digits.find_first_not_of("0123456789") == std::string::npos;
  if (ok) number = std::stoi(digits);
  if (!ok || !c.model.go_to_turn(number))
    c.model.set_message("error: no participant turn '" + *answer + "' (" + range + ")");
  else
    c.model.set_message("at t" + std::to_string(number));
}

// The node of the highlighted coding (for the segments pane).
std::optional<std::string> highlighted_node(ActionContext& c) {
  auto list = c.model.codings();
  if (c.model.highlighted() >= list.size()) {
    c.model.set_message("error: this turn has no coding (Tab highlights one; S lists its code's segments)");
    return std::nullopt;
  }
  return c.model.node_id(list[c.model.highlighted()].written);
}

void segments(ActionContext& c) {
  auto node = highlighted_node(c);
  if (!node) return;
  auto lines = c.model.segments_of(*node);
  c.ui.show_list("segments coded " + c.model.node_label(*node) + " across the study (" + std::to_string(lines.size()) + ")", lines);
}

void new_code(ActionContext& c) {
  auto selected = c.model.selected_text();
  auto name = c.ui.prompt("new code name (in vivo: the selection): ", selected.value_or(""));
  if (!name || name->empty()) {
    c.model.set_message("no code proposed");
    return;
  }
  c.model.set_message("pick the parent of '" + *name + "' (or the top level); Esc proposes nothing");
  auto parent = c.ui.pick_parent(c.model, *name);
  if (!parent) {
    c.model.set_message("no code proposed");
    return;
  }
  c.model.propose_code(*name, *parent);
}

// Before leaving the transcript: with unsaved changes, save and go, discard and go, or stay.
bool leave_unsaved(ActionContext& c, const char* what) {
  if (!c.model.dirty()) return true;
  switch (c.ui.choose(std::string("unsaved changes: s save and ") + what + ", d discard and " + what + ", Esc stay", "sd")) {
    case 's':  // as 'w' does (a change on disk offers to reload and re-apply)
      save(c);
      if (!c.model.dirty()) return true;
      c.model.set_message(c.model.message() + " (staying)");
      return false;
    case 'd':
      c.discard = true;
      return true;
    default:
      c.model.set_message("staying ('w' saves)");
      return false;
  }
}

void quit(ActionContext& c) {
  if (c.model.dirty() && !c.ui.confirm("unsaved changes: quit without saving? (y/n)")) {
    c.model.set_message("not quitting ('w' saves)");
    return;
  }
  // Changes a reload could not re-apply are unsaved work too (kept for 'u'/'r' and in the recovery file).
  const std::size_t kept = c.model.unapplied().size();
  if (!c.model.dirty() && kept > 0 &&
      !c.ui.confirm(std::to_string(kept) + " change(s) not re-applied are kept ('u' shows, 'r' re-applies): quit and drop them? (y/n)")) {
    c.model.set_message("not quitting ('u' shows the kept changes, 'r' re-applies one)");
    return;
  }
  c.discard = c.model.dirty() || kept > 0;
  c.quit = true;
}

}  // namespace

const std::vector<Action>& actions() {
  // The keys the labeller shares mean the same there (docs/keys.md; tests/unit/tui_keys_test.cpp checks it).
  static const std::vector<Action> table = {
      {"next-turn", {'j', key::down}, "next participant turn", [](ActionContext& c) { c.model.move(1); }},
      {"previous-turn", {'k', key::up}, "previous participant turn", [](ActionContext& c) { c.model.move(-1); }},
      {"page-down", {' ', key::page_down}, "go 5 turns forward", [](ActionContext& c) { c.model.move(5); }},
      {"page-up", {'b', key::page_up}, "go 5 turns back", [](ActionContext& c) { c.model.move(-5); }},
      {"go-to-turn", {'g'}, "go to a participant turn by its number (t12 or 12)", go_to},
      {"first-turn", {key::home}, "go to the first participant turn", [](ActionContext& c) { c.model.go_first(); }},
      {"last-turn", {'G', key::end}, "go to the last participant turn", [](ActionContext& c) { c.model.go_last(); }},
      {"next-uncoded", {'U'}, "next participant turn without a code", [](ActionContext& c) { c.model.next_uncoded(); }},
      {"search", {'/'}, "search the participant turns (case-insensitive) from the selection on; the match is selected; Enter alone repeats the last search", search},
      {"search-next", {'n'}, "next match of the last search", [](ActionContext& c) { c.model.search("", 1); }},
      {"search-previous", {'N'}, "previous match of the last search", [](ActionContext& c) { c.model.search("", -1); }},
      {"next-transcript", {']'}, "open the next transcript (unsaved changes: save and go, discard, or stay)",
       [](ActionContext& c) { if (leave_unsaved(c, "go")) c.switch_transcript = 1; }},
      {"previous-transcript", {'['}, "open the previous transcript (unsaved changes: save and go, discard, or stay)",
       [](ActionContext& c) { if (leave_unsaved(c, "go")) c.switch_transcript = -1; }},
      {"select", {'v'}, "select the first word of the turn", [](ActionContext& c) { c.model.select_start(); }},
      {"select-right", {'l', key::right}, "move the selection one word right", [](ActionContext& c) { c.model.select_move(1); }},
      {"select-left", {'h', key::left}, "move the selection one word left", [](ActionContext& c) { c.model.select_move(-1); }},
      {"extend", {'L', key::shift_right}, "extend the selection by one word", [](ActionContext& c) { c.model.select_extend(1); }},
      {"shrink", {'H', key::shift_left}, "shrink the selection by one word", [](ActionContext& c) { c.model.select_extend(-1); }},
      {"clear-selection", {key::escape}, "clear the selection (code the whole turn)", [](ActionContext& c) { c.model.clear_selection(); }},
      {"code", {'c', key::enter}, "pick a code (type to filter) and apply it", code},
      {"accept", {'a'}, "apply suggestion 1 (the suggestions are listed under the turn with their keys)", [](ActionContext& c) { c.model.accept_suggestion(0); }},
      {"suggestion", {'1', '2', '3', '4', '5', '6', '7', '8', '9'}, "apply the n-th suggestion listed under the turn",
       [](ActionContext& c) { c.model.accept_suggestion(static_cast<std::size_t>(c.key - '1')); }},
      {"next-coding", {key::tab}, "highlight the next coding of the turn", [](ActionContext& c) { c.model.cycle_coding(1); }},
      {"memo", {'m'}, "add or edit the highlighted coding's memo (its own, not its line's)", memo},
      {"exemplar", {'e'}, "pick or drop the highlighted coding as an exemplar quote (the coding stays)",
       [](ActionContext& c) { c.model.toggle_exemplar(); }},
      {"new-code", {'+'}, "propose a new code (in vivo: named by the selection) under a parent you pick (Esc proposes nothing); its next id continues the siblings' numbering; the selected words are its quote", new_code},
      {"segments", {'S'}, "list every segment of the highlighted coding's code across the study", segments},
      {"memos", {'M'}, "list every memo of this transcript", [](ActionContext& c) { c.ui.show_list("memos of " + c.model.document().transcript().file, c.model.memo_lines()); }},
      {"messages", {':'}, "show the message history (messages cut at the screen's edge in full)",
       [](ActionContext& c) { c.ui.show_list("messages, oldest first", c.model.message_history()); }},
      {"remove", {'d'}, "remove the highlighted coding", [](ActionContext& c) { c.model.remove_highlighted(); }},
      {"undo", {'u'}, "undo the last change (several levels); a change a reload could not re-apply is shown, kept for r", [](ActionContext& c) { c.model.undo(); }},
      {"redo", {'r'}, "redo the last undone change; a kept change is applied again on the text as it is now", [](ActionContext& c) { c.model.redo(); }},
      {"save", {'w'}, "save (atomically; if the file changed on disk, offers to reload and re-apply)", save},
      {"help", {'?'}, "show this list of keys", [](ActionContext& c) { c.ui.show_help(); }},
      {"quit", {'q', key::ctrl_c}, "quit (asks when there are unsaved changes)", quit},
  };
  return table;
}

const Action* action_for_key(int k) {
  for (const auto& a : actions())
    if (std::find(a.keys.begin(), a.keys.end(), k) != a.keys.end()) return &a;
  return nullptr;
}

std::string key_name(int k) {
  switch (k) {
    case key::up: return "Up";
    case key::down: return "Down";
    case key::left: return "Left";
    case key::right: return "Right";
    case key::shift_left: return "Shift-Left";
    case key::shift_right: return "Shift-Right";
    case key::page_up: return "PgUp";
    case key::page_down: return "PgDn";
    case key::tab: return "Tab";
    case ' ': return "Space";
    case key::escape: return "Esc";
    case key::enter: return "Enter";
    case key::ctrl_c: return "Ctrl-C";
    case key::home: return "Home";
    case key::end: return "End";
    default: break;
  }
  if (k > ' ' && k < 127) return std::string(1, static_cast<char>(k));
  return "?";
}

std::vector<std::string> wrap_words(const std::string& text, int width, int later_width) {
  if (later_width <= 0) later_width = width;
  std::vector<std::string> out;
  std::string line;
  int used = 0;
  auto room = [&] { return out.empty() ? width : later_width; };
  auto flush = [&] {
    out.push_back(std::move(line));
    line.clear();
    used = 0;
  };
  for (const auto& w : split_words(text)) {
    std::string_view word = std::string_view(text).substr(w.begin, w.end - w.begin);
    int ww = display_width(word);
    if (used > 0 && used + 1 + ww > room()) flush();
    while (used == 0 && ww > room() && room() > 0) {  // a word longer than the line: cut by characters (clusters)
      std::size_t cut = fitting_prefix(word, room());
      if (cut == 0) cut = clusters(word).front().end;  // not one character fits: one a line
      if (cut >= word.size()) break;
      line = std::string(word.substr(0, cut));
      flush();
      word.remove_prefix(cut);
      ww = display_width(word);
    }
    if (used) line += ' ', ++used;
    line += word;
    used += ww;
  }
  if (!line.empty() || out.empty()) out.push_back(std::move(line));
  return out;
}

std::vector<std::string> wrap_list(const std::vector<std::string>& items, int cols) {
  std::vector<std::string> lines;
  for (const auto& item : items) {
    if (display_width(item) <= cols) {  // as it is (its spacing kept)
      lines.push_back(item.empty() ? " " : item);
      continue;
    }
    // Wrapped by words (a word longer than the line broken by characters), under its own indentation; the
    // lines after its first indented by 4 more.
    const std::size_t lead = std::min(item.find_first_not_of(' '), item.size());
    const int first = std::max(cols - static_cast<int>(lead), 8), later = std::max(first - 4, 4);
    const auto pieces = wrap_words(item.substr(lead), first, later);
    for (std::size_t k = 0; k < pieces.size(); ++k)
      lines.push_back(std::string(lead + (k ? 4 : 0), ' ') + pieces[k]);
  }
  if (items.empty()) lines.push_back("(none)");
  return lines;
}

std::vector<std::string> help_table(const std::vector<HelpRow>& rows, int keys_cols, int name_cols, int width) {
  std::vector<std::string> out;
  for (const auto& row : rows) {
    std::string keys = row.keys;
    keys.resize(std::max<std::size_t>(keys.size() + 1, static_cast<std::size_t>(keys_cols)), ' ');
    std::string name = row.name;
    name.resize(std::max<std::size_t>(name.size() + 1, static_cast<std::size_t>(name_cols)), ' ');
    const std::string head = "  " + keys + name;
    const int indent = display_width(head);
    if (width <= 0 || indent + display_width(row.help) <= width) {
      out.push_back(head + row.help);
      continue;
    }
    // Wrapped: under the help's own start, or (too narrow for that) on lines of their own, indented by 4.
    const bool beside = width - indent >= 24;
    const int text_width = beside ? width - indent : std::max(width - 4, 8);
    auto pieces = wrap_words(row.help, text_width);
    if (!beside) out.push_back(head);
    for (std::size_t k = 0; k < pieces.size(); ++k)
      out.push_back((beside && k == 0 ? head : std::string(static_cast<std::size_t>(beside ? indent : 4), ' ')) + pieces[k]);
  }
  return out;
}

std::vector<std::string> help_lines(int width) {
  std::vector<HelpRow> rows;
  for (const auto& a : actions()) {
    std::string keys;
    if (std::string(a.name) == "suggestion") {
      keys = "1-9";
    } else {
      for (int k : a.keys) keys += (keys.empty() ? "" : ", ") + key_name(k);
    }
    rows.push_back({keys, a.name, a.help});
  }
  return help_table(rows, 18, 16, width);
}

bool dispatch(ActionContext& ctx) {
  const Action* a = action_for_key(ctx.key);
  if (!a) return false;
  a->run(ctx);
  return true;
}

}  // namespace qualrank::tui
