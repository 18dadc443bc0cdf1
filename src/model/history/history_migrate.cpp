// Materialising a version and migrating codes to it.
//
// materialise() replays the accepted edits up to the version (TaxonomyReplay, history_replay.cpp) and keeps
// what the replay learnt about retired nodes (MigrationMap): where each retired id went (renamed, merged,
// split) and which names and aliases retired nodes had. migrating_resolver() resolves a code as written: first
// as an id, name or alias of the version itself, then by following the retired id (or the node that had the
// retired label) from fate to fate until it reaches a node of the version, or a split whose codings need
// re-coding. Ids are never reused, so the chain is unambiguous.
#include "qualrank/model/history/history.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {


}  // namespace

std::optional<MaterialisedVersion> materialise(const Taxonomy& base, const TaxonomyHistory& history, int version,
                                               Diagnostics& diags) {
  TaxonomyReplay replay(base);
  bool ok = true;
  for (auto index : history.accepted) {
    const auto& e = history.edits[index];
    if (e.version > version) break;  // acceptance order is version order (checked when parsing)
    ok = replay.apply(e, e.version, diags) && ok;
  }
  if (!ok) return std::nullopt;
  auto migration = std::make_shared<MigrationMap>(std::move(replay.migration()));
  migration->version = version;
  // Ids that a code may name although they are not (yet) part of this version.
  for (const auto& e : history.edits) {
    if (e.status == EditStatus::accepted && e.version <= version) continue;
    std::vector<std::string> introduced;
    if (e.op == EditOp::add) introduced.push_back(e.node);
    if (e.op == EditOp::rename && e.new_id) introduced.push_back(*e.new_id);
    for (const auto& p : e.parts) introduced.push_back(p.id);
    std::string why;
    if (e.status == EditStatus::accepted && e.version > version)
      why = "it comes with version " + history.version_label(e.version) + ", " + e.id;
    else if (e.status == EditStatus::proposed)
      why = "it is only proposed, in " + e.id;
    else if (e.status == EditStatus::rejected)
      why = "it was proposed in " + e.id + " and rejected";
    if (why.empty()) continue;
    for (const auto& id : introduced) migration->not_yet.emplace(id, why);
  }
  MaterialisedVersion out;
  out.number = version;
  out.taxonomy = replay.finish();
  out.migration = std::move(migration);
  return out;
}

NodeResolver migrating_resolver(const Taxonomy& at, std::shared_ptr<const MigrationMap> m) {
  return [&at, m](const std::string& written) {
    NodeResolution r;
    auto settle = [&](const std::string& id) {
      const TaxonomyNode* n = at.find(id);
      if (n->status != "active") r.problem = "taxonomy node '" + id + "' is " + n->status;
      else r.node = id;
      return r;
    };
    if (auto id = at.resolve(written)) return settle(*id);
    std::string key(text::trim(written));
    std::string id;
    if (m->fates.count(key)) {
      id = key;
    } else if (auto it = m->old_labels.find(text::fold_trimmed(key)); it != m->old_labels.end()) {
      id = it->second;
    }
    if (!id.empty()) {
      for (std::size_t step = 0; step <= m->fates.size(); ++step) {
        if (at.find(id)) return settle(id);
        auto it = m->fates.find(id);
        if (it == m->fates.end()) break;
        const NodeFate& f = it->second;
        if (f.kind == NodeFate::Kind::split && f.to.empty()) {
          r.needs_recoding = true;
          r.problem = "'" + written + "' needs re-coding: node '" + id + "' was split into " +
                      text::join(f.successors, ", ") + " by " + f.edit + " (version " + std::to_string(f.version) + ")";
          return r;
        }
        id = f.to;
      }
      r.problem = "taxonomy node '" + written + "' has no successor at version " + std::to_string(m->version);
      return r;
    }
    if (auto it = m->not_yet.find(key); it != m->not_yet.end())
      r.problem = "taxonomy node '" + key + "' is not in version " + std::to_string(m->version) + ": " + it->second;
    else
      r.problem = "unknown taxonomy node '" + written + "'";
    return r;
  };
}

}  // namespace qualrank
