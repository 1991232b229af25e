// What the learner reads: hints in levels (`tito module hint`), given code through
// `tito module view NN --file`, and the instructor checks that keep lessons, TODOs and hints honest.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "core/curriculum.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/grading_validation.h"
#include "core/hints.h"
#include "core/markdown.h"
#include "core/progress_store.h"
#include "core/readable_files.h"
#include "core/starter_generator.h"

namespace fs = std::filesystem;
using namespace tito;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "tito-help-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

void put(const fs::path& file, const std::string& content) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::trunc) << content;
}

}  // namespace

TEST_CASE("hints load in levels, in the file's order, from every accepted shape", "[hints]") {
  TempDir dir;
  put(dir.path / "hints.json", R"({
    "zeta case": ["look at section 2", "loop over the groups", "call zero_() on each defined grad"],
    "alpha case": "one plain hint",
    "object case": {"levels": ["first", "second"]},
    "old object case": {"hint": "kept"},
    "empty case": []
  })");
  const auto hints = load_hint_levels(dir.path / "hints.json");
  REQUIRE(hints.size() == 4);  // a case with no text has no hint
  CHECK(hints[0].test_case == "zeta case");  // file order, not alphabetical
  CHECK(hints[0].levels == std::vector<std::string>{"look at section 2", "loop over the groups", "call zero_() on each defined grad"});
  CHECK(hints[1].levels == std::vector<std::string>{"one plain hint"});
  CHECK(hints[2].levels.size() == 2);
  CHECK(hints[3].levels == std::vector<std::string>{"kept"});

  put(dir.path / "array.json", R"([{"test": "a", "levels": ["1", "2"]}, {"case": "b", "hint": "only"}])");
  const auto listed = load_hint_levels(dir.path / "array.json");
  REQUIRE(listed.size() == 2);
  CHECK(listed[0].levels.size() == 2);
  CHECK(listed[1].levels == std::vector<std::string>{"only"});

  put(dir.path / "broken.json", "{ not json");
  CHECK(load_hint_levels(dir.path / "broken.json").empty());
  CHECK(load_hint_levels(dir.path / "missing.json").empty());
}

TEST_CASE("a hint's case is found by its exact name or a unique part of it", "[hints]") {
  const std::vector<CaseHints> hints = {
      {"SGD step subtracts lr", {"x"}, "", {}}, {"SGD momentum", {"y"}, "", {}}, {"SGD", {"z"}, "", {}}};
  CHECK(match_hint_cases(hints, "SGD").size() == 1);  // the exact name wins over the parts
  CHECK(match_hint_cases(hints, "sgd momentum").front()->test_case == "SGD momentum");
  CHECK(match_hint_cases(hints, "sgd ").size() == 2);  // ambiguous: both are offered
  CHECK(match_hint_cases(hints, "adam").empty());
}

TEST_CASE("a case's hints may name what it exercises and give a hint per labelled check", "[hints]") {
  TempDir dir;
  put(dir.path / "hints.json", R"({
    "worked example": {"levels": ["case 1", "case 2"], "exercises": ["scores", "scale"],
                       "checks": {"default scale": ["check 1", "check 2"],
                                  "scale only": {"levels": ["isolated"], "exercises": ["scale"]}}},
    "plain": ["only the case"]
  })");
  const auto entries = load_hint_levels(dir.path / "hints.json");
  REQUIRE(entries.size() == 4);  // each case, its check hints right after it
  CHECK(entries[0].key() == "worked example");
  CHECK(entries[0].exercises == std::vector<std::string>{"scores", "scale"});
  CHECK(entries[1].key() == "worked example / default scale");
  CHECK(entries[1].levels == std::vector<std::string>{"check 1", "check 2"});
  CHECK(entries[2].exercises == std::vector<std::string>{"scale"});
  CHECK(entries[3].exercises.empty());

  // `tito module hint` takes "case / check"; part of the case's name means the case's own hint.
  CHECK(match_hint_cases(entries, "worked").size() == 1);
  CHECK(match_hint_cases(entries, "worked").front()->check.empty());
  CHECK(match_hint_cases(entries, "default scale").front()->key() == "worked example / default scale");
  CHECK(match_hint_cases(entries, "worked example / scale only").front()->check == "scale only");

  const ModuleHints hints{"12", entries};
  CHECK(hints.first_level("worked example", "default scale") ==
        "check 1 (more help, one step at a time: tito module hint 12 \"worked example / default scale\")");
  CHECK(hints.first_level("worked example", "no such label").rfind("case 1 (more help", 0) == 0);  // the case's own
  CHECK(hints.first_level("plain") == "only the case");
  CHECK(hints.first_level("no such case").empty());
  CHECK(hints.exercises("worked example", "scale only") == std::vector<std::string>{"scale"});
}

