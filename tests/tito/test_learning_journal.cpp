// The learning journal (what history.jsonl records and how it is read back), the concept checks, and
// the class insights built from many journals, hostile ones included.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/curriculum.h"
#include "core/files.h"
#include "core/grading_validation.h"
#include "core/insights.h"
#include "core/learning_journal.h"
#include "core/markdown.h"
#include "core/progress_store.h"
#include "core/quiz.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace tito;

namespace {

// A journal line as ProgressStore writes it (checksummed), at a given time.
std::string event_line(json event, const std::string& at, long seq) {
  event["at"] = at;
  event["seq"] = seq;
  event["v"] = 2;
  event["checksum"] = canonical_checksum(event);
  return event.dump() + "\n";
}

json test_run(int passed, int total, std::vector<std::string> failed = {}, const std::string& filter = "") {
  return {{"event", "test"}, {"module", "03"}, {"command", "test"}, {"filter", filter}, {"build_ok", true},
          {"total", total},  {"passed", passed}, {"earned", 0},       {"points", 100},  {"seconds", 2.5},
          {"failed", failed}, {"not_implemented", 0}};
}

// Start at 10:00, a failing run at 10:10 (two wrong answers), a pause of two hours, a run at 12:20
// with one wrong, a full pass at 12:30, completion at 12:31.
std::string typical_journal() {
  std::string text;
  long seq = 1;
  text += event_line({{"event", "start"}, {"module", "03"}}, "2026-12-01T10:00:00Z", seq++);
  text += event_line(test_run(3, 5, {"Linear forward computes x W^T + b", "Linear initialisation draws from U(-1/sqrt(in), 1/sqrt(in))"}), "2026-12-01T10:10:00Z", seq++);
  text += event_line({{"event", "hint"}, {"module", "03"}, {"case", "Linear forward computes x W^T + b"}, {"level", 2}}, "2026-12-01T10:12:00Z", seq++);
  text += event_line(test_run(4, 5, {"Linear initialisation draws from U(-1/sqrt(in), 1/sqrt(in))"}), "2026-12-01T12:20:00Z", seq++);
  text += event_line(test_run(1, 1, {}, "Dropout*"), "2026-12-01T12:25:00Z", seq++);
  text += event_line(test_run(5, 5), "2026-12-01T12:30:00Z", seq++);
  text += event_line({{"event", "complete"}, {"module", "03"}, {"score", 100}, {"points", 100}, {"fingerprint", "f"},
                      {"origin", "learner"}},
                     "2026-12-01T12:31:00Z", seq++);
  return text;
}

}  // namespace

TEST_CASE("the learning journal counts time on task, runs to the first full pass and the first wrong answers",
          "[journal]") {
  const LearningJournal journal = parse_learning_journal(typical_journal());
  REQUIRE(journal.skipped.empty());
  const JournalSummary summary = summarize_learning_journal(journal);
  const ModuleRecord& record = summary.modules.at("03");
  CHECK(record.test_runs == 4);
  CHECK(record.test_runs_to_pass == 4);
  // 10 + 2 min before the pause; the two-hour pause is not counted; then 5 + 5 + 1 min.
  CHECK(record.active_seconds == Approx(23 * 60));
  CHECK(record.active_seconds_to_pass == Approx(22 * 60));
  CHECK(record.first_failures == std::vector<std::string>{"Linear forward computes x W^T + b", "Linear initialisation draws from U(-1/sqrt(in), 1/sqrt(in))"});
  CHECK(record.failures_per_run == std::vector<int>{2, 1, 0});  // the filtered run is not a full one
  CHECK(record.hint_levels.at("Linear forward computes x W^T + b") == 2);
  CHECK(record.origin == "learner");
  REQUIRE(record.first_pass);
  CHECK(std::chrono::duration<double>(*record.first_pass - *record.started).count() == Approx(2.5 * 3600));
}

