#include "catch.h"

#include <stdlib.h>
#include <sys/stat.h>
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

TEST_CASE("files::finish_staged completes a journaled commit killed during its renames, and nothing else", "[util]") {
  TempDir tmp;
  const fs::path ws = tmp.path;
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) ::_exit(0);
  REQUIRE(::waitpid(child, nullptr, 0) == child);
  const std::string pid = std::to_string(child);
  // The state a kill leaves after the first of three renames: a.md new, b.md and c.md still in temp files.
  REQUIRE(files::write_atomic(ws / "t" / "a.md", "new a"));
  REQUIRE(files::write_atomic(ws / "t" / "b.md", "old b"));
  REQUIRE(files::write_atomic(ws / "t" / ("." "b.md." + pid + ".1a.tmp"), "new b"));
  REQUIRE(files::write_atomic(ws / "t" / ("." "c.md." + pid + ".2b.tmp"), "new c"));
  REQUIRE(files::write_atomic(ws / (".qualrank-staged." + pid),
                              "t/.a.md." + pid + ".0f.tmp\tt/a.md\n"      // renamed before the kill
                              "t/.b.md." + pid + ".1a.tmp\tt/b.md\n"
                              "t/.c.md." + pid + ".2b.tmp\tt/c.md\n"
                              "t/.b.md." + pid + ".1a.tmp\tt/other.md\n"  // not a temp of that target
                              "../outside.tmp\tt/a.md\n"));               // outside the workspace
  // A journal of a process that still runs is left alone.
  const std::string live = ".qualrank-staged." + std::to_string(::getppid());
  REQUIRE(files::write_atomic(ws / live, "t/.d.md.1.3c.tmp\tt/d.md\n"));
  REQUIRE(files::write_atomic(ws / "t" / ".d.md.1.3c.tmp", "new d"));

  std::vector<std::string> problems;
  CHECK(files::finish_staged(ws, &problems) == 2);
  CHECK(slurp(ws / "t" / "a.md") == "new a");
  CHECK(slurp(ws / "t" / "b.md") == "new b");
  CHECK(slurp(ws / "t" / "c.md") == "new c");
  CHECK_FALSE(fs::exists(ws / "t" / "other.md"));
  CHECK_FALSE(fs::exists(ws / (".qualrank-staged." + pid)));
  REQUIRE(problems.size() == 2);
  CHECK(problems[0] == ".qualrank-staged." + pid + ":4: not a temp file and its target in the workspace; skipped");
  CHECK(problems[1] == ".qualrank-staged." + pid + ":5: not a temp file and its target in the workspace; skipped");
  CHECK(fs::exists(ws / live));
  CHECK(slurp(ws / "t" / ".d.md.1.3c.tmp") == "new d");
  CHECK_FALSE(fs::exists(ws / "t" / "d.md"));
  CHECK(files::finish_staged(ws) == 0);  // nothing left to finish
}

TEST_CASE("files::StagedFiles with a workspace leaves no journal after its commit", "[util]") {
  TempDir tmp;
  files::StagedFiles staged(tmp.path);
  REQUIRE(staged.stage(tmp.path / "x" / "a.md", "a"));
  REQUIRE(staged.stage(tmp.path / "y" / "b.md", "b"));
  REQUIRE(staged.commit());
  CHECK(slurp(tmp.path / "x" / "a.md") == "a");
  CHECK(slurp(tmp.path / "y" / "b.md") == "b");
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(tmp.path)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"x", "y"});
  files::StagedFiles outside(tmp.path / "x");
  REQUIRE(outside.stage(tmp.path / "x" / "a.md", "a2"));
  REQUIRE(outside.stage(tmp.path / "y" / "b.md", "b2"));
  std::string error;
  CHECK_FALSE(outside.commit(&error));  // y/b.md is not inside the journal's workspace x/
  CHECK(error.find("is outside the workspace") != std::string::npos);
  CHECK(slurp(tmp.path / "x" / "a.md") == "a");
}

