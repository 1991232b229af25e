#include "event_listener.h"

#include <unistd.h>

#include <cerrno>

#include <cstdlib>
#include <iostream>

#include <tinytorch/testing.h>

#include "events_file.h"
#include "json_text.h"

namespace tito_catch {
namespace {

// The descriptor tito opened for this run's events before the program started ($TITO_EVENTS_FD): the
// program never opens tito's files by name, so it cannot point tito at another file.
int events_fd() {
  static const int fd = [] {
    const char* text = std::getenv("TITO_EVENTS_FD");
    if (!text || !*text) return -1;
    char* end = nullptr;
    const long number = std::strtol(text, &end, 10);
    return (*end == '\0' && number > 2 && number < 1024) ? static_cast<int>(number) : -1;
  }();
  return fd;
}

int observations_in_case = 0;

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

std::string without_trailing_space(std::string text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.pop_back();
  return text;
}

// Where the learner's value and the test's value sit inside Catch2's expanded expression.
struct SplitValues {
  std::string actual, expected, extra;
};

// Our matchers describe themselves as "\nexpected: <value>[\n<more>]", and Catch2 expands a
// matcher assertion as "<actual> <description>".
bool split_matcher(const std::string& expanded, SplitValues& values) {
  static const std::string marker = "\nexpected: ";
  auto at = expanded.find(marker);
  if (at == std::string::npos) return false;
  values.actual = without_trailing_space(expanded.substr(0, at));
  std::string rest = expanded.substr(at + marker.size());
  auto newline = rest.find('\n');
  values.expected = rest.substr(0, newline);
  if (newline != std::string::npos) values.extra = rest.substr(newline + 1);
  return true;
}

// Catch2 expands `lhs op rhs` as "lhs op rhs" when short, else "lhs\nop\nrhs". The left side is
// what the learner's code produced; for operators other than == the expected side keeps its
// operator ("< 3"), since the right side alone is then not the wanted value.
bool split_comparison(const std::string& expanded, SplitValues& values) {
  static const char* operators[] = {"==", "!=", "<=", ">=", "<", ">"};
  for (const char* op : operators) {
    for (const std::string& separator : {"\n" + std::string(op) + "\n", " " + std::string(op) + " "}) {
      auto at = expanded.find(separator);
      if (at == std::string::npos || expanded.find(separator, at + 1) != std::string::npos) continue;
      values.actual = expanded.substr(0, at);
      values.expected = expanded.substr(at + separator.size());
      if (std::string(op) != "==") values.expected = std::string(op) + " " + values.expected;
      return true;
    }
  }
  return false;
}

// What an assertion tells about the code under test, for the case's transcript. An `a == b` comparison
// keeps its expanded text ("6 == 6"): tito compares its numbers with a tolerance. `a == Approx(b)` keeps
// its Approx side ("== Approx( 0.18 )"): the value the test worked out, from the case's (seeded) inputs,
// which pins the inputs, while the code's own value may differ from the reference's by the Approx's
// margin, which tito cannot see. Everything else keeps only its verdict: a bound (`<`) or a message
// matcher such as Contains pins no single value, so valid solutions may differ there. Our tensor
// matchers record the whole tensor themselves (testing.cpp), so their text is left out.
std::string observed_text(const Catch::AssertionResult& result) {
  const std::string macro = result.getTestMacroName().empty() ? "" : std::string(result.getTestMacroName());
  const std::string expanded = result.hasExpression() ? result.getExpandedExpression() : "";
  if (macro.find("THAT") != std::string::npos && expanded.find("\nexpected: ") != std::string::npos) return "";
  const std::string written = result.hasExpression() ? result.getExpressionInMacro() : macro;
  if (result.getResultType() == Catch::ResultWas::ThrewException) return written + ": threw";
  const bool plain = macro.find("THROWS") == std::string::npos && macro.find("THAT") == std::string::npos &&
                     macro.find("NOTHROW") == std::string::npos;
  const bool equality = expanded.find(" == ") != std::string::npos || expanded.find("\n==\n") != std::string::npos;
  if (plain && equality && expanded.find("Approx(") == std::string::npos) return written + ": " + expanded;
  const auto approx = expanded.find("Approx(");
  const bool approx_on_the_right = approx != std::string::npos && expanded.find("Approx(", approx + 1) == std::string::npos &&
                                   (expanded.rfind(" == ", approx) != std::string::npos ||
                                    expanded.rfind("\n==\n", approx) != std::string::npos);
  if (plain && equality && approx_on_the_right && result.isOk()) return written + ": == " + expanded.substr(approx);
  return written + (result.isOk() ? ": held" : ": failed");
}

}  // namespace

void write_event_line(const std::string& json) {
  const int fd = events_fd();
  if (fd < 0) return;
  // One write per line (the descriptor is O_APPEND), retried until all of it is out.
  const std::string line = json + "\n";
  for (std::size_t written = 0; written < line.size();) {
    const ssize_t n = ::write(fd, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    written += static_cast<std::size_t>(n);
  }
}

bool observation_room_left() { return events_fd() >= 0 && observations_in_case < kMaxObservationsPerCase; }

void record_observation(const std::string& fields) {
  if (!observation_room_left()) return;
  ++observations_in_case;
  write_event_line("{\"event\":\"observed\"," + fields + "}");
}

void start_case_observations() { observations_in_case = 0; }

void TitoEventListener::write_line(const std::string& json) { write_event_line(json); }

void TitoEventListener::testCaseStarting(Catch::TestCaseInfo const& info) {
  // Where this case's output begins, so a crash report can show just this case's output.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  long offset = static_cast<long>(lseek(STDOUT_FILENO, 0, SEEK_CUR));
  write_line(json_line(
      {{"event", "case_start"}, {"name", info.name}, {"points", points_from_tags(info.tags)}, {"output_offset", offset}}));
  start_case_observations();
  tinytorch::testing::detail::restart_graded_rng(info.name);
  case_start_ = std::chrono::steady_clock::now();
}

bool TitoEventListener::assertionEnded(Catch::AssertionStats const& stats) {
  const Catch::AssertionResult& result = stats.assertionResult;
  if (observation_room_left()) {
    const std::string text = observed_text(result);
    if (!text.empty()) record_observation("\"text\":" + json_quote(text));
  }
  if (result.isOk()) return true;

  std::string kind = "assertion";
  const std::string original_message = result.getMessage();
  std::string message = original_message;
  SplitValues values;
  std::string expanded = result.hasExpression() ? result.getExpandedExpression() : "";
  switch (result.getResultType()) {
    case Catch::ResultWas::ThrewException:
      kind = "exception";
      if (starts_with(message, kNotImplementedPrefix)) {
        kind = "not_implemented";
        message = message.substr(std::string(kNotImplementedPrefix).size());
      } else if (starts_with(message, kOutOfMemoryPrefix)) {
        kind = "out_of_memory";
        message = message.substr(std::string(kOutOfMemoryPrefix).size());
      }
      expanded.clear();  // nothing was compared
      break;
    case Catch::ResultWas::FatalErrorCondition:
      kind = "fatal_signal";
      break;
    case Catch::ResultWas::ExpressionFailed: {
      std::string macro = result.getTestMacroName().empty() ? "" : std::string(result.getTestMacroName());
      // CHECK_THROWS_WITH(starter_stub(), ...) sees our translated NotImplemented message where it
      // wanted another error: the learner has not written the code yet, rather than got it wrong.
      std::string quoted_prefix = std::string("\"") + kNotImplementedPrefix;
      if (macro.find("THROWS") != std::string::npos && starts_with(expanded, quoted_prefix)) {
        kind = "not_implemented";
        auto end = expanded.find("\" ", quoted_prefix.size());
        message = expanded.substr(quoted_prefix.size(), end == std::string::npos ? std::string::npos
                                                                                 : end - quoted_prefix.size());
        break;
      }
      bool is_matcher = macro.find("THAT") != std::string::npos;
      if (is_matcher ? split_matcher(expanded, values) : split_comparison(expanded, values)) {
        if (!values.extra.empty()) message += (message.empty() ? "" : "\n") + values.extra;
      }
      break;
    }
    default:
      break;
  }
  // INFO()/CAPTURE() context; Catch2 also repeats the exception text here, which we already have.
  for (const auto& info : stats.infoMessages)
    if (info.message != original_message) message += (message.empty() ? "" : "\n") + info.message;

  write_line(json_line({{"event", "assertion_failed"},
                        {"file", result.getSourceInfo().file},
                        {"line", result.getSourceInfo().line},
                        {"expression", result.hasExpression() ? std::string(result.getExpressionInMacro()) : ""},
                        {"actual", values.actual},
                        {"expected", values.expected},
                        {"expanded", expanded},
                        {"message", message},
                        {"kind", kind}}));
  return true;
}

void TitoEventListener::testCaseEnded(Catch::TestCaseStats const& stats) {
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - case_start_).count();
  write_line(json_line({{"event", "case_end"},
                        {"name", stats.testInfo.name},
                        {"passed", stats.totals.assertions.allOk()},
                        {"duration_ms", ms}}));
}

void TitoEventListener::testRunEnded(Catch::TestRunStats const&) { write_line("{\"event\":\"run_end\"}"); }

}  // namespace tito_catch
