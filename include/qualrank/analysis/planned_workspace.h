// Would a workspace still validate after planned writes? Commands that write several files at once (import)
// ask before writing anything, so that they can refuse as a whole.
#pragma once
#include <filesystem>
#include <map>
#include <string>

#include "qualrank/util/diagnostics.h"

namespace qualrank {

// Loads the study that the workspace at `root` would be with `planned` written into it (workspace-relative
// path -> content; a file there is replaced): the workspace is loaded as `qualrank validate` loads it, with the
// planned files read from memory (files::ReadOverlay); nothing is copied or written. The workspace as it is now
// is loaded too: the errors of the result that it does not already have (same message, same place) are
// reported to `diags`, located workspace-relative, and make the answer false. Also false when a planned path
// lies outside the workspace ("outside the workspace").
bool planned_workspace_validates(const std::filesystem::path& root, const std::map<std::string, std::string>& planned,
                                 Diagnostics& diags);

}  // namespace qualrank
