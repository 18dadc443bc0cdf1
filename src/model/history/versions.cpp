// The taxonomy at a version: the base file for version 1 when there is no history; otherwise the base with
// the accepted edits up to the version replayed (history.h), and a resolver that migrates codes written at
// any version.
#include "qualrank/model/history/versions.h"

#include <algorithm>

#include "qualrank/model/history/history.h"
#include "qualrank/util/text.h"

namespace qualrank {

std::unique_ptr<TaxonomyVersion> taxonomy_at(const Workspace& ws, const std::optional<std::string>& at,
                                             Diagnostics& diags) {
  auto history = load_history(ws, diags);
  if (!history) return nullptr;
  auto v = std::make_unique<TaxonomyVersion>();
  if (!history->exists) {
    if (at && text::trim(*at) != "1") {
      diags.error({ws.taxonomy_path, 0, 0}, "unknown taxonomy version '" + *at + "' (the workspace has version 1 only)");
      return nullptr;
    }
    v->number = 1;
    v->taxonomy = ws.taxonomy;
    v->resolve = direct_resolver(v->taxonomy);
    return v;
  }
  int number = history->latest_version();
  if (at) {
    auto found = history->version_number(*at);
    if (!found) {
      std::vector<std::string> known;
      for (const auto& hv : history->versions) known.push_back(history->version_label(hv.number));
      diags.error({ws.history_path, 0, 0},
                  "unknown taxonomy version '" + *at + "' (versions: " + text::join(known, ", ") + ")");
      return nullptr;
    }
    number = *found;
  }
  auto shared = std::make_shared<const TaxonomyHistory>(std::move(*history));
  auto materialised = materialise(ws.taxonomy, *shared, number, diags);
  if (!materialised) return nullptr;
  v->number = number;
  for (const auto& hv : shared->versions)
    if (hv.number == number) v->name = hv.name;
  v->latest = shared->latest_version();
  v->taxonomy = std::move(materialised->taxonomy);
  v->migration = materialised->migration;
  v->history = shared;
  v->resolve = migrating_resolver(v->taxonomy, v->migration);
  return v;
}

void migrate_guideline(Guideline& guideline, const TaxonomyVersion& version, Diagnostics& diags) {
  if (!version.migration) return;
  const Taxonomy& t = version.taxonomy;
  auto migrate = [&](const Question& q, const std::vector<std::string>& ids, const char* what) {
    std::vector<std::string> out;
    for (const auto& id : ids) {
      auto r = version.resolve(id);
      if (!r.node) {
        diags.warning(q.where, "question '" + q.id + "': " + what + " '" + id + "' is left out at taxonomy version " +
                                   std::to_string(version.number) + ": " + r.problem);
        continue;
      }
      if (std::find(out.begin(), out.end(), *r.node) == out.end()) out.push_back(*r.node);
    }
    std::stable_sort(out.begin(), out.end(), [&](const std::string& a, const std::string& b) { return t.rank_of(a) < t.rank_of(b); });
    return out;
  };
  for (auto& q : guideline.questions) {
    q.items = migrate(q, q.items, "ranking item");
    q.about = migrate(q, q.about, "node");
  }
  for (auto& part : guideline.parts) {
    std::vector<std::string> about;
    for (const auto& id : part.about)
      if (auto r = version.resolve(id); r.node && std::find(about.begin(), about.end(), *r.node) == about.end())
        about.push_back(*r.node);
    part.about = about;
  }
}

}  // namespace qualrank
