// The progress store: round trips, atomic writes, and recovery from every kind of damage.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "core/progress_store.h"

namespace fs = std::filesystem;
using tito::ProgressStore;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "tito-progress-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

void overwrite(const fs::path& file, const std::string& content) { std::ofstream(file, std::ios::trunc) << content; }

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool has_corrupt_copy(const fs::path& dir) {
  for (const auto& name : names_in(dir)) {
    if (name.rfind("progress.json.corrupt-", 0) == 0) return true;
  }
  return false;
}

// A store with 01 completed and 02 started, as after a little work.
void record_some_work(const fs::path& dir) {
  ProgressStore::initialise(dir);
  ProgressStore store(dir);
  store.load();
  store.record_started("01");
  store.record_completed("01", 100, 100, "abc123", "learner");
  store.record_started("02");
}

}  // namespace

TEST_CASE("a fresh store starts empty and stays quiet", "[progress]") {
  TempDir dir;
  ProgressStore::initialise(dir.path);
  ProgressStore store(dir.path);
  CHECK_FALSE(store.load().repaired());
  CHECK(store.state().modules.empty());
  CHECK_FALSE(store.state().last_worked.has_value());
}

TEST_CASE("progress survives a round trip through the file", "[progress]") {
  TempDir dir;
  record_some_work(dir.path);
  ProgressStore reloaded(dir.path);
  CHECK_FALSE(reloaded.load().repaired());
  const auto& state = reloaded.state();
  REQUIRE(state.is_completed("01"));
  CHECK(state.modules.at("01").score == 100);
  CHECK(state.modules.at("01").points == 100);
  CHECK(state.modules.at("01").fingerprint == "abc123");
  CHECK(state.is_started("02"));
  CHECK_FALSE(state.is_completed("02"));
  CHECK(state.last_worked == "02");
  CHECK(state.completed_count() == 1);
}

TEST_CASE("the file has the documented shape and a valid checksum", "[progress]") {
  TempDir dir;
  record_some_work(dir.path);
  auto document = nlohmann::json::parse(tito::read_file(dir.path / "progress.json"));
  CHECK(document["version"] == 2);
  CHECK(document["modules"]["01"]["completed_at"].is_string());
  CHECK(document["modules"]["01"]["origin"] == "learner");
  CHECK(document["last_worked"] == "02");
  CHECK(document["checksum"] == tito::canonical_checksum(document));
}

TEST_CASE("a completion on the reference is recorded as such, and a reset clears it", "[progress]") {
  TempDir dir;
  ProgressStore::initialise(dir.path);
  {
    ProgressStore store(dir.path);
    store.load();
    store.record_completed("03", 100, 100, "ref", "reference");
  }
  ProgressStore reloaded(dir.path);
  CHECK_FALSE(reloaded.load().repaired());
  CHECK(reloaded.state().modules.at("03").origin == "reference");

  fs::remove(dir.path / "progress.json");  // the journal alone rebuilds it too
  ProgressStore rebuilt(dir.path);
  rebuilt.load();
  CHECK(rebuilt.state().modules.at("03").origin == "reference");
  rebuilt.clear_completion("03");
  CHECK_FALSE(rebuilt.state().modules.at("03").origin.has_value());
}

TEST_CASE("a format 1 progress file (no origin) is read, kept and rewritten as format 2", "[progress]") {
  TempDir dir;
  ProgressStore::initialise(dir.path);
  // Written by the tito before origins were kept: version 1, no "origin", its own checksum, and a
  // journal whose complete event has no origin either.
  nlohmann::json old_document = {
      {"version", 1},
      {"modules", {{"01", {{"started_at", "2026-01-01T10:00:00Z"}, {"completed_at", "2026-01-02T10:00:00Z"},
                           {"score", 100}, {"points", 100}, {"fingerprint", "f1"}}}}},
      {"last_worked", "01"}};
  old_document["checksum"] = tito::canonical_checksum(old_document);
  overwrite(dir.path / "progress.json", old_document.dump(2));
  nlohmann::json event = {{"event", "complete"}, {"module", "01"}, {"at", "2026-01-02T10:00:00Z"}, {"seq", 1},
                          {"score", 100}, {"points", 100}, {"fingerprint", "f1"}};
  event["checksum"] = tito::canonical_checksum(event);
  overwrite(dir.path / "history.jsonl", event.dump() + "\n");

  ProgressStore store(dir.path);
  CHECK_FALSE(store.load().repaired());
  CHECK_FALSE(has_corrupt_copy(dir.path));
  REQUIRE(store.state().is_completed("01"));
  CHECK(store.state().modules.at("01").fingerprint == "f1");
  CHECK_FALSE(store.state().modules.at("01").origin.has_value());

  store.record_started("02");  // the next change writes format 2 and keeps module 01 as it was
  auto document = nlohmann::json::parse(tito::read_file(dir.path / "progress.json"));
  CHECK(document["version"] == 2);
  CHECK(document["modules"]["01"]["completed_at"] == "2026-01-02T10:00:00Z");
  CHECK(document["modules"]["01"]["origin"].is_null());

  fs::remove(dir.path / "progress.json");  // and the old journal still replays
  ProgressStore rebuilt(dir.path);
  rebuilt.load();
  CHECK(rebuilt.state().is_completed("01"));
  CHECK(rebuilt.state().is_started("02"));
}

TEST_CASE("clearing a completion keeps the module started", "[progress]") {
  TempDir dir;
  record_some_work(dir.path);
  ProgressStore store(dir.path);
  store.load();
  store.clear_completion("01");
  CHECK(store.state().is_started("01"));
  CHECK_FALSE(store.state().is_completed("01"));
  CHECK_FALSE(store.state().modules.at("01").score.has_value());
}

