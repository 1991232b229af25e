#pragma once
// A module's concept checks (curriculum/NN_slug/quiz.json): 4 to 6 questions on the mental model its
// lesson teaches, asked by `tito module quiz NN` before the module (pre) and after its completion
// (post). The answers go into the learning journal (learning_journal.h), where `tito instructor
// insights` pairs them into a pre/post gain. The format is in INSTRUCTOR.md ("Concept checks").
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tito {

struct QuizQuestion {
  enum class Kind { Choice, Number };
  std::string id;       // stable within the module: the journal keeps answers by it
  std::string concept;  // the idea it checks, a few words (reports group misconceptions by it)
  std::string lesson;   // the lesson heading that teaches it (markdown_headings)
  Kind kind = Kind::Choice;
  std::string prompt;
  std::vector<std::string> choices;  // Choice: 3 to 5
  int answer_index = 0;              // Choice: 0-based
  double answer_value = 0;           // Number
  double tolerance = 0.01;           // Number: relative
  std::string unit;                  // Number, may be empty
  std::string explanation;
};

struct Quiz {
  std::vector<QuizQuestion> questions;
  const QuizQuestion* find(const std::string& id) const;
};

constexpr int kMinQuizQuestions = 4, kMaxQuizQuestions = 6;

// Reads a quiz file. Throws std::runtime_error naming the first problem ("questions[2].answer: ...").
Quiz quiz_from_json(const nlohmann::json& document);
Quiz load_quiz(const std::filesystem::path& file);

// Everything wrong with a quiz, for `tito instructor validate`: the format, and lessons that are no
// heading of the module's lesson (with the closest heading). Empty when it is fine.
std::vector<std::string> quiz_problems(const std::filesystem::path& file, const std::vector<std::string>& headings);

// A learner's typed answer, read leniently: "b", "B", "2" or the choice's own text for a choice; for a
// number "19267584", "19,267,584", "1.9e7", "19267584 bytes" (the question's unit may follow). nullopt
// when it cannot be read (the caller asks again, saying what it expects).
struct QuizAnswer {
  std::string given;  // normalised: "b" or the number as read
  bool correct = false;
};
std::optional<QuizAnswer> read_quiz_answer(const QuizQuestion& question, const std::string& typed);
std::string choice_letter(int index);  // 0 -> "a"
std::string expected_answer_text(const QuizQuestion& question);  // "b) 19267584" / "19267584 bytes"

}  // namespace tito
