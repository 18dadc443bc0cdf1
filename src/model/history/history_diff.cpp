// The net difference between two taxonomy versions.
//
// One replay: the accepted edits up to `from` give the first taxonomy (a snapshot, with the migration map at
// that point), the edits in (from, to] continue to the second. Every node of `from` is then followed to `to`
// through the retirements those edits made (renamed -> new id, merged -> target, split -> successors); a node
// that arrives is compared field by field (name or id: renamed; parent, mapped the same way: moved;
// definition, criteria, aliases, keywords: redefined; status: deprecated). Nodes of `to` that no node of
// `from` arrives at, and that are not split successors, are added. Each change names the accepted edits behind
// it, found through an index from node id to the edits that mention it. With coded segments given, a change
// counts the segments having a code that resolves (with the migrating resolver) to its node at `from`, or at
// `to` for an added node.
#include <algorithm>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "qualrank/model/history/history.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

const std::vector<std::string>& kind_order() {
  static const std::vector<std::string> order = {"added", "renamed", "moved", "redefined", "merged", "split", "deprecated"};
  return order;
}

int kind_rank(const std::string& kind) {
  const auto& o = kind_order();
  return static_cast<int>(std::find(o.begin(), o.end(), kind) - o.begin());
}

// Follows `id` through retirements made after version `after` until it names a node of `to`. Returns the id
// reached ("" when the chain ends in a merge or split, which `stop` then describes), and collects the ids the
// node had on the way.
const TaxonomyNode* follow(std::string_view start, const Taxonomy& to, const MigrationMap& m, int after,
                           const NodeFate** stop, std::vector<std::string>* chain) {
  *stop = nullptr;
  std::string id(start);
  for (std::size_t step = 0; step <= m.fates.size(); ++step) {
    if (chain) chain->push_back(id);
    if (const TaxonomyNode* n = to.find(id)) return n;
    auto it = m.fates.find(id);
    if (it == m.fates.end() || it->second.version <= after) return nullptr;
    if (it->second.kind != NodeFate::Kind::renamed) {
      *stop = &it->second;
      return nullptr;
    }
    id = it->second.to;
  }
  return nullptr;
}

// Where a node of `from` ends up in `to`, for comparing parents: merged -> its target, split -> the
// successor that received the codings. "" when nothing receives it.
std::string_view map_node(std::string_view id, const Taxonomy& to, const MigrationMap& m, int after) {
  std::string_view cur = id;
  for (std::size_t step = 0; step <= m.fates.size() && !cur.empty(); ++step) {
    const NodeFate* stop = nullptr;
    if (const TaxonomyNode* n = follow(cur, to, m, after, &stop, nullptr)) return n->id;
    if (!stop) return {};
    cur = stop->to;
  }
  return {};
}

}  // namespace

std::string TaxonomyChange::detail() const {
  auto q = [](const std::string& s) { return "'" + s + "'"; };
  if (kind == "added") return "added " + node + " " + q(name_after) + (parent_after.empty() ? " as a root" : " under " + parent_after);
  if (kind == "renamed") {
    std::string s = "renamed " + node + " " + q(name_before) + " to ";
    return s + (node_after != node ? node_after + " " : "") + q(name_after);
  }
  if (kind == "moved") return "moved " + node + " from under " + parent_before + " to under " + parent_after;
  if (kind == "redefined") return "changed the " + text::join(fields, ", ") + " of " + node;
  if (kind == "merged") return "merged " + node + " " + q(name_before) + " into " + text::join(targets, ", ");
  if (kind == "split")
    return "split " + node + " " + q(name_before) + " into " + text::join(targets, ", ") +
           (codings_to == kRecode ? "; its codings need re-coding" : "; codings go to " + codings_to);
  if (kind == "deprecated") return "deprecated " + node + " " + q(name_before);
  return kind + " " + node;
}

TaxonomyVersionSummary summarize_version(const Taxonomy& taxonomy, int number, const std::string& name) {
  TaxonomyVersionSummary s;
  s.number = number;
  s.name = name;
  const auto& g = taxonomy.graph();
  for (auto [v, end] = boost::vertices(g); v != end; ++v) {
    const TaxonomyNode& n = g[*v];
    if (n.status == "deprecated") {
      ++s.deprecated;
      continue;
    }
    if (static_cast<int>(s.per_level.size()) < n.level) s.per_level.resize(static_cast<std::size_t>(n.level), 0);
    ++s.per_level[static_cast<std::size_t>(n.level - 1)];
  }
  for (std::size_t i = 0; i < s.per_level.size(); ++i) s.level_names.push_back(taxonomy.level_name(static_cast<int>(i) + 1));
  return s;
}

