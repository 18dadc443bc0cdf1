// The corpus labeller's actions: one table (name, default keys, one-line help, handler) that the key loop of
// label_main.cpp dispatches through and that `qualrank corpus label --help`'s terminal part and the `?`
// screen print. Handlers change the model (label_model.h) by its calls; what needs the user (the node picker,
// the search prompt, the help screen) goes through LabelUi, which tests fake.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "actions.h"  // key::*, key_name
#include "label_model.h"

namespace qualrank::tui {

class LabelUi {
 public:
  virtual ~LabelUi() = default;
  virtual std::optional<std::string> pick_node(LabelModel& model, const std::string& title) = 0;  // a node id, or none
  virtual std::optional<std::string> prompt(const std::string& label, const std::string& initial) = 0;
  virtual void show_help() = 0;
};

struct LabelActionContext {
  LabelModel& model;
  LabelUi& ui;
  int key = 0;
  int page = 20;       // lines a page scrolls
  bool quit = false;
  std::string last_search;
};

struct LabelAction {
  const char* name;
  std::vector<int> keys;
  const char* help;
  void (*run)(LabelActionContext&);
};

const std::vector<LabelAction>& label_actions();
// The table as text, one action a line: keys, name, help. With `width` > 0 a help longer than the line wraps
// by words under itself (help_table, as annotate's help).
std::vector<std::string> label_help_lines(int width = 0);
// Runs the action bound to ctx.key; false when no action is bound.
bool label_dispatch(LabelActionContext& ctx);

}  // namespace qualrank::tui
