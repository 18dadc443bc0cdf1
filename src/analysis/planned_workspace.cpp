// The check behind all-or-nothing imports: the workspace is loaded as `qualrank validate` loads it, with the
// planned files laid over it in memory (files::ReadOverlay). One loader: whatever validate would say about the
// result, this says before anything is written; and nothing is copied or written anywhere to say it.
#include "qualrank/analysis/planned_workspace.h"

#include <set>

#include "qualrank/analysis/study.h"
#include "qualrank/util/files.h"

namespace qualrank {

namespace fs = std::filesystem;

bool planned_workspace_validates(const fs::path& root, const std::map<std::string, std::string>& planned,
                                 Diagnostics& diags) {
  Location here{"(planned workspace)", 0, 0};
  for (const auto& [rel, content] : planned)
    if (!files::resolve_inside(root, rel)) {
      diags.error({rel, 0, 0}, "outside the workspace");
      return false;
    }
  StudyOptions options;
  options.coding.suggestions = false;
  Diagnostics before, after;
  load_study(root, before, options);
  std::unique_ptr<Study> study;
  {
    files::ReadOverlay overlay(root, planned);
    study = load_study(root, after, options);
  }
  // Only what the planned files cause counts: an error the workspace already had (a guideline still to be
  // written, say) is not the import's.
  std::set<std::string> known;
  for (const auto& d : before.items())
    if (d.severity == Severity::error) known.insert(format_diagnostic(d));
  bool ok = true;
  for (const auto& d : after.items()) {
    if (d.severity != Severity::error || known.count(format_diagnostic(d))) continue;
    diags.add(d);
    ok = false;
  }
  if (!study && ok && before.items().empty()) {
    diags.error(here, "the workspace would not load");
    ok = false;
  }
  return ok;
}

}  // namespace qualrank
