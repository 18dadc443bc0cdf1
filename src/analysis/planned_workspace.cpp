// The check behind all-or-nothing imports: the planned files are laid over a scratch copy of the workspace,
// which is loaded like `qualrank validate` does. A scratch copy (not an in-memory overlay) keeps one loader:
// whatever validate would say about the result, this says before anything is written.
#include "qualrank/analysis/planned_workspace.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <set>

#include "qualrank/analysis/study.h"
#include "qualrank/util/files.h"

namespace qualrank {

namespace fs = std::filesystem;

namespace {

// Removes the scratch folder however the check ends.
struct ScratchFolder {
  fs::path path;
  ~ScratchFolder() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

// Removes the scratch folders ("qualrank-check.PID.XXXXXX", owned by this user) that a check killed midway
// left in `temp_dir`, when their PID no longer runs.
void sweep_stale_scratch(const fs::path& temp_dir) {
  std::error_code ec;
  const std::string prefix = "qualrank-check.";
  for (fs::directory_iterator it(temp_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    auto dot = name.find('.', prefix.size());
    if (dot == std::string::npos || !files::process_gone(std::string_view(name).substr(prefix.size(), dot - prefix.size())))
      continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) continue;
    std::error_code rm;
    fs::remove_all(it->path(), rm);
  }
}

// Copies the regular files under `from` (recursively, symlinks neither followed nor copied) to `to`.
bool copy_regular_files(const fs::path& from, const fs::path& to, std::string& error) {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(from, ec))) return true;
  for (fs::recursive_directory_iterator it(from, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    fs::path target = to / fs::relative(it->path(), from, ec);
    fs::create_directories(target.parent_path(), ec);
    if (!ec) fs::copy_file(it->path(), target, fs::copy_options::overwrite_existing, ec);
    if (ec) break;
  }
  if (ec) error = "cannot copy " + from.string() + " to check the result: " + ec.message();
  return !ec;
}

}  // namespace

bool planned_workspace_validates(const fs::path& root, const std::map<std::string, std::string>& planned,
                                 Diagnostics& diags) {
  std::error_code ec;
  const fs::path temp_dir = fs::temp_directory_path(ec);
  if (!ec) sweep_stale_scratch(temp_dir);
  std::string tmpl = (temp_dir / ("qualrank-check." + std::to_string(::getpid()) + ".XXXXXX")).string();
  Location here{"(planned workspace)", 0, 0};
  if (ec || !::mkdtemp(tmpl.data())) {
    diags.error(here, "cannot make a scratch folder to check the result in " + fs::temp_directory_path(ec).string());
    return false;
  }
  ScratchFolder scratch{tmpl};
  std::string error;
  for (const char* dir : {"codebooks", "guidelines", "transcripts"})
    if (!copy_regular_files(root / dir, scratch.path / dir, error)) {
      diags.error(here, error);
      return false;
    }
  for (const auto& [rel, content] : planned) {
    auto path = files::resolve_inside(scratch.path, rel);
    if (!path || !files::write_atomic(*path, content, &error)) {
      diags.error({rel, 0, 0}, path ? error : "outside the workspace");
      return false;
    }
  }
  StudyOptions options;
  options.coding.suggestions = false;
  Diagnostics before, after;
  load_study(root, before, options);
  auto study = load_study(scratch.path, after, options);
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
