#pragma once
// TinyTalks: 350 short conversational question-answer pairs written for this course (CC BY 4.0),
// in five levels (1 greetings and identity, 2 simple facts, 3 arithmetic, 4 reasoning, 5 two-turn
// conversations), split 244 train / 53 validation / 53 test. The files are
// <root>/tinytalks/{train,validation,test}.txt; datasets/tinytalks/README.md describes them. The
// same set exists in Spanish and Simplified Chinese (same levels, sizes and split) in
// <root>/tinytalks/es/ and <root>/tinytalks/zh/: TinyTalks(root, mode, "es").
//
//   torch::data::datasets::TinyTalks talks(torch::data::datasets::default_root());
//   talks.get(0)        // Example<std::string, std::string>{"Q: Good morning!\nA:", "Good morning to you!"}
//   talks.level(0)      // 1
//   talks.text(0)       // "Q: Good morning!\nA: Good morning to you!\n"
//   talks.text()        // every pair's text, one blank line between pairs: what a language model reads
//   TinyTalks(root, TinyTalks::Mode::kTrain, "zh").get(0).data   // "Q: 早上好！\nA:" (UTF-8)
//
// Shaped like LibTorch's datasets (Mode, get(index) -> Example, size(), is_train()); the examples
// are text, not tensors: a tokenizer (module 10) turns them into token ids.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tinytorch/data/datasets/base.h"
#include "tinytorch/data/datasets/tinydigits.h"  // default_root()
#include "tinytorch/data/example.h"

namespace tinytorch {
namespace data {
namespace datasets {

class TinyTalks : public Dataset<TinyTalks, Example<std::string, std::string>> {
 public:
  enum class Mode { kTrain, kValidation, kTest };

  static constexpr int64_t kLevels = 5;

  // One pair: the conversation up to the last answer ("Q: ...\nA:"; a level-5 pair holds a first
  // question and answer before it), the last answer, and the level.
  struct Pair {
    std::string prompt;
    std::string answer;
    int64_t level = 0;
  };

  // Reads <root>/tinytalks/train.txt (kTrain), validation.txt or test.txt. Throws tinytorch::Error
  // naming the file, the line and what is wrong when the file is missing or malformed.
  explicit TinyTalks(const std::string& root, Mode mode = Mode::kTrain);
  // The same in another language: "en" (the files above), "es" or "zh" (<root>/tinytalks/<language>/).
  // Throws tinytorch::Error naming the languages that exist for any other.
  TinyTalks(const std::string& root, Mode mode, const std::string& language);

  // The languages TinyTalks is written in: "en", "es", "zh".
  static const std::vector<std::string>& languages();

  // Reads one TinyTalks file directly (blocks of "level: N", then "Q: ..." and "A: ..." lines,
  // separated by one blank line).
  static TinyTalks from_file(const std::string& path, Mode mode = Mode::kTrain);

  // data: the prompt, ending with "A:"; target: the answer the model should write after it.
  Example<std::string, std::string> get(size_t index) override;
  std::optional<size_t> size() const override;
  bool is_train() const noexcept { return mode_ == Mode::kTrain; }
  Mode mode() const noexcept { return mode_; }

  const std::vector<Pair>& pairs() const noexcept { return pairs_; }
  int64_t level(size_t index) const;
  // The pair as a model reads it: prompt, a space, the answer, a newline.
  std::string text(size_t index) const;
  // All pairs' texts, with one blank line between consecutive pairs.
  std::string text() const;

 private:
  TinyTalks(std::vector<Pair> pairs, Mode mode) : pairs_(std::move(pairs)), mode_(mode) {}
  const Pair& checked(size_t index) const;

  std::vector<Pair> pairs_;
  Mode mode_;
};

}  // namespace datasets
}  // namespace data
}  // namespace tinytorch
