// Taxonomy loading and queries. The tree is a Boost.Graph bidirectional adjacency list; since vecS vertex
// storage invalidates descriptors on removal, the id index is rebuilt after every removal.
#include "qualrank/model/taxonomy.h"

#include <boost/graph/depth_first_search.hpp>

#include <algorithm>
#include <functional>
#include <set>

#include "qualrank/util/text.h"
#include "qualrank/util/yaml_source.h"

namespace qualrank {

bool Taxonomy::add(TaxonomyNode node) {
  if (index_.count(node.id)) return false;
  std::optional<Vertex> parent;
  if (!node.parent.empty()) {
    auto it = index_.find(node.parent);
    if (it == index_.end()) return false;
    parent = it->second;
    node.level = graph_[*parent].level + 1;
  } else {
    node.level = 1;
  }
  auto id = node.id;
  Vertex v = boost::add_vertex(std::move(node), graph_);
  index_[id] = v;
  if (parent) boost::add_edge(*parent, v, graph_);
  return true;
}

std::string default_level_name(int level) { return "Level " + std::to_string(level); }

std::string Taxonomy::level_name(int level) const {
  if (level >= 1 && static_cast<std::size_t>(level) <= level_names.size()) return level_names[level - 1];
  return default_level_name(level);
}

const TaxonomyNode* Taxonomy::find(std::string_view id) const {
  auto it = index_.find(std::string(id));
  return it == index_.end() ? nullptr : &graph_[it->second];
}

TaxonomyNode* Taxonomy::find_mutable(std::string_view id) {
  auto it = index_.find(std::string(id));
  return it == index_.end() ? nullptr : &graph_[it->second];
}

void Taxonomy::recompute_levels() {
  std::function<void(Vertex, int)> visit = [&](Vertex v, int level) {
    graph_[v].level = level;
    for (auto [e, end] = boost::out_edges(v, graph_); e != end; ++e) visit(boost::target(*e, graph_), level + 1);
  };
  for (auto [v, end] = boost::vertices(graph_); v != end; ++v)
    if (boost::in_degree(*v, graph_) == 0) visit(*v, 1);
}

void Taxonomy::reindex() {
  recompute_levels();
  names_.clear();
  order_.clear();
  order_index_.clear();
  // Preorder: roots in insertion order, children in edge insertion order.
  std::function<void(Vertex)> visit = [&](Vertex v) {
    order_index_[graph_[v].id] = order_.size();
    order_.push_back(graph_[v].id);
    for (auto [e, end] = boost::out_edges(v, graph_); e != end; ++e) visit(boost::target(*e, graph_));
  };
  for (auto [v, end] = boost::vertices(graph_); v != end; ++v)
    if (boost::in_degree(*v, graph_) == 0) visit(*v);
  for (auto [v, end] = boost::vertices(graph_); v != end; ++v) {
    const auto& n = graph_[*v];
    names_.emplace(text::fold_case(n.id), n.id);
  }
  for (auto [v, end] = boost::vertices(graph_); v != end; ++v) {
    const auto& n = graph_[*v];
    names_.emplace(text::fold_case(n.name), n.id);
    for (const auto& a : n.aliases) names_.emplace(text::fold_case(a), n.id);
  }
}

std::optional<std::string> Taxonomy::resolve(std::string_view s) const {
  auto t = text::trim(s);
  if (index_.count(std::string(t))) return std::string(t);
  auto it = names_.find(text::fold_case(t));
  if (it == names_.end()) return std::nullopt;
  return it->second;
}

std::size_t Taxonomy::rank_of(std::string_view id) const {
  auto it = order_index_.find(std::string(id));
  return it == order_index_.end() ? order_.size() : it->second;
}

std::vector<std::string> Taxonomy::children(std::string_view id) const {
  std::vector<std::string> out;
  auto it = index_.find(std::string(id));
  if (it == index_.end()) return out;
  for (auto [e, end] = boost::out_edges(it->second, graph_); e != end; ++e)
    out.push_back(graph_[boost::target(*e, graph_)].id);
  return out;
}

std::vector<std::string> Taxonomy::roots() const { return at_level(1); }

std::vector<std::string> Taxonomy::at_level(int level) const {
  std::vector<std::string> out;
  for (const auto& id : order_)
    if (find(id)->level == level) out.push_back(id);
  return out;
}

std::optional<std::string> Taxonomy::ancestor_at(std::string_view id, int level) const {
  const TaxonomyNode* n = find(id);
  if (!n || n->level < level) return std::nullopt;
  while (n && n->level > level) n = find(n->parent);
  if (!n) return std::nullopt;
  return n->id;
}

bool Taxonomy::is_within(std::string_view id, std::string_view ancestor) const {
  const TaxonomyNode* n = find(id);
  while (n) {
    if (n->id == ancestor) return true;
    if (n->parent.empty()) return false;
    n = find(n->parent);
  }
  return false;
}

int Taxonomy::max_level() const {
  int m = 0;
  for (auto [v, end] = boost::vertices(graph_); v != end; ++v) m = std::max(m, graph_[*v].level);
  return m;
}

void Taxonomy::set_parent(std::string_view id, std::string_view new_parent) {
  Vertex v = index_.at(std::string(id));
  boost::clear_in_edges(v, graph_);
  graph_[v].parent = std::string(new_parent);
  if (!new_parent.empty()) boost::add_edge(index_.at(std::string(new_parent)), v, graph_);
}

void Taxonomy::remove(std::string_view id) {
  Vertex v = index_.at(std::string(id));
  boost::clear_vertex(v, graph_);
  boost::remove_vertex(v, graph_);
  index_.clear();
  for (auto [u, end] = boost::vertices(graph_); u != end; ++u) index_[graph_[*u].id] = *u;
}

void Taxonomy::rename_id(std::string_view old_id, const std::string& new_id) {
  Vertex v = index_.at(std::string(old_id));
  index_.erase(std::string(old_id));
  graph_[v].id = new_id;
  index_[new_id] = v;
  for (auto [e, end] = boost::out_edges(v, graph_); e != end; ++e) graph_[boost::target(*e, graph_)].parent = new_id;
}

// ---------------------------------------------------------------------------------------------------------
// Loading

namespace {

struct RawNode {
  TaxonomyNode node;
};

void collect(const YAML::Node& list, const std::string& parent, const std::string& file, Diagnostics& diags,
             std::vector<TaxonomyNode>& out) {
  if (!list.IsSequence()) {
    diags.error(yaml::where(list, file), "expected a list of nodes");
    return;
  }
  for (const auto& item : list) {
    if (out.size() > kMaxTaxonomyNodes) return;  // past the limit: reported once, nothing more collected
    if (!item.IsMap()) {
      diags.error(yaml::where(item, file), "expected a node (a map with id and name)");
      continue;
    }
    if (out.size() == kMaxTaxonomyNodes) {
      diags.error(yaml::where(item, file), "more than " + std::to_string(kMaxTaxonomyNodes) +
                                               " nodes (the limit on taxonomy nodes)");
      out.emplace_back();  // the marker that stops every enclosing list; load_taxonomy returns nothing
      return;
    }
    TaxonomyNode n;
    n.where = yaml::where(item, file);
    n.id = std::string(text::trim(yaml::get_string(item, "id", file, diags, true)));
    n.name = yaml::get_string(item, "name", file, diags, true);
    n.definition = yaml::get_string(item, "definition", file, diags, false);
    n.inclusion = yaml::get_string(item, "inclusion", file, diags, false);
    n.exclusion = yaml::get_string(item, "exclusion", file, diags, false);
    n.decision_rules = yaml::get_string(item, "decision_rules", file, diags, false);
    n.aliases = yaml::get_string_list(item, "aliases", file, diags);
    n.keywords = yaml::get_string_list(item, "keywords", file, diags);
    if (item["status"] && item["status"].IsScalar()) n.status = item["status"].Scalar();
    std::string declared_parent = yaml::get_string(item, "parent", file, diags, false);
    if (!declared_parent.empty() && !parent.empty() && declared_parent != parent)
      diags.error(yaml::where(item["parent"], file),
                  "node '" + n.id + "' is nested under '" + parent + "' but names parent '" + declared_parent + "'");
    n.parent = parent.empty() ? declared_parent : parent;
    if (n.id.empty()) continue;
    if (n.id.find_first_of(" ,>=<\t") != std::string::npos)
      diags.error(yaml::where(item["id"], file), "node id '" + n.id + "' may not contain spaces, ',', '>', '<' or '='");
    out.push_back(n);
    if (item["children"]) collect(item["children"], n.id, file, diags, out);
  }
}

// `levels: [Name, Name, ...]`: a list of non-empty, distinct (case-insensitively) names, one per level from
// the roots down. At most kMaxLevelNames (a taxonomy deeper than its list uses "Level N" below it).
constexpr std::size_t kMaxLevelNames = 32;

void level_names(const YAML::Node& levels, const std::string& file, Diagnostics& diags, std::vector<std::string>& out) {
  if (!levels.IsSequence()) {
    diags.error(yaml::where(levels, file), "'levels' is a list of level names, from the roots down (e.g. [Area, Practice, Habit])");
    return;
  }
  if (levels.size() > kMaxLevelNames) {
    diags.error(yaml::where(levels, file), "'levels' names " + std::to_string(levels.size()) + " levels; at most " +
                                               std::to_string(kMaxLevelNames) + " are allowed");
    return;
  }
  std::set<std::string> seen;
  for (const auto& item : levels) {
    if (!item.IsScalar() || text::trim(item.Scalar()).empty()) {
      diags.error(yaml::where(item, file), "each entry of 'levels' is a non-empty name");
      continue;
    }
    std::string name(text::trim(item.Scalar()));
    if (name.find_first_of("\n\r") != std::string::npos) {
      diags.error(yaml::where(item, file), "a level name is one line");
      continue;
    }
    if (!seen.insert(text::fold_case(name)).second) {
      diags.error(yaml::where(item, file), "level name '" + name + "' is given twice");
      continue;
    }
    out.push_back(name);
  }
}

}  // namespace

static std::optional<Taxonomy> load_taxonomy_unguarded(const std::string& text_in, const std::string& file, Diagnostics& diags) {
  int errors_before = diags.error_count();
  auto root = yaml::parse(text_in, file, diags);
  if (!root) return std::nullopt;
  if (!root->IsMap()) {
    diags.error({file, 1, 1}, "a taxonomy file is a map with 'taxonomy' and 'nodes'");
    return std::nullopt;
  }
  Taxonomy tax;
  tax.file = file;
  tax.name = yaml::get_string(*root, "taxonomy", file, diags, true);
  tax.title = yaml::get_string(*root, "title", file, diags, false);
  if (auto levels = (*root)["levels"]) level_names(levels, file, diags, tax.level_names);
  std::vector<TaxonomyNode> nodes;
  if (!(*root)["nodes"]) {
    diags.error({file, 1, 1}, "missing 'nodes'");
    return std::nullopt;
  }
  collect((*root)["nodes"], "", file, diags, nodes);
  if (nodes.size() > kMaxTaxonomyNodes) return std::nullopt;

  // Unique ids.
  std::map<std::string, const TaxonomyNode*> by_id;
  for (const auto& n : nodes) {
    auto [it, fresh] = by_id.emplace(n.id, &n);
    if (!fresh)
      diags.error(n.where, "duplicate node id '" + n.id + "' (first defined at line " +
                               std::to_string(it->second->where.line) + ")");
  }
  // Parents resolve; no cycles (flat form). Insert in an order where parents come first.
  std::set<std::string> placed;
  std::vector<const TaxonomyNode*> pending;
  for (const auto& n : nodes) {
    if (!n.parent.empty() && !by_id.count(n.parent)) {
      diags.error(n.where, "node '" + n.id + "' names parent '" + n.parent + "', which is not in the taxonomy");
      continue;
    }
    pending.push_back(&n);
  }
  std::set<std::string> seen_ids;
  bool progress = true;
  while (!pending.empty() && progress) {
    progress = false;
    std::vector<const TaxonomyNode*> next;
    for (const auto* n : pending) {
      if (!seen_ids.insert(n->id).second && !placed.count(n->id)) { /* duplicate; reported above */ }
      if (placed.count(n->id)) continue;  // duplicate id: keep the first
      if (n->parent.empty() || placed.count(n->parent)) {
        tax.add(*n);
        placed.insert(n->id);
        progress = true;
      } else {
        next.push_back(n);
      }
    }
    pending.swap(next);
  }
  for (const auto* n : pending)
    if (!placed.count(n->id))
      diags.error(n->where, "node '" + n->id + "' is part of a parent cycle ('" + n->id + "' -> '" + n->parent + "')");

  tax.reindex();
  // Names and aliases must not be ambiguous.
  std::map<std::string, std::string> owner;  // folded text -> node id
  for (const auto& n : nodes) owner.emplace(text::fold_case(n.id), n.id);
  for (const auto& n : nodes) {
    std::vector<std::string> labels{n.name};
    labels.insert(labels.end(), n.aliases.begin(), n.aliases.end());
    for (const auto& label : labels) {
      auto key = text::fold_case(text::trim(label));
      if (key.empty()) continue;
      auto [it, fresh] = owner.emplace(key, n.id);
      if (!fresh && it->second != n.id)
        diags.error(n.where, "name or alias '" + label + "' of node '" + n.id + "' is already used by node '" +
                                 it->second + "'");
    }
  }
  if (tax.size() == 0 && diags.error_count() == errors_before) diags.error({file, 1, 1}, "the taxonomy has no nodes");
  if (diags.error_count() > errors_before) return std::nullopt;
  return tax;
}

std::optional<Taxonomy> load_taxonomy(const std::string& text_in, const std::string& file, Diagnostics& diags) {
  return yaml::guarded(file, diags, 1, [&] { return load_taxonomy_unguarded(text_in, file, diags); });  // (a located error, not an internal one)
}

}  // namespace qualrank

