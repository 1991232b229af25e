// Workspaces: init, refusing foreign folders, and discovery from any folder inside one.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/errors.h"
#include "core/learner_files.h"
#include "core/progress_store.h"
#include "core/workspace.h"

namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "tito-workspace-XXXXXX").string();
    path = fs::canonical(::mkdtemp(pattern.data()));
  }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("init creates the workspace layout", "[workspace]") {
  TempDir dir;
  const fs::path root = dir.path / "ws";
  CHECK(tito::Workspace::init(root) == tito::Workspace::InitOutcome::Created);
  CHECK(fs::exists(root / ".tito" / "workspace.json"));
  CHECK(fs::exists(root / ".tito" / "progress.json"));
  CHECK(fs::is_directory(root / ".tito" / "logs"));
  CHECK(fs::is_directory(root / "modules"));
  CHECK(fs::exists(root / "README.md"));
  tito::ProgressStore store(root / ".tito");
  CHECK_FALSE(store.load().repaired());
}

TEST_CASE("init on an existing workspace does nothing", "[workspace]") {
  TempDir dir;
  tito::Workspace::init(dir.path / "ws");
  std::ofstream(dir.path / "ws" / "modules" / "mine.cpp") << "keep me";
  CHECK(tito::Workspace::init(dir.path / "ws") == tito::Workspace::InitOutcome::AlreadyThere);
  CHECK(fs::exists(dir.path / "ws" / "modules" / "mine.cpp"));
}

TEST_CASE("init refuses a non-empty folder that is not a workspace", "[workspace]") {
  TempDir dir;
  std::ofstream(dir.path / "notes.txt") << "mine";
  CHECK_THROWS_AS(tito::Workspace::init(dir.path), tito::UserError);
  CHECK_FALSE(fs::exists(dir.path / ".tito"));
}

TEST_CASE("init accepts an existing empty folder", "[workspace]") {
  TempDir dir;
  CHECK(tito::Workspace::init(dir.path) == tito::Workspace::InitOutcome::Created);
}

TEST_CASE("the workspace is found from any folder below it", "[workspace]") {
  TempDir dir;
  tito::Workspace::init(dir.path / "ws");
  fs::create_directories(dir.path / "ws" / "modules" / "01_tensor" / "deep");
  CHECK(tito::Workspace::discover(dir.path / "ws") == dir.path / "ws");
  CHECK(tito::Workspace::discover(dir.path / "ws" / "modules" / "01_tensor" / "deep") == dir.path / "ws");
  CHECK_FALSE(tito::Workspace::discover(dir.path).has_value());
}

TEST_CASE("an explicit workspace wins over discovery, and must be a workspace", "[workspace]") {
  TempDir dir;
  tito::Workspace::init(dir.path / "a");
  tito::Workspace::init(dir.path / "b");
  ::unsetenv("TITO_WORKSPACE");
  CHECK(tito::Workspace::locate((dir.path / "b").string(), dir.path / "a").root() == dir.path / "b");
  CHECK(tito::Workspace::locate("", dir.path / "a" / "modules").root() == dir.path / "a");
  CHECK_THROWS_AS(tito::Workspace::locate((dir.path / "nowhere").string(), dir.path / "a"), tito::UserError);
  ::setenv("TITO_WORKSPACE", (dir.path / "b").c_str(), 1);
  CHECK(tito::Workspace::locate("", dir.path / "a").root() == dir.path / "b");
  ::unsetenv("TITO_WORKSPACE");
}

TEST_CASE("no workspace anywhere is an error with the fix", "[workspace]") {
  TempDir dir;
  ::unsetenv("TITO_WORKSPACE");
  try {
    tito::Workspace::locate("", dir.path);
    FAIL("locate should have thrown");
  } catch (const tito::UserError& error) {
    CHECK(error.fix().find("tito init") != std::string::npos);
  }
}

TEST_CASE("starter files are generated from the reference and backed up before replacement", "[workspace]") {
  TempDir dir;
  tito::Workspace::init(dir.path / "ws");
  tito::Workspace workspace(dir.path / "ws");
  auto curriculum = tito::Curriculum::load(TITO_TESTS_DATA_DIR "/fake_source");
  tito::Installation installation{TITO_TESTS_DATA_DIR "/fake_source", dir.path / "build"};
  const auto& module = *curriculum.find("01");

  CHECK_FALSE(tito::back_up_module(workspace, module).has_value());  // nothing to save yet
  auto files = tito::generate_module_files(installation, module, tito::FileFlavour::Starter);
  REQUIRE(files.size() == 1);
  CHECK(files[0].name == "alpha.cpp");
  CHECK(files[0].content.find("tito module test 01") != std::string::npos);
  CHECK(files[0].content.find("throw tinytorch::NotImplemented(\"tinytorch::mm\", \"01_alpha\"") != std::string::npos);
  tito::write_module_files(workspace.module_dir(module), files);
  CHECK(tito::missing_learner_files(workspace, module).empty());

  const std::string before = tito::fingerprint_learner_files(workspace, module);
  std::ofstream(workspace.module_dir(module) / "alpha.cpp", std::ios::app) << "// my change\n";
  CHECK(tito::fingerprint_learner_files(workspace, module) != before);

  auto backup = tito::back_up_module(workspace, module);
  REQUIRE(backup.has_value());
  CHECK(fs::exists(*backup / "alpha.cpp"));
  CHECK(backup->filename().string().rfind("01_alpha-", 0) == 0);
  auto second = tito::back_up_module(workspace, module);
  CHECK(*second != *backup);  // two backups in the same second do not collide

  auto stubs = tito::stub_locations(installation, module);
  REQUIRE(stubs.size() == 2);
  CHECK(stubs[0].file == "alpha.cpp");
}
