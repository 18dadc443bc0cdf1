// Replaying accepted edits on the base taxonomy.
//
// Each edit is checked before it changes anything, so an invalid edit is reported (at its proposal entry) and
// skipped, and the replay goes on to report the others. The invariants are the loader's (unique ids;
// unambiguous ids, names and aliases; every parent exists; no cycles) plus the history's own: an id is never
// reused once any node had it (so a code's id always means one node), and no edit touches a deprecated node or
// one that was merged, split or renamed away.
//
// Speed: every check is a hash lookup or a walk up the ancestors of one node, so a replay is linear in the
// number of edits. Nodes removed by merge and split become tombstones (status "removed", no edges) because
// removing a vertex from Boost's vecS storage renumbers all vertices; finish() copies the live nodes in
// preorder into a fresh taxonomy and rebuilds the indexes once.
#include <algorithm>

#include "qualrank/model/history/history.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

constexpr const char* kTombstone = "removed";


std::string fail_prefix(const TaxonomyEdit& e) { return e.id + ": cannot " + std::string(to_string(e.op)) + ": "; }

// The live nodes of `t` in preorder, moved into a new taxonomy (tombstones dropped), reindexed. `t` is left
// with moved-from nodes.
Taxonomy compact(Taxonomy& t) {
  Taxonomy out;
  out.name = t.name;
  out.title = t.title;
  out.file = t.file;
  out.level_names = t.level_names;
  const auto& g = t.graph();
  std::vector<std::string> preorder;
  preorder.reserve(t.size());
  std::vector<Taxonomy::Vertex> stack, kids;
  for (auto [v, end] = boost::vertices(g); v != end; ++v) {
    if (boost::in_degree(*v, g) != 0 || g[*v].status == kTombstone) continue;
    stack.push_back(*v);
    while (!stack.empty()) {
      auto u = stack.back();
      stack.pop_back();
      preorder.push_back(g[u].id);
      kids.clear();
      for (auto [e, e_end] = boost::out_edges(u, g); e != e_end; ++e) kids.push_back(boost::target(*e, g));
      stack.insert(stack.end(), kids.rbegin(), kids.rend());
    }
  }
  for (const auto& id : preorder) out.add(std::move(*t.find_mutable(id)));
  out.reindex();
  return out;
}

}  // namespace

TaxonomyReplay::TaxonomyReplay(const Taxonomy& base) : taxonomy_(base) {
  const auto& g = taxonomy_.graph();
  labels_.reserve(4 * base.size());
  ever_.reserve(2 * base.size());
  for (auto [v, end] = boost::vertices(g); v != end; ++v) {
    ever_.insert(g[*v].id);
    register_labels(g[*v]);
  }
}

bool TaxonomyReplay::live(const std::string& id) const {
  const TaxonomyNode* n = taxonomy_.find(id);
  return n && n->status != kTombstone;
}

std::vector<std::string> TaxonomyReplay::labels_of(const TaxonomyNode& n) const {
  std::vector<std::string> out{n.id, n.name};
  out.insert(out.end(), n.aliases.begin(), n.aliases.end());
  return out;
}

namespace {

template <typename F>
void for_each_label(const TaxonomyNode& n, F f) {
  f(n.id);
  f(n.name);
  for (const auto& a : n.aliases) f(a);
}

}  // namespace

void TaxonomyReplay::register_labels(const TaxonomyNode& n) {
  for_each_label(n, [&](const std::string& label) {
    auto key = text::fold_trimmed(label);
    if (!key.empty()) labels_.emplace(std::move(key), n.id);
  });
}

void TaxonomyReplay::unregister_labels(const TaxonomyNode& n, bool keep_as_old) {
  for_each_label(n, [&](const std::string& label) {
    auto key = text::fold_trimmed(label);
    if (key.empty()) return;
    auto it = labels_.find(key);
    if (it != labels_.end() && it->second == n.id) labels_.erase(it);
    if (keep_as_old) migration_.old_labels[std::move(key)] = n.id;
  });
}

void TaxonomyReplay::retire(const std::string& id, NodeFate fate) { migration_.fates[id] = std::move(fate); }

