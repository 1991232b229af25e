// Given code: the TinyTalks reader. The file format (blocks of "level: N", "Q: ..." and "A: ..."
// lines, one blank line between blocks) is described in datasets/tinytalks/README.md.
#include "tinytorch/data/datasets/tinytalks.h"

#include <algorithm>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "tinytorch/errors.h"

namespace tinytorch {
namespace data {
namespace datasets {
namespace {

const char* kRegenerateHint =
    "Fix: regenerate it with scripts/make-tinytalks, or set TINYTORCH_DATASETS to the folder that holds tinytalks/";

const char* file_name(TinyTalks::Mode mode) {
  switch (mode) {
    case TinyTalks::Mode::kTrain: return "train.txt";
    case TinyTalks::Mode::kValidation: return "validation.txt";
    case TinyTalks::Mode::kTest: return "test.txt";
  }
  return "train.txt";
}

std::string folder_of(const std::string& language) {
  const auto& known = TinyTalks::languages();
  TT_CHECK(std::find(known.begin(), known.end(), language) != known.end(), "TinyTalks: no dataset in language '",
           language, "'. Fix: use one of en, es, zh (scripts/make-tinytalks --lang LANG writes a new one)");
  return language + "/";
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

TinyTalks::TinyTalks(const std::string& root, Mode mode)
    : TinyTalks(from_file(root + "/tinytalks/" + file_name(mode), mode)) {}

const std::vector<std::string>& TinyTalks::languages() {
  static const std::vector<std::string> written_in{"en", "es", "zh"};
  return written_in;
}

// English keeps the folder it always had; every other language has a folder of its own in it.
TinyTalks::TinyTalks(const std::string& root, Mode mode, const std::string& language)
    : TinyTalks(from_file(root + "/tinytalks/" + (language == "en" ? "" : folder_of(language)) + file_name(mode),
                          mode)) {}

TinyTalks TinyTalks::from_file(const std::string& path, Mode mode) {
  std::ifstream file(path);
  TT_CHECK(file.is_open(), "TinyTalks: cannot open ", path, " (missing or unreadable). ", kRegenerateHint);
  std::vector<Pair> pairs;
  // The block being read: its level, its turns so far, and whether its last line was a question.
  Pair block;
  bool in_block = false, awaiting_answer = false;
  int64_t block_line = 0, line_number = 0;
  auto finish_block = [&] {
    if (!in_block) return;
    TT_CHECK(!block.answer.empty() && !awaiting_answer, "TinyTalks: ", path, ":", block_line,
             ": the pair that starts here has no \"A: \" line after its last \"Q: \" line. ", kRegenerateHint);
    pairs.push_back(block);
    block = Pair{};
    in_block = false;
  };
  std::string line;
  while (std::getline(file, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      finish_block();
      continue;
    }
    if (starts_with(line, "level: ")) {
      finish_block();
      const std::string number = line.substr(7);
      TT_CHECK(number.size() == 1 && number[0] >= '1' && number[0] < '1' + kLevels, "TinyTalks: ", path, ":",
               line_number, ": the level \"", number, "\" is not an integer from 1 to ", kLevels, ". ",
               kRegenerateHint);
      block.level = number[0] - '0';
      in_block = true;
      block_line = line_number;
      continue;
    }
    TT_CHECK(in_block, "TinyTalks: ", path, ":", line_number, ": expected \"level: N\" to start a pair, found \"",
             line.substr(0, 40), "\". ", kRegenerateHint);
    if (starts_with(line, "Q: ") && !awaiting_answer) {
      // An earlier turn's answer becomes part of the prompt.
      if (!block.answer.empty()) block.prompt += " " + block.answer + "\n";
      block.answer.clear();
      block.prompt += line + "\nA:";
      awaiting_answer = true;
    } else if (starts_with(line, "A: ") && awaiting_answer && line.size() > 3) {
      block.answer = line.substr(3);
      awaiting_answer = false;
    } else {
      TT_CHECK(false, "TinyTalks: ", path, ":", line_number, ": expected a \"", awaiting_answer ? "A: " : "Q: ",
               "\" line, found \"", line.substr(0, 40), "\". ", kRegenerateHint);
    }
  }
  finish_block();
  TT_CHECK(!pairs.empty(), "TinyTalks: ", path, " holds no pairs. ", kRegenerateHint);
  return TinyTalks(std::move(pairs), mode);
}

const TinyTalks::Pair& TinyTalks::checked(size_t index) const {
  TT_CHECK(index < pairs_.size(), "TinyTalks: index ", index, " is out of range for a dataset of ", pairs_.size(),
           " pairs");
  return pairs_[index];
}

Example<std::string, std::string> TinyTalks::get(size_t index) {
  const Pair& pair = checked(index);
  return {pair.prompt, pair.answer};
}

std::optional<size_t> TinyTalks::size() const { return pairs_.size(); }

int64_t TinyTalks::level(size_t index) const { return checked(index).level; }

std::string TinyTalks::text(size_t index) const {
  const Pair& pair = checked(index);
  return pair.prompt + " " + pair.answer + "\n";
}

std::string TinyTalks::text() const {
  std::string all;
  for (size_t i = 0; i < pairs_.size(); ++i) all += (i ? "\n" : "") + text(i);
  return all;
}

}  // namespace datasets
}  // namespace data
}  // namespace tinytorch