std::string describe_counts(const TaxonomyVersionSummary& s) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < s.per_level.size(); ++i) {
    int n = s.per_level[i];
    std::string name = i < s.level_names.size() ? s.level_names[i] : default_level_name(static_cast<int>(i) + 1);
    parts.push_back(name + " " + std::to_string(n));
  }
  if (s.deprecated) parts.push_back(std::to_string(s.deprecated) + " deprecated");
  return parts.empty() ? "no nodes" : text::join(parts, ", ");
}

std::vector<CodedRef> coded_refs(const Workspace& ws) {
  std::vector<CodedRef> out;
  auto written = [](const std::vector<Coding>& codes) {
    std::vector<std::string_view> w;
    w.reserve(codes.size());
    for (const auto& c : codes) w.push_back(c.written);
    return w;
  };
  for (const auto& t : ws.transcripts) {
    for (const auto& turn : t.turns) {
      if (turn.interviewer) continue;
      if (!turn.codes.empty()) out.push_back({written(turn.codes)});
      for (const auto& s : turn.spans)
        if (!s.codes.empty()) out.push_back({written(s.codes)});
    }
  }
  return out;
}

std::optional<VersionPair> replay_versions(const Taxonomy& base, const TaxonomyHistory& h, int from, int to,
                                           Diagnostics& diags) {
  if (from < 1 || to > h.latest_version() || from > to) {
    diags.error({h.file, 0, 0}, "cannot diff version " + std::to_string(from) + " against version " + std::to_string(to) +
                                    " (versions 1.." + std::to_string(h.latest_version()) + ", the earlier one first)");
    return std::nullopt;
  }
  VersionPair pair;
  pair.from = from;
  pair.to = to;
  TaxonomyReplay replay(base);
  bool ok = true;
  std::size_t k = 0;
  for (; k < h.accepted.size() && h.edits[h.accepted[k]].version <= from; ++k)
    ok = replay.apply(h.edits[h.accepted[k]], h.edits[h.accepted[k]].version, diags) && ok;
  if (!ok) return std::nullopt;
  pair.before = replay.snapshot();
  auto before_migration = std::make_shared<MigrationMap>(replay.migration());
  before_migration->version = from;
  pair.before_migration = before_migration;
  for (; k < h.accepted.size() && h.edits[h.accepted[k]].version <= to; ++k) {
    const auto& e = h.edits[h.accepted[k]];
    ok = replay.apply(e, e.version, diags) && ok;
    pair.range.push_back(&e);
  }
  if (!ok) return std::nullopt;
  auto after_migration = std::make_shared<MigrationMap>(std::move(replay.migration()));
  after_migration->version = to;
  pair.after_migration = after_migration;
  pair.after = replay.finish();
  return pair;
}

std::optional<TaxonomyDiff> diff_versions(const Taxonomy& base, std::shared_ptr<const TaxonomyHistory> history,
                                          int from, int to, const std::vector<CodedRef>* refs, Diagnostics& diags) {
  auto pair = replay_versions(base, *history, from, to, diags);
  if (!pair) return std::nullopt;
  return compare_versions(*pair, std::move(history), refs);
}

