#include "event_listener.h"

#include <unistd.h>

#include <algorithm>
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

// Our matchers describe themselves as "\nexpected: <value>\nactual: <value>[\n<more>]", and Catch2
// expands a matcher assertion as "<actual> <description>"; the matcher's own "actual" (shortened
// around the first mismatch) replaces Catch2's.
bool split_matcher(const std::string& expanded, SplitValues& values) {
  static const std::string marker = "\nexpected: ", actual_marker = "\nactual: ";
  auto at = expanded.find(marker);
  if (at == std::string::npos) return false;
  values.actual = without_trailing_space(expanded.substr(0, at));
  std::string rest = expanded.substr(at + marker.size());
  auto newline = rest.find('\n');
  values.expected = rest.substr(0, newline);
  rest = newline == std::string::npos ? "" : rest.substr(newline);
  if (rest.rfind(actual_marker, 0) == 0) {
    newline = rest.find('\n', actual_marker.size());
    values.actual = rest.substr(actual_marker.size(), newline == std::string::npos ? std::string::npos : newline - actual_marker.size());
    rest = newline == std::string::npos ? "" : rest.substr(newline);
  }
  if (!rest.empty()) values.extra = rest.substr(1);
  return true;
}

// ---- Long values shown near their first difference ----
// Catch2 prints a compared container whole ("{ 1, 2, ... }", or "[1, 2, ...]" for sizes and ids) and a
// string whole: a 300-id encoding fills the screen. Both sides are cut to the neighbourhood of the
// first difference, and where it is is said in words.
constexpr std::size_t kWholeSequenceMax = 16;  // items
constexpr std::size_t kItemsAround = 4;
constexpr std::size_t kWholeStringMax = 80;  // characters
constexpr std::size_t kCharactersAround = 30;

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(' ');
  return first == std::string::npos ? "" : without_trailing_space(text.substr(first));
}

// "[a, b, c]" or "{ a, b, c }" -> its items; false when the text is not one list (commas inside
// quotes or nested brackets do not split).
bool list_items(const std::string& text, std::vector<std::string>& items, std::string& open, std::string& close) {
  if (text.size() < 2) return false;
  if (text.front() == '[' && text.back() == ']') {
    open = "[";
    close = "]";
  } else if (text.front() == '{' && text.back() == '}') {
    open = "{ ";
    close = " }";
  } else {
    return false;
  }
  std::string inner = text.substr(1, text.size() - 2);
  items.clear();
  int depth = 0;
  bool quoted = false;
  std::string item;
  for (std::size_t i = 0; i < inner.size(); ++i) {
    const char c = inner[i];
    if (c == '"' && (i == 0 || inner[i - 1] != '\\')) quoted = !quoted;
    if (!quoted && (c == '[' || c == '{' || c == '(')) ++depth;
    if (!quoted && (c == ']' || c == '}' || c == ')')) --depth;
    if (depth < 0) return false;
    if (!quoted && depth == 0 && c == ',') {
      items.push_back(trimmed(item));
      item.clear();
      continue;
    }
    item += c;
  }
  if (!trimmed(item).empty()) items.push_back(trimmed(item));
  return depth == 0 && !quoted;
}

std::string items_near(const std::vector<std::string>& items, std::size_t at, const std::string& open,
                       const std::string& close) {
  const std::size_t first = at > kItemsAround ? at - kItemsAround : 0;
  const std::size_t last = std::min(items.size(), at + kItemsAround + 1);
  std::string text = open + (first > 0 ? "..., " : "");
  for (std::size_t i = first; i < last; ++i) text += (i == first ? "" : ", ") + items[i];
  return text + (last < items.size() ? ", ..." : "") + close + " (items " + std::to_string(first) + "-" +
         std::to_string(last == 0 ? 0 : last - 1) + " of " + std::to_string(items.size()) + ")";
}

