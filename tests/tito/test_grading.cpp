// The instructor services without building learner code: marker validation, archive checks,
// submission discovery, the leak scan's line selection, and the reports (CSV, JSON, Gradescope, statistics).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "core/grading.h"
#include "core/grading_archive.h"
#include "core/grading_reports.h"
#include "core/grading_validation.h"
#include "core/release.h"
#include "run/sandbox.h"
#include "../test_skip.h"

namespace fs = std::filesystem;
using namespace tito;

namespace {

struct ScratchFolder {
  fs::path root;
  ScratchFolder() {
    std::random_device random;
    root = fs::temp_directory_path() / ("tito_test_grading_" + std::to_string(random()));
    fs::create_directories(root);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    fs::remove_all(root, ignored);
  }
  void write(const std::string& relative, const std::string& text) const {
    fs::create_directories((root / relative).parent_path());
    std::ofstream(root / relative) << text;
  }
};

int shell(const std::string& command) { return std::system(command.c_str()); }

std::string rejection_of(const fs::path& archive, const fs::path& dest) {
  try {
    extract_archive_safely(archive, dest);
  } catch (const ArchiveRejected& rejected) {
    return rejected.what();
  }
  return "accepted";
}

GradingRun two_learner_run() {
  GradingRun run;
  run.mode = "reference-prerequisites";
  run.modules = {{"01", "Tensor", 10}};
  LearnerGrade alice;
  alice.id = "alice";
  alice.submission = "alice";
  alice.graded = true;
  ModuleGrade module{"01", "graded", "", 7, 10, false, 1.5, {}, {}};
  module.cases = {{"adds", 7, 7, "passed", "", 3}, {"multiplies", 3, 0, "failed", "matmul.cpp:9: c == 6 - got 5, expected 6", 2}};
  alice.modules = {module};
  LearnerGrade eve;
  eve.id = "=HYPERLINK(\"x\")";
  eve.submission = "eve.tar.gz";
  eve.graded = false;
  eve.reason = "archive rejected: entry '../x' has a '..' component";
  eve.modules = {{"01", "not graded", eve.reason, 0, 10, false, 0, {{"adds", 7, 0, "not graded", eve.reason, 0}}, {}}};
  run.learners = {alice, eve};
  return run;
}

}  // namespace

TEST_CASE("solution regions must sit inside function bodies with balanced braces", "[grading][validate]") {
  const std::string good =
      "namespace tinytorch {\nint f(int x) {\n  // BEGIN SOLUTION name=\"f\" lesson=\"1. F\"\n  if (x) { return 1; }\n"
      "  return 0;\n  // END SOLUTION\n}\n}  // namespace tinytorch\n";
  CHECK(marker_problems(good, "good.cpp").empty());

  const std::string outside =
      "namespace tinytorch {\n// BEGIN SOLUTION name=\"g\" lesson=\"1. G\"\nint g() { return 1; }\n// END SOLUTION\n}\n";
  auto problems = marker_problems(outside, "outside.cpp");
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("outside.cpp:2") != std::string::npos);
  CHECK(problems[0].find("not inside a function body") != std::string::npos);

  const std::string in_class =
      "struct S {\n  // BEGIN SOLUTION name=\"s\" lesson=\"1. S\"\n  int x = 1;\n  // END SOLUTION\n};\n";
  CHECK(marker_problems(in_class, "class.cpp").size() == 1);

  const std::string unbalanced =
      "int h(int x) {\n  // BEGIN SOLUTION name=\"h\" lesson=\"1. H\"\n  if (x) {\n  // END SOLUTION\n  }\n  return 0;\n}\n";
  problems = marker_problems(unbalanced, "unbalanced.cpp");
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("braces balanced") != std::string::npos);

  const std::string braces_in_strings =
      "int k() {\n  // BEGIN SOLUTION name=\"k\" lesson=\"1. K\"\n  const char* s = \"}}{\"; // }\n  return s[0] == '}';\n"
      "  // END SOLUTION\n}\n";
  CHECK(marker_problems(braces_in_strings, "strings.cpp").empty());

  const std::string unterminated = "int u() {\n  // BEGIN SOLUTION name=\"u\" lesson=\"1. U\"\n  return 0;\n}\n";
  problems = marker_problems(unterminated, "unterminated.cpp");
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("never closed") != std::string::npos);
}

