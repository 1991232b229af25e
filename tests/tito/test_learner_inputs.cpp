// What a hostile learner controls: file and folder names and compiler messages with invalid UTF-8,
// links in a workspace or an archive, and includes that reach outside the public headers.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "build/learner_includes.h"
#include "core/files.h"
#include "core/grading.h"
#include "core/grading_archive.h"
#include "core/grading_reports.h"
#include "core/untrusted_input.h"
#include "run/module_test_runner.h"

namespace fs = std::filesystem;
using namespace tito;

namespace {

struct Scratch {
  fs::path root;
  Scratch() {
    std::random_device random;
    root = fs::temp_directory_path() / ("tito_test_learner_inputs_" + std::to_string(random()));
    fs::create_directories(root);
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(root, ignored);
  }
  fs::path write(const std::string& relative, const std::string& text) const {
    fs::create_directories((root / relative).parent_path());
    std::ofstream(root / relative, std::ios::binary) << text;
    return root / relative;
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

const std::string kBadName = "eve\xff\xfe";

// The two-file fixture module (tests/tito/data/run_incremental) copied into `scratch`, and a grader's
// request for it: its files compiled against the folder public/ only.
ModuleTestRequest graders_fixture_request(const Scratch& scratch) {
  fs::copy(fs::path(TITO_TESTS_DATA_DIR) / "run_incremental", scratch.root / "module", fs::copy_options::recursive);
  scratch.write("public/fx/helper.h", "namespace incremental { inline int twice(int a) { return 2 * a; } }\n");
  ModuleTestRequest request;
  request.module = "fx";
  request.learner_dirs["fx"] = scratch.root / "module" / "learner";
  request.test_sources = {scratch.root / "module" / "tests" / "test_incremental.cpp"};
  request.build_dir = scratch.root / "build";
  request.time_limit_s = 10;
  request.learner_include_dirs = {scratch.root / "public"};
  return request;
}

}  // namespace

TEST_CASE("invalid UTF-8 is written as \\xFF escapes and valid UTF-8 is kept", "[grading][utf8]") {
  CHECK(escape_invalid_utf8("plain ascii") == "plain ascii");
  CHECK(escape_invalid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  CHECK(escape_invalid_utf8(kBadName) == "eve\\xFF\\xFE");
  CHECK(escape_invalid_utf8("cut \xe2\x82") == "cut \\xE2\\x82");             // truncated at the end
  CHECK(escape_invalid_utf8("\xc0\x80") == "\\xC0\\x80");                      // overlong NUL
  CHECK(escape_invalid_utf8("\xed\xa0\x80") == "\\xED\\xA0\\x80");             // a UTF-16 surrogate
  CHECK(escape_invalid_utf8("\xf4\x90\x80\x80") == "\\xF4\\x90\\x80\\x80");    // past U+10FFFF
  CHECK(escape_invalid_utf8("\xe2(\xa1") == "\\xE2(\\xA1");                    // a lead byte without its continuation
  CHECK_NOTHROW(nlohmann::json(escape_invalid_utf8("\x80\xff" + kBadName)).dump());
}

TEST_CASE("every report survives names and messages with invalid UTF-8", "[grading][utf8][reports]") {
  Scratch scratch;
  GradingRun run;
  run.mode = "reference-prerequisites";
  run.modules = {{"01", "Tensor", 10}};
  LearnerGrade eve;
  eve.id = kBadName;
  eve.submission = kBadName + ".tar.gz";
  eve.graded = true;
  eve.flags = {"modules/01_tensor/\xff.cpp is not a learner file"};
  ModuleGrade module{"01", "build failed", "matmul.cpp:1: error: stray '\\377' \xff\xfe in program", 0, 10, false, 1, {}, {}};
  module.cases = {{"adds \xfe", 10, 0, "build failed", "message \xff", 0}};
  eve.modules = {module};
  run.learners = {eve};

  REQUIRE_NOTHROW(write_grades_json(run, scratch.root / "grades.json"));
  REQUIRE_NOTHROW(write_grades_csv(run, scratch.root / "grades.csv"));
  REQUIRE_NOTHROW(write_html_report(run, scratch.root / "report"));
  REQUIRE_NOTHROW(write_gradescope_results(run, scratch.root / "results.json"));

  const auto grades = nlohmann::json::parse(read_file(scratch.root / "grades.json"));
  CHECK(grades["learners"][0]["id"] == "eve\\xFF\\xFE");
  CHECK(grades["learners"][0]["modules"][0]["note"].get<std::string>().find("\\xFF\\xFE in program") != std::string::npos);
  CHECK(read_file(scratch.root / "grades.csv").find("eve\\xFF\\xFE,0,0,10") != std::string::npos);
  CHECK(read_file(scratch.root / "report" / "index.html").find("eve\\xFF\\xFE") != std::string::npos);
  const auto results = nlohmann::json::parse(read_file(scratch.root / "results.json"));
  CHECK(results["output"].get<std::string>().find("\\xFF\\xFE in program") != std::string::npos);
  CHECK(results["tests"][0]["output"].get<std::string>().find("message \\xFF") != std::string::npos);
}

TEST_CASE("a submission folder whose name is not UTF-8 is listed under an escaped id", "[grading][utf8]") {
  Scratch scratch;
  scratch.write(kBadName + "/modules/01_tensor/matmul.cpp", "");
  const auto submissions = list_submissions(scratch.root);
  REQUIRE(submissions.size() == 1);
  CHECK(submissions[0].id == "eve\\xFF\\xFE");
  CHECK(submissions[0].path.filename().string() == kBadName);  // the real folder is still found
}

TEST_CASE("a link anywhere in a learner file's path is found", "[grading][links]") {
  Scratch scratch;
  scratch.write("workspace/modules/02_activations/activations.cpp", "int x;\n");
  scratch.write("reference/matmul.cpp", "int y;\n");
  fs::create_directories(scratch.root / "workspace" / "modules");
  fs::create_directory_symlink(scratch.root / "reference", scratch.root / "workspace" / "modules" / "01_tensor");
  const fs::path workspace = scratch.root / "workspace";
  CHECK_FALSE(first_symlink_in(workspace, "modules/02_activations/activations.cpp"));
  CHECK(first_symlink_in(workspace, "modules/01_tensor/matmul.cpp") == fs::path("modules/01_tensor"));

  scratch.write("linked/real/file.cpp", "");
  fs::create_directory_symlink(scratch.root / "linked" / "real", scratch.root / "linked" / "modules");
  CHECK(first_symlink_in(scratch.root / "linked", "modules/file.cpp") == fs::path("modules"));
  fs::create_symlink(scratch.root / "reference" / "matmul.cpp", scratch.root / "workspace" / "modules" / "02_activations" / "m.cpp");
  CHECK(first_symlink_in(workspace, "modules/02_activations/m.cpp") == fs::path("modules/02_activations/m.cpp"));
}

TEST_CASE("archives holding any link, even one that stays inside, are refused", "[grading][archive][links]") {
  Scratch scratch;
  scratch.write("w/modules/ref/matmul.cpp", "int x;\n");
  const std::string root = scratch.root.string();
  REQUIRE(shell("cd '" + root + "' && ln -s ref w/modules/01_tensor && tar -czf inside.tar.gz w") == 0);
  REQUIRE(shell("cd '" + root + "' && rm w/modules/01_tensor && ln w/modules/ref/matmul.cpp w/hard.cpp && tar -cf hard.tar w") == 0);
  // A chain: read on its own, each target stays inside the archive; followed, up3 leads out of it.
  REQUIRE(shell("cd '" + root + "' && rm w/hard.cpp && mkdir -p c/a/b && ln -s .. c/a/b/up && ln -s up/../.. c/a/b/up2 && "
                "ln -s up2/../.. c/a/b/up3 && tar -czf chain.tar.gz c") == 0);
  CHECK(rejection_of(scratch.root / "inside.tar.gz", scratch.root / "out1").find("is a symbolic link") != std::string::npos);
  CHECK(rejection_of(scratch.root / "hard.tar", scratch.root / "out2").find("is a hard link") != std::string::npos);
  CHECK(rejection_of(scratch.root / "chain.tar.gz", scratch.root / "out3").find("is a symbolic link") != std::string::npos);
  CHECK_FALSE(fs::exists(scratch.root / "out1"));
  CHECK_FALSE(fs::exists(scratch.root / "out3"));
}

TEST_CASE("includes of absolute or '..' paths and inline assembly are found before compiling", "[grading][includes]") {
  CHECK(forbidden_include_lines("#include \"tinytorch/tensor.h\"\n#include <vector>\nint x;\n").empty());
  CHECK(forbidden_include_lines("// #include \"/etc/passwd\"\n/* #include \"../x.cpp\" */\nconst char* s = \"asm\";\n").empty());

  auto found = forbidden_include_lines("int a;\n#include \"../src/01_tensor/matmul.cpp\"\n");
  REQUIRE(found.size() == 1);
  CHECK(found[0] == "line 2: #include \"../src/01_tensor/matmul.cpp\" (a '..' component)");
  found = forbidden_include_lines("#include \"/etc/passwd\"\n");
  REQUIRE(found.size() == 1);
  CHECK(found[0].find("an absolute path") != std::string::npos);
  CHECK(forbidden_include_lines("  #  include_next <../../etc/passwd>\n").size() == 1);
  CHECK(forbidden_include_lines("# /* hidden */ include \"/etc/passwd\"\n").size() == 1);
  CHECK(forbidden_include_lines("#inc\\\nlude \"/etc/passwd\"\n").size() == 1);  // a spliced line
  found = forbidden_include_lines("void f() {\n  asm(\".incbin \\\"/etc/passwd\\\"\");\n}\n");
  REQUIRE(found.size() == 1);
  CHECK(found[0].rfind("line 2: `asm`", 0) == 0);
  CHECK(forbidden_include_lines("__asm__ (\"nop\");\n").size() == 1);
  CHECK(forbidden_include_lines("#define GRAB __asm__\n").size() == 1);
  CHECK(forbidden_include_lines("const char* s = \".inc\" \"bin\";\nconst char* t = \".INCBIN\";\n").size() == 1);
}

TEST_CASE("the depfile names every file the compiler opened; those outside the allowed folders are found",
          "[grading][includes]") {
  const auto files = depfile_dependencies("obj/fx/sum.o: /w/sum.cpp /usr/include/stdc-predef.h \\\n /pub/my\\ header.h \\\n"
                                          " /etc/passwd\n");
  REQUIRE(files.size() == 4);
  CHECK(files[0] == "/w/sum.cpp");
  CHECK(files[2] == "/pub/my header.h");
  CHECK(files[3] == "/etc/passwd");

  Scratch scratch;
  const fs::path header = scratch.write("pub/tinytorch/tensor.h", "");
  const fs::path own = scratch.write("learner/sum.cpp", "");
  const fs::path secret = scratch.write("repo/framework/src/01_tensor/matmul.cpp", "");
  fs::create_directory_symlink(scratch.root / "repo", scratch.root / "learner" / "sneaky");
  const std::vector<fs::path> allowed = {scratch.root / "pub", scratch.root / "learner"};
  const auto outside = dependencies_outside(
      {header, own, secret, scratch.root / "pub" / ".." / "repo" / "framework" / "src" / "01_tensor" / "matmul.cpp",
       scratch.root / "learner" / "sneaky" / "framework" / "src" / "01_tensor" / "matmul.cpp"},
      allowed);
  CHECK(outside.size() == 3);  // the file, reached directly, through '..' and through a link

  const auto system = compiler_system_include_dirs(TITO_TESTS_CXX_COMPILER);
  REQUIRE_FALSE(system.empty());
  CHECK(dependencies_outside({"/usr/include/stdc-predef.h"}, system).empty());
  CHECK(dependencies_outside({"/usr/include/../../etc/passwd"}, system).size() == 1);
}

TEST_CASE("a confined learner build that includes a file outside the public headers is refused without its messages",
          "[grading][includes][run]") {
  const Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  Scratch scratch;
  const fs::path secret = scratch.write("repo/secret.txt", "the reference answer is forty-two\n");
  const ModuleTestRequest request = graders_fixture_request(scratch);

  // A public header is fine.
  std::ofstream(scratch.root / "module" / "learner" / "product.cpp", std::ios::app) << "#include \"fx/helper.h\"\n";
  TestReport report = run_module_tests(toolchain, request);
  INFO(report.build_log);
  CHECK(report.build_ok);
  CHECK(report.refused_includes.empty());

  // A path spelled through a macro gets past any scan of the text, not past the depfile.
  std::ofstream(scratch.root / "module" / "learner" / "sum.cpp", std::ios::app)
      << "#define SECRET \"" << secret.string() << "\"\n#include SECRET\n";
  report = run_module_tests(toolchain, request);
  CHECK_FALSE(report.build_ok);
  REQUIRE(report.refused_includes.size() == 1);
  CHECK(report.refused_includes[0] == "sum.cpp includes " + secret.string());
  CHECK(report.build_log.find("forty-two") == std::string::npos);
  CHECK(report.build_log.find("refused") != std::string::npos);
}

TEST_CASE("a confined learner build that defines what belongs to the harness or the runtime is refused before it runs",
          "[grading][symbols][run]") {
  const Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  Scratch scratch;
  const ModuleTestRequest request = graders_fixture_request(scratch);

  // Helpers of the learner's own, in any namespace, are fine.
  std::ofstream(scratch.root / "module" / "learner" / "product.cpp", std::ios::app)
      << "int helper_of_mine(int a) { return a + 1; }\nnamespace incremental { int twice(int a) { return 2 * a; } }\n";
  TestReport report = run_module_tests(toolchain, request);
  INFO(report.build_log);
  CHECK(report.build_ok);
  CHECK(report.refused_symbols.empty());

  // A C function of the runtime (it would replace libc's everywhere), a piece of the harness, and a
  // function of the runtime's C++ library.
  std::ofstream(scratch.root / "module" / "learner" / "sum.cpp", std::ios::app)
      << "extern \"C\" long write(int, const void*, unsigned long) { return 0; }\n"
      << "namespace Catch { int forged_listener = 1; }\n"
      << "namespace std { void terminate() noexcept { for (;;) {} } }\n";
  report = run_module_tests(toolchain, request);
  CHECK_FALSE(report.build_ok);
  std::string refused;
  for (const auto& line : report.refused_symbols) refused += line + "\n";
  INFO(refused);
  CHECK(refused.find("sum.cpp defines `write`, a C name") != std::string::npos);
  CHECK(refused.find("sum.cpp defines `Catch::forged_listener`, a part of the test harness") != std::string::npos);
  CHECK(refused.find("sum.cpp defines `std::terminate()`, which the C or C++ runtime library defines") != std::string::npos);
  CHECK(refused.find("helper_of_mine") == std::string::npos);
  CHECK(report.build_log.rfind("refused:", 0) == 0);
  for (const auto& c : report.cases) CHECK(c.status == CaseStatus::NotRun);  // nothing ran
}

TEST_CASE("a confined learner build that reaches for the recorder, files, the environment or the kernel is refused",
          "[grading][symbols][run]") {
  const Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  Scratch scratch;
  const ModuleTestRequest request = graders_fixture_request(scratch);
  // Each on its own line of sum.cpp, all used from sum() so that the compiler keeps them.
  std::ofstream(scratch.root / "module" / "learner" / "sum.cpp", std::ios::app)
      << "#include <cstdlib>\n#include <fstream>\n#include <string>\n#include <unistd.h>\n"
      << "namespace tito_catch { void record_observation(const std::string& fields); }\n"
      << "#define PASTE(a, b) a##b\n"
      << "namespace incremental {\n"
      << "int reach() {\n"
      << "  tito_catch::record_observation(\"\\\"text\\\":\\\"forged\\\"\");\n"
      << "  long n = ::write(3, \"{}\\n\", 3);\n"
      << "  const char* seed = std::getenv(\"TITO_GRADING_SEED\");\n"
      << "  std::ofstream(\"/proc/self/fd/3\") << seed;\n"
      << "  long result; PASTE(__as, m__) volatile(\"sysc\" \"all\" : \"=a\"(result) : \"a\"(39L));\n"
      << "  return static_cast<int>(n + result);\n"
      << "}\n}  // namespace incremental\n";
  const TestReport report = run_module_tests(toolchain, request);
  std::string refused;
  for (const auto& line : report.refused_symbols) refused += line + "\n";
  INFO(report.build_log);
  CHECK_FALSE(report.build_ok);
  CHECK(refused.find("uses `tito_catch::record_observation(std::__cxx11::basic_string") != std::string::npos);
  CHECK(refused.find("uses `write`, which opens, writes or maps") != std::string::npos);
  CHECK(refused.find("uses `getenv`") != std::string::npos);
  CHECK(refused.find("std::basic_ofstream") != std::string::npos);
  CHECK(refused.find("makes a system call itself (syscall at offset 0x") != std::string::npos);
  for (const auto& c : report.cases) CHECK(c.status == CaseStatus::NotRun);
}
