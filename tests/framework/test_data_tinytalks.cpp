// TinyTalks: the shipped files read back with their documented counts per level, examples shaped as
// prompt/answer text, and clear errors for a missing or malformed file.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace datasets = torch::data::datasets;
using Mode = datasets::TinyTalks::Mode;

namespace {

std::string repo_root() { return TINYTORCH_TESTS_REPO_ROOT; }

std::vector<int64_t> per_level(const datasets::TinyTalks& talks) {
  std::vector<int64_t> counts(datasets::TinyTalks::kLevels, 0);
  for (const auto& pair : talks.pairs()) ++counts.at(static_cast<size_t>(pair.level - 1));
  return counts;
}

struct ScratchFile {
  explicit ScratchFile(const std::string& text) {
    char name[] = "/tmp/tinytalks-test-XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    path = name;
    std::ofstream(path) << text;
  }
  ~ScratchFile() { std::remove(path.c_str()); }
  std::string path;
};

}  // namespace

TEST_CASE("TinyTalks reads the shipped splits with the README's counts per level", "[data][tinytalks]") {
  const std::string root = repo_root() + "/datasets";
  datasets::TinyTalks train(root, Mode::kTrain);
  datasets::TinyTalks validation(root, Mode::kValidation);
  datasets::TinyTalks test(root, Mode::kTest);
  CHECK(train.size().value() == 244);
  CHECK(validation.size().value() == 53);
  CHECK(test.size().value() == 53);
  CHECK(per_level(train) == std::vector<int64_t>{35, 60, 43, 69, 37});
  CHECK(per_level(validation) == std::vector<int64_t>{8, 13, 9, 15, 8});
  CHECK(per_level(test) == std::vector<int64_t>{7, 13, 10, 15, 8});
  CHECK(train.is_train());
  CHECK_FALSE(test.is_train());
  CHECK(validation.mode() == Mode::kValidation);

  // No pair appears in two splits: a held-out score must measure what the model never read.
  std::set<std::string> seen;
  for (const auto* split : {&train, &validation, &test})
    for (size_t i = 0; i < split->size().value(); ++i) CHECK(seen.insert(split->text(i)).second);
}

TEST_CASE("TinyTalks examples are prompt and answer text", "[data][tinytalks]") {
  datasets::TinyTalks train(repo_root() + "/datasets", Mode::kTrain);
  for (size_t i = 0; i < train.size().value(); ++i) {
    const auto example = train.get(i);
    const std::string& prompt = example.data;
    REQUIRE(prompt.rfind("Q: ", 0) == 0);
    REQUIRE(prompt.size() > 3);
    CHECK(prompt.substr(prompt.size() - 3) == "\nA:");
    CHECK_FALSE(example.target.empty());
    CHECK(example.target.find('\n') == std::string::npos);
    CHECK(train.text(i) == prompt + " " + example.target + "\n");
    // Level 5 pairs are two turns: the first answer is part of the prompt.
    if (train.level(i) == 5) CHECK(prompt.find("\nQ: ") != std::string::npos);
    else CHECK(prompt.find("\nQ: ") == std::string::npos);
  }
  const std::string all = train.text();
  CHECK(all.rfind(train.text(0) + "\n" + train.text(1), 0) == 0);
  CHECK(all.substr(all.size() - train.text(243).size()) == train.text(243));
  CHECK_THROWS_WITH(train.get(244), "TinyTalks: index 244 is out of range for a dataset of 244 pairs");
}

TEST_CASE("TinyTalks parses turns exactly, and a batch is a vector of examples", "[data][tinytalks]") {
  ScratchFile file("level: 1\nQ: Hi!\nA: Hello!\n\nlevel: 5\nQ: I am Sam.\nA: Hi Sam!\nQ: Who am I?\nA: You are Sam.\n");
  auto talks = datasets::TinyTalks::from_file(file.path, Mode::kTest);
  REQUIRE(talks.size().value() == 2);
  CHECK(talks.get(0).data == "Q: Hi!\nA:");
  CHECK(talks.get(0).target == "Hello!");
  CHECK(talks.get(1).data == "Q: I am Sam.\nA: Hi Sam!\nQ: Who am I?\nA:");
  CHECK(talks.get(1).target == "You are Sam.");
  CHECK(talks.level(1) == 5);
  CHECK(talks.text() == "Q: Hi!\nA: Hello!\n\nQ: I am Sam.\nA: Hi Sam!\nQ: Who am I?\nA: You are Sam.\n");
  const std::vector<size_t> indices = {1, 0};
  const auto batch = talks.get_batch(indices);
  REQUIRE(batch.size() == 2);
  CHECK(batch[0].target == "You are Sam.");
  CHECK(batch[1].target == "Hello!");
}

