#pragma once
// TitoEventListener: when TITO_EVENTS_FD names the descriptor tito opened for it, appends one JSON object per line for every case
// start, failed assertion and case end (format in tito/src/run/test_events.h), flushing each line,
// so that tito can tell which case was running when learner code crashed the process.
#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>

namespace tito_catch {

// Prefixes the exception translators put on messages, so the listener can name the kind.
constexpr const char* kNotImplementedPrefix = "NotImplemented: ";
constexpr const char* kOutOfMemoryPrefix = "OutOfMemory: ";

class TitoEventListener : public Catch::TestEventListenerBase {
 public:
  using TestEventListenerBase::TestEventListenerBase;

  void testCaseStarting(Catch::TestCaseInfo const& info) override;
  bool assertionEnded(Catch::AssertionStats const& stats) override;
  void testCaseEnded(Catch::TestCaseStats const& stats) override;
  void testRunEnded(Catch::TestRunStats const& stats) override;

 private:
  void write_line(const std::string& json);

  std::chrono::steady_clock::time_point case_start_;
};

}  // namespace tito_catch
