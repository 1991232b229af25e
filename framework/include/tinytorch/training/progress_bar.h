#pragma once
// The line a Trainer keeps updating while an epoch runs, on stderr:
//
//   epoch 3/10 [###########.........]  1,280/2,304  loss 0.4123  10,412 samples/s
//
// On a terminal the line is redrawn in place (at most 10 times a second, so drawing costs nothing
// next to training). When stderr is not a terminal, or NO_COLOR or CI is set (logs, pipes, tito's
// test runner), nothing is redrawn: one plain line per epoch is printed when it ends. The bar needs
// the epoch's size, which a DataLoader does not know in advance: the Trainer passes the number of
// samples of the previous epoch, and the first epoch shows a count without a bar.
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace tinytorch {
namespace training {

class ProgressBar {
 public:
  // interactive: redraw one line in place; otherwise print only finish()'s line.
  ProgressBar(std::ostream& out, bool interactive);
  // Draws on std::cerr, interactive when stderr is a terminal and neither NO_COLOR nor CI is set.
  static ProgressBar for_stderr();
  // True when stderr is a terminal and neither NO_COLOR nor CI is set.
  static bool stderr_is_interactive();

  // Starts an epoch. expected_samples 0: unknown (no bar, only the count).
  void start(const std::string& label, int64_t expected_samples);
  // After each batch: the samples done so far this epoch and the mean loss over them.
  void update(int64_t samples_done, double mean_loss);
  // Ends the epoch's line with a summary (e.g. the EpochRecord), replacing the live line.
  void finish(const std::string& summary);

  bool interactive() const { return interactive_; }

 private:
  void draw(int64_t samples_done, double mean_loss);

  std::ostream& out_;
  bool interactive_;
  std::string label_;
  int64_t expected_samples_ = 0;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_draw_;
  size_t drawn_width_ = 0;  // characters of the live line, to blank it out
};

// 1234567 -> "1,234,567"
std::string with_thousands_separators(int64_t value);

}  // namespace training
}  // namespace tinytorch
