// The main() of every module test binary, compiled once at set-up into tito_catch_main.
// Beyond Catch2's own options it understands --tito-list [TEST_SPEC], and it reports to tito through
// the event listener and, when tito asks where it is, with a backtrace (backtrace_on_signal.h). Catch2's signal handlers are off: when learner code crashes, the process should die
// with the signal so tito (and AddressSanitizer, in sanitized builds) can see and report it.
#define CATCH_CONFIG_RUNNER
#define CATCH_CONFIG_NO_POSIX_SIGNALS
#include "backtrace_on_signal.h"
#include "event_listener.h"

#include <cstring>
#include <iostream>
#include <new>
#include <vector>

#include <tinytorch/errors.h>

#include "json_text.h"

using tito_catch::TitoEventListener;  // the macro pastes the name into an identifier
CATCH_REGISTER_LISTENER(TitoEventListener)

// Starter stubs throw NotImplemented; tito shows "not implemented yet" rather than an error.
CATCH_TRANSLATE_EXCEPTION(tinytorch::NotImplemented& error) {
  return tito_catch::kNotImplementedPrefix + std::string(error.what());
}

// Under the sandbox's memory limit an allocation fails with std::bad_alloc.
CATCH_TRANSLATE_EXCEPTION(std::bad_alloc& error) {
  return tito_catch::kOutOfMemoryPrefix + std::string(error.what()) + " (an allocation failed: memory limit reached)";
}

namespace {

// One line of JSON: every registered case with what tito needs to grade and re-run it. With a test
// spec (a name, a wildcard or tags such as "[matmul]", as Catch2 reads them) only the cases it selects.
void print_case_list(const char* test_spec) {
  const auto& cases = Catch::getRegistryHub().getTestCaseRegistry().getAllTests();
  Catch::TestSpec spec;
  if (test_spec) spec = Catch::TestSpecParser(Catch::ITagAliasRegistry::get()).parse(test_spec).testSpec();
  nlohmann::ordered_json selected = nlohmann::ordered_json::array();
  for (const auto& test_case : cases) {
    const Catch::TestCaseInfo& info = test_case.getTestCaseInfo();
    if (test_spec && !spec.matches(info)) continue;
    selected.push_back({{"name", info.name},
                        {"tags", info.tags},
                        {"points", tito_catch::points_from_tags(info.tags)},
                        {"file", info.lineInfo.file},
                        {"line", info.lineInfo.line},
                        {"hidden", info.isHidden()}});
  }
  std::cout << tito_catch::json_line({{"cases", selected}}) << std::endl;
}

}  // namespace

int main(int argc, char* argv[]) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--tito-list") == 0) {
      print_case_list(i + 1 < argc ? argv[i + 1] : nullptr);
      return 0;
    }
  }
  tito_catch::install_backtrace_handlers();
  return Catch::Session().run(argc, argv);
}
