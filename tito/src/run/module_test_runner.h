#pragma once
// Builds a module's tests (or a milestone program) against the learner's code and runs them in a sandbox.
// This is the one service that compiles and executes learner code; commands never do it themselves.
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "run/test_report.h"

namespace tito {

// How to compile against this build of the framework: read from <build>/tito/toolchain.json,
// which CMake writes (tito/cmake/toolchain.cmake).
struct Toolchain {
  std::string cxx;                              // compiler path: the one the framework build was configured with
  std::string cxx_id;                           // CMake's name for it: "GNU", "Clang", "AppleClang"
  std::string cxx_version;                      // "12.2.0"
  std::vector<std::string> cxx_flags;           // includes -std=c++17, optimisation, sanitizers if any
  std::vector<std::string> link_flags;
  // Flags only a build that includes the module gets: "06" -> {"-Wl,-u,<engine registration>"}.
  std::map<std::string, std::vector<std::string>> module_link_flags;
  std::vector<std::filesystem::path> include_dirs;
  std::filesystem::path given_lib;              // framework code no learner writes
  std::map<std::string, std::filesystem::path> solution_libs;  // module number -> reference learner code
  std::filesystem::path catch_main_lib;         // Catch2 main + tito's event listener, compiled once
  // Milestone programs compiled at set-up with these flags by `program_objects_cxx`: source -> object.
  std::map<std::filesystem::path, std::filesystem::path> program_objects;
  std::string program_objects_cxx;
  std::string ninja;                            // ninja executable
  bool sanitized = false;                       // ASan builds cannot take an address-space limit
};

// Throws std::runtime_error naming the file and the fix (re-run the set-up command) when missing or bad.
Toolchain load_toolchain(const std::filesystem::path& build_dir);

// Called about 5 times a second while a test case runs, and with an empty name once it has ended.
using LiveStatus = std::function<void(const std::string& case_name, double elapsed_s)>;
// The compilers TinyTorch is built and tested with (scripts/test --compiler gcc|clang).
inline constexpr const char* kSupportedCompilers = "GCC 12 or newer, or Clang 14 or newer";

// How messages name the compiler: "Clang 14.0.6 (/usr/bin/clang++)".
std::string describe_compiler(const Toolchain& toolchain);

// True for GCC >= 12 and Clang >= 14; other compilers may work but are not tested.
bool is_supported_compiler(const Toolchain& toolchain);

// The Debian command that installs this compiler: "sudo apt-get install clang" for a Clang, else g++.
std::string install_compiler_command(const Toolchain& toolchain);

// What to run when this compiler cannot build TinyTorch's own code: the set-up again with the other
// supported compiler, e.g. "CXX=g++ /src/scripts/setup".
std::string switch_compiler_command(const Toolchain& toolchain, const std::filesystem::path& source_dir);

// How long a confined build of one module may take unless the request says otherwise.
inline constexpr double kDefaultCompileTimeLimitS = 60;

struct ModuleTestRequest {
  std::string module;                                   // "01"
  // Modules whose code comes from the learner: module number -> directory holding the learner's
  // files (the file names are those of the module's learner_files). Every other module links the
  // reference solution library.
  std::map<std::string, std::filesystem::path> learner_dirs;
  std::vector<std::filesystem::path> test_sources;      // the instructor's copy, from curriculum/
  ModuleHints hints;                                    // the module's hints.json (explain_failures)
  std::filesystem::path build_dir;                      // scratch space for this module, e.g. .tito/build/01
  double time_limit_s = 30;                             // for one run of the test binary
  double total_time_limit_s = 0;                        // > 0: for all runs of it together (TestSessionSpec)
  std::size_t memory_limit_mb = 1024;
  int build_jobs = 2;                                   // ninja -j; graders building many learners use 1
  // Test objects compiled once and shared (build_test_objects): linked instead of compiling
  // test_sources, which then only name the cases when the build fails.
  std::vector<std::filesystem::path> prebuilt_test_objects;
  std::map<std::string, std::string> run_env;           // added to the test program's environment
  // Grading: the build runs confined with only <build_dir> writable, stopped after compile_time_limit_s
  // (0: kDefaultCompileTimeLimitS); the test program runs in a fresh root (sandbox.h) with only
  // <build_dir>/run writable. Where the kernel forbids namespaces, only the limits apply.
  bool confine_writes = false;
  double compile_time_limit_s = 0;
  // Only the cases this Catch2 test spec selects: a name, a wildcard, or tags ("[matmul]").
  std::string filter;
  // A crashed case is run again, alone, in a build with AddressSanitizer and UBSan (made only then),
  // so that the report can name the kind of error and the learner's line.
  bool diagnose_crashes = true;
  // Cases tagged [threads] that passed are run again with ThreadSanitizer once no case failed; a data
  // race fails the case (a race can give the right result by chance, so passing proves nothing).
  bool find_data_races = true;
  // Check them even when the code and the cases are unchanged since a check that found no race
  // (`tito module test NN --tsan`): a race that did not show in one run may show in the next.
  bool recheck_data_races = false;
  LiveStatus live_status;  // shows that a long case is alive
  // Where the learner's objects are compiled, shared by every module test and milestone of a
  // workspace (so a file is compiled once per change); empty: inside build_dir.
  std::filesystem::path learner_objects_dir;
  // Graders: the learner's files compile with these include folders only (copies of the released
  // public headers) instead of the toolchain's, and a build whose files opened anything outside them,
  // the compiler's own headers and the learner's folders is refused (build_learner_includes.h).
  std::vector<std::filesystem::path> learner_include_dirs;
  // Folders a confined test program may read besides its own binary and run folder (the course's
  // datasets, which modules 16 and 20 train on), shown read-only at the same paths.
  std::vector<std::filesystem::path> readable_dirs;
};

// Compiles test sources to objects (no link) in `build_dir`, so many learner builds can share them.
struct TestObjects {
  bool ok = false;
  std::string build_log;
  std::vector<std::filesystem::path> objects;  // absolute
};

using ProgressSink = std::function<void(const std::string& line)>;  // "compiling matmul.cpp", ...

TestReport run_module_tests(const Toolchain& toolchain, const ModuleTestRequest& request,
                            const ProgressSink& progress = {});

TestObjects build_test_objects(const Toolchain& toolchain, const std::vector<std::filesystem::path>& test_sources,
                               const std::filesystem::path& build_dir, int jobs = 2, const ProgressSink& progress = {});

// The graded cases as the instructor wrote them: TEST_CASE("name", "[tags][points=N]") in the test
// sources, hidden ([.]) cases left out. Their status is NotRun.
std::vector<CaseResult> cases_declared_in(const std::vector<std::filesystem::path>& test_sources);

// A program (not a test binary) built from its own sources against the learner's code, then run
// once in the sandbox: how `tito milestone run` runs a milestone part.
struct ProgramRequest {
  std::vector<std::filesystem::path> sources;                 // with main()
  std::map<std::string, std::filesystem::path> learner_dirs;  // as in ModuleTestRequest; others: reference
  std::filesystem::path build_dir;                            // e.g. <ws>/.tito/build/milestone-01
  std::string binary_name = "program";                        // several programs may share a build dir
  std::string label_prefix;                                   // progress label, e.g. "milestone 01/"
  std::vector<std::string> args;
  std::map<std::string, std::string> env;                     // added to the program's environment
  std::filesystem::path working_dir;                          // empty: <build_dir>/run
  double time_limit_s = 600;
  std::size_t memory_limit_mb = 2048;
  std::filesystem::path learner_objects_dir;                  // as in ModuleTestRequest
};

struct ProgramOutcome {
  bool build_ok = false;
  std::string build_log;   // compiler messages when the build failed
  bool given_code_failed = false;  // as in TestReport: the program's own sources do not compile here
  double build_seconds = 0;
  bool started = false;
  bool timed_out = false;
  bool stopped = false;    // `keep_running` said stop (Ctrl-C)
  int exit_code = -1;
  int signal = 0;
  double run_seconds = 0;
  std::string error;       // when it could not be started
  std::filesystem::path output_file;  // everything it printed

  bool exited_cleanly() const { return started && !timed_out && !stopped && signal == 0 && exit_code == 0; }
  std::string failure() const;  // "", or why the run failed: "crashed with SIGSEGV (...)", "timed out after 600 s"
  std::string failure_shown() const;  // the same in the message language, for people (failure() is recorded)
  Bilingual failure_both() const;
};

using OutputSink = std::function<void(const std::string& line)>;  // one line of the program's output
using StopCheck = std::function<bool()>;                          // true: stop the program now

// Builds (reporting ninja's steps to `progress`) and runs the program, passing each line it prints
// to `output` as it appears.
ProgramOutcome run_program(const Toolchain& toolchain, const ProgramRequest& request, const ProgressSink& progress = {},
                           const OutputSink& output = {}, const StopCheck& stop = {});

}  // namespace tito
