// Unsaved work of the terminal coder kept on disk, so that a kill (SIGTERM, SIGHUP, a closed terminal, a
// crash) loses nothing: after every change the edited file's text as read (base) and as edited go to
// `.qualrank-recover/<stem>.<coder>.json` inside the workspace, atomically; a save, or leaving the changes on
// purpose (discard, quit without saving), removes it. The next `annotate` of that transcript by that coder
// offers it back, re-applied on the files as they are then (CodingDocument::restore_unsaved).
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "qualrank/model/coding_edit.h"

namespace qualrank::tui {

struct Recovery {
  std::string transcript;  // workspace-relative
  std::string coder;
  std::string time;        // UTC, "2026-11-26 14:03:07"
  std::string base;        // the edited file as read or last saved
  std::string edited;      // and with the unsaved changes
};

// `.qualrank-recover/<stem>.<coder>.json` (workspace-relative); the coder case-folded.
std::string recovery_file(const CodingDocument& doc);
// Writes the document's unsaved changes (atomically); removes the file when there are none. False with
// `error` when it cannot be written.
bool keep_unsaved(const std::filesystem::path& root, const CodingDocument& doc, std::string* error);
// The recovery file of this document's transcript and coder; nullopt when there is none, or it cannot be read
// or names another transcript or coder (`problem` then says why).
std::optional<Recovery> find_recovery(const std::filesystem::path& root, const CodingDocument& doc, std::string* problem);
void remove_recovery(const std::filesystem::path& root, const CodingDocument& doc);

}  // namespace qualrank::tui