bool TaxonomyReplay::check_live(const TaxonomyEdit& e, const std::string& id, bool allow_deprecated,
                                Diagnostics& diags) const {
  if (id.empty()) {
    diags.error(e.where, fail_prefix(e) + "no node given");
    return false;
  }
  const TaxonomyNode* n = taxonomy_.find(id);
  if (!n || n->status == kTombstone) {
    std::string why = "no node '" + id + "' in the taxonomy";
    if (auto it = migration_.fates.find(id); it != migration_.fates.end()) {
      const auto& f = it->second;
      if (f.kind == NodeFate::Kind::renamed) why = "node '" + id + "' was renamed to '" + f.to + "' by " + f.edit;
      else if (f.kind == NodeFate::Kind::merged) why = "node '" + id + "' was merged into '" + f.to + "' by " + f.edit;
      else why = "node '" + id + "' was split into " + text::join(f.successors, ", ") + " by " + f.edit;
    }
    diags.error(e.where, fail_prefix(e) + why);
    return false;
  }
  if (!allow_deprecated && n->status == "deprecated") {
    diags.error(e.where, fail_prefix(e) + "node '" + id + "' is deprecated (deprecated nodes are not edited)");
    return false;
  }
  return true;
}

bool TaxonomyReplay::check_new_id(const TaxonomyEdit& e, const std::string& id, Diagnostics& diags) const {
  if (text::trim(id).empty() || id != text::trim(id)) {
    diags.error(e.where, fail_prefix(e) + "empty node id, or one with surrounding spaces");
    return false;
  }
  if (id.find_first_of(" ,>=<\t{}[]") != std::string::npos) {
    diags.error(e.where, fail_prefix(e) + "node id '" + id + "' may not contain spaces, ',', '>', '<', '=', brackets or braces");
    return false;
  }
  if (ever_.count(id)) {
    diags.error(e.where, fail_prefix(e) + (live(id) ? "node '" + id + "' already exists"
                                                    : "id '" + id + "' belonged to a node that is gone; node ids are never reused"));
    return false;
  }
  return check_label(e, id, id, diags);
}

bool TaxonomyReplay::check_label(const TaxonomyEdit& e, const std::string& label, const std::string& owner,
                                 Diagnostics& diags) const {
  auto key = text::fold_trimmed(label);
  if (key.empty()) return true;
  auto it = labels_.find(key);
  if (it == labels_.end() || it->second == owner) return true;
  diags.error(e.where, fail_prefix(e) + "'" + label + "' is already the id, name or alias of node '" + it->second + "'");
  return false;
}

bool TaxonomyReplay::apply(const TaxonomyEdit& e, int version, Diagnostics& diags) {
  switch (e.op) {
    case EditOp::add: return add(e, diags);
    case EditOp::rename: return rename(e, version, diags);
    case EditOp::redefine: return redefine(e, diags);
    case EditOp::move: return move(e, diags);
    case EditOp::merge: return merge(e, version, diags);
    case EditOp::split: return split(e, version, diags);
    case EditOp::deprecate: return deprecate(e, diags);
  }
  return false;
}

bool TaxonomyReplay::check(const TaxonomyEdit& e, int version, Diagnostics& diags) const {
  if (e.op == EditOp::add) return add_allowed(e, diags);
  TaxonomyReplay trial = *this;
  return trial.apply(e, version, diags);
}

bool TaxonomyReplay::add_allowed(const TaxonomyEdit& e, Diagnostics& diags) const {
  if (!check_new_id(e, e.node, diags)) return false;
  if (!e.parent.empty() && !check_live(e, e.parent, false, diags)) return false;
  if (!e.name || text::trim(*e.name).empty()) {
    diags.error(e.where, fail_prefix(e) + "node '" + e.node + "' needs a name");
    return false;
  }
  bool ok = check_label(e, *e.name, e.node, diags);
  for (const auto& a : e.aliases.value_or(std::vector<std::string>{})) ok = check_label(e, a, e.node, diags) && ok;
  return ok;
}

bool TaxonomyReplay::add(const TaxonomyEdit& e, Diagnostics& diags) {
  if (!add_allowed(e, diags)) return false;
  TaxonomyNode n;
  n.id = e.node;
  n.parent = e.parent;
  n.name = *e.name;
  n.definition = e.definition.value_or("");
  n.inclusion = e.inclusion.value_or("");
  n.exclusion = e.exclusion.value_or("");
  n.aliases = e.aliases.value_or(std::vector<std::string>{});
  n.keywords = e.keywords.value_or(std::vector<std::string>{});
  n.where = e.where;
  taxonomy_.add(n);
  ever_.insert(n.id);
  register_labels(n);
  return true;
}

