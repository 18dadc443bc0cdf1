#include <catch2/catch.hpp>

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "qualrank/util/files.h"

using namespace qualrank;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "qualrank-files-test.XXXXXX").string();
    REQUIRE(::mkdtemp(t.data()));
    path = t;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

TEST_CASE("files::resolve_inside refuses '..', absolute paths and symlinks that lead out", "[util]") {
  TempDir tmp;
  fs::path ws = tmp.path / "ws";
  fs::create_directories(ws / "transcripts");
  fs::create_directories(tmp.path / "elsewhere");
  fs::create_directory_symlink(tmp.path / "elsewhere", ws / "reports");
  fs::create_directory_symlink("/etc", ws / "escape");
  fs::create_directory_symlink("transcripts", ws / "inner");

  CHECK(files::resolve_inside(ws, "transcripts/U01.md") == ws / "transcripts/U01.md");
  CHECK(files::resolve_inside(ws, "a/../transcripts/x.md") == ws / "transcripts/x.md");
  CHECK_FALSE(files::resolve_inside(ws, "../x"));
  CHECK_FALSE(files::resolve_inside(ws, "a/../../x"));
  CHECK_FALSE(files::resolve_inside(ws, "/etc/passwd"));
  CHECK_FALSE(files::resolve_inside(ws, ""));
  // through symlinks: out is refused (existing or not), in is fine
  CHECK_FALSE(files::resolve_inside(ws, "reports"));
  CHECK_FALSE(files::resolve_inside(ws, "reports/index.html"));
  CHECK_FALSE(files::resolve_inside(ws, "escape/passwd"));
  CHECK(files::resolve_inside(ws, "inner/U01.md") == ws / "inner/U01.md");
  CHECK(files::resolved_inside(ws, "inner/U01.md") == fs::weakly_canonical(ws / "transcripts/U01.md"));
  // a workspace reached through a symlink is compared resolved too
  fs::create_directory_symlink(ws, tmp.path / "link-to-ws");
  CHECK(files::resolve_inside(tmp.path / "link-to-ws", "transcripts/U01.md"));
  CHECK_FALSE(files::resolve_inside(tmp.path / "link-to-ws", "reports/x"));
  // a sibling whose name starts with the workspace's is not inside it
  fs::create_directories(tmp.path / "ws2");
  fs::create_directory_symlink(tmp.path / "ws2", ws / "sib");
  CHECK_FALSE(files::resolve_inside(ws, "sib/x"));
}

namespace {

std::string slurp(const fs::path& p) { return files::read(p).value_or("<missing>"); }

std::vector<std::string> hidden_temps(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    auto name = e.path().filename().string();
    if (name[0] == '.' && name.size() > 4 && name.substr(name.size() - 4) == ".tmp") out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("files::StagedFiles renames nothing when one file cannot be staged, and everything on commit", "[util]") {
  TempDir tmp;
  REQUIRE(files::write_atomic(tmp.path / "a.md", "old a"));
  REQUIRE(files::write_atomic(tmp.path / "b.md", "old b"));
  REQUIRE(files::write_atomic(tmp.path / "plain", "a file, not a folder"));
  {
    files::StagedFiles staged;
    std::string error;
    REQUIRE(staged.stage(tmp.path / "a.md", "new a", &error));
    REQUIRE(staged.stage(tmp.path / "sub" / "b.md", "new sub b", &error));
    CHECK_FALSE(staged.stage(tmp.path / "plain" / "c.md", "cannot be", &error));  // its folder is a file
    CHECK(error.find("cannot create") != std::string::npos);
    CHECK(hidden_temps(tmp.path).size() == 1);  // a.md's, until the staging is given up
  }
  CHECK(slurp(tmp.path / "a.md") == "old a");
  CHECK(slurp(tmp.path / "b.md") == "old b");
  CHECK_FALSE(fs::exists(tmp.path / "sub" / "b.md"));
  CHECK(hidden_temps(tmp.path).empty());
  CHECK(hidden_temps(tmp.path / "sub").empty());

  files::StagedFiles staged;
  REQUIRE(staged.stage(tmp.path / "a.md", "new a"));
  REQUIRE(staged.stage(tmp.path / "b.md", "new b"));
  CHECK(slurp(tmp.path / "a.md") == "old a");  // staged, not yet renamed
  REQUIRE(staged.commit());
  CHECK(slurp(tmp.path / "a.md") == "new a");
  CHECK(slurp(tmp.path / "b.md") == "new b");
  CHECK(hidden_temps(tmp.path).empty());
}

TEST_CASE("files: temp files of a process that no longer runs are removed before the next write there", "[util]") {
  TempDir tmp;
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) ::_exit(0);
  REQUIRE(::waitpid(child, nullptr, 0) == child);  // reaped: its pid runs no more
  REQUIRE(files::process_gone(child));
  CHECK_FALSE(files::process_gone(::getpid()));
  CHECK_FALSE(files::process_gone(0));

  const std::string dead = ".report.json." + std::to_string(child) + ".1f2e.tmp";
  const std::string alive = ".report.json." + std::to_string(::getppid()) + ".1f2e.tmp";  // the parent runs
  for (const auto& name : {dead, alive, std::string(".notes.tmp"), std::string(".x." + std::to_string(child) + ".zz.tmp")})
    REQUIRE(files::write_atomic(tmp.path / "sub" / name, "left"));
  // (written through write_atomic into sub/, which swept sub/ when it was still empty)
  for (const auto& e : fs::directory_iterator(tmp.path / "sub")) fs::rename(e.path(), tmp.path / e.path().filename());
  REQUIRE(files::write_atomic(tmp.path / "report.json", "{}"));
  auto left = hidden_temps(tmp.path);
  std::vector<std::string> expected{".notes.tmp", alive, ".x." + std::to_string(child) + ".zz.tmp"};  // not hex: kept
  std::sort(expected.begin(), expected.end());
  CHECK(left == expected);
  CHECK(slurp(tmp.path / "report.json") == "{}");
}
