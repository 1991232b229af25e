// Curriculum loading (defaults by folder convention, milestones) and module-number normalisation.
#include <catch2/catch.hpp>

#include "core/curriculum.h"
#include "core/errors.h"
#include "core/learning_path.h"

namespace {

const std::string kSource = TITO_TESTS_DATA_DIR "/fake_source";

}  // namespace

TEST_CASE("the curriculum loads modules in order with their metadata", "[curriculum]") {
  auto curriculum = tito::Curriculum::load(kSource);
  REQUIRE(curriculum.modules().size() == 3);
  const auto& alpha = curriculum.modules()[0];
  CHECK(alpha.number == "01");
  CHECK(alpha.folder() == "01_alpha");
  CHECK(alpha.points == 10);
  CHECK(alpha.time_limit_s == 5);
  CHECK(alpha.memory_limit_mb == 256);
  CHECK(alpha.available());
  REQUIRE(alpha.tests.size() == 1);  // found by convention in curriculum/01_alpha/tests
  CHECK(alpha.tests[0].filename() == "test_alpha.cpp");
  CHECK(curriculum.load_hints(alpha).first_level("adds two numbers") == "remember the carry");
}

TEST_CASE("a module is available when its lesson exists, by default at curriculum/NN_slug/lesson.md", "[curriculum]") {
  auto curriculum = tito::Curriculum::load(kSource);
  CHECK(curriculum.find("02")->available());
  CHECK_FALSE(curriculum.find("03")->available());
}

TEST_CASE("milestones are loaded and sorted by id", "[curriculum]") {
  auto curriculum = tito::Curriculum::load(kSource);
  REQUIRE(curriculum.milestones().size() == 2);
  CHECK(curriculum.milestones()[0].label() == "01 (First, 1958)");
  CHECK(curriculum.milestones()[1].required_modules.size() == 3);
}

TEST_CASE("module numbers are normalised from every common spelling", "[curriculum]") {
  auto curriculum = tito::Curriculum::load(kSource);
  for (const char* spelling : {"1", "01", "001", "1_alpha", "01_alpha", "alpha", "Alpha", " 01 "}) {
    INFO(spelling);
    CHECK(curriculum.normalise(spelling) == "01");
  }
  CHECK(curriculum.normalise("3") == "03");
  CHECK_FALSE(curriculum.normalise("4").has_value());
  CHECK_FALSE(curriculum.normalise("1_beta").has_value());
  CHECK_FALSE(curriculum.normalise("delta").has_value());
  CHECK_FALSE(curriculum.normalise("").has_value());
}

TEST_CASE("an unknown module is a usage error listing the valid ones", "[curriculum]") {
  auto curriculum = tito::Curriculum::load(kSource);
  try {
    curriculum.resolve("42");
    FAIL("resolve should have thrown");
  } catch (const tito::UserError& error) {
    CHECK(error.exit_code() == tito::kExitUsage);
    CHECK(error.problem().find("01 alpha, 02 beta, 03 gamma") != std::string::npos);
    CHECK(error.fix() == "tito module list");
  }
}

TEST_CASE("module states follow prerequisites and availability", "[curriculum]") {
  auto curriculum = tito::Curriculum::load(kSource);
  tito::ProgressState progress;
  CHECK(tito::state_of(*curriculum.find("01"), progress) == tito::ModuleState::Ready);
  CHECK(tito::state_of(*curriculum.find("02"), progress) == tito::ModuleState::Locked);
  CHECK(tito::state_of(*curriculum.find("03"), progress) == tito::ModuleState::Unavailable);

  progress.modules["01"].started_at = "2025-01-01T00:00:00Z";
  CHECK(tito::state_of(*curriculum.find("01"), progress) == tito::ModuleState::Started);
  CHECK(tito::next_command(curriculum, progress) == "tito module test 01");

  progress.modules["01"].completed_at = "2025-01-02T00:00:00Z";
  CHECK(tito::state_of(*curriculum.find("01"), progress) == tito::ModuleState::Completed);
  CHECK(tito::state_of(*curriculum.find("02"), progress) == tito::ModuleState::Ready);
  auto unlocked = tito::unlocked_by(curriculum, "01", progress);
  REQUIRE(unlocked.size() == 1);
  CHECK(unlocked[0]->number == "02");
  auto distance = tito::next_milestone(curriculum, progress);
  REQUIRE(distance.milestone != nullptr);
  CHECK(distance.milestone->id == "01");
  CHECK(distance.missing_modules == std::vector<std::string>{"02"});
  CHECK(tito::next_command(curriculum, progress) == "tito module start 02");
}
