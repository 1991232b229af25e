// What the learner reads about a failed build and a failed case: the first error in their own
// code with its template chain cut to their lines, the JSON report, and the stack and sanitizer
// parsing behind "where:" (stack_location.h).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/report_printer.h"
#include "run/stack_location.h"
#include "run/test_report.h"

namespace fs = std::filesystem;
using namespace tito;

namespace {

// What g++ says when a learner's call instantiates a header template that fails: the chain runs
// through the framework's headers; only matmul.cpp is the learner's.
const char* kTemplateErrorLog =
    "FAILED: obj/01/matmul.o\n"
    "In file included from /src/framework/include/tinytorch/torch.h:3,\n"
    "                 from /ws/modules/01_tensor/matmul.cpp:2:\n"
    "/src/framework/include/tinytorch/detail.h: In instantiation of 'T tinytorch::detail::scale(T) [with T = std::string]':\n"
    "/src/framework/include/tinytorch/ops.h:40:22:   required from 'T tinytorch::apply(T) [with T = std::string]'\n"
    "/ws/modules/01_tensor/matmul.cpp:57:18:   required from here\n"
    "/src/framework/include/tinytorch/detail.h:12:14: error: no match for 'operator*' (operand types are 'std::string' and 'int')\n"
    "   12 |   return x * 2;\n"
    "      |          ~~^~~\n"
    "/src/framework/include/tinytorch/detail.h:12:14: note: candidate: 'operator*(int, int)' (built-in)\n"
    "/ws/modules/01_tensor/matmul.cpp: In function 'tinytorch::Tensor tinytorch::mm(const Tensor&, const Tensor&)':\n"
    "/ws/modules/01_tensor/matmul.cpp:60:3: error: 'undeclared' was not declared in this scope\n"
    "   60 |   undeclared = 1;\n"
    "      |   ^~~~~~~~~~\n";

CaseResult failed_case(const std::string& name, const std::string& check = "") {
  CaseResult result;
  result.name = name;
  result.points = 5;
  result.status = CaseStatus::Failed;
  AssertionFailure failure;
  failure.file = "/opt/tinytorch/curriculum/12_attention/tests/test_attention.cpp";
  failure.line = 3;
  failure.check = check;
  result.failures.push_back(failure);
  return result;
}

// What print_report writes to standard output.
std::string printed_report(const TestReport& report, const ReportContext& context) {
  std::ostringstream captured;
  std::streambuf* saved = std::cout.rdbuf(captured.rdbuf());
  print_report(report, context);
  std::cout.rdbuf(saved);
  return captured.str();
}

}  // namespace

TEST_CASE("explain_failures picks the hint of the failed check and folds cases a more specific one explains",
          "[report][hints]") {
  ModuleHints hints{"12", {{"worked example", {"worked"}, "", {"scores", "scale", "softmax"}},
                           {"worked example", {"default scale: the scale is not applied"}, "default scale", {}},
                           {"the scale", {"the scale"}, "", {"scores", "scale", "softmax"}},
                           {"the scale", {"scale multiplies the scores"}, "isolated", {"scale"}},
                           {"masks", {"masks"}, "", {"scores", "scale", "softmax", "mask"}},
                           {"heads", {"heads"}, "", {"split_heads"}},
                           {"undeclared", {"undeclared"}, "", {}}}};
  std::vector<CaseResult> cases = {failed_case("worked example", "default scale"), failed_case("the scale", "isolated"),
                                   failed_case("masks"), failed_case("heads"), failed_case("undeclared")};
  cases[1].failures.insert(cases[1].failures.begin(), cases[1].failures.front());
  cases[1].failures.front().check = "";  // an unlabelled failure first: the labelled one still chooses
  explain_failures(cases, hints);
  CHECK(cases[0].hint == "default scale: the scale is not applied");  // its check's, not the case's
  CHECK(cases[1].hint == "scale multiplies the scores");
  CHECK(cases[1].exercises == std::vector<std::string>{"scale"});  // as specific as its failed check
  CHECK(cases[1].same_cause_as.empty());
  CHECK(cases[0].same_cause_as == "the scale");
  CHECK(cases[2].same_cause_as == "the scale");
  CHECK(cases[3].same_cause_as.empty());  // exercises something else: another bug, shown in full
  CHECK(cases[4].same_cause_as.empty());  // declares nothing: never folded
  CHECK(cases[4].hint == "undeclared");

  // Once the isolating check passes, the case is as broad as its other checks, and equal lists fold
  // into the earlier case.
  std::vector<CaseResult> broad = {failed_case("worked example"), failed_case("the scale"), failed_case("masks")};
  explain_failures(broad, hints);
  CHECK(broad[0].hint == "worked");
  CHECK(broad[0].same_cause_as.empty());
  CHECK(broad[1].same_cause_as == "worked example");
  CHECK(broad[2].same_cause_as == "worked example");

  // A crash is shown on its own, whatever it exercises.
  std::vector<CaseResult> crashed = {failed_case("the scale", "isolated"), failed_case("masks")};
  crashed[1].status = CaseStatus::Crashed;
  explain_failures(crashed, hints);
  CHECK(crashed[1].same_cause_as.empty());
}

