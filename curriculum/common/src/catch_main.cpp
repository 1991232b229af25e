// The main() of every module test binary, compiled once at set-up into tito_catch_main.
// Beyond Catch2's own options it understands --tito-list, and it reports to tito through the event
// listener. Catch2's signal handlers are off: when learner code crashes, the process should die
// with the signal so tito (and AddressSanitizer, in sanitized builds) can see and report it.
#define CATCH_CONFIG_RUNNER
#define CATCH_CONFIG_NO_POSIX_SIGNALS
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

// One line of JSON: every registered case with what tito needs to grade and re-run it.
void print_case_list() {
  const auto& cases = Catch::getRegistryHub().getTestCaseRegistry().getAllTests();
  std::string json = "{\"cases\":[";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Catch::TestCaseInfo& info = cases[i].getTestCaseInfo();
    std::string tags;
    for (const auto& tag : info.tags) tags += (tags.empty() ? "" : ",") + tito_catch::json_quote(tag);
    json += std::string(i ? "," : "") + "{\"name\":" + tito_catch::json_quote(info.name) + ",\"tags\":[" + tags +
            "],\"points\":" + std::to_string(tito_catch::points_from_tags(info.tags)) +
            ",\"file\":" + tito_catch::json_quote(info.lineInfo.file) +
            ",\"line\":" + std::to_string(info.lineInfo.line) + ",\"hidden\":" + (info.isHidden() ? "true" : "false") +
            "}";
  }
  std::cout << json << "]}" << std::endl;
}

}  // namespace

int main(int argc, char* argv[]) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--tito-list") == 0) {
      print_case_list();
      return 0;
    }
  }
  return Catch::Session().run(argc, argv);
}
