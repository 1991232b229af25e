// Module 19 (Benchmarking), given code: PyTorch's Compare, a text table of measurements. Every time
// is printed in the unit of the smallest median, so a column reads at a glance.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>

#include "tinytorch/errors.h"
#include "tinytorch/utils/benchmark.h"

namespace tinytorch {
namespace utils {
namespace benchmark {

Compare::Compare(std::vector<Measurement> results) : results_(std::move(results)) {
  TT_CHECK(!results_.empty(), "Compare: no measurements; pass the results of Timer::blocked_autorange or repeat");
}

std::string Compare::str() const {
  double smallest = results_[0].median();
  for (const Measurement& m : results_) smallest = std::min(smallest, m.median());
  struct Unit {
    const char* symbol;
    const char* name;
    double factor;
  };
  const Unit unit = smallest < 1e-6   ? Unit{"ns", "nanoseconds", 1e9}
                    : smallest < 1e-3 ? Unit{"us", "microseconds", 1e6}
                    : smallest < 1    ? Unit{"ms", "milliseconds", 1e3}
                                      : Unit{"s", "seconds", 1};
  const double factor = unit.factor;

  std::vector<std::string> labels;  // in order of first appearance
  for (const Measurement& m : results_) {
    if (std::find(labels.begin(), labels.end(), m.label()) == labels.end()) labels.push_back(m.label());
  }
  size_t name_width = 4;
  for (const Measurement& m : results_) name_width = std::max(name_width, m.description().size());

  std::string text;
  char cell[256];
  for (const std::string& label : labels) {
    const std::string title = " " + (label.empty() ? std::string("(no label)") : label) + " ";
    const size_t width = name_width + 58;
    const size_t dashes = width > title.size() + 2 ? width - title.size() - 2 : 2;
    text += "[" + std::string(dashes / 2, '-') + title + std::string(dashes - dashes / 2, '-') + "]\n";
    std::snprintf(cell, sizeof cell, "  %-*s | %9s | %9s | %21s | %s\n", static_cast<int>(name_width), "", "median",
                  "IQR", "mean +- 95% CI", "runs");
    text += cell;
    for (const Measurement& m : results_) {
      if (m.label() != label) continue;
      char mean_text[64];
      if (m.runs() >= 2) {
        std::snprintf(mean_text, sizeof mean_text, "%.4g +- %.2g", m.mean() * factor,
                      confidence_interval(m).half_width() * factor);
      } else {
        std::snprintf(mean_text, sizeof mean_text, "%.4g", m.mean() * factor);
      }
      std::snprintf(cell, sizeof cell, "  %-*s | %9.4g | %9.3g | %21s | %lld x %lld\n", static_cast<int>(name_width),
                    m.description().empty() ? "-" : m.description().c_str(), m.median() * factor, m.iqr() * factor,
                    mean_text, static_cast<long long>(m.runs()), static_cast<long long>(m.number_per_run()));
      text += cell;
    }
  }
  text += std::string("Times are in ") + unit.name + " (" + unit.symbol + ").\n";
  return text;
}

void Compare::print() const { std::cout << str(); }

}  // namespace benchmark
}  // namespace utils
}  // namespace tinytorch