// Shortens both sides of a failed comparison around their first difference; returns the sentence
// that says where it is, or "" when the values are short enough to read whole.
std::string shorten_long_values(SplitValues& values) {
  std::vector<std::string> actual, expected;
  std::string open, close, open_expected, close_expected;
  const std::string wanted = values.expected.rfind("== ", 0) == 0 ? values.expected.substr(3) : values.expected;
  if (list_items(values.actual, actual, open, close) && list_items(wanted, expected, open_expected, close_expected) &&
      open == open_expected && std::max(actual.size(), expected.size()) > kWholeSequenceMax) {
    std::size_t at = 0;
    while (at < actual.size() && at < expected.size() && actual[at] == expected[at]) ++at;
    std::string where = "first difference at position " + std::to_string(at) + ": got " +
                        (at < actual.size() ? actual[at] : "the end") + ", expected " +
                        (at < expected.size() ? expected[at] : "the end");
    if (actual.size() != expected.size())
      where += "; got " + std::to_string(actual.size()) + " items, expected " + std::to_string(expected.size());
    values.actual = items_near(actual, std::min(at, actual.size() ? actual.size() - 1 : 0), open, close);
    values.expected = items_near(expected, std::min(at, expected.size() ? expected.size() - 1 : 0), open, close);
    return where;
  }
  const auto quoted = [](const std::string& text) { return text.size() >= 2 && text.front() == '"' && text.back() == '"'; };
  if (quoted(values.actual) && quoted(wanted) && std::max(values.actual.size(), wanted.size()) > kWholeStringMax) {
    const std::string a = values.actual.substr(1, values.actual.size() - 2), e = wanted.substr(1, wanted.size() - 2);
    std::size_t at = 0;
    while (at < a.size() && at < e.size() && a[at] == e[at]) ++at;
    const auto near = [at](const std::string& text) {
      const std::size_t first = at > kCharactersAround ? at - kCharactersAround : 0;
      const std::size_t last = std::min(text.size(), at + kCharactersAround);
      return (first > 0 ? "..." : "") + std::string("\"") + text.substr(first, last - first) + "\"" +
             (last < text.size() ? "..." : "") + " (" + std::to_string(text.size()) + " characters)";
    };
    values.actual = near(a);
    values.expected = near(e);
    return "first difference at character " + std::to_string(at) +
           (a.size() != e.size() ? "; got " + std::to_string(a.size()) + " characters, expected " + std::to_string(e.size()) : "");
  }
  return "";
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

// The program's output file position once everything printed so far has reached it.
long flushed_output_offset() {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  return static_cast<long>(lseek(STDOUT_FILENO, 0, SEEK_CUR));
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
  write_line(json_line({{"event", "case_start"},
                        {"name", info.name},
                        {"points", points_from_tags(info.tags)},
                        {"output_offset", flushed_output_offset()}}));
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
        if (!is_matcher) {
          values.extra = shorten_long_values(values);
          if (!values.extra.empty()) expanded.clear();  // whole, it is what was just cut short
        }
        if (!values.extra.empty()) message += (message.empty() ? "" : "\n") + values.extra;
      }
      break;
    }
    default:
      break;
  }
  // INFO()/CAPTURE() context; Catch2 also repeats the exception text here, which we already have.
  // A LABEL_CHECKS label is not context but the key of the check's hint; the innermost wins.
  std::string check;
  for (const auto& info : stats.infoMessages) {
    if (std::string(info.macroName) == "LABEL_CHECKS") check = info.message;
    else if (info.message != original_message) message += (message.empty() ? "" : "\n") + info.message;
  }

  write_line(json_line({{"event", "assertion_failed"},
                        {"file", result.getSourceInfo().file},
                        {"line", result.getSourceInfo().line},
                        {"expression", result.hasExpression() ? std::string(result.getExpressionInMacro()) : ""},
                        {"actual", values.actual},
                        {"expected", values.expected},
                        {"expanded", expanded},
                        {"message", message},
                        {"check", check},
                        {"kind", kind}}));
  return true;
}

void TitoEventListener::testCaseEnded(Catch::TestCaseStats const& stats) {
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - case_start_).count();
  // Where this case's output ends: a measuring case's table is shown from its start to here.
  write_line(json_line({{"event", "case_end"},
                        {"name", stats.testInfo.name},
                        {"passed", stats.totals.assertions.allOk()},
                        {"duration_ms", ms},
                        {"output_end", flushed_output_offset()}}));
}

void TitoEventListener::testRunEnded(Catch::TestRunStats const&) { write_line("{\"event\":\"run_end\"}"); }

}  // namespace tito_catch