TEST_CASE("a failing test shows the first hint level and how to get the next", "[hints][curriculum]") {
  TempDir dir;
  fs::copy(TITO_TESTS_DATA_DIR "/fake_source", dir.path, fs::copy_options::recursive);
  put(dir.path / "curriculum" / "01_alpha" / "hints.json",
      R"({"adds two numbers": ["remember the carry", "the carry is sum / 10"], "one level": "only this"})");
  const auto curriculum = Curriculum::load(dir.path);
  const auto hints = curriculum.load_hints(*curriculum.find("01"));
  CHECK(hints.first_level("adds two numbers").rfind("remember the carry (more help", 0) == 0);
  CHECK(hints.first_level("adds two numbers").find("tito module hint 01 \"adds two numbers\"") != std::string::npos);
  CHECK(hints.first_level("adds two numbers").find("sum / 10") == std::string::npos);  // level 2 stays hidden
  CHECK(hints.first_level("one level") == "only this");
}

TEST_CASE("revealed hint levels are remembered in the progress, survive a rebuild and never go back", "[hints][progress]") {
  TempDir dir;
  ProgressStore::initialise(dir.path);
  {
    ProgressStore store(dir.path);
    store.load();
    store.record_hint_shown("07", "SGD momentum", 1);
    store.record_hint_shown("07", "SGD momentum", 2);
    store.record_hint_shown("07", "SGD momentum", 1);  // e.g. an older tito: the level stays at 2
    store.record_hint_shown("07", "zero_grad", 3);
  }
  ProgressStore reloaded(dir.path);
  CHECK_FALSE(reloaded.load().repaired());
  CHECK(reloaded.state().modules.at("07").hints_shown.at("SGD momentum") == 2);
  CHECK(reloaded.state().modules.at("07").hints_shown.at("zero_grad") == 3);
  CHECK_FALSE(reloaded.state().is_started("07"));  // asking for a hint starts nothing

  fs::remove(dir.path / "progress.json");  // rebuilt from the journal
  ProgressStore rebuilt(dir.path);
  rebuilt.load();
  CHECK(rebuilt.state().modules.at("07").hints_shown.at("SGD momentum") == 2);

  auto document = progress_to_json(rebuilt.state());
  document["modules"]["07"]["hints_shown"]["SGD momentum"] = "two";
  document["checksum"] = canonical_checksum(document);
  CHECK_THROWS_WITH(progress_from_json(document), Catch::Contains("hints_shown"));
}

TEST_CASE("lesson headings are read as the learner sees them, outside code blocks", "[validate][lesson]") {
  const auto headings = markdown_headings(
      "# Module 08\n\n## 4. One batch: `process_batch`\n```cpp\n#include <x>\n# not a heading\n```\n### Your turn ##\n");
  CHECK(headings == std::vector<std::string>{"Module 08", "4. One batch: process_batch", "Your turn"});
}

TEST_CASE("validate names every marker whose lesson= is no heading of its lesson, with the closest one",
          "[validate][lesson]") {
  const std::string source =
      "void a() {\n  // BEGIN SOLUTION name=\"a\" lesson=\"4. Samplers\"\n  x();\n  // END SOLUTION\n}\n"
      "void b() {\n  // BEGIN SOLUTION name=\"b\" lesson=\"5. Collation: Stack\"\n  y();\n  // END SOLUTION\n}\n";
  const std::vector<std::string> headings = {"Module 05", "4. Samplers: order and shuffling", "5. Collation: Stack"};
  const auto problems = lesson_reference_problems(source, "samplers.cpp", headings);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("samplers.cpp:2: lesson=\"4. Samplers\"") != std::string::npos);
  CHECK(problems[0].find("did you mean \"4. Samplers: order and shuffling\"") != std::string::npos);
  CHECK(lesson_reference_problems(source, "s.cpp", {"4. Samplers", "5. Collation: Stack"}).empty());
}

TEST_CASE("validate finds a TODO that quotes its solution line, even re-wrapped", "[validate][todo]") {
  const std::string leaking =
      "// TODO: update the first moment in place:\n"
      "//   exp_avg.mul_(beta1).add_(grad,\n"
      "//                            1 - beta1)\n"
      "void update(Tensor& exp_avg, const Tensor& grad, double beta1) {\n"
      "  // BEGIN SOLUTION name=\"update\" lesson=\"4. Adam\"\n"
      "  exp_avg.mul_(beta1).add_(grad, 1 - beta1);\n"
      "  TT_CHECK(exp_avg.defined(), \"exp_avg must be defined before the update\");\n"
      "  // END SOLUTION\n"
      "}\n";
  const auto leaks = todo_leaks(leaking, "optimizers.cpp");
  REQUIRE(leaks.size() == 1);  // the error message is contract, not a leak
  CHECK(leaks[0].find("optimizers.cpp:6:") == 0);
  CHECK(leaks[0].find("exp_avg.mul_(beta1).add_(grad, 1 - beta1)") != std::string::npos);

  const std::string contract =
      "// TODO: update the first moment in place: exp_avg becomes the moving average of the gradients\n"
      "//   with weight beta1 on the past (section 4). Example: from zeros, grad [0.1], beta1 0.9 -> [0.01].\n"
      "void update(Tensor& exp_avg, const Tensor& grad, double beta1) {\n"
      "  // BEGIN SOLUTION name=\"update\" lesson=\"4. Adam\"\n"
      "  exp_avg.mul_(beta1).add_(grad, 1 - beta1);\n"
      "  // END SOLUTION\n"
      "}\n";
  CHECK(todo_leaks(contract, "optimizers.cpp").empty());
}

