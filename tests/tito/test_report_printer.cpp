// What the learner reads about a failed build and a failed case: the first error in their own
// code with its template chain cut to their lines, the JSON report, and the stack and sanitizer
// parsing behind "where:" (stack_location.h).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cli/report_printer.h"
#include "run/stack_location.h"

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

}  // namespace

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

TEST_CASE("backtrace blocks are read relative to the executable and hidden from the learner", "[report][stack]") {
  const std::string output = "learner output\n\ntito-backtrace-begin 10 0x1000\n0x1234\n0x2001\ntito-backtrace-end\nafter\n";
  CHECK(backtrace_addresses(output) == std::vector<unsigned long long>{0x233, 0x1000});
  CHECK(without_backtrace_blocks(output) == "learner output\nafter\n");
  // A block cut short by the kill gives no addresses rather than wrong ones.
  CHECK(backtrace_addresses("tito-backtrace-begin 10 0x0\n0x12\n").empty());
}