bool TaxonomyReplay::rename(const TaxonomyEdit& e, int version, Diagnostics& diags) {
  if (!check_live(e, e.node, false, diags)) return false;
  if (!e.name && !e.new_id) {
    diags.error(e.where, fail_prefix(e) + "neither a new name nor a new id");
    return false;
  }
  if (e.new_id && !check_new_id(e, *e.new_id, diags)) return false;
  if (e.name && text::trim(*e.name).empty()) {
    diags.error(e.where, fail_prefix(e) + "empty name");
    return false;
  }
  if (e.name && !check_label(e, *e.name, e.node, diags)) return false;
  std::vector<std::string> before_labels;  // folded, to find the labels the node drops
  for_each_label(*taxonomy_.find(e.node), [&](const std::string& l) { before_labels.push_back(text::fold_trimmed(l)); });
  unregister_labels(*taxonomy_.find(e.node), false);
  std::string id = e.node;
  if (e.new_id) {
    taxonomy_.rename_id(e.node, *e.new_id);
    id = *e.new_id;
    ever_.insert(id);
    retire(e.node, {NodeFate::Kind::renamed, id, {}, e.id, version});
  }
  TaxonomyNode& after = *taxonomy_.find_mutable(id);
  if (e.name) after.name = *e.name;
  register_labels(after);
  std::vector<std::string> now;
  for_each_label(after, [&](const std::string& l) { now.push_back(text::fold_trimmed(l)); });
  for (auto& l : before_labels)
    if (std::find(now.begin(), now.end(), l) == now.end()) migration_.old_labels[std::move(l)] = e.node;
  return true;
}

bool TaxonomyReplay::redefine(const TaxonomyEdit& e, Diagnostics& diags) {
  if (!check_live(e, e.node, false, diags)) return false;
  if (e.aliases) {
    bool ok = true;
    for (const auto& a : *e.aliases) ok = check_label(e, a, e.node, diags) && ok;
    if (!ok) return false;
  }
  TaxonomyNode& n = *taxonomy_.find_mutable(e.node);
  if (e.definition) n.definition = *e.definition;
  if (e.inclusion) n.inclusion = *e.inclusion;
  if (e.exclusion) n.exclusion = *e.exclusion;
  if (e.keywords) n.keywords = *e.keywords;
  if (e.aliases) {
    unregister_labels(n, false);
    std::vector<std::string> now;
    for (const auto& a : *e.aliases) now.push_back(text::fold_trimmed(a));
    for (const auto& a : n.aliases)
      if (auto key = text::fold_trimmed(a); std::find(now.begin(), now.end(), key) == now.end()) migration_.old_labels[key] = n.id;
    n.aliases = *e.aliases;
    register_labels(n);
  }
  return true;
}

bool TaxonomyReplay::move(const TaxonomyEdit& e, Diagnostics& diags) {
  if (!check_live(e, e.node, false, diags) || !check_live(e, e.parent, false, diags)) return false;
  if (taxonomy_.is_within(e.parent, e.node)) {
    diags.error(e.where, fail_prefix(e) + "moving '" + e.node + "' under '" + e.parent + "' would make a cycle ('" +
                             e.parent + "' is '" + e.node + "' or inside it)");
    return false;
  }
  if (taxonomy_.find(e.node)->parent == e.parent) {
    diags.error(e.where, fail_prefix(e) + "node '" + e.node + "' is already under '" + e.parent + "'");
    return false;
  }
  taxonomy_.set_parent(e.node, e.parent);
  return true;
}

bool TaxonomyReplay::merge(const TaxonomyEdit& e, int version, Diagnostics& diags) {
  if (!check_live(e, e.into, false, diags)) return false;
  if (e.from.empty()) {
    diags.error(e.where, fail_prefix(e) + "no nodes to merge");
    return false;
  }
  for (std::size_t i = 0; i < e.from.size(); ++i) {
    const auto& source = e.from[i];
    if (!check_live(e, source, false, diags)) return false;
    if (source == e.into || std::find(e.from.begin(), e.from.begin() + static_cast<long>(i), source) != e.from.begin() + static_cast<long>(i)) {
      diags.error(e.where, fail_prefix(e) + "node '" + source + "' is named twice (or is the target)");
      return false;
    }
    if (taxonomy_.is_within(e.into, source)) {
      diags.error(e.where, fail_prefix(e) + "the target '" + e.into + "' is inside '" + source + "'");
      return false;
    }
  }
  for (const auto& source : e.from) {
    for (const auto& child : taxonomy_.children(source)) taxonomy_.set_parent(child, e.into);
    TaxonomyNode& n = *taxonomy_.find_mutable(source);
    unregister_labels(n, true);
    taxonomy_.set_parent(source, "");
    n.status = kTombstone;
    tombstones_.push_back(source);
    retire(source, {NodeFate::Kind::merged, e.into, {}, e.id, version});
  }
  return true;
}

