// The taxonomy at a version. Version 1 is the base file; later versions come from the edit history
// (codebooks/<name>.history.yaml, see history.h) when there is one.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "qualrank/model/guideline.h"
#include "qualrank/model/node_resolver.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct TaxonomyHistory;
struct MigrationMap;

struct TaxonomyVersion {
  int number = 1;
  std::string name;                 // the version's name, when it has one
  Taxonomy taxonomy;
  NodeResolver resolve;             // maps nodes written at any earlier version to this one
  int latest = 1;                   // the workspace's latest version
  std::shared_ptr<const TaxonomyHistory> history;  // the edit history (nullptr without a history file)
  std::shared_ptr<const MigrationMap> migration;   // how retired nodes map to this version (nullptr without history)
};

// The taxonomy at version `at` (a number or a version name; nullopt = the latest version). Reports an
// unknown version or an invalid history (located) and returns nullptr then. The resolver refers to the
// returned object's taxonomy: keep the object alive while using it.
std::unique_ptr<TaxonomyVersion> taxonomy_at(const Workspace& ws, const std::optional<std::string>& at,
                                             Diagnostics& diags);

// Maps a guideline's ranking item sets and `about` nodes (resolved against version 1 when it was loaded) to
// `version`: a renamed item takes its new id, merged items their target (once), and an item with no node at
// the version is left out with a warning at the question. Item sets stay in taxonomy order. Does nothing
// without a history.
void migrate_guideline(Guideline& guideline, const TaxonomyVersion& version, Diagnostics& diags);

}  // namespace qualrank
