#include "run/stack_location.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "build/captured_command.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

constexpr const char* kBlockBegin = "tito-backtrace-begin ";
constexpr const char* kBlockEnd = "tito-backtrace-end";

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

// "tinytorch::native::mm(tinytorch::Tensor const&, ...)" -> "tinytorch::native::mm": the argument
// list makes the line long and says nothing the learner's file does not.
// A lambda's body is named after the function that holds it, GCC's "f(long)::{lambda(int)#1}::operator()(int) const"
// and Clang's "f(long)::$_0::operator()(int) const": both read "a lambda in f".
std::string without_arguments(const std::string& function) {
  auto open = function.find('(');
  if (open == std::string::npos || starts_with(function.substr(open), "()::") ) return function;
  if (open >= 8 && function.compare(open - 8, 8, "operator") == 0) open = function.find('(', open + 2);
  if (open == std::string::npos) return function;
  const auto close = function.find(')', open);
  if (close != std::string::npos &&
      (function.compare(close + 1, 4, "::$_") == 0 || function.compare(close + 1, 9, "::{lambda") == 0))
    return "a lambda in " + function.substr(0, open);
  return function.substr(0, open);
}

bool is_under(const fs::path& file, const fs::path& dir) {
  const std::string f = file.lexically_normal().string(), d = dir.lexically_normal().string();
  return !d.empty() && f.size() > d.size() && f.compare(0, d.size(), d) == 0 &&
         (d.back() == '/' || f[d.size()] == '/');
}

bool is_learner_file(const fs::path& file, const std::vector<fs::path>& learner_dirs) {
  return std::any_of(learner_dirs.begin(), learner_dirs.end(), [&](const fs::path& dir) {
    std::error_code ignored;
    const fs::path canonical = fs::weakly_canonical(dir, ignored);
    return is_under(file, dir) || (!canonical.empty() && is_under(file, canonical));
  });
}

// std::regex recurses per character: a line of learner output megabytes long would exhaust the
// stack. Lines a sanitizer or a backtrace writes are far shorter.
constexpr std::size_t kMaxParsedLineChars = 4096;

// "/ws/modules/01_tensor/matmul.cpp:23:5" or "...:23" -> file and line.
bool split_file_line(const std::string& text, fs::path& file, int& line) {
  static const std::regex pattern(R"(^(.+?):(\d+)(?::\d+)?$)");
  if (text.size() > kMaxParsedLineChars) return false;
  std::smatch match;
  if (!std::regex_match(text, match, pattern)) return false;
  file = match[1].str();
  line = std::atoi(match[2].str().c_str());
  return true;
}

// A sanitizer's stack frame: AddressSanitizer's "    #0 0x55d4c5 in tinytorch::native::add(...) /path/file.cpp:57:12",
// ThreadSanitizer's "    #0 tinytorch::native::add(...) /path/file.cpp:57:12 (module_tests+0x1d2e5)". Newer
// runtimes (Clang 14's among them) end the first frame of each module with " (BuildId: 3f2a...)".
std::optional<CodeLocation> parse_sanitizer_frame(const std::string& line) {
  static const std::regex address(R"(^\s*#\d+ 0x[0-9a-fA-F]+ in (.+) (\S+:\d+(?::\d+)?)( \(BuildId: [0-9a-fA-F]+\))?$)");
  static const std::regex thread(R"(^\s*#\d+ (.+) (\S+:\d+(?::\d+)?) \(\S+\+0x[0-9a-fA-F]+\)( \(BuildId: [0-9a-fA-F]+\))?$)");
  if (line.size() > kMaxParsedLineChars) return std::nullopt;
  std::smatch match;
  if (!std::regex_match(line, match, address) && !std::regex_match(line, match, thread)) return std::nullopt;
  CodeLocation location;
  location.function = without_arguments(match[1].str());
  if (!split_file_line(match[2].str(), location.file, location.line)) return std::nullopt;
  return location;
}

}  // namespace

std::string CodeLocation::short_text() const { return short_text_both().english; }

Bilingual CodeLocation::short_text_both() const {
  const std::string place = file.filename().string() + ":" + std::to_string(line);
  if (function.empty()) return Bilingual::same(place);
  static const std::string lambda = "a lambda in ";
  // TRANSLATORS: a lambda's body, named after the function that holds it (a C++ name, e.g. tinytorch::native::mm)
  const Bilingual name = starts_with(function, lambda) ? trb("a lambda in {}", function.substr(lambda.size()))
                                                        : Bilingual::same(function);
  // TRANSLATORS: where a program was: a file:line, then the function, e.g. "matmul.cpp:23 in tinytorch::native::mm"
  return trb("{} in {}", place, name);
}

