// Unsaved work of the terminal coder kept on disk, so that a kill (SIGTERM, SIGHUP, a closed terminal, a
// crash) loses nothing. After every change, inside the workspace and atomically: the edited file's text as
// read or last saved (the base) goes to `.qualrank-recover/<stem>.<coder>.base` when it is not there yet, and
// the unsaved changes to `<stem>.<coder>.json`: the base's SHA-256 and the one stretch of it that differs
// (bytes kept from its start and its end, and what lies between now), so that an edit of a large transcript
// writes a few bytes, not the transcript. A save, or leaving the changes on purpose (discard, quit without
// saving), removes both. The next `annotate` of that transcript by that coder offers them back, re-applied on
// the files as they are then (CodingDocument::restore_unsaved).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "qualrank/model/coding_edit.h"

namespace qualrank::tui {

struct Recovery {
  std::string transcript;  // workspace-relative
  std::string coder;
  std::string time;        // UTC, "2026-11-26 14:03:07"
  std::string base;        // the edited file as read or last saved
  std::string edited;      // and with the unsaved changes
  // Changes a reload could not re-apply, kept (AnnotateModel::unapplied): the .json's `not_reapplied`, each
  // {"kind": "addition"|"removal"|"memo"|"exemplar", "turn", "span" (null: the whole turn), "node", "memo",
  // "exemplar", "label"}. They keep the file even when nothing else is unsaved.
  std::vector<CodingDocument::Reloaded::Change> not_reapplied;
};

// `.qualrank-recover/<stem>.<coder>.json` (workspace-relative); the coder case-folded. The base sits beside it
// with `.base` for `.json`.
std::string recovery_file(const CodingDocument& doc);
// The SHA-256 of the base last written by keep_unsaved (so that it is written once, not after every edit).
struct KeptBase {
  std::string sha256;
  std::string text;  // the base it is the hash of: compared (memcmp) instead of hashing the base after every edit
};
// Writes the document's unsaved changes (atomically) with `not_reapplied` (changes kept that a reload could
// not re-apply), and its base unless `kept` says it is there already; removes both files when there are
// neither. False with `error` when they cannot be written.
bool keep_unsaved(const std::filesystem::path& root, const CodingDocument& doc, std::string* error, KeptBase* kept = nullptr,
                  const std::vector<CodingDocument::Reloaded::Change>& not_reapplied = {});
// The recovery file of this document's transcript and coder, with its base; nullopt when there is none, or it
// cannot be read, names another transcript or coder, or its base is missing or not the one it was written on
// (`problem` then says why).
std::optional<Recovery> find_recovery(const std::filesystem::path& root, const CodingDocument& doc, std::string* problem);
void remove_recovery(const std::filesystem::path& root, const CodingDocument& doc);

}  // namespace qualrank::tui
