// `tito module quiz NN`: the module's concept checks (quiz.h). Before the module is completed it is
// the pre-check (what the learner knows before the lesson: answers are recorded, not explained, so that
// the post-check measures what the module taught); after `tito module complete` it is the post-check,
// which explains every answer and shows the change. Answers go into the learning journal; the check is
// never graded.
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/clock.h"
#include "core/errors.h"
#include "core/i18n.h"
#include "core/learning_journal.h"
#include "core/lesson_translation.h"
#include "core/quiz.h"
#include "core/terminal.h"

namespace tito {
namespace {

struct QuizRequest {
  std::string number;
  std::string answers;  // --answers "b,19267584,c": for scripts; otherwise asked one by one on stdin
};

constexpr int kTriesPerQuestion = 3;

std::vector<std::string> split_answers(const std::string& list) {
  std::vector<std::string> answers;
  std::string item;
  std::istringstream in(list);
  while (std::getline(in, item, ';')) answers.push_back(item);
  // A list without ';' is split at commas, unless a number like 19,267,584 would be torn apart: the
  // caller then uses ';' between answers.
  if (answers.size() == 1) {
    answers.clear();
    std::istringstream commas(list);
    while (std::getline(commas, item, ',')) answers.push_back(item);
  }
  return answers;
}

void print_question(const QuizQuestion& question, int position, int count) {
  const Terminal& out = terminal();
  std::cout << "\n" << out.bold(fmt::format("{}/{}  {}", position, count, question.prompt)) << "\n";
  if (question.kind == QuizQuestion::Kind::Choice) {
    for (std::size_t i = 0; i < question.choices.size(); ++i)
      std::cout << fmt::format("  {}) {}\n", choice_letter(static_cast<int>(i)), question.choices[i]);
  }
}

// What an answer to `question` looks like, to finish "please type ..." and "question q3 wants ...".
std::string what_to_type(const QuizQuestion& question) {
  if (question.kind == QuizQuestion::Kind::Choice)
    // TRANSLATORS: what to type for a multiple-choice question: {} is the last letter, e.g. "d"
    return trf("a letter from a to {}", choice_letter(static_cast<int>(question.choices.size()) - 1));
  // TRANSLATORS: what to type for a numeric question; {} is its unit as the question writes it (English), e.g. "bytes"
  return question.unit.empty() ? std::string(tr("a number")) : trf("a number (in {})", question.unit);
}

int run_quiz(const GlobalOptions& options, const QuizRequest& request) {
  Session session = open_session(options, true);
  const ModuleInfo& module = session.curriculum.resolve(request.number);
  const Terminal& out = terminal();
  if (!std::filesystem::exists(module.quiz))
    throw UserError(trf("module {} ({}) has no concept checks yet", module.number, tr_curriculum(module.title)),
                    "tito module view " + module.number + "   " + tr("(the lesson)"));
  Quiz quiz;
  try {
    quiz = load_quiz(module.quiz);
  } catch (const std::exception& error) {
    // TRANSLATORS: a quiz.json file, then what is wrong with it (in English)
    throw UserError(trf("{} is damaged: {}", module.quiz.string(), error.what()),
                    trf("reinstall TinyTorch C++ or tell your instructor (tito instructor validate --modules {})",
                        module.number));
  }

  const JournalSummary journal = summarize_learning_journal(read_learning_journal_file(session.progress->journal_path()));
  auto found = journal.modules.find(module.number);
  const ModuleRecord record = found == journal.modules.end() ? ModuleRecord{} : found->second;
  const bool post = session.state().is_completed(module.number);
  if (!post && record.pre)
    // TRANSLATORS: the module, the date and time of the pre-check, then its score (right answers / questions)
    throw UserError(trf("you took module {}'s pre-check on {} ({}/{}); the post-check opens once the module is completed",
                        module.number, format_local_time(record.pre->at), record.pre->score, record.pre->total),
                    "tito module complete " + module.number);

  const int count = static_cast<int>(quiz.questions.size());
  const std::string title = tr_curriculum(module.title);
  // TRANSLATORS: the module's number and title, then how many questions; the check taken before or after the module
  std::cout << out.bold(post ? trnf("Module {} ({}): {} concept check, after the module",
                                    "Module {} ({}): {} concept checks, after the module", count, module.number, title, count)
                             : trnf("Module {} ({}): {} concept check, before the module",
                                    "Module {} ({}): {} concept checks, before the module", count, module.number, title,
                                    count))
            << "\n";
  std::cout << (post ? tr("Each answer is explained as you go, with the lesson section that teaches it.")
                     : tr("What do you already know? Answer as well as you can: nothing is graded, and the answers are "
                          "explained after you complete the module, when you take the check again."))
            << "\n";
  std::cout << out.dim(tr("(type a letter or a number and press Enter; Ctrl-D stops without recording anything)")) << "\n";

  const std::vector<std::string> given = request.answers.empty() ? std::vector<std::string>{} : split_answers(request.answers);
  if (!request.answers.empty() && static_cast<int>(given.size()) != count)
    // TRANSLATORS: how many answers --answers gave, the module, then how many questions its check has
    throw UserError(trf("--answers has {} answers; module {}'s check has {} questions", given.size(), module.number, count),
                    fmt::format("tito module quiz {} --answers \"a;b;...\"   ", module.number) +
                        tr("(one per question, separated by ';')"),
                    kExitUsage);

  nlohmann::json answers = nlohmann::json::array();
  int score = 0;
  const auto lesson_headings = translated_headings(module, message_language());
  for (int i = 0; i < count; ++i) {
    const QuizQuestion& question = quiz.questions[i];
    print_question(question, i + 1, count);
    std::optional<QuizAnswer> answer;
    for (int attempt = 0; attempt < kTriesPerQuestion && !answer; ++attempt) {
      std::string typed;
      if (!given.empty()) {
        typed = given[i];
      } else {
        std::cout << "> " << std::flush;
        if (!std::getline(std::cin, typed)) {
          std::cout << "\n" << tr("Stopped before the last question: nothing was recorded.") << "\n";
          return kExitInterrupted;
        }
      }
      answer = read_quiz_answer(question, typed);
      if (!answer && !given.empty())
        // TRANSLATORS: the answer's position, what was typed, the question's id, then what it wants ("a number")
        throw UserError(trf("answer {} (\"{}\") cannot be read: question {} wants {}", i + 1, typed, question.id,
                            what_to_type(question)),
                        fmt::format("tito module quiz {} --answers \"...\"", module.number), kExitUsage);
      // TRANSLATORS: {} is what to type, e.g. "a letter from a to d" or "a number"
      if (!answer) std::cout << "  " << out.dim(trf("please type {}", what_to_type(question))) << "\n";
    }
    if (!answer) {
      std::cout << "\n" << tr("No answer could be read: nothing was recorded.") << "\n";
      return kExitUsage;
    }
    score += answer->correct ? 1 : 0;
    answers.push_back({{"id", question.id}, {"given", answer->given}, {"correct", answer->correct}});
    if (post) {
      // TRANSLATORS: after a concept check's answer: it was right, or not
      std::cout << "  " << (answer->correct ? out.ok_mark() + " " + out.green(tr("right"))
                                            : out.fail_mark() + " " + out.red(tr("not quite")))
                // TRANSLATORS: {} is the right answer as the question gives it (a letter and its choice, or a number)
                << (answer->correct ? "" : trf(": the answer is {}", expected_answer_text(question))) << "\n";
      std::cout << "  " << question.explanation << "\n";
      // The section as the learner's lesson titles it (a translated lesson keeps the English one's order).
      const auto heading = lesson_headings.find(question.lesson);
      // TRANSLATORS: the section of the lesson that teaches the question's answer
      std::cout << "  " << out.dim(trf("lesson: \"{}\"", heading == lesson_headings.end() ? question.lesson : heading->second))
                << "\n";
    }
  }
  session.progress->record_quiz(module.number,
                                {{"phase", post ? "post" : "pre"}, {"score", score}, {"total", count}, {"answers", answers}});
  // TRANSLATORS: right answers of all questions, e.g. "4/5 right"
  std::cout << "\n" << out.bold(trf("{}/{} right", score, count));
  // TRANSLATORS: the pre-check's score, after the post-check's
  if (post && record.pre) std::cout << " " << trf("(before the module: {}/{})", record.pre->score, record.pre->total);
  std::cout << ". " << tr("Recorded in your learning journal.") << "\n";
  if (post) {
    out.next_step("tito module status --journal " + module.number + "   " + tr("(your record for this module)"));
  } else {
    out.next_step(session.state().is_started(module.number) ? "tito module view " + module.number
                                                            : "tito module start " + module.number);
  }
  return 0;
}

}  // namespace

void register_module_quiz_command(CLI::App& group, CommandRegistry& registry) {
  const GlobalOptions* options = &registry.options;
  auto* quiz = group.add_subcommand(
      "quiz", tr("A module's concept checks: before the module (what you know) and after completing it (explained)"));
  auto request = std::make_shared<QuizRequest>();
  quiz->add_option("NN", request->number, tr("Module number or name, e.g. 01 or tensor"))->required();
  quiz->add_option("--answers", request->answers,
                   tr("Every answer at once, separated by ';' (e.g. \"b;19267584;c\"), instead of being asked one by one"));
  on_chosen(quiz, registry, [options, request] { return run_quiz(*options, *request); });
}

}  // namespace tito
