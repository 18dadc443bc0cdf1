// Would a workspace still validate after planned writes? Commands that write several files at once (import)
// ask before writing anything, so that they can refuse as a whole.
#pragma once
#include <filesystem>
#include <map>
#include <string>

#include "qualrank/util/diagnostics.h"

namespace qualrank {

// Loads the study that the workspace at `root` would be with `planned` written into it (workspace-relative
// path -> content; a file there is replaced): the design and transcript files (codebooks/, guidelines/,
// transcripts/; regular files only, symlinks not followed) are copied with the planned files into a scratch
// folder under the system's temp folder (TMPDIR, "qualrank-check.PID.XXXXXX"), loaded as `qualrank validate`
// loads them, and the folder is removed (a folder left by a check that was killed is removed by the next one). The workspace as it is now is loaded too: the errors of the result that it does not already have
// (same message, same place) are reported to `diags`, located workspace-relative, and make the answer false.
// Also false (with an error saying why) when the scratch copy cannot be made.
bool planned_workspace_validates(const std::filesystem::path& root, const std::map<std::string, std::string>& planned,
                                 Diagnostics& diags);

}  // namespace qualrank
