#pragma once
// Runs a trusted tool (ninja, the compiler) and hands back its output line by line as it comes,
// so progress shows while a build runs.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace tito {

// Cuts bytes into lines as they come, in linear time: each byte is looked at once, and a line longer
// than kMaxLineChars keeps only its start, marked " [...]" (a compiler can print megabytes on one line).
// With `max_bytes`, it stops handing out lines once that much has gone out.
class LineSplitter {
 public:
  static constexpr std::size_t kMaxLineChars = 4096;
  using Sink = std::function<void(const std::string& line)>;

  explicit LineSplitter(Sink sink, std::size_t max_bytes = SIZE_MAX) : sink_(std::move(sink)), max_bytes_(max_bytes) {}
  // Hands out every line that `data` completes; returns how many of its bytes were used (all of them,
  // unless max_bytes was reached).
  std::size_t feed(const char* data, std::size_t count);
  // The last line, when the output did not end with a newline.
  void finish();
  bool full() const { return handed_out_ >= max_bytes_; }

 private:
  Sink sink_;
  std::size_t max_bytes_, handed_out_ = 0;
  std::string pending_;
  bool cut_ = false;  // the pending line was longer than kMaxLineChars
};

struct CommandOutcome {
  int exit_code = -1;  // -1 when it could not start or died on a signal
  std::string error;   // why it could not start
};

CommandOutcome run_captured(const std::vector<std::string>& argv, const std::filesystem::path& working_dir,
                            const std::function<void(const std::string& line)>& on_line);

// An absolute path to an executable: `name` itself when it contains a '/', else found on PATH.
// Empty when there is none.
std::string find_executable(const std::string& name);

}  // namespace tito