TEST_CASE("atomic writes leave no temporary files behind", "[progress]") {
  TempDir dir;
  record_some_work(dir.path);
  CHECK(names_in(dir.path) == std::vector<std::string>{"history.jsonl", "progress.json"});
  tito::write_file_atomically(dir.path / "other.txt", "x");
  CHECK(names_in(dir.path) == std::vector<std::string>{"history.jsonl", "other.txt", "progress.json"});
}

TEST_CASE("a damaged progress file is set aside and rebuilt from the journal", "[progress]") {
  TempDir dir;
  record_some_work(dir.path);
  const std::string good = tito::read_file(dir.path / "progress.json");

  SECTION("truncated") { overwrite(dir.path / "progress.json", good.substr(0, good.size() / 2)); }
  SECTION("not JSON at all") { overwrite(dir.path / "progress.json", "this is not json"); }
  SECTION("empty") { overwrite(dir.path / "progress.json", ""); }
  SECTION("hand-edited: checksum no longer matches") {
    auto document = nlohmann::json::parse(good);
    document["modules"]["02"]["completed_at"] = "2030-01-01T00:00:00Z";
    overwrite(dir.path / "progress.json", document.dump(2));
  }
  SECTION("wrong types, even with a matching checksum") {
    auto document = nlohmann::json::parse(good);
    document["modules"]["01"]["score"] = "a hundred";
    document["checksum"] = tito::canonical_checksum(document);
    overwrite(dir.path / "progress.json", document.dump(2));
  }
  SECTION("wrong top-level shape") {
    nlohmann::json document = nlohmann::json::array({1, 2, 3});
    overwrite(dir.path / "progress.json", document.dump());
  }
  SECTION("deleted") { fs::remove(dir.path / "progress.json"); }

  ProgressStore store(dir.path);
  const auto load = store.load();
  CHECK(load.repaired());
  CHECK(load.notice.find("rebuilt") != std::string::npos);
  CHECK(store.state().is_completed("01"));
  CHECK(store.state().modules.at("01").score == 100);
  CHECK(store.state().is_started("02"));
  CHECK_FALSE(store.state().is_completed("02"));
  // The repaired file is valid again, and loads without a notice.
  ProgressStore again(dir.path);
  CHECK_FALSE(again.load().repaired());
  if (fs::exists(dir.path / "history.jsonl") && names_in(dir.path).size() > 2) CHECK(has_corrupt_copy(dir.path));
}

TEST_CASE("the damaged file is kept for inspection", "[progress]") {
  TempDir dir;
  record_some_work(dir.path);
  overwrite(dir.path / "progress.json", "{ broken");
  ProgressStore store(dir.path);
  store.load();
  REQUIRE(has_corrupt_copy(dir.path));
  for (const auto& name : names_in(dir.path)) {
    if (name.rfind("progress.json.corrupt-", 0) == 0) CHECK(tito::read_file(dir.path / name) == "{ broken");
  }
}

TEST_CASE("corrupt journal lines are skipped, the rest is replayed", "[progress]") {
  TempDir dir;
  record_some_work(dir.path);
  std::string journal = tito::read_file(dir.path / "history.jsonl");
  // A torn last line, garbage in the middle, and an event whose checksum was edited.
  auto second_line_end = journal.find('\n', journal.find('\n') + 1);
  std::string tampered = R"({"at":"2030-01-01T00:00:00Z","event":"complete","module":"02","score":5,"points":5,"fingerprint":"x","seq":99,"checksum":"0000"})";
  journal.insert(second_line_end + 1, "garbage line\n" + tampered + "\n");
  journal += R"({"event":"start","mod)";
  overwrite(dir.path / "history.jsonl", journal);
  overwrite(dir.path / "progress.json", "not json");

  ProgressStore store(dir.path);
  const auto load = store.load();
  CHECK(load.notice.find("3 unreadable lines skipped") != std::string::npos);
  CHECK(store.state().is_completed("01"));
  CHECK_FALSE(store.state().is_completed("02"));
  CHECK(store.state().is_started("02"));
  CHECK(has_corrupt_copy(dir.path));
}

TEST_CASE("a missing journal is not a problem, and is re-seeded so nothing can be lost later", "[progress]") {
  TempDir dir;
  record_some_work(dir.path);
  fs::remove(dir.path / "history.jsonl");
  {
    ProgressStore store(dir.path);
    CHECK_FALSE(store.load().repaired());
    CHECK(store.state().is_completed("01"));
  }
  // The snapshot written on load lets a later corruption still recover the completion.
  overwrite(dir.path / "progress.json", "garbage");
  ProgressStore store(dir.path);
  CHECK(store.load().repaired());
  CHECK(store.state().is_completed("01"));
  CHECK(store.state().is_started("02"));
}

TEST_CASE("with neither file, the store starts empty without complaint", "[progress]") {
  TempDir dir;
  ProgressStore store(dir.path);
  CHECK_FALSE(store.load().repaired());
  CHECK(store.state().modules.empty());
  CHECK(fs::exists(dir.path / "progress.json"));
}

TEST_CASE("every journal line carries its own valid checksum", "[progress]") {
  TempDir dir;
  record_some_work(dir.path);
  std::ifstream in(dir.path / "history.jsonl");
  int lines = 0;
  for (std::string line; std::getline(in, line); ++lines) {
    auto event = nlohmann::json::parse(line);
    CHECK(event["checksum"] == tito::canonical_checksum(event));
  }
  CHECK(lines == 3);
}