TEST_CASE("a damaged journal line is skipped and named, and the rest is still read", "[journal][untrusted]") {
  std::string text = typical_journal();
  std::string edited = event_line(test_run(5, 5), "2026-12-01T10:05:00Z", 99);
  edited.replace(edited.find("\"passed\":5"), 10, "\"passed\":6");  // checksum no longer matches
  text = "{not json\n" + text + edited + "[1,2]\n" + "{\"event\":\"test\",\"at\":\"yesterday\"}\n" + std::string(3, '\0') + "\n";
  // A line with fields of the wrong types but a valid checksum must not stop the reader either.
  text += event_line({{"event", "test"}, {"module", "03"}, {"passed", "all"}, {"failed", 7}, {"build_ok", "yes"}},
                     "2026-12-01T12:40:00Z", 100);
  const LearningJournal journal = parse_learning_journal(text);
  CHECK(journal.skipped.size() == 5);
  CHECK(journal.skipped.front().line == 1);
  CHECK(journal.skipped.front().why.find("not valid JSON") != std::string::npos);
  const JournalSummary summary = summarize_learning_journal(journal);
  CHECK(summary.modules.at("03").test_runs == 5);
  CHECK(summary.modules.at("03").test_runs_to_pass == 4);  // the edited "pass" at 10:05 does not count
}

TEST_CASE("ProgressStore writes test, quiz and milestone events that change no progress and survive a rebuild",
          "[journal][progress]") {
  tito_test::ScratchDir dir;
  ProgressStore::initialise(dir.root);
  ProgressStore store(dir.root);
  store.load();
  store.record_started("03");
  store.record_test_run("03", test_run(2, 5, {"Linear forward computes x W^T + b"}));
  store.record_quiz("03", {{"phase", "pre"}, {"score", 1}, {"total", 5}, {"answers", json::array()}});
  store.record_milestone_run("02", {{"part", 1}, {"passed", true}, {"value", 1.0}});
  CHECK(store.state().is_started("03"));
  CHECK_FALSE(store.state().is_completed("03"));
  fs::remove(store.progress_path());
  ProgressStore rebuilt(dir.root);
  const ProgressLoad load = rebuilt.load();
  CHECK(load.notice.find("unreadable") == std::string::npos);  // no event was skipped
  CHECK(rebuilt.state().is_started("03"));
  const JournalSummary summary = summarize_learning_journal(read_learning_journal_file(store.journal_path()));
  REQUIRE(summary.modules.at("03").pre);
  CHECK(summary.modules.at("03").pre->score == 1);
  CHECK(summary.milestones.at("02").passed == 1);
  CHECK(summary.modules.at("03").first_failures == std::vector<std::string>{"Linear forward computes x W^T + b"});
}

TEST_CASE("a quiz answer is read leniently and judged by its tolerance", "[quiz]") {
  const Quiz quiz = quiz_from_json(json::parse(R"({"version": 1, "questions": [
    {"id": "bytes", "concept": "c", "lesson": "L", "kind": "number", "prompt": "p", "unit": "bytes",
     "answer": 19267584, "explanation": "e"},
    {"id": "pick", "concept": "c", "lesson": "L", "kind": "choice", "prompt": "p", "choices": ["x", "y", "z"],
     "answer": 1, "explanation": "e"},
    {"id": "zero", "concept": "c", "lesson": "L", "kind": "number", "prompt": "p", "answer": 0, "explanation": "e"},
    {"id": "rate", "concept": "c", "lesson": "L", "kind": "number", "prompt": "p", "answer": 0.855, "tolerance": 0.001,
     "explanation": "e"}]})"));
  const QuizQuestion& bytes = quiz.questions[0];
  CHECK(read_quiz_answer(bytes, "19267584")->correct);
  CHECK(read_quiz_answer(bytes, "19,267,584 bytes")->correct);
  CHECK(read_quiz_answer(bytes, " 1.9267584e7 ")->correct);
  CHECK(read_quiz_answer(bytes, "19200000")->correct);  // within 1%
  CHECK_FALSE(read_quiz_answer(bytes, "18000000")->correct);
  CHECK_FALSE(read_quiz_answer(bytes, "19267584 MiB"));  // another unit: asked again
  CHECK_FALSE(read_quiz_answer(bytes, "lots"));
  const QuizQuestion& pick = quiz.questions[1];
  CHECK(read_quiz_answer(pick, "b")->correct);
  CHECK(read_quiz_answer(pick, "B)")->correct);
  CHECK(read_quiz_answer(pick, "2")->correct);
  CHECK(read_quiz_answer(pick, "y")->correct);
  CHECK_FALSE(read_quiz_answer(pick, "a")->correct);
  CHECK_FALSE(read_quiz_answer(pick, "d"));
  CHECK(read_quiz_answer(quiz.questions[2], "0")->correct);
  CHECK_FALSE(read_quiz_answer(quiz.questions[2], "0.001")->correct);
  CHECK(read_quiz_answer(quiz.questions[3], "0.855")->correct);
  CHECK_FALSE(read_quiz_answer(quiz.questions[3], "0.86")->correct);
}

