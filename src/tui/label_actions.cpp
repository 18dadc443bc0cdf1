// The corpus labeller's action table (label_actions.h).
#include "label_actions.h"

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

}  // namespace

const std::vector<LabelAction>& label_actions() {
  static const std::vector<LabelAction> table = {
      {"label", {'l', key::enter}, "label the document with a node (the picker; Enter applies), then go to the next unlabelled",
       [](LabelActionContext& c) { pick_and_label(c, false); }},
      {"add-node", {'a'}, "add a node (an ancestor or a descendant) to the document's label",
       [](LabelActionContext& c) { pick_and_label(c, true); }},
      {"clear", {'x'}, "remove the document's label", [](LabelActionContext& c) { c.model.clear_current(); }},
      {"undo", {'u'}, "undo the last label change (and go to its document)", [](LabelActionContext& c) { c.model.undo(); }},
      {"redo", {'r'}, "redo the change undone last", [](LabelActionContext& c) { c.model.redo(); }},
      {"next-unlabelled", {key::tab, 'N'}, "go to the next document without a label",
       [](LabelActionContext& c) {
         if (!c.model.next_unlabelled()) c.model.set_message("every document is labelled: " + c.model.progress());
       }},
      {"next", {'n', key::right}, "next document", [](LabelActionContext& c) { c.model.next(); }},
      {"previous", {'p', key::left}, "previous document", [](LabelActionContext& c) { c.model.previous(); }},
      {"first", {'g', key::home}, "first document", [](LabelActionContext& c) { c.model.go(0); }},
      {"last", {'G', key::end}, "last document", [](LabelActionContext& c) { c.model.go(c.model.size() ? c.model.size() - 1 : 0); }},
      {"scroll-down", {'j', key::down}, "scroll the document down a line", [](LabelActionContext& c) { ++c.model.scroll; }},
      {"scroll-up", {'k', key::up}, "scroll the document up a line",
       [](LabelActionContext& c) { c.model.scroll = std::max(c.model.scroll - 1, 0); }},
      {"page-down", {' ', key::page_down}, "scroll down a page", [](LabelActionContext& c) { c.model.scroll += c.page; }},
      {"page-up", {'b', key::page_up}, "scroll up a page",
       [](LabelActionContext& c) { c.model.scroll = std::max(c.model.scroll - c.page, 0); }},
      {"search", {'/'}, "find the next document holding a text (title, body, comments; ASCII case-insensitive); shows its first occurrence, marked",
       [](LabelActionContext& c) {
         auto q = c.ui.prompt("search: ", "");  // a new query: '.' repeats the last one
         if (!q || q->empty()) return;
         c.last_search = *q;
         c.model.search(*q);
       }},
      {"search-again", {'.'}, "find the next document holding the last search's text",
       [](LabelActionContext& c) {
         if (c.last_search.empty()) c.model.set_message("no search yet ('/')");
         else c.model.search(c.last_search);
       }},
      {"help", {'?'}, "list the keys", [](LabelActionContext& c) { c.ui.show_help(); }},
      {"quit", {'q', key::ctrl_c}, "quit (every label is saved as made)", [](LabelActionContext& c) { c.quit = true; }},
  };
  return table;
}

std::vector<std::string> label_help_lines(int width) {
  std::vector<HelpRow> rows;
  for (const auto& a : label_actions()) {
    std::string keys;
    for (int k : a.keys) keys += (keys.empty() ? "" : ", ") + (k == ' ' ? std::string("Space") : key_name(k));
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
