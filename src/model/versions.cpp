#include "qualrank/model/versions.h"

namespace qualrank {

std::unique_ptr<TaxonomyVersion> taxonomy_at(const Workspace& ws, const std::optional<std::string>& at,
                                             Diagnostics& diags) {
  auto v = std::make_unique<TaxonomyVersion>();
  if (at && *at != "1") {
    diags.error({ws.taxonomy_path, 0, 0}, "unknown taxonomy version '" + *at + "' (the workspace has version 1 only)");
    return nullptr;
  }
  v->number = 1;
  v->taxonomy = ws.taxonomy;
  v->resolve = direct_resolver(v->taxonomy);
  return v;
}

}  // namespace qualrank