TEST_CASE("a failure shows its test's lines under a relative name, the most specific failure first, the rest folded",
          "[report]") {
  const fs::path dir = fs::temp_directory_path() / ("tito-report-" + std::to_string(::getpid()));
  const fs::path source = dir / "12_attention" / "tests" / "test_attention.cpp";
  fs::create_directories(source.parent_path());
  std::ofstream(source) << "TEST_CASE(\"the scale\") {\n  auto q = random_tensor({2, 3});\n"
                           "  CHECK_THAT(attention(q),\n             AllClose(expected));\n  CHECK(true);\n}\n";
  CHECK(test_source_label(source.string()) == "tests/test_attention.cpp");
  CHECK(test_source_label("/x/common/helpers.h") == "helpers.h");
  const auto excerpt = source_excerpt(source, 3);
  REQUIRE(excerpt.size() == 4);  // two lines above, the failing statement to its end
  CHECK(excerpt[0] == "    1 | TEST_CASE(\"the scale\") {");
  CHECK(excerpt[2] == "  > 3 |   CHECK_THAT(attention(q),");
  CHECK(excerpt[3] == "    4 |              AllClose(expected));");
  CHECK(source_excerpt(source, 99).empty());

  TestReport report;
  report.build_ok = true;
  CaseResult worked = failed_case("worked example"), scale = failed_case("the scale");
  worked.same_cause_as = "the scale";
  worked.exercises = {"scores", "scale", "softmax"};
  worked.hint = "the worked example's hint";
  scale.exercises = {"scale"};
  scale.hint = "the scale multiplies the scores";
  for (auto* c : {&worked, &scale}) c->failures.front().file = source.string();
  scale.failures.front().expected = "tensor(size=[2, 3], dtype=float) at [1, 0:3]: [1, 2, 3]";
  scale.failures.front().actual = std::string(400, '7');
  for (int i = 0; i < 4; ++i) scale.failures.push_back(scale.failures.front());
  report.cases = {worked, scale};
  ReportContext context;
  context.test_sources = {source};
  const std::string text = printed_report(report, context);
  const auto scale_at = text.find("[x] the scale"), worked_at = text.find("[x] worked example");
  REQUIRE(scale_at != std::string::npos);
  REQUIRE(worked_at != std::string::npos);
  CHECK(scale_at < worked_at);  // the most specific failure first
  CHECK(text.find("worked example  0/5 pts  failed  (most likely the same cause as \"the scale\")\n") != std::string::npos);
  CHECK(text.find("tests/test_attention.cpp:3") != std::string::npos);
  CHECK(text.find(dir.string()) == std::string::npos);  // no path into the installation
  CHECK(text.find("  > 3 |   CHECK_THAT(attention(q),") != std::string::npos);
  CHECK(text.find(std::string(301, '7')) == std::string::npos);  // a value is cut short...
  CHECK(text.find("(100 more characters; --verbose shows all)") != std::string::npos);
  CHECK(text.find("... and 2 more failed checks in this case (--verbose shows them)") != std::string::npos);
  CHECK(text.find("hint: the scale multiplies the scores") != std::string::npos);
  CHECK(text.find("hint:", text.find("[x] worked example")) == std::string::npos);  // folded: one line

  context.verbose = true;
  const std::string verbose = printed_report(report, context);
  CHECK(verbose.find(std::string(400, '7')) != std::string::npos);
  CHECK(verbose.find("more failed checks") == std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("first_learner_error keeps the learner's lines of a template chain and the error itself", "[report]") {
  int errors = 0;
  const std::string text = first_learner_error(kTemplateErrorLog, "/ws/modules", &errors);
  CHECK(errors == 2);
  CHECK(text.find("/ws/modules/01_tensor/matmul.cpp:57:18:   required from here") == 0);
  CHECK(text.find("error: no match for 'operator*'") != std::string::npos);
  CHECK(text.find("   12 |   return x * 2;") != std::string::npos);
  // The framework's part of the chain, the include stack, notes and ninja's words are left out.
  CHECK(text.find("ops.h:40") == std::string::npos);
  CHECK(text.find("In file included from") == std::string::npos);
  CHECK(text.find("note:") == std::string::npos);
  CHECK(text.find("FAILED") == std::string::npos);
  CHECK(text.find("undeclared") == std::string::npos);  // only the first error
}

TEST_CASE("first_learner_error shows an error in the learner's file with its function and source line", "[report]") {
  const std::string log =
      "/src/tests/test_tensor.cpp:5:1: error: expected ';' before '}' token\n"
      "/ws/modules/01_tensor/matmul.cpp: In function 'int f()':\n"
      "/ws/modules/01_tensor/matmul.cpp:9:3: error: 'y' was not declared in this scope\n"
      "    9 |   y = 2;\n"
      "      |   ^\n";
  const std::string text = first_learner_error(log, "/ws/modules");
  CHECK(text == "/ws/modules/01_tensor/matmul.cpp: In function 'int f()':\n"
                "/ws/modules/01_tensor/matmul.cpp:9:3: error: 'y' was not declared in this scope\n"
                "    9 |   y = 2;\n"
                "      |   ^\n");
}

TEST_CASE("report_json gives each case its name, points, status and failure text", "[report]") {
  TestReport report;
  report.module = "01";
  report.build_ok = true;
  report.filter = "[matmul]";
  CaseResult passed;
  passed.name = "mm multiplies";
  passed.points = 5;
  passed.status = CaseStatus::Passed;
  CaseResult failed;
  failed.name = "mm checks shapes";
  failed.points = 3;
  failed.status = CaseStatus::Failed;
  AssertionFailure failure;
  failure.file = "test_tensor.cpp";
  failure.line = 12;
  failure.expression = "CHECK( c.sizes() == Sizes{2, 2} )";
  failure.expected = "[2, 2]";
  failure.actual = "[2, 3]";
  failed.failures.push_back(failure);
  CaseResult crashed;
  crashed.name = "mm on big inputs";
  crashed.points = 2;
  crashed.status = CaseStatus::Crashed;
  crashed.detail = "SIGSEGV (segmentation fault: an invalid memory access)";
  crashed.diagnosis = "heap-buffer-overflow, write of 4 bytes, matmul.cpp:57 in tinytorch::mm";
  report.cases = {passed, failed, crashed};

  const auto json = nlohmann::json::parse(report_json(report, 10));
  CHECK(json["module"] == "01");
  CHECK(json["filter"] == "[matmul]");
  CHECK(json["points_earned"] == 5);
  CHECK(json["points_possible"] == 10);
  REQUIRE(json["cases"].size() == 3);
  CHECK(json["cases"][0]["name"] == "mm multiplies");
  CHECK(json["cases"][0]["status"] == "passed");
  CHECK(json["cases"][0]["failure"] == "");
  CHECK(json["cases"][1]["points"] == 3);
  CHECK(json["cases"][1]["status"] == "failed");
  CHECK(json["cases"][1]["failure"] ==
        "test_tensor.cpp:12\nCHECK( c.sizes() == Sizes{2, 2} )\nexpected: [2, 2]\nactual:   [2, 3]");
  report.cases[1].failures.front().file = "/opt/tinytorch/curriculum/01_tensor/tests/test_tensor.cpp";
  CHECK(nlohmann::json::parse(report_json(report, 10))["cases"][1]["failure"].get<std::string>().rfind(
            "tests/test_tensor.cpp:12\n", 0) == 0);  // never the installation's path
  CHECK(json["cases"][1]["same_cause_as"] == "");
  CHECK(json["cases"][2]["status"] == "crashed");
  CHECK(json["cases"][2]["failure"].get<std::string>().find("where: heap-buffer-overflow, write of 4 bytes, matmul.cpp:57") !=
        std::string::npos);
}

TEST_CASE("sanitizer_diagnosis names the kind of error, the access and the learner's line", "[report][stack]") {
  const std::string asan =
      "=================================================================\n"
      "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000020 at pc 0x5555 bp 0x7ffd sp 0x7ffd\n"
      "WRITE of size 4 at 0x602000000020 thread T0\n"
      "    #0 0x55d4c5 in tinytorch::native::add(tinytorch::Tensor const&, float) /ws/modules/01_tensor/elementwise.cpp:57\n"
      "    #1 0x55d4d0 in tinytorch::Tensor::add(tinytorch::Tensor const&) const /src/framework/src/tensor.cpp:10\n"
      "    #2 0x55d4e0 in main /src/main.cpp:3\n"
      "\n"
      "0x602000000020 is located 0 bytes to the right of 16-byte region\n";
  CHECK(sanitizer_diagnosis(asan, {"/ws/modules"}) ==
        "heap-buffer-overflow, write of 4 bytes, elementwise.cpp:57 in tinytorch::native::add");

  const std::string null_read =
      "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1 bp 0x2 sp 0x3 T0)\n"
      "==1==The signal is caused by a READ memory access.\n"
      "==1==Hint: address points to the zero page.\n"
      "    #0 0x1 in fixture::read_through(int*) /ws/modules/fx/fixture_ops.cpp:19\n";
  CHECK(sanitizer_diagnosis(null_read, {"/ws/modules"}) ==
        "SEGV, a read through a null pointer, fixture_ops.cpp:19 in fixture::read_through");

  const std::string ubsan = "/ws/modules/01_tensor/reduce.cpp:31:12: runtime error: signed integer overflow: "
                            "2147483647 + 1 cannot be represented in type 'int'\n";
  CHECK(sanitizer_diagnosis(ubsan, {"/ws/modules"}) ==
        "undefined behaviour: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int', reduce.cpp:31");
  CHECK(sanitizer_diagnosis("Segmentation fault\n", {"/ws/modules"}).empty());
}

TEST_CASE("sanitizer_diagnosis reads ThreadSanitizer's two access stacks, frames with a BuildId included",
          "[report][stack]") {
  // Clang 14's runtime: the first frame from each module ends with its BuildId, and the stacks after the two
  // accesses (where the memory came from, where the thread started) also name the learner's file.
  const std::string race =
      "==================\n"
      "WARNING: ThreadSanitizer: data race (pid=28605)\n"
      "  Write of size 8 at 0x7b8000000000 by main thread:\n"
      "    #0 fx::sum(long)::$_0::operator()(int) const /ws/modules/fx/ops.cpp:17:56 (t+0xd4587) (BuildId: b8ba)\n"
      "    #1 fx::sum(long) /ws/modules/fx/ops.cpp:23:3 (t+0xd4587)\n"
      "\n"
      "  Previous write of size 8 at 0x7b8000000000 by thread T1:\n"
      "    #0 fx::sum(long)::$_0::operator()(int) const /ws/modules/fx/ops.cpp:17:56 (t+0xd47b7) (BuildId: b8ba)\n"
      "    #1 void std::__invoke_impl<void, fx::sum(long)::$_0, int>(std::__invoke_other, int&&) "
      "/usr/include/c++/12/bits/invoke.h:61:14 (t+0xd47b7)\n"
      "\n"
      "  Location is heap block of size 4000 at 0x7b8000000000 allocated by main thread:\n"
      "    #0 operator new(unsigned long) <null> (t+0xd33b6) (BuildId: b8ba)\n"
      "    #1 fx::sum(long) /ws/modules/fx/ops.cpp:12:24 (t+0xd43ee)\n"
      "\n"
      "SUMMARY: ThreadSanitizer: data race /ws/modules/fx/ops.cpp:17:56 in fx::sum(long)::$_0::operator()(int) const\n";
  CHECK(sanitizer_diagnosis(race, {"/ws/modules"}) ==
        "data race, write of 8 bytes by main thread at ops.cpp:17 in a lambda in fx::sum; the other access: "
        "write of 8 bytes by thread T1 at ops.cpp:17 in a lambda in fx::sum");

  // A frame outside the learner's files is named as such, never replaced by a later stack's frame.
  const std::string outside =
      "WARNING: ThreadSanitizer: data race (pid=1)\n"
      "  Write of size 4 at 0x1 by thread T2:\n"
      "    #0 memset <null> (t+0x1) (BuildId: 00ff)\n"
      "    #1 lib::fill(int*) /usr/lib/lib.cpp:5 (t+0x2)\n"
      "\n"
      "  Previous read of size 4 at 0x1 by main thread:\n"
      "    #0 fx::use(int*) /ws/modules/fx/ops.cpp:40 (t+0x3)\n"
      "\n"
      "  Location is global 'g' of size 4 at 0x1 (t+0x4)\n"
      "    #0 fx::g /ws/modules/fx/ops.cpp:2 (t+0x4)\n";
  CHECK(sanitizer_diagnosis(outside, {"/ws/modules"}) ==
        "data race, write of 4 bytes by thread T2 at lib.cpp:5 in lib::fill (not in your files); the other access: "
        "read of 4 bytes by main thread at ops.cpp:40 in fx::use");
}

TEST_CASE("backtrace blocks are read relative to the executable and hidden from the learner", "[report][stack]") {
  const std::string output = "learner output\n\ntito-backtrace-begin 10 0x1000\n0x1234\n0x2001\ntito-backtrace-end\nafter\n";
  CHECK(backtrace_addresses(output) == std::vector<unsigned long long>{0x233, 0x1000});
  CHECK(without_backtrace_blocks(output) == "learner output\nafter\n");
  // A block cut short by the kill gives no addresses rather than wrong ones.
  CHECK(backtrace_addresses("tito-backtrace-begin 10 0x0\n0x12\n").empty());
}

TEST_CASE("a case's detail is printed in the learner's language and kept in English for --json", "[report][i18n]") {
  TestReport report;
  report.module = "01";
  report.build_ok = true;
  CaseResult crashed;
  crashed.name = "mm multiplies";
  crashed.points = 6;
  crashed.status = CaseStatus::Crashed;
  crashed.set_detail({"SIGSEGV (segmentation fault: an invalid memory access)",
                      "SIGSEGV (violación de segmento: un acceso a memoria no válido)"});
  crashed.set_diagnosis({"heap-buffer-overflow, write of 4 bytes, matmul.cpp:21 in mm",
                         "heap-buffer-overflow, escritura de 4 bytes, matmul.cpp:21 en mm"});
  report.cases = {crashed};
  CHECK(crashed.detail == "SIGSEGV (segmentation fault: an invalid memory access)");
  CHECK(crashed.shown_detail() == "SIGSEGV (violación de segmento: un acceso a memoria no válido)");

  const std::string printed = printed_report(report, ReportContext{});
  CHECK(printed.find("SIGSEGV (violación de segmento: un acceso a memoria no válido)") != std::string::npos);
  CHECK(printed.find("escritura de 4 bytes, matmul.cpp:21 en mm") != std::string::npos);
  CHECK(printed.find("segmentation fault") == std::string::npos);

  const auto json = nlohmann::json::parse(report_json(report, 6));
  const std::string failure = json["cases"][0]["failure"];
  CHECK(failure == "SIGSEGV (segmentation fault: an invalid memory access)\n"
                   "where: heap-buffer-overflow, write of 4 bytes, matmul.cpp:21 in mm");

  // Text that reads the same in both (a test's own exception message) keeps no second copy.
  CaseResult errored;
  errored.set_detail(Bilingual::same("std::runtime_error: bad shape"));
  CHECK(errored.detail_shown.empty());
  CHECK(errored.shown_detail() == "std::runtime_error: bad shape");
}
