// The corpus labeller's action table (label_actions.h).
#include "label_actions.h"

#include <algorithm>
#include <optional>

#include "qualrank/util/text.h"

namespace qualrank::tui {

namespace {

void pick_and_label(LabelActionContext& c, bool add) {
  auto id = c.ui.pick_node(c.model, add ? "add a node to the label of " + c.model.doc_ref(c.model.current())
                                        : "label " + c.model.doc_ref(c.model.current()));
  if (!id) {
    c.model.set_message("no label given");
    return;
  }
  c.model.label_current({*id}, add);
}

void search_again(LabelActionContext& c, bool forward) {
  if (c.last_search.empty()) c.model.set_message("no search yet ('/')");
  else c.model.search(c.last_search, forward);
}

// Asks for a document's position in the sample (1-based) or its id (SOURCE#ID) and goes there.
void go_to(LabelActionContext& c) {
  if (c.model.size() == 0) return;
  const std::string range = "1-" + std::to_string(c.model.size());
  auto answer = c.ui.prompt("go to document (" + range + " or SOURCE#ID): ", "");
  const std::string a = answer ? std::string(text::trim(*answer)) : std::string();
  if (a.empty()) {
    c.model.set_message("staying at " + c.model.doc_ref(c.model.current()));
    return;
  }
  std::optional<std::size_t> at;
  if (a.size() < 10 && a.find_first_not_of("0123456789") == std::string::npos) {
    const std::size_t n = std::stoul(a);
    if (n >= 1 && n <= c.model.size()) at = n - 1;
  } else {
    for (std::size_t i = 0; i < c.model.size() && !at; ++i)
      if (c.model.doc_ref(i) == a) at = i;
  }
  if (!at) {
    c.model.set_message("error: no document '" + a + "' in the sample (" + range + " or SOURCE#ID)");
    return;
  }
  c.model.go(*at);
  c.model.set_message("at " + c.model.doc_ref(*at) + " [" + std::to_string(*at + 1) + "/" + std::to_string(c.model.size()) + "]");
}

}  // namespace

const std::vector<LabelAction>& label_actions() {
  // The keys mean what they mean in annotate (docs/keys.md; tests/unit/tui_keys_test.cpp checks it): c/Enter
  // pick and apply, U next without one, n/N the last search again, g go to, ]/[ next/previous, Space/b pages.
  static const std::vector<LabelAction> table = {
      {"label", {'c', key::enter}, "label the document with a node (the picker; Enter applies), then go to the next unlabelled",
       [](LabelActionContext& c) { pick_and_label(c, false); }},
      {"add-node", {'A'}, "add a node (an ancestor or a descendant) to the document's label",
       [](LabelActionContext& c) { pick_and_label(c, true); }},
      {"clear", {'x'}, "remove the document's label", [](LabelActionContext& c) { c.model.clear_current(); }},
      {"undo", {'u'}, "undo the last label change (and go to its document)", [](LabelActionContext& c) { c.model.undo(); }},
      {"redo", {'r'}, "redo the change undone last", [](LabelActionContext& c) { c.model.redo(); }},
      {"next-unlabelled", {'U'}, "go to the next document without a label",
       [](LabelActionContext& c) {
         if (!c.model.next_unlabelled()) c.model.set_message("every document is labelled: " + c.model.progress());
       }},
      {"next", {']', key::right}, "next document", [](LabelActionContext& c) { c.model.next(); }},
      {"previous", {'[', key::left}, "previous document", [](LabelActionContext& c) { c.model.previous(); }},
      {"go-to", {'g'}, "go to a document by its position (12) or its id (SOURCE#ID)", go_to},
      {"first", {key::home}, "first document", [](LabelActionContext& c) { c.model.go(0); }},
      {"last", {'G', key::end}, "last document", [](LabelActionContext& c) { c.model.go(c.model.size() ? c.model.size() - 1 : 0); }},
      {"scroll-down", {'j', key::down}, "scroll the document down a line", [](LabelActionContext& c) { ++c.model.scroll; }},
      {"scroll-up", {'k', key::up}, "scroll the document up a line",
       [](LabelActionContext& c) { c.model.scroll = std::max(c.model.scroll - 1, 0); }},
      {"page-down", {' ', key::page_down}, "scroll down a page", [](LabelActionContext& c) { c.model.scroll += c.page; }},
      {"page-up", {'b', key::page_up}, "scroll up a page",
       [](LabelActionContext& c) { c.model.scroll = std::max(c.model.scroll - c.page, 0); }},
      {"search", {'/'}, "find the next document holding a text (title, body, comments; any case, accents composed or not); shows its first occurrence, marked",
       [](LabelActionContext& c) {
         auto q = c.ui.prompt("search: ", "");  // a new query: 'n' repeats the last one
         if (!q || q->empty()) return;
         c.last_search = *q;
         c.model.search(*q);
       }},
      {"search-again", {'n', '.'}, "find the next document holding the last search's text",
       [](LabelActionContext& c) { search_again(c, true); }},
      {"search-previous", {'N'}, "find the previous document holding the last search's text",
       [](LabelActionContext& c) { search_again(c, false); }},
      {"help", {'?'}, "list the keys", [](LabelActionContext& c) { c.ui.show_help(); }},
      {"quit", {'q', key::ctrl_c}, "quit (every label is saved as made)", [](LabelActionContext& c) { c.quit = true; }},
  };
  return table;
}

std::vector<std::string> label_help_lines(int width) {
  std::vector<HelpRow> rows;
  for (const auto& a : label_actions()) {
    std::string keys;
    for (int k : a.keys) keys += (keys.empty() ? "" : ", ") + key_name(k);
    rows.push_back({keys, a.name, a.help});
  }
  return help_table(rows, 14, 17, width);  // as annotate's help (actions.h): wrapped by words to the screen
}

bool label_dispatch(LabelActionContext& ctx) {
  for (const auto& a : label_actions())
    for (int k : a.keys)
      if (k == ctx.key) {
        a.run(ctx);
        return true;
      }
  return false;
}

}  // namespace qualrank::tui