TEST_CASE("a quiz file with a mistake is refused with the question and the field named", "[quiz][validate]") {
  auto problem = [](const std::string& question) {
    try {
      json document = json::parse(R"({"version": 1, "questions": []})");
      const json good = json::parse(R"({"id": "a-b", "concept": "c", "lesson": "L", "kind": "choice", "prompt": "p",
                                       "choices": ["x", "y", "z"], "answer": 0, "explanation": "e"})");
      for (int i = 0; i < 3; ++i) {
        json copy = good;
        copy["id"] = "q" + std::to_string(i);
        document["questions"].push_back(copy);
      }
      document["questions"].push_back(json::parse(question));
      quiz_from_json(document);
      return std::string();
    } catch (const std::exception& error) {
      return std::string(error.what());
    }
  };
  CHECK(problem(R"({"id": "ok", "concept": "c", "lesson": "L", "kind": "choice", "prompt": "p", "choices": ["x", "y", "z"],
                   "answer": 2, "explanation": "e"})") == "");
  CHECK(problem(R"({"id": "ok", "concept": "c", "lesson": "L", "kind": "choice", "prompt": "p", "choices": ["x", "y", "z"],
                   "answer": 3, "explanation": "e"})").find("questions[3].answer") != std::string::npos);
  CHECK(problem(R"({"id": "Bad Id", "concept": "c", "lesson": "L", "kind": "choice", "prompt": "p",
                   "choices": ["x", "y", "z"], "answer": 0, "explanation": "e"})").find("kebab-case") != std::string::npos);
  CHECK(problem(R"({"id": "q0", "concept": "c", "lesson": "L", "kind": "choice", "prompt": "p", "choices": ["x", "y", "z"],
                   "answer": 0, "explanation": "e"})").find("used twice") != std::string::npos);
  CHECK(problem(R"({"id": "n", "concept": "c", "lesson": "L", "kind": "number", "prompt": "p", "answer": 1,
                   "explanation": ""})").find("explanation") != std::string::npos);
  CHECK(problem(R"({"id": "n", "concept": "c", "lesson": "L", "kind": "essay", "prompt": "p", "answer": 1,
                   "explanation": "e"})").find("\"choice\" or \"number\"") != std::string::npos);
}

TEST_CASE("every module's concept checks load and name sections of its lesson", "[quiz][curriculum]") {
  const auto curriculum = Curriculum::load(TITO_SOURCE_DIR);
  int modules_with_checks = 0;
  for (const auto& module : curriculum.modules()) {
    if (!module.available()) continue;
    INFO("module " << module.number);
    REQUIRE(fs::exists(module.quiz));
    ++modules_with_checks;
    const auto problems = quiz_problems(module.quiz, markdown_headings(read_file(module.lesson)));
    for (const auto& problem : problems) UNSCOPED_INFO(problem);
    CHECK(problems.empty());
    const Quiz quiz = load_quiz(module.quiz);
    int numbers = 0;
    for (const auto& question : quiz.questions) numbers += question.kind == QuizQuestion::Kind::Number ? 1 : 0;
    CHECK(numbers >= 1);
    CHECK(quiz.questions.size() - numbers >= 2);
  }
  CHECK(modules_with_checks >= 21);
}

TEST_CASE("the paired t-test matches the textbook on a small sample", "[insights][statistics]") {
  // Gains 0.4, 0.4, 0, 0.6: mean 0.35, s = 0.25166, t = 2.7815 with 3 degrees of freedom, p = 0.0689,
  // 95% CI 0.35 +- 3.1824 * 0.12583 (the t CDF with 3 df has a closed form, which gave these).
  const PairedTest test = paired_t_test({0.2, 0.4, 0.6, 0.4}, {0.6, 0.8, 0.6, 1.0});
  CHECK(test.n == 4);
  CHECK(test.mean_gain == Approx(0.35));
  CHECK(test.t == Approx(2.7815179).epsilon(1e-6));
  CHECK(test.p_value == Approx(0.0689035).epsilon(1e-4));
  CHECK(test.ci_low == Approx(-0.0504490).margin(1e-5));
  CHECK(test.ci_high == Approx(0.7504490).margin(1e-5));
  CHECK_FALSE(paired_t_test({0.5}, {1.0}).computed());
  const PairedTest same = paired_t_test({0.25, 0.5}, {0.5, 0.75});  // every learner gained 0.25
  CHECK(same.p_value == 0);
  CHECK(same.ci_low == Approx(0.25));
}