TEST_CASE("files::read_input reads only regular files within the limit, refusing before it reads", "[util]") {
  TempDir tmp;
  const fs::path file = tmp.path / "a.txt";
  REQUIRE(files::write_atomic(file, "hello"));
  std::string why;
  CHECK(files::read_input(file, files::kListInput, &why) == std::optional<std::string>("hello"));
  // A FIFO: refused without blocking (no writer ever opens it).
  const fs::path fifo = tmp.path / "f.md";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_FALSE(files::read_input(fifo, files::kTranscriptInput, &why));
  CHECK(why == "not a regular file (a FIFO); qualrank reads only regular files");
  // A device, a folder.
  CHECK_FALSE(files::read_input("/dev/zero", files::kListInput, &why));
  CHECK(why == "not a regular file (a character device); qualrank reads only regular files");
  CHECK_FALSE(files::read_input(tmp.path, files::kListInput, &why));
  CHECK(why == "not a regular file (a directory); qualrank reads only regular files");
  // Over the limit, by the size fstat gives.
  const files::InputLimit tiny{4, "a test input"};
  CHECK_FALSE(files::read_input(file, tiny, &why));
  CHECK(why == "the file is 5 bytes; the limit for a test input is 4 bytes; not read");
  CHECK(files::read_input(file, files::InputLimit{5, "a test input"}, &why) == std::optional<std::string>("hello"));
  // Symlinks: a dangling one named as such; with Links::refuse none is followed.
  fs::create_symlink("gone.txt", tmp.path / "dangling.txt");
  CHECK_FALSE(files::read_input(tmp.path / "dangling.txt", files::kAnyInput, &why));
  CHECK(why == "is a symbolic link to a missing file");
  fs::create_symlink("a.txt", tmp.path / "link.txt");
  CHECK(files::read_input(tmp.path / "link.txt", files::kAnyInput, &why) == std::optional<std::string>("hello"));
  CHECK_FALSE(files::read_input(tmp.path / "link.txt", files::kAnyInput, &why, files::Links::refuse));
  CHECK(why == "is a symbolic link; qualrank does not read this file through one (replace it by the file)");
  CHECK_FALSE(files::read_input(tmp.path / "missing.txt", files::kAnyInput, &why));
  CHECK(why == "cannot read the file");
}

TEST_CASE("files::output_problem lets an output replace only a regular file, a symlink or nothing", "[util]") {
  TempDir tmp;
  CHECK(files::output_problem(tmp.path / "new.txt").empty());
  REQUIRE(files::write_atomic(tmp.path / "old.txt", "x"));
  CHECK(files::output_problem(tmp.path / "old.txt").empty());
  fs::create_symlink("/dev/null", tmp.path / "link");
  CHECK(files::output_problem(tmp.path / "link").empty());  // renamed over, never written through
  CHECK(files::output_problem("/dev/null") ==
        "is a character device, not a regular file; qualrank replaces only regular files (nothing written)");
  CHECK(files::output_problem(tmp.path) ==
        "is a directory, not a regular file; qualrank replaces only regular files (nothing written)");
  const fs::path fifo = tmp.path / "f.json";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string error;
  CHECK_FALSE(files::write_atomic(fifo, "x", &error));
  CHECK(error == fifo.string() + " is a FIFO, not a regular file; qualrank replaces only regular files (nothing written)");
  CHECK(fs::is_fifo(fifo));
  files::StagedFiles staged;
  CHECK(staged.stage(tmp.path / "ok.txt", "a", &error));
  CHECK_FALSE(staged.stage(fifo, "b", &error));
  CHECK(error == fifo.string() + " is a FIFO, not a regular file; qualrank replaces only regular files (nothing written)");
  // Nothing but the FIFO, the file, the link and the staged temp file of ok.txt (removed with `staged`).
  int temps = 0;
  for (const auto& e : fs::directory_iterator(tmp.path)) temps += e.path().filename().string().ends_with(".tmp");
  CHECK(temps == 1);
}

TEST_CASE("files::file_name_problem refuses a name that is not UTF-8", "[util]") {
  CHECK(files::file_name_problem("transcripts/P01.md").empty());
  CHECK(files::file_name_problem("transcripts/Zo\xC3\xAB.md").empty());
  CHECK(files::file_name_problem("transcripts/P\xFF.md") == "file name is not valid UTF-8; rename it");
}