std::vector<unsigned long long> backtrace_addresses(const std::string& output) {
  const auto begin = output.rfind(kBlockBegin);
  if (begin == std::string::npos) return {};
  const auto end = output.find(kBlockEnd, begin);
  if (end == std::string::npos) return {};  // cut short: the program was killed while writing it
  std::istringstream block(output.substr(begin, end - begin));
  std::string header;
  std::getline(block, header);
  std::istringstream header_fields(header.substr(std::string(kBlockBegin).size()));
  std::string signal_text, base_text;
  header_fields >> signal_text >> base_text;
  const unsigned long long base = std::strtoull(base_text.c_str(), nullptr, 16);
  std::vector<unsigned long long> addresses;
  for (std::string line; std::getline(block, line);) {
    const unsigned long long address = std::strtoull(line.c_str(), nullptr, 16);
    // Return addresses point after the call; one byte back lands on the calling line.
    if (address > base) addresses.push_back(address - base - 1);
  }
  return addresses;
}

std::string without_backtrace_blocks(const std::string& output) {
  std::string text = output;
  for (auto begin = text.find(kBlockBegin); begin != std::string::npos; begin = text.find(kBlockBegin, begin)) {
    if (begin > 0 && text[begin - 1] == '\n') --begin;  // the block starts with a newline of its own
    auto end = text.find(kBlockEnd, begin);
    end = end == std::string::npos ? text.size() : std::min(text.size(), end + std::string(kBlockEnd).size() + 1);
    text.erase(begin, end - begin);
  }
  return text;
}

std::vector<CodeLocation> symbolise(const fs::path& binary, const std::vector<unsigned long long>& addresses) {
  std::vector<CodeLocation> frames;
  const std::string addr2line = find_executable("addr2line");
  if (addr2line.empty() || addresses.empty()) return frames;
  std::vector<std::string> argv = {addr2line, "-e", binary.string(), "-f", "-C", "-i"};
  for (auto address : addresses) {
    std::ostringstream hex;
    hex << "0x" << std::hex << address;
    argv.push_back(hex.str());
  }
  // Without -a, addr2line prints a function line and a file:line line per frame, inlined frames first.
  std::vector<std::string> lines;
  CommandOutcome outcome = run_captured(argv, {}, [&](const std::string& line) { lines.push_back(line); });
  if (outcome.exit_code != 0) return {};
  for (std::size_t i = 0; i + 1 < lines.size(); i += 2) {
    CodeLocation frame;
    frame.function = lines[i] == "??" ? "" : without_arguments(lines[i]);
    std::string where = lines[i + 1].substr(0, lines[i + 1].find(" (discriminator"));
    if (!split_file_line(where, frame.file, frame.line) || frame.file == "??" || frame.line == 0) frame.file.clear();
    frames.push_back(frame);
  }
  return frames;
}

std::optional<CodeLocation> first_learner_frame(const std::vector<CodeLocation>& frames,
                                                const std::vector<fs::path>& learner_dirs) {
  for (const auto& frame : frames)
    if (!frame.file.empty() && is_learner_file(frame.file, learner_dirs)) return frame;
  return std::nullopt;
}

namespace {

// ThreadSanitizer's account of a race: two stacks, the access that found the race and the earlier one
// it conflicts with, e.g. "data race, write of 4 bytes by thread T1 at gemm.cpp:240 in blocked_gemm;
// the other, a write by the main thread at gemm.cpp:240 in blocked_gemm".
Bilingual thread_sanitizer_diagnosis(std::istringstream& lines, const std::string& kind,
                                     const std::vector<fs::path>& learner_dirs) {
  static const std::regex access(R"(^\s*(Previous )?(atomic )?(read|write) of size (\d+) at 0x[0-9a-fA-F]+ by (.+?)( \(.*\))?:$)",
                                 std::regex::icase);
  struct Access {
    Bilingual what;
    std::vector<CodeLocation> frames;
  };
  std::vector<Access> accesses;
  // An access's stack ends at the blank line after it; the stacks that follow (where the memory was
  // allocated, where the thread was created) are not where the access happened.
  bool in_access_stack = false;
  for (std::string line; std::getline(lines, line) && accesses.size() <= 2;) {
    if (line.size() > kMaxParsedLineChars) continue;
    if (line.find_first_not_of(" \t") == std::string::npos) {
      in_access_stack = false;
      continue;
    }
    std::smatch match;
    if (std::regex_match(line, match, access)) {
      in_access_stack = true;
      if (accesses.size() == 2) break;
      const bool read = std::tolower(static_cast<unsigned char>(match[3].str()[0])) == 'r';
      const std::string bytes = match[4].str(), by = match[5].str();  // by: ThreadSanitizer's "thread T1", "main thread"
      // TRANSLATORS: a memory access ThreadSanitizer saw: how many bytes, then which thread (its own words, "thread T1")
      const Bilingual what = match[2].matched ? (read ? trb("atomic read of {} bytes by {}", bytes, by)
                                                      : trb("atomic write of {} bytes by {}", bytes, by))
                                              : (read ? trb("read of {} bytes by {}", bytes, by)
                                                      : trb("write of {} bytes by {}", bytes, by));
      accesses.push_back({what, {}});
    } else if (auto frame = parse_sanitizer_frame(line)) {
      if (in_access_stack) accesses.back().frames.push_back(*frame);
    } else if (starts_with(line, "SUMMARY:")) {
      break;
    }
  }
  Bilingual text = Bilingual::same(kind);  // ThreadSanitizer's own words: "data race"
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    // TRANSLATORS: between the two accesses of a data race ThreadSanitizer found
    text = text + (i == 0 ? Bilingual::same(", ") : trb("; the other access: "));
    const auto where = first_learner_frame(accesses[i].frames, learner_dirs);
    // TRANSLATORS: a memory access, then where it happened (a file:line in a function)
    if (where) text = text + trb("{} at {}", accesses[i].what, where->short_text_both());
    else if (!accesses[i].frames.empty())
      // TRANSLATORS: a memory access, then where it happened, in a file that is not the learner's
      text = text + trb("{} at {} (not in your files)", accesses[i].what, accesses[i].frames.front().short_text_both());
    else text = text + accesses[i].what;
  }
  return text;
}

}  // namespace

