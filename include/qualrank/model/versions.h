// The taxonomy at a version. Version 1 is the base file; later versions come from the edit history
// (codebooks/<name>.history.yaml, see history.h) when there is one.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "qualrank/model/node_resolver.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct TaxonomyVersion {
  int number = 1;
  std::string name;                 // the version's name, when it has one
  Taxonomy taxonomy;
  NodeResolver resolve;             // maps nodes written at any earlier version to this one
};

// The taxonomy at version `at` (a number or a version name; nullopt = the latest version). Reports an
// unknown version or an invalid history (located) and returns nullptr then. The resolver refers to the
// returned object's taxonomy: keep the object alive while using it.
std::unique_ptr<TaxonomyVersion> taxonomy_at(const Workspace& ws, const std::optional<std::string>& at,
                                             Diagnostics& diags);

}  // namespace qualrank