TEST_CASE("archives with absolute paths, '..' entries or outward links are refused before anything is written",
          "[grading][archive]") {
  ScratchFolder scratch;
  scratch.write("good/modules/01_tensor/matmul.cpp", "int x;\n");
  scratch.write("inside/victim.txt", "secret\n");
  const std::string root = scratch.root.string();
  REQUIRE(shell("cd '" + root + "' && tar -czf good.tar.gz good") == 0);
  REQUIRE(shell("cd '" + root + "/good' && tar -cPf ../dotdot.tar ../inside/victim.txt 2>/dev/null") == 0);
  REQUIRE(shell("cd '" + root + "' && tar -cPf absolute.tar '" + root + "/inside/victim.txt' 2>/dev/null") == 0);
  REQUIRE(shell("cd '" + root + "' && mkdir -p l && ln -s /etc/passwd l/link && tar -cf link.tar l") == 0);
  fs::create_directories(scratch.root / "out");

  CHECK(rejection_of(scratch.root / "good.tar.gz", scratch.root / "out" / "good") == "accepted");
  CHECK(fs::is_regular_file(scratch.root / "out" / "good" / "good" / "modules" / "01_tensor" / "matmul.cpp"));

  CHECK(rejection_of(scratch.root / "dotdot.tar", scratch.root / "out" / "dotdot").find("'..' component") != std::string::npos);
  CHECK(rejection_of(scratch.root / "absolute.tar", scratch.root / "out" / "absolute").find("absolute path") != std::string::npos);
  CHECK(rejection_of(scratch.root / "link.tar", scratch.root / "out" / "link").find("outside the archive") != std::string::npos);
  CHECK_FALSE(fs::exists(scratch.root / "out" / "dotdot"));
  CHECK_FALSE(fs::exists(scratch.root / "out" / "link"));

  scratch.write("corrupt.tar.gz", "this is not an archive");
  CHECK(rejection_of(scratch.root / "corrupt.tar.gz", scratch.root / "out" / "corrupt").find("not a readable tar archive") !=
        std::string::npos);
}

TEST_CASE("submissions are folders and archives named after the learner; hidden entries are skipped", "[grading]") {
  ScratchFolder scratch;
  scratch.write("alice/modules/01_tensor/matmul.cpp", "");
  scratch.write("bob.tar.gz", "");
  scratch.write("carol.tgz", "");
  scratch.write("notes.txt", "");
  scratch.write(".DS_Store", "");
  const auto submissions = list_submissions(scratch.root);
  REQUIRE(submissions.size() == 4);
  CHECK(submissions[0].id == "alice");
  CHECK_FALSE(submissions[0].archive);
  CHECK(submissions[1].id == "bob");
  CHECK(submissions[1].archive);
  CHECK(submissions[2].id == "carol");
  CHECK(submissions[3].id == "notes.txt");
  CHECK_FALSE(submissions[3].archive);
  CHECK(archive_stem("x.tar") == "x");
}

TEST_CASE("the leak scan looks for solution lines that appear nowhere else", "[release]") {
  const std::string solution = "  for (int64_t i = 0; i < n; ++i) out[i] = in[i] * scale_factor;\n  return out;\n";
  const std::string elsewhere = "  return out;\n  const int64_t n = self.numel();  // shared with the given code\n";
  const auto lines = distinctive_solution_lines({solution + "  const int64_t n = self.numel();  // shared with the given code\n"},
                                                {elsewhere});
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == "for (int64_t i = 0; i < n; ++i) out[i] = in[i] * scale_factor;");
}

TEST_CASE("grades.csv has a row per learner and a column per module, safe for spreadsheets", "[grading][reports]") {
  ScratchFolder scratch;
  const GradingRun run = two_learner_run();
  write_grades_csv(run, scratch.root / "grades.csv");
  const std::string csv = read_file(scratch.root / "grades.csv");
  CHECK(csv.rfind("learner,01_Tensor,total,max,status\n", 0) == 0);
  CHECK(csv.find("alice,7,7,10,graded\n") != std::string::npos);
  // A learner id that looks like a formula is defused and quoted.
  CHECK(csv.find("\"'=HYPERLINK(\"\"x\"\")\",0,0,10,not graded: archive rejected") != std::string::npos);
}

TEST_CASE("a CSV cell a spreadsheet would read as a formula after a TAB, a CR or spaces is defused too",
          "[grading][reports]") {
  ScratchFolder scratch;
  GradingRun run = two_learner_run();
  run.learners[0].id = "\t=cmd|' /C calc'!A0";
  run.learners[1].id = "  +1+1";
  write_grades_csv(run, scratch.root / "grades.csv");
  const std::string csv = read_file(scratch.root / "grades.csv");
  CHECK(csv.find("\n'\t=cmd|' /C calc'!A0,") != std::string::npos);
  CHECK(csv.find("\n'  +1+1,") != std::string::npos);
}

