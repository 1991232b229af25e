// Module 08 (Training), given: the progress line of training/progress_bar.h.
#include "tinytorch/training/progress_bar.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

namespace tinytorch {
namespace training {

namespace {
constexpr int kBarWidth = 20;
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

bool environment_set(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0';
}
}  // namespace

std::string with_thousands_separators(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  for (int position = static_cast<int>(digits.size()) - 3; position > 0; position -= 3) digits.insert(position, ",");
  return value < 0 ? "-" + digits : digits;
}

ProgressBar::ProgressBar(std::ostream& out, bool interactive) : out_(out), interactive_(interactive) {}

bool ProgressBar::stderr_is_interactive() {
  return isatty(fileno(stderr)) != 0 && !environment_set("NO_COLOR") && !environment_set("CI");
}

ProgressBar ProgressBar::for_stderr() { return ProgressBar(std::cerr, stderr_is_interactive()); }

void ProgressBar::start(const std::string& label, int64_t expected_samples) {
  label_ = label;
  expected_samples_ = expected_samples;
  started_ = std::chrono::steady_clock::now();
  last_draw_ = started_ - kRedrawInterval;  // the first update draws at once
}

void ProgressBar::update(int64_t samples_done, double mean_loss) {
  if (!interactive_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  draw(samples_done, mean_loss);
}

void ProgressBar::draw(int64_t samples_done, double mean_loss) {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  std::string line = label_ + " ";
  if (expected_samples_ > 0) {
    const double fraction = std::min(1.0, static_cast<double>(samples_done) / static_cast<double>(expected_samples_));
    const int filled = static_cast<int>(fraction * kBarWidth);
    line += "[" + std::string(filled, '#') + std::string(kBarWidth - filled, '.') + "] ";
    line += with_thousands_separators(samples_done) + "/" + with_thousands_separators(expected_samples_);
  } else {
    line += with_thousands_separators(samples_done) + " samples";
  }
  char numbers[96];
  std::snprintf(numbers, sizeof numbers, "  loss %.4f  ", mean_loss);
  line += numbers;
  line += with_thousands_separators(seconds > 0 ? static_cast<int64_t>(samples_done / seconds) : 0) + " samples/s";
  // '\r' returns to the start of the line; spaces blank what a longer previous line left behind.
  const size_t width = line.size();
  if (width < drawn_width_) line += std::string(drawn_width_ - width, ' ');
  drawn_width_ = width;
  out_ << '\r' << line << std::flush;
}

void ProgressBar::finish(const std::string& summary) {
  if (interactive_ && drawn_width_ > 0) out_ << '\r' << std::string(drawn_width_, ' ') << '\r';
  drawn_width_ = 0;
  out_ << summary << '\n' << std::flush;
}

}  // namespace training
}  // namespace tinytorch
