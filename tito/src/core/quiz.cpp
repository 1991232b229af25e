#include "core/quiz.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <regex>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "core/files.h"
#include "core/grading_validation.h"
#include "core/text.h"

namespace tito {
namespace {

using nlohmann::json;

std::string text_field(const json& object, const char* key, const std::string& where, bool required = true) {
  if (!object.contains(key) || object[key].is_null()) {
    if (required) throw std::runtime_error(fmt::format("{}.{} is missing", where, key));
    return "";
  }
  if (!object[key].is_string() || (required && object[key].get<std::string>().empty()))
    throw std::runtime_error(fmt::format("{}.{} is not a non-empty string", where, key));
  return object[key].get<std::string>();
}

QuizQuestion question_from_json(const json& entry, const std::string& where) {
  static const std::regex kId("[a-z0-9]+(-[a-z0-9]+)*");
  if (!entry.is_object()) throw std::runtime_error(where + " is not an object");
  QuizQuestion question;
  question.id = text_field(entry, "id", where);
  if (!std::regex_match(question.id, kId))
    throw std::runtime_error(fmt::format("{}.id \"{}\" is not kebab-case (lower-case words joined by -)", where, question.id));
  question.concept = text_field(entry, "concept", where);
  question.lesson = text_field(entry, "lesson", where);
  question.prompt = text_field(entry, "prompt", where);
  question.explanation = text_field(entry, "explanation", where);
  const std::string kind = text_field(entry, "kind", where);
  if (!entry.contains("answer") || !entry["answer"].is_number())
    throw std::runtime_error(fmt::format("{}.answer is missing or not a number", where));
  if (kind == "choice") {
    question.kind = QuizQuestion::Kind::Choice;
    if (!entry.contains("choices") || !entry["choices"].is_array())
      throw std::runtime_error(fmt::format("{}.choices is missing (a choice question lists 3 to 5)", where));
    for (const auto& choice : entry["choices"]) {
      if (!choice.is_string() || choice.get<std::string>().empty())
        throw std::runtime_error(fmt::format("{}.choices holds something that is not a non-empty string", where));
      question.choices.push_back(choice.get<std::string>());
    }
    if (question.choices.size() < 3 || question.choices.size() > 5)
      throw std::runtime_error(fmt::format("{}.choices has {} options; give 3 to 5", where, question.choices.size()));
    if (std::set<std::string>(question.choices.begin(), question.choices.end()).size() != question.choices.size())
      throw std::runtime_error(fmt::format("{}.choices repeats an option", where));
    if (!entry["answer"].is_number_integer() || entry["answer"].get<long>() < 0 ||
        entry["answer"].get<long>() >= static_cast<long>(question.choices.size()))
      throw std::runtime_error(fmt::format("{}.answer must be the 0-based index of a choice (0 to {})", where,
                                           question.choices.size() - 1));
    question.answer_index = entry["answer"].get<int>();
  } else if (kind == "number") {
    question.kind = QuizQuestion::Kind::Number;
    if (entry.contains("choices")) throw std::runtime_error(fmt::format("{}: a number question has no choices", where));
    question.answer_value = entry["answer"].get<double>();
    if (!std::isfinite(question.answer_value)) throw std::runtime_error(fmt::format("{}.answer is not finite", where));
    if (entry.contains("tolerance")) {
      if (!entry["tolerance"].is_number() || entry["tolerance"].get<double>() < 0 || entry["tolerance"].get<double>() >= 1)
        throw std::runtime_error(fmt::format("{}.tolerance must be a relative tolerance in [0, 1)", where));
      question.tolerance = entry["tolerance"].get<double>();
    }
    question.unit = text_field(entry, "unit", where, false);
  } else {
    throw std::runtime_error(fmt::format("{}.kind is \"{}\"; it must be \"choice\" or \"number\"", where, kind));
  }
  return question;
}

}  // namespace

const QuizQuestion* Quiz::find(const std::string& id) const {
  for (const auto& question : questions)
    if (question.id == id) return &question;
  return nullptr;
}

Quiz quiz_from_json(const json& document) {
  if (!document.is_object()) throw std::runtime_error("the top level is not an object");
  if (!document.contains("version") || document["version"] != 1) throw std::runtime_error("\"version\" is missing or not 1");
  if (!document.contains("questions") || !document["questions"].is_array())
    throw std::runtime_error("\"questions\" is missing or not an array");
  Quiz quiz;
  std::set<std::string> ids;
  for (std::size_t i = 0; i < document["questions"].size(); ++i) {
    QuizQuestion question = question_from_json(document["questions"][i], fmt::format("questions[{}]", i));
    if (!ids.insert(question.id).second)
      throw std::runtime_error(fmt::format("questions[{}].id \"{}\" is used twice", i, question.id));
    quiz.questions.push_back(std::move(question));
  }
  const int count = static_cast<int>(quiz.questions.size());
  if (count < kMinQuizQuestions || count > kMaxQuizQuestions)
    throw std::runtime_error(fmt::format("it has {} questions; a module's check has {} to {}", count, kMinQuizQuestions,
                                         kMaxQuizQuestions));
  return quiz;
}

Quiz load_quiz(const std::filesystem::path& file) {
  const json document = json::parse(read_file(file), nullptr, false);
  if (document.is_discarded()) throw std::runtime_error("it is not valid JSON");
  return quiz_from_json(document);
}

std::vector<std::string> quiz_problems(const std::filesystem::path& file, const std::vector<std::string>& headings) {
  Quiz quiz;
  try {
    quiz = load_quiz(file);
  } catch (const std::exception& error) {
    return {fmt::format("{}: {}", file.filename().string(), error.what())};
  }
  std::vector<std::string> problems;
  for (const auto& question : quiz.questions) {
    if (std::find(headings.begin(), headings.end(), question.lesson) != headings.end()) continue;
    const std::string closest = closest_heading(question.lesson, headings);
    problems.push_back(fmt::format("{}: question \"{}\": lesson \"{}\" is no heading of the lesson{}", file.filename().string(),
                                   question.id, question.lesson,
                                   closest.empty() ? "" : fmt::format("; did you mean \"{}\"?", closest)));
  }
  return problems;
}

std::string choice_letter(int index) { return std::string(1, static_cast<char>('a' + index)); }

std::string expected_answer_text(const QuizQuestion& question) {
  if (question.kind == QuizQuestion::Kind::Choice)
    return choice_letter(question.answer_index) + ") " + question.choices[question.answer_index];
  return fmt::format("{}{}", question.answer_value, question.unit.empty() ? "" : " " + question.unit);
}

std::optional<QuizAnswer> read_quiz_answer(const QuizQuestion& question, const std::string& typed) {
  const std::string text = trimmed(typed);
  if (text.empty()) return std::nullopt;
  QuizAnswer answer;
  if (question.kind == QuizQuestion::Kind::Choice) {
    const int count = static_cast<int>(question.choices.size());
    int index = -1;
    std::string key = lowercase(text);
    if (key.size() == 2 && key[1] == ')') key.pop_back();  // "b)"
    if (key.size() == 1 && key[0] >= 'a' && key[0] < 'a' + count) index = key[0] - 'a';
    else if (key.size() == 1 && key[0] >= '1' && key[0] < '1' + count) index = key[0] - '1';
    else
      for (int i = 0; i < count; ++i)
        if (lowercase(trimmed(question.choices[i])) == key) index = i;
    if (index < 0) return std::nullopt;
    answer.given = choice_letter(index);
    answer.correct = index == question.answer_index;
    return answer;
  }
  // A number: thousands separators (, _ and spaces between digits) go; the question's unit may follow.
  std::string digits;
  std::size_t i = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    const bool separator = (c == ',' || c == '_' || c == ' ') && !digits.empty() && i + 1 < text.size() &&
                           std::isdigit(static_cast<unsigned char>(text[i + 1])) &&
                           std::isdigit(static_cast<unsigned char>(digits.back()));
    if (separator) continue;
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') digits += c;
    else break;
  }
  const std::string rest = lowercase(trimmed(text.substr(i)));
  if (!rest.empty() && (question.unit.empty() || rest != lowercase(question.unit))) return std::nullopt;
  if (digits.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size() || !std::isfinite(value)) return std::nullopt;
  answer.given = fmt::format("{}", value);
  const double scale = std::max(std::abs(question.answer_value), 1e-12);
  answer.correct = std::abs(value - question.answer_value) <= question.tolerance * scale;
  return answer;
}

}  // namespace tito
