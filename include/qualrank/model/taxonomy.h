// The taxonomy (codebook): a forest of nodes (level 1 = the roots, 2 = their children, ...; the file may name
// its levels, `levels: [...]`) held in a Boost.Graph adjacency list (edges parent -> child), with an id index and a case-insensitive name/alias index.
#pragma once
#include <boost/graph/adjacency_list.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct TaxonomyNode {
  std::string id;
  std::string name;
  std::string definition;
  std::string inclusion;
  std::string exclusion;
  std::vector<std::string> aliases;
  std::vector<std::string> keywords;
  std::string parent;  // empty for a root (level 1)
  int level = 1;       // 1 for roots
  std::string status = "active";  // active | deprecated (history replays may set it)
  Location where;      // where the node is defined
  std::string decision_rules;  // optional: how coders decide borderline cases (shown in methods.md); last, so
                               // that positional initialisers of the fields above stay valid
};

class Taxonomy {
 public:
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, TaxonomyNode>;
  using Vertex = Graph::vertex_descriptor;

  std::string name;   // `taxonomy:` short name
  std::string title;
  std::string file;   // workspace-relative path it was loaded from
  std::vector<std::string> level_names;  // `levels:` as written (may be shorter than the depth, or empty)

  // The study's name for a level (1-based): `levels[level-1]` when the file gives it, else "Level N".
  std::string level_name(int level) const;

  // Adds a node under `node.parent` (must already exist, or be empty for a root). Returns false if the id is
  // taken or the parent is missing. Levels are computed from the parent.
  bool add(TaxonomyNode node);
  // Rebuilds name/alias indexes and the preorder; call after a batch of changes.
  void reindex();

  std::size_t size() const { return boost::num_vertices(graph_); }
  bool contains(std::string_view id) const { return index_.count(std::string(id)) > 0; }
  const TaxonomyNode* find(std::string_view id) const;
  TaxonomyNode* find_mutable(std::string_view id);
  // Resolves an id, name or alias, case-insensitively. Returns the node id, or nullopt.
  std::optional<std::string> resolve(std::string_view id_name_or_alias) const;

  // Node ids in taxonomy order (preorder, children in file order).
  const std::vector<std::string>& order() const { return order_; }
  // Position of an id in taxonomy order (for sorting); size() for unknown ids.
  std::size_t rank_of(std::string_view id) const;
  std::vector<std::string> children(std::string_view id) const;
  std::vector<std::string> roots() const;
  std::vector<std::string> at_level(int level) const;
  // The ancestor of `id` at `level` (the node itself if its level equals `level`); nullopt if deeper.
  std::optional<std::string> ancestor_at(std::string_view id, int level) const;
  // True if `ancestor` is `id` or one of its ancestors.
  bool is_within(std::string_view id, std::string_view ancestor) const;
  int max_level() const;

  // Structural edits used by the history replay (ids must exist; checks are the caller's).
  void set_parent(std::string_view id, std::string_view new_parent);
  void remove(std::string_view id);  // removes a leaf-or-not node; its children must have been moved
  void rename_id(std::string_view old_id, const std::string& new_id);

  const Graph& graph() const { return graph_; }

 private:
  void recompute_levels();
  Graph graph_;
  std::unordered_map<std::string, Vertex> index_;
  std::unordered_map<std::string, std::string> names_;  // folded name/alias/id -> id
  std::vector<std::string> order_;
  std::unordered_map<std::string, std::size_t> order_index_;
};

// "Level N": the neutral name of a level the taxonomy file does not name.
std::string default_level_name(int level);

// Nodes of one taxonomy file, at most (README "Safety and limits"); a REFI-QDA codebook may hold as many codes.
inline constexpr std::size_t kMaxTaxonomyNodes = 5000;

// Loads a taxonomy YAML (nested `children` and/or flat `parent:` form; see docs/formats.md) and validates it:
// unique ids, every parent resolves, no cycles, names and aliases unambiguous, at most kMaxTaxonomyNodes
// nodes (an error at the first one past it). `file` is the display path.
// Returns nullopt on errors, which are all reported to `diags`.
std::optional<Taxonomy> load_taxonomy(const std::string& text, const std::string& file, Diagnostics& diags);

}  // namespace qualrank