TEST_CASE("insights over a class: hostile submissions get a row of their own and never stop the report",
          "[insights][untrusted]") {
  tito_test::ScratchDir dir;
  const fs::path submissions = dir.root / "submissions";
  auto workspace = [&](const std::string& id, const std::string& journal) {
    const fs::path root = submissions / id;
    fs::create_directories(root / "modules");
    fs::create_directories(root / ".tito");
    write_file_atomically(root / ".tito" / "history.jsonl", journal);
    return root;
  };
  workspace("alice", typical_journal());
  std::string bob = typical_journal();
  bob += event_line({{"event", "quiz"}, {"module", "03"}, {"phase", "pre"}, {"score", 1}, {"total", 5}}, "2026-12-01T09:00:00Z", 50);
  workspace("bob", bob + "garbage line\n");
  // A case name that is no case of the module (script in it) never reaches the report.
  workspace("mallory", event_line(test_run(0, 5, {"<script>alert(1)</script>"}), "2026-12-01T10:00:00Z", 1));
  fs::create_directories(submissions / "eve" / "modules");
  fs::create_directory_symlink("/etc", submissions / "eve" / ".tito");  // a link out of the workspace
  fs::create_directories(submissions / "trent" / "modules");  // no journal at all
  std::ofstream(submissions / "notes.txt") << "not a submission";

  const auto curriculum = Curriculum::load(TITO_SOURCE_DIR);
  const auto journals = read_class_journals(list_submissions(submissions), dir.root / "scratch");
  REQUIRE(journals.size() == 6);
  const ClassInsights insights = compute_insights(TITO_SOURCE_DIR, curriculum, journals, InsightsOptions{}, submissions.string());
  CHECK(insights.with_journal == 3);
  std::map<std::string, std::string> problems(insights.journal_problems.begin(), insights.journal_problems.end());
  CHECK(problems.at("eve").find("symbolic link") != std::string::npos);
  CHECK(problems.at("trent").find("no learning journal") != std::string::npos);
  CHECK(problems.at("bob").find("1 damaged line") != std::string::npos);
  const ModuleInsights* layers = nullptr;
  for (const auto& module : insights.modules)
    if (module.number == "03") layers = &module;
  REQUIRE(layers);
  CHECK(layers->started == 2);  // mallory never ran `tito module start`
  CHECK(layers->passed == 2);
  CHECK(layers->runs_to_pass.median() == 4);
  for (const auto& entry : layers->first_failures) CHECK(entry.name.find("script") == std::string::npos);
  REQUIRE_FALSE(layers->first_failures.empty());
  CHECK(layers->first_failures.front().learners == 2);
  CHECK_FALSE(layers->first_failures.front().lesson.empty());  // the section that teaches Linear

  const auto written = write_insights(insights, journals, dir.root / "out");
  REQUIRE(written.size() == 4);
  const std::string html = read_file(dir.root / "out" / "insights.html");
  CHECK(html.find("<script>") == std::string::npos);
  CHECK(html.find("<svg") != std::string::npos);
  CHECK(read_file(dir.root / "out" / "insights.md").find("| 03 Layers |") != std::string::npos);
  CHECK(read_file(dir.root / "out" / "insights-learners.csv").find("eve,") != std::string::npos);
}

TEST_CASE("a hint's reference to a lesson section must find that section", "[validate][lesson]") {
  const std::string lesson = "# Module 02\n## 3. Sigmoid\n**The overflow.** e^88.7 ...\n## 5. Softmax\n### Masking\n";
  CHECK(hint_section_problems(R"({"a": "see section 3, 'The overflow', and section 5, 'Masking'"})", lesson).empty());
  const auto problems = hint_section_problems(R"({"a": "section 4", "b": "Section 5, 'Along a dim'", "c": "section 4"})", lesson);
  REQUIRE(problems.size() == 2);  // each problem once
  CHECK(problems[0] == "hints.json: \"section 4\": the lesson has no section 4");
  CHECK(problems[1] == "hints.json: \"Section 5, 'Along a dim'\": the lesson has no heading or bold paragraph lead 'Along a dim'");
  // Every module's hints: their references resolve.
  const auto curriculum = Curriculum::load(TITO_SOURCE_DIR);
  for (const auto& module : curriculum.modules()) {
    if (!module.available() || !fs::exists(module.hints)) continue;
    const auto found = hint_section_problems(read_file(module.hints), read_file(module.lesson));
    for (const auto& problem : found) UNSCOPED_INFO(module.number << ": " << problem);
    CHECK(found.empty());
  }
}