TEST_CASE("TinyTalks names the file, the line and the fix for a bad file", "[data][tinytalks]") {
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(datasets::TinyTalks("/nonexistent-root", Mode::kTrain),
                    Contains("TinyTalks: cannot open /nonexistent-root/tinytalks/train.txt") &&
                        Contains("scripts/make-tinytalks"));
  {
    ScratchFile file("level: 7\nQ: Hi!\nA: Hello!\n");
    CHECK_THROWS_WITH(datasets::TinyTalks::from_file(file.path),
                      Contains(":1: the level \"7\" is not an integer from 1 to 5"));
  }
  {
    ScratchFile file("Q: Hi!\nA: Hello!\n");
    CHECK_THROWS_WITH(datasets::TinyTalks::from_file(file.path),
                      Contains(":1: expected \"level: N\" to start a pair, found \"Q: Hi!\""));
  }
  {
    ScratchFile file("level: 1\nQ: Hi!\nQ: Again?\nA: Hello!\n");
    CHECK_THROWS_WITH(datasets::TinyTalks::from_file(file.path),
                      Contains(":3: expected a \"A: \" line, found \"Q: Again?\""));
  }
  {
    ScratchFile file("level: 2\nQ: Hi!\n\nlevel: 1\nQ: Yo?\nA: Yo.\n");
    CHECK_THROWS_WITH(datasets::TinyTalks::from_file(file.path),
                      Contains(":1: the pair that starts here has no \"A: \" line after its last \"Q: \" line"));
  }
  {
    ScratchFile file("");
    CHECK_THROWS_WITH(datasets::TinyTalks::from_file(file.path), Contains("holds no pairs"));
  }
}

// Every language has English's levels, sizes and split rule (scripts/make-tinytalks), so a model's
// scores compare across languages; the text is UTF-8, and no question is English.
TEST_CASE("TinyTalks in Spanish and Chinese has English's levels and split", "[data][tinytalks]") {
  using Catch::Matchers::Contains;
  const std::string root = repo_root() + "/datasets";
  CHECK(datasets::TinyTalks::languages() == std::vector<std::string>{"en", "es", "zh"});
  datasets::TinyTalks english(root, Mode::kTrain, "en");
  CHECK(english.text() == datasets::TinyTalks(root, Mode::kTrain).text());
  for (const std::string language : {"es", "zh"}) {
    INFO(language);
    std::set<std::string> seen;
    for (const Mode mode : {Mode::kTrain, Mode::kValidation, Mode::kTest}) {
      datasets::TinyTalks talks(root, mode, language);
      datasets::TinyTalks in_english(root, mode);
      CHECK(per_level(talks) == per_level(in_english));
      for (size_t i = 0; i < talks.size().value(); ++i) {
        CHECK(seen.insert(talks.text(i)).second);
        const auto example = talks.get(i);
        CHECK(example.data.rfind("Q: ", 0) == 0);
        CHECK(example.data.substr(example.data.size() - 3) == "\nA:");
      }
    }
    // Beyond ASCII: Spanish's ¿ and accents, Chinese's three-byte characters.
    const std::string text = datasets::TinyTalks(root, Mode::kTrain, language).text();
    CHECK(std::count_if(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }) > 100);
  }
  CHECK(datasets::TinyTalks(root, Mode::kTrain, "zh").get(0).data.find(' ', 3) == std::string::npos);
  CHECK_THROWS_WITH(datasets::TinyTalks(root, Mode::kTrain, "fr"),
                    Contains("no dataset in language 'fr'. Fix: use one of en, es, zh"));
}