bool TaxonomyReplay::split(const TaxonomyEdit& e, int version, Diagnostics& diags) {
  if (!check_live(e, e.node, false, diags)) return false;
  if (e.parts.size() < 2) {
    diags.error(e.where, fail_prefix(e) + "a split needs at least two successors");
    return false;
  }
  std::vector<std::string> ids, names;
  auto has = [](const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); };
  for (const auto& p : e.parts) {
    if (!check_new_id(e, p.id, diags)) return false;
    if (text::trim(p.name).empty()) {
      diags.error(e.where, fail_prefix(e) + "successor '" + p.id + "' needs a name");
      return false;
    }
    if (!check_label(e, p.name, e.node, diags)) return false;
    auto name_key = text::fold_trimmed(p.name), id_key = text::fold_trimmed(p.id);
    if (has(ids, p.id) || has(names, name_key) || has(names, id_key)) {
      diags.error(e.where, fail_prefix(e) + "successor '" + p.id + "' repeats the id or name of another successor");
      return false;
    }
    ids.push_back(p.id);
    names.push_back(name_key);
    if (id_key != name_key) names.push_back(id_key);
  }
  bool recode = e.codings_to == kRecode;
  if (!recode && !has(ids, e.codings_to)) {
    diags.error(e.where, fail_prefix(e) + "codings_to is '" + e.codings_to + "'; it must be one of the successors (" +
                             text::join(ids, ", ") + ") or 'recode'");
    return false;
  }
  auto children = taxonomy_.children(e.node);
  if (recode && !children.empty()) {
    diags.error(e.where, fail_prefix(e) + "node '" + e.node + "' has children (" + text::join(children, ", ") +
                             "); name a successor in codings_to to receive them");
    return false;
  }
  TaxonomyNode& n = *taxonomy_.find_mutable(e.node);
  const TaxonomyNode old = n;  // a copy: add() below may move the vertex storage
  std::string parent = n.parent;
  unregister_labels(n, true);
  std::vector<std::string> successors;
  for (const auto& p : e.parts) {
    TaxonomyNode s;
    s.id = p.id;
    s.name = p.name;
    s.parent = parent;
    s.where = e.where;
    if (p.id == e.codings_to) {  // the successor the codings go to continues the node: its text and labels
      s.definition = old.definition;
      s.inclusion = old.inclusion;
      s.exclusion = old.exclusion;
      s.keywords = old.keywords;
      for (const auto& a : old.aliases)  // less an alias that is now a successor's id or name
        if (!has(names, text::fold_trimmed(a))) s.aliases.push_back(a);
    }
    taxonomy_.add(s);
    ever_.insert(s.id);
    register_labels(s);
    successors.push_back(s.id);
  }
  for (const auto& child : children) taxonomy_.set_parent(child, e.codings_to);
  taxonomy_.set_parent(e.node, "");
  taxonomy_.find_mutable(e.node)->status = kTombstone;  // re-find: add() may have moved the vertex storage
  tombstones_.push_back(e.node);
  retire(e.node, {NodeFate::Kind::split, recode ? "" : e.codings_to, successors, e.id, version});
  return true;
}

bool TaxonomyReplay::deprecate(const TaxonomyEdit& e, Diagnostics& diags) {
  if (!check_live(e, e.node, false, diags)) return false;
  std::vector<std::string> active;
  for (const auto& child : taxonomy_.children(e.node))
    if (taxonomy_.find(child)->status != "deprecated") active.push_back(child);
  if (!active.empty()) {
    diags.error(e.where, fail_prefix(e) + "node '" + e.node + "' has active children (" + text::join(active, ", ") +
                             "); deprecate, move or merge them first");
    return false;
  }
  taxonomy_.find_mutable(e.node)->status = "deprecated";
  return true;
}

Taxonomy TaxonomyReplay::snapshot() const {
  Taxonomy copy = taxonomy_;
  if (tombstones_.empty()) {
    copy.reindex();
    return copy;
  }
  return compact(copy);
}

Taxonomy TaxonomyReplay::finish() {
  if (!tombstones_.empty()) return compact(taxonomy_);
  taxonomy_.reindex();
  return std::move(taxonomy_);
}

}  // namespace qualrank
