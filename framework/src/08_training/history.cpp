// Module 08 (Training), given: printing an epoch and drawing the history as SVG curves.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/svg.h"
#include "tinytorch/training/history.h"
#include "tinytorch/training/progress_bar.h"

namespace tinytorch {
namespace training {

std::ostream& operator<<(std::ostream& out, const EpochRecord& record) {
  char text[96];
  out << "epoch " << record.epoch;
  auto loss_and_accuracy = [&](const char* name, double loss, double accuracy) {
    if (std::isnan(loss)) return;
    std::snprintf(text, sizeof text, "  %s loss %.4f", name, loss);
    out << text;
    if (!std::isnan(accuracy)) {
      std::snprintf(text, sizeof text, " acc %.1f%%", 100 * accuracy);
      out << text;
    }
  };
  loss_and_accuracy("train", record.train_loss, record.train_accuracy);
  loss_and_accuracy("val", record.val_loss, record.val_accuracy);
  if (!std::isnan(record.lr)) {
    std::snprintf(text, sizeof text, "  lr %.4g", record.lr);
    out << text;
  }
  std::snprintf(text, sizeof text, "  %.2f s  ", record.seconds);
  out << text << with_thousands_separators(static_cast<int64_t>(record.samples_per_second)) << " samples/s";
  return out;
}

namespace {

struct Series {
  const char* name;
  std::vector<std::pair<double, double>> points;  // (epoch, value), NaN values left out
  const char* color;
  const char* dash;
};

Series series_of(const History& history, const char* name, double EpochRecord::*field, const char* color,
                 const char* dash) {
  Series series{name, {}, color, dash};
  for (const EpochRecord& record : history.epochs) {
    const double value = record.*field;
    if (std::isfinite(value)) series.points.emplace_back(static_cast<double>(record.epoch), value);
  }
  return series;
}

// One chart in the box (left, top, width, height): frame, title, axis ranges, curves and legend.
// y_range: the values' range; percent: label the y axis in percent.
void draw_chart(svg::Document& doc, double left, double top, double width, double height, const std::string& title,
                const std::vector<Series>& all_series, std::pair<double, double> x_range,
                std::pair<double, double> y_range, bool percent) {
  doc.text(left, top - 12, title, 14);
  doc.rect(left, top, width, height, "#888");
  bool any_points = false;
  for (const Series& series : all_series) any_points = any_points || !series.points.empty();
  if (!any_points) {
    doc.text(left + width / 2, top + height / 2, "not measured", 12, "middle", "#888");
    return;
  }
  const svg::Scale x{x_range.first, x_range.second, left + 10, left + width - 10};
  const svg::Scale y{y_range.first, y_range.second, top + height - 10, top + 10};
  char label[64];
  auto value_label = [&](double value) {
    if (percent) {
      std::snprintf(label, sizeof label, "%.0f%%", 100 * value);
    } else {
      std::snprintf(label, sizeof label, "%.3g", value);
    }
    return std::string(label);
  };
  doc.text(left - 6, y(y_range.second) + 4, value_label(y_range.second), 11, "end");
  doc.text(left - 6, y(y_range.first) + 4, value_label(y_range.first), 11, "end");
  std::snprintf(label, sizeof label, "%.0f", x_range.first);
  doc.text(x(x_range.first), top + height + 16, label, 11, "middle");
  std::snprintf(label, sizeof label, "%.0f", x_range.second);
  doc.text(x(x_range.second), top + height + 16, label, 11, "middle");
  doc.text(left + width / 2, top + height + 30, "epoch", 11, "middle");

  double legend_y = top + 18;
  for (const Series& series : all_series) {
    if (series.points.empty()) continue;
    std::vector<std::pair<double, double>> pixels;
    for (const auto& [epoch, value] : series.points) pixels.emplace_back(x(epoch), y(value));
    doc.polyline(pixels, series.color, 2, series.dash);
    for (const auto& [px, py] : pixels) doc.circle(px, py, 2.5, series.color, series.color, 1);
    doc.line(left + width - 110, legend_y - 4, left + width - 86, legend_y - 4, series.color, 2, series.dash);
    doc.text(left + width - 80, legend_y, series.name, 11);
    legend_y += 16;
  }
}

std::pair<double, double> range_of(const std::vector<Series>& all_series) {
  double low = INFINITY, high = -INFINITY;
  for (const Series& series : all_series) {
    for (const auto& point : series.points) {
      low = std::min(low, point.second);
      high = std::max(high, point.second);
    }
  }
  if (!(low <= high)) return {0, 1};
  const double margin = high > low ? 0.05 * (high - low) : 0.5 * std::max(std::abs(high), 1e-3);
  return {low - margin, high + margin};
}

}  // namespace

std::string History::to_svg(const std::string& title) const {
  const double chart_width = 400, chart_height = 260, left = 70, top = 70, gap = 90;
  svg::Document doc(left + 2 * chart_width + gap + 30, top + chart_height + 60);
  doc.text(left, 28, title, 18);

  const std::pair<double, double> epochs =
      this->epochs.empty() ? std::pair<double, double>{0, 1}
                           : std::pair<double, double>{static_cast<double>(this->epochs.front().epoch),
                                                       static_cast<double>(this->epochs.back().epoch)};
  const std::vector<Series> losses = {series_of(*this, "train", &EpochRecord::train_loss, "#1f77b4", ""),
                                      series_of(*this, "validation", &EpochRecord::val_loss, "#ff7f0e", "6 4")};
  const std::vector<Series> accuracies = {
      series_of(*this, "train", &EpochRecord::train_accuracy, "#1f77b4", ""),
      series_of(*this, "validation", &EpochRecord::val_accuracy, "#ff7f0e", "6 4")};
  draw_chart(doc, left, top, chart_width, chart_height, "loss", losses, epochs, range_of(losses), false);
  draw_chart(doc, left + chart_width + gap, top, chart_width, chart_height, "accuracy", accuracies, epochs, {0.0, 1.0},
             true);
  return doc.str();
}

void History::write_svg(const std::string& path, const std::string& title) const {
  std::ofstream out(path, std::ios::binary);
  out << to_svg(title);
  out.close();
  TT_CHECK(out.good(), "History::write_svg: could not write '", path,
           "'; check that its directory exists and is writable");
}

}  // namespace training
}  // namespace tinytorch
