#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>

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