TEST_CASE("validate finds lines that send the learner into framework/src/", "[validate][workspace]") {
  const auto found = framework_source_mentions("Given: the ops.\nRead framework/src/02_activations/activation_ops.cpp.\n", "lesson.md");
  REQUIRE(found.size() == 1);
  CHECK(found[0].rfind("lesson.md:2: Read framework/src/", 0) == 0);
  CHECK(framework_source_mentions("tito module view 02 --file activation_ops.cpp", "lesson.md").empty());
}

TEST_CASE("module view --file prints given code and headers, never a learner file or a solution", "[view]") {
  TempDir dir;
  const fs::path src = dir.path / "framework" / "src" / "02_acts";
  put(src / "activations.cpp", "void relu() {\n  // BEGIN SOLUTION name=\"relu\" lesson=\"2. ReLU\"\n  x();\n  // END SOLUTION\n}\n");
  put(src / "activation_ops.cpp", "// given: the public functions\n");
  put(src / "stray.cpp", "// BEGIN SOLUTION name=\"x\" lesson=\"1. X\"\n// END SOLUTION\n");
  put(dir.path / "framework" / "include" / "tinytorch" / "tensor.h", "class Tensor;\n");
  put(dir.path / "framework" / "include" / "tinytorch" / "nn" / "linear.h", "struct Linear;\n");
  put(dir.path / "framework" / "include" / "tinytorch" / "nn" / "modules" / "linear.h", "struct LinearImpl;\n");
  Installation installation{dir.path, dir.path / "build"};
  ModuleInfo module;
  module.number = "02";
  module.slug = "acts";
  module.learner_files = {"framework/src/02_acts/activations.cpp"};

  const auto given = given_sources(installation, module);
  REQUIRE(given.size() == 1);  // not the learner file, not a file with a solution marker
  CHECK(given[0].name == "activation_ops.cpp");
  CHECK(read_readable_file(find_readable_file(installation, module, "activation_ops.cpp")) == "// given: the public functions\n");
  CHECK(read_readable_file(find_readable_file(installation, module, "tinytorch/tensor.h")) == "class Tensor;\n");
  CHECK(read_readable_file(find_readable_file(installation, module, "tensor.h")) == "class Tensor;\n");
  CHECK(find_readable_file(installation, module, "tinytorch/nn/modules/linear.h").name == "tinytorch/nn/modules/linear.h");

  try {
    find_readable_file(installation, module, "activations.cpp");
    FAIL("a learner file was offered");
  } catch (const UserError& error) {
    CHECK(error.problem().find("is yours to write: open modules/02_acts/activations.cpp") != std::string::npos);
  }
  try {
    find_readable_file(installation, module, "linear.h");
    FAIL("an ambiguous header name was accepted");
  } catch (const UserError& error) {
    CHECK(error.problem().find("tinytorch/nn/linear.h, tinytorch/nn/modules/linear.h") != std::string::npos);
  }
  for (const std::string name : {"stray.cpp", "../../framework/src/02_acts/activations.cpp", "nothing.cpp"}) {
    try {
      find_readable_file(installation, module, name);
      FAIL("'" + name + "' was offered");
    } catch (const UserError& error) {
      CHECK(error.fix() == "tito module view 02 --files");
    }
  }
  CHECK_THROWS_AS(read_readable_file({"stray.cpp", src / "stray.cpp"}), UserError);
}

TEST_CASE("the repository's lessons, hints and starters keep the learner in the workspace", "[validate][curriculum]") {
  const fs::path source_dir = TITO_SOURCE_DIR;
  const auto curriculum = Curriculum::load(source_dir);
  int regions = 0;
  for (const auto& module : curriculum.modules()) {
    if (!module.available()) continue;
    const auto headings = markdown_headings(read_file(module.lesson));
    for (const auto& relative : module.learner_files) {
      const std::string source = read_file(source_dir / relative);
      regions += static_cast<int>(scan_solution_regions(source, relative).size());
      const auto wrong = lesson_reference_problems(source, relative, headings);
      CHECK(wrong.empty());
      for (const auto& problem : wrong) UNSCOPED_INFO(problem);
      CHECK(framework_source_mentions(make_starter(source, relative, module.folder(), ""), relative).empty());
    }
    CHECK(framework_source_mentions(read_file(module.lesson), module.lesson.string()).empty());
    if (fs::exists(module.hints)) CHECK(framework_source_mentions(read_file(module.hints), module.hints.string()).empty());
  }
  CHECK(regions >= 40);
}
