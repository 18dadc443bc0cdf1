// Small pieces of the history model: names of operations and statuses, edit summaries, version lookup.
#include <algorithm>
#include <cstdio>

#include "qualrank/model/history/history.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank {

std::string_view to_string(EditOp op) {
  switch (op) {
    case EditOp::add: return "add";
    case EditOp::rename: return "rename";
    case EditOp::redefine: return "redefine";
    case EditOp::move: return "move";
    case EditOp::merge: return "merge";
    case EditOp::split: return "split";
    case EditOp::deprecate: return "deprecate";
  }
  return "?";
}

std::string_view to_string(EditStatus status) {
  switch (status) {
    case EditStatus::proposed: return "proposed";
    case EditStatus::accepted: return "accepted";
    case EditStatus::rejected: return "rejected";
  }
  return "?";
}

std::optional<EditOp> parse_edit_op(std::string_view name) {
  for (auto op : {EditOp::add, EditOp::rename, EditOp::redefine, EditOp::move, EditOp::merge, EditOp::split,
                  EditOp::deprecate})
    if (to_string(op) == name) return op;
  return std::nullopt;
}

bool parse_source(const std::string& source, std::string& file, int& line) {
  auto colon = source.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 >= source.size()) return false;
  auto digits = source.substr(colon + 1);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) || digits.size() > 9)
    return false;
  line = std::stoi(digits);
  if (line < 1) return false;
  file = source.substr(0, colon);
  return true;
}

std::vector<std::string> TaxonomyEdit::nodes_mentioned() const {
  std::vector<std::string> out;
  auto push = [&](const std::string& node_id) {
    if (!node_id.empty() && std::find(out.begin(), out.end(), node_id) == out.end()) out.push_back(node_id);
  };
  push(node);
  push(parent);
  if (new_id) push(*new_id);
  for (const auto& f : from) push(f);
  push(into);
  for (const auto& p : parts) push(p.id);
  return out;
}

std::string TaxonomyEdit::summary() const {
  auto q = [](const std::string& s) { return "'" + s + "'"; };
  switch (op) {
    case EditOp::add:
      return "add " + node + " " + q(name.value_or("")) + (parent.empty() ? " as a root" : " under " + parent);
    case EditOp::rename: {
      std::string s = "rename " + node;
      if (new_id) s += " to id " + *new_id;
      if (name) s += (new_id ? " and name " : " to ") + q(*name);
      return s;
    }
    case EditOp::redefine: {
      std::vector<std::string> what;
      if (definition) what.push_back("definition");
      if (inclusion) what.push_back("inclusion");
      if (exclusion) what.push_back("exclusion");
      if (aliases) what.push_back("aliases");
      if (keywords) what.push_back("keywords");
      return "redefine " + node + " (" + text::join(what, ", ") + ")";
    }
    case EditOp::move: return "move " + node + " under " + parent;
    case EditOp::merge: return "merge " + text::join(from, ", ") + " into " + into;
    case EditOp::split: {
      std::vector<std::string> p;
      for (const auto& part : parts) p.push_back(part.id + " " + q(part.name));
      return "split " + node + " into " + text::join(p, ", ") + "; codings to " + codings_to;
    }
    case EditOp::deprecate: return "deprecate " + node;
  }
  return "?";
}

const TaxonomyEdit* TaxonomyHistory::find(std::string_view edit_id) const {
  for (const auto& e : edits)
    if (e.id == edit_id) return &e;
  return nullptr;
}

std::optional<int> TaxonomyHistory::version_number(std::string_view number_or_name) const {
  auto s = text::trim(number_or_name);
  for (const auto& v : versions)
    if (std::to_string(v.number) == s || (!v.name.empty() && v.name == s)) return v.number;
  return std::nullopt;
}

std::string TaxonomyHistory::version_label(int number) const {
  for (const auto& v : versions)
    if (v.number == number && !v.name.empty()) return std::to_string(number) + " (" + v.name + ")";
  return std::to_string(number);
}

std::string TaxonomyHistory::next_edit_id() const {
  long long max = 0;
  for (const auto& e : edits)
    if (e.id.size() > 1) max = std::max(max, std::stoll(e.id.substr(1)));
  char buf[32];
  std::snprintf(buf, sizeof buf, "E%04lld", max + 1);
  return buf;
}

}  // namespace qualrank