std::string sanitizer_diagnosis(const std::string& output, const std::vector<fs::path>& learner_dirs) {
  return sanitizer_diagnosis_both(output, learner_dirs).english;
}

Bilingual sanitizer_diagnosis_both(const std::string& output, const std::vector<fs::path>& learner_dirs) {
  static const std::regex tsan_error(R"(WARNING: ThreadSanitizer: ([a-z -]+?) \(pid=)");
  {
    std::smatch match;
    const auto at = output.find("WARNING: ThreadSanitizer:");
    if (at != std::string::npos) {
      const std::string line = output.substr(at, output.find('\n', at) - at);
      if (std::regex_search(line, match, tsan_error)) {
        std::istringstream rest(output.substr(at));
        return thread_sanitizer_diagnosis(rest, match[1].str(), learner_dirs);
      }
    }
  }
  static const std::regex asan_error(R"(ERROR: AddressSanitizer: ([A-Za-z-]+))");
  static const std::regex access(R"(^(READ|WRITE) of size (\d+))");
  static const std::regex signal_access(R"(The signal is caused by a (READ|WRITE) memory access)");
  static const std::regex ubsan_error(R"(^(\S+): runtime error: (.*)$)");
  std::istringstream lines(output);
  Bilingual kind, what;
  std::vector<CodeLocation> frames;
  std::optional<CodeLocation> reported_at;  // UBSan names the place itself
  bool in_report = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.size() > kMaxParsedLineChars) continue;
    std::smatch match;
    if (!in_report && std::regex_search(line, match, asan_error)) {
      kind = Bilingual::same(match[1].str());  // AddressSanitizer's own name: heap-buffer-overflow
      in_report = true;
      continue;
    }
    if (!in_report && std::regex_search(line, match, ubsan_error)) {
      // TRANSLATORS: UndefinedBehaviorSanitizer's own account follows, e.g. "signed integer overflow: ..."
      kind = trb("undefined behaviour: {}", match[2].str());
      CodeLocation location;
      if (split_file_line(match[1].str(), location.file, location.line)) reported_at = location;
      in_report = true;
      continue;
    }
    if (!in_report) continue;
    if (what.empty() && std::regex_search(line, match, access)) {
      // TRANSLATORS: the memory access AddressSanitizer caught, with its size
      what = match[1].str() == "READ" ? trb("read of {} bytes", match[2].str()) : trb("write of {} bytes", match[2].str());
    } else if (what.empty() && std::regex_search(line, match, signal_access)) {
      // TRANSLATORS: the kind of memory access that crashed (its size unknown)
      what = match[1].str() == "READ" ? trb("a read") : trb("a write");
    } else if (line.find("address points to the zero page") != std::string::npos) {
      // TRANSLATORS: after a memory access ("read of 4 bytes"), or alone
      what = what.empty() ? trb("through a null pointer") : what + Bilingual::same(" ") + trb("through a null pointer");
    } else if (auto frame = parse_sanitizer_frame(line)) {
      frames.push_back(*frame);
    } else if (starts_with(line, "SUMMARY:") || (!frames.empty() && line.find_first_not_of(" \t") == std::string::npos)) {
      break;  // the first stack is the one that matters
    }
  }
  if (kind.empty()) return {};
  std::optional<CodeLocation> where = first_learner_frame(frames, learner_dirs);
  if (reported_at && is_learner_file(reported_at->file, learner_dirs)) {
    if (!where || where->file != reported_at->file || where->line != reported_at->line) {
      CodeLocation at = *reported_at;
      if (where && where->file == at.file) at.function = where->function;
      where = at;
    }
  }
  Bilingual text = kind;
  if (!what.empty()) text = text + ", " + what;
  if (where) text = text + ", " + where->short_text_both();
  else if (reported_at) text = text + ", " + reported_at->short_text_both();
  // TRANSLATORS: where a program was (a file:line in a function), in a file that is not the learner's
  else if (!frames.empty()) text = text + ", " + trb("{} (not in your files)", frames.front().short_text_both());
  return text;
}

}  // namespace tito