TEST_CASE("learners whose ids differ only in characters a file name cannot hold get pages of their own",
          "[grading][reports]") {
  ScratchFolder scratch;
  GradingRun run = two_learner_run();
  run.learners[0].id = "vic~tim";
  run.learners[1] = run.learners[0];
  run.learners[1].id = "vic_tim";
  run.learners[1].modules[0].cases[1].message = "only the message of vic_tim";
  write_html_report(run, scratch.root / "report");
  std::vector<std::string> pages;
  for (const auto& entry : fs::directory_iterator(scratch.root / "report" / "learners")) pages.push_back(entry.path().filename().string());
  REQUIRE(pages.size() == 2);
  CHECK(read_file(scratch.root / "report" / "learners" / "vic_tim.html").find("only the message of vic_tim") != std::string::npos);

  // An id chosen to be another's hashed page name does not take that page either.
  const std::string hashed = pages[0] == "vic_tim.html" ? pages[1] : pages[0];
  run.learners[1].id = hashed.substr(0, hashed.size() - 5);
  fs::remove_all(scratch.root / "report");
  write_html_report(run, scratch.root / "report");
  int count = 0;
  for (const auto& entry : fs::directory_iterator(scratch.root / "report" / "learners")) count += entry.is_regular_file() ? 1 : 0;
  CHECK(count == 2);
}

TEST_CASE("grades.json round-trips and class statistics summarise it", "[grading][reports]") {
  ScratchFolder scratch;
  write_grades_json(two_learner_run(), scratch.root / "grades.json");
  const GradingRun back = read_grades_json(scratch.root / "grades.json");
  REQUIRE(back.learners.size() == 2);
  CHECK(back.learners[0].modules[0].cases[1].message == "matmul.cpp:9: c == 6 - got 5, expected 6");
  CHECK(back.learners[1].reason.find("'..'") != std::string::npos);

  const auto stats = class_statistics(back);
  REQUIRE(stats.size() == 1);
  CHECK(stats[0].learners == 1);  // the rejected submission is left out
  CHECK(stats[0].mean == Approx(7));
  CHECK(stats[0].histogram[7] == 1);
  REQUIRE(stats[0].cases.size() == 2);
  CHECK(stats[0].cases[0].pass_rate() == Approx(1));
  CHECK(stats[0].cases[1].pass_rate() == Approx(0));
  REQUIRE(stats[0].common_failures.size() == 1);
  CHECK(stats[0].common_failures[0].first.find("multiplies: matmul.cpp:9") == 0);

  scratch.write("broken.json", "{\"learners\": 3}");
  CHECK_THROWS_WITH(read_grades_json(scratch.root / "broken.json"), Catch::Contains("not a grades.json"));
}

TEST_CASE("Gradescope's results.json has the score, the maximum and one entry per test case", "[grading][reports]") {
  ScratchFolder scratch;
  GradingRun run = two_learner_run();
  run.learners.resize(1);
  write_gradescope_results(run, scratch.root / "results" / "results.json");
  const auto results = nlohmann::json::parse(read_file(scratch.root / "results" / "results.json"));
  CHECK(results["score"] == 7);
  CHECK(results["max_score"] == 10);
  REQUIRE(results["tests"].size() == 2);
  CHECK(results["tests"][0]["status"] == "passed");
  CHECK(results["tests"][1]["status"] == "failed");
  CHECK(results["tests"][1]["max_score"] == 3);
  CHECK(results["tests"][1]["name"] == "01 Tensor: multiplies");
  CHECK(results["tests"][1]["output"].get<std::string>().find("got 5, expected 6") != std::string::npos);
  CHECK(results["visibility"] == "visible");
}

TEST_CASE("the HTML report has an SVG chart per module and a page per learner", "[grading][reports]") {
  ScratchFolder scratch;
  write_html_report(two_learner_run(), scratch.root / "report");
  const std::string index = read_file(scratch.root / "report" / "index.html");
  CHECK(index.find("<svg") != std::string::npos);
  CHECK(index.find("learners/alice.html") != std::string::npos);
  CHECK(index.find("=HYPERLINK(&quot;x&quot;)") != std::string::npos);  // escaped, never raw
  const std::string alice = read_file(scratch.root / "report" / "learners" / "alice.html");
  CHECK(alice.find("multiplies") != std::string::npos);
  CHECK(alice.find("got 5, expected 6") != std::string::npos);
}

TEST_CASE("a confined program writes inside its scratch folder only, where the system allows it", "[grading][sandbox][needs_user_namespaces]") {
  ScratchFolder scratch;
  const fs::path inside = scratch.root / "run";
  fs::create_directories(inside);
  if (!confinement_works(scratch.root / "probe")) {
    SKIP_TEST("this system forbids unprivileged user and mount namespaces: grading runs unconfined here");
  }
  SandboxSpec spec;
  spec.argv = {"/bin/sh", "-c", "echo in > inside.txt; echo out > \"$0\"; echo $?", (scratch.root / "outside.txt").string()};
  spec.output_file = inside / "output.txt";
  spec.working_dir = inside;
  spec.writable_dir = inside;
  spec.time_limit_s = 10;
  const SandboxResult run = sandboxed_run(spec);
  REQUIRE(run.started);
  CHECK(fs::exists(inside / "inside.txt"));
  CHECK_FALSE(fs::exists(scratch.root / "outside.txt"));  // (a write there lands in the private /tmp at most)
}