TaxonomyDiff compare_versions(const VersionPair& pair, std::shared_ptr<const TaxonomyHistory> history,
                              const std::vector<CodedRef>* refs) {
  const TaxonomyHistory& h = *history;
  const Taxonomy& t1 = pair.before;
  const Taxonomy& t2 = pair.after;
  const MigrationMap* m2 = pair.after_migration.get();
  const auto& range = pair.range;
  int from = pair.from, to = pair.to;

  auto name_of = [&](int v) {
    for (const auto& hv : h.versions)
      if (hv.number == v) return hv.name;
    return std::string();
  };
  TaxonomyDiff diff;
  diff.history = history;
  diff.from = summarize_version(t1, from, name_of(from));
  diff.to = summarize_version(t2, to, name_of(to));
  diff.edits = static_cast<int>(range.size());
  if (to == h.latest_version())
    for (const auto& e : h.edits)
      if (e.status != EditStatus::accepted) diff.not_accepted.push_back(&e);

  // Edits in range by the node ids they mention (views into the history, which outlives this function), and
  // each edit's position in acceptance order.
  std::unordered_map<std::string_view, std::vector<const TaxonomyEdit*>> by_node;
  by_node.reserve(2 * range.size());
  std::vector<std::size_t> position(h.edits.size(), 0);
  for (std::size_t i = 0; i < range.size(); ++i) {
    const TaxonomyEdit* e = range[i];
    position[static_cast<std::size_t>(e - h.edits.data())] = i;
    if (!e->node.empty()) by_node[e->node].push_back(e);
    for (const auto& f : e->from) by_node[f].push_back(e);
  }
  auto edits_for = [&](const std::vector<std::string>& chain, std::initializer_list<EditOp> ops) {
    std::vector<const TaxonomyEdit*> out;
    for (const auto& id : chain) {
      auto it = by_node.find(id);
      if (it == by_node.end()) continue;
      for (const auto* e : it->second) {
        bool op_ok = ops.size() == 0 || std::find(ops.begin(), ops.end(), e->op) != ops.end();
        if (op_ok && std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
      }
    }
    std::sort(out.begin(), out.end(), [&](const TaxonomyEdit* a, const TaxonomyEdit* b) {
      return position[static_cast<std::size_t>(a - h.edits.data())] < position[static_cast<std::size_t>(b - h.edits.data())];
    });
    return out;
  };

  // Segment counts per node at each version.
  std::unordered_map<std::string, int> seg1, seg2;
  if (refs) {
    auto r1 = migrating_resolver(t1, pair.before_migration);
    auto r2 = migrating_resolver(t2, pair.after_migration);
    // Each distinct code as written is resolved once per version: a large study writes a few hundred distinct
    // codes 400,000 times. A segment counts once per node.
    std::unordered_map<std::string_view, std::pair<std::optional<std::string>, std::optional<std::string>>> resolved;
    std::vector<const std::string*> n1, n2;
    auto count = [](std::vector<const std::string*>& nodes, std::unordered_map<std::string, int>& into) {
      std::sort(nodes.begin(), nodes.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
      nodes.erase(std::unique(nodes.begin(), nodes.end(), [](const std::string* a, const std::string* b) { return *a == *b; }),
                  nodes.end());
      for (const std::string* n : nodes) ++into[*n];
    };
    for (const auto& ref : *refs) {
      n1.clear();
      n2.clear();
      for (const auto& w : ref.written) {
        auto it = resolved.find(w);
        if (it == resolved.end()) {
          const std::string code(w);
          it = resolved.emplace(w, std::pair{r1(code).node, r2(code).node}).first;
        }
        if (it->second.first) n1.push_back(&*it->second.first);
        if (it->second.second) n2.push_back(&*it->second.second);
      }
      count(n1, seg1);
      count(n2, seg2);
    }
  }

  std::unordered_set<std::string_view> reached, successors;  // views into t2 and m2
  reached.reserve(t2.size());
  std::vector<std::size_t> rank;  // taxonomy order of each change's node, for sorting
  std::vector<std::string> chain;
  const auto& order1 = t1.order();
  for (std::size_t position1 = 0; position1 < order1.size(); ++position1) {
    const std::string& id = order1[position1];
    const TaxonomyNode& before = *t1.find(id);
    const NodeFate* stop = nullptr;
    chain.clear();
    const TaxonomyNode* after = follow(id, t2, *m2, from, &stop, &chain);
    auto push = [&](const char* kind, std::initializer_list<EditOp> ops) -> TaxonomyChange& {
      TaxonomyChange c;
      c.kind = kind;
      c.node = id;
      c.name_before = before.name;
      c.parent_before = before.parent;
      if (after) {
        c.node_after = after->id;
        c.name_after = after->name;
        c.parent_after = after->parent;
      }
      if (auto it = seg1.find(id); it != seg1.end()) c.segments = it->second;
      c.edits = edits_for(chain, ops);
      diff.changes.push_back(std::move(c));
      rank.push_back(position1);
      return diff.changes.back();
    };
    if (stop) {
      if (stop->kind == NodeFate::Kind::merged) {
        TaxonomyChange& c = push("merged", {EditOp::merge, EditOp::rename});
        c.node_after = std::string(map_node(stop->to, t2, *m2, from));
        c.targets = {c.node_after};
      } else {
        TaxonomyChange& c = push("split", {EditOp::split, EditOp::rename});
        for (const auto& succ : stop->successors) {
          successors.insert(succ);
          auto mapped = map_node(succ, t2, *m2, from);
          c.targets.emplace_back(mapped.empty() ? std::string_view(succ) : mapped);
        }
        c.codings_to = stop->to.empty() ? std::string(kRecode) : std::string(map_node(stop->to, t2, *m2, from));
        c.node_after = stop->to.empty() ? "" : c.codings_to;
      }
      continue;
    }
    if (!after) continue;  // cannot happen with a valid replay
    reached.insert(after->id);
    if (after->id != id || after->name != before.name) push("renamed", {EditOp::rename});
    std::string_view mapped_parent = before.parent.empty() ? std::string_view() : map_node(before.parent, t2, *m2, from);
    if (mapped_parent != after->parent) push("moved", {EditOp::move});
    std::vector<std::string> fields;
    if (after->definition != before.definition) fields.push_back("definition");
    if (after->inclusion != before.inclusion) fields.push_back("inclusion");
    if (after->exclusion != before.exclusion) fields.push_back("exclusion");
    if (after->aliases != before.aliases) fields.push_back("aliases");
    if (after->keywords != before.keywords) fields.push_back("keywords");
    if (!fields.empty()) push("redefined", {EditOp::redefine}).fields = std::move(fields);
    if (after->status == "deprecated" && before.status != "deprecated") push("deprecated", {EditOp::deprecate});
  }

  // Renames inside the range, backwards, to find where an added node started.
  std::unordered_map<std::string_view, std::string_view> renamed_from;  // views into m2
  for (const auto& [old_id, fate] : m2->fates)
    if (fate.kind == NodeFate::Kind::renamed && fate.version > from) renamed_from[fate.to] = old_id;
  const auto& order2 = t2.order();
  for (std::size_t position2 = 0; position2 < order2.size(); ++position2) {
    const std::string& id = order2[position2];
    if (reached.count(id)) continue;
    chain.assign(1, id);
    for (std::size_t step = 0; step <= renamed_from.size(); ++step) {
      auto it = renamed_from.find(chain.back());
      if (it == renamed_from.end()) break;
      chain.emplace_back(it->second);
    }
    if (successors.count(chain.back())) continue;  // listed with its split
    const TaxonomyNode& n = *t2.find(id);
    TaxonomyChange c;
    c.kind = "added";
    c.node = id;
    c.node_after = id;
    c.name_after = n.name;
    c.parent_after = n.parent;
    if (auto it = seg2.find(id); it != seg2.end()) c.segments = it->second;
    c.edits = edits_for(chain, {});
    diff.changes.push_back(std::move(c));
    rank.push_back(position2);
  }
  // Sort by kind, then taxonomy order (of `from`; of `to` for added nodes).
  std::vector<std::pair<std::pair<int, std::size_t>, std::size_t>> keys;
  keys.reserve(diff.changes.size());
  for (std::size_t i = 0; i < diff.changes.size(); ++i) keys.push_back({{kind_rank(diff.changes[i].kind), rank[i]}, i});
  std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<TaxonomyChange> sorted;
  sorted.reserve(keys.size());
  for (const auto& k : keys) sorted.push_back(std::move(diff.changes[k.second]));
  diff.changes = std::move(sorted);
  return diff;
}

std::optional<TaxonomyDiff> workspace_taxonomy_diff(const Workspace& ws, Diagnostics& diags) {
  auto h = load_history(ws, diags);
  if (!h) return std::nullopt;
  auto history = std::make_shared<const TaxonomyHistory>(std::move(*h));
  auto pair = replay_versions(ws.taxonomy, *history, 1, history->latest_version(), diags);
  if (!pair) return std::nullopt;
  // Without an edit in the range the two versions are the same and nothing changed: the segment counts, a
  // pass over every coded segment, are only gathered when some change may show them.
  std::vector<CodedRef> refs;
  if (!pair->range.empty()) refs = coded_refs(ws);
  return compare_versions(*pair, std::move(history), pair->range.empty() ? nullptr : &refs);
}

}  // namespace qualrank
