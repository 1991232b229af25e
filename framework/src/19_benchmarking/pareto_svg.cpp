// Module 19 (Benchmarking), given code: the Pareto picture (tinytorch/svg.h). Frontier points are
// coloured and joined by a staircase (between two frontier models, nothing better is available),
// dominated ones grey; an arrow in each axis label says which way is better.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "tinytorch/errors.h"
#include "tinytorch/svg.h"
#include "tinytorch/utils/benchmark.h"

namespace tinytorch {
namespace utils {
namespace benchmark {

namespace {

// [low, high] widened by 8% on each side (and to a unit width when every value is equal).
std::pair<double, double> padded_range(double low, double high) {
  if (high == low) return {low - 0.5, high + 0.5};
  const double margin = (high - low) * 0.08;
  return {low - margin, high + margin};
}

}  // namespace

void save_pareto_svg(const std::string& path, const std::vector<ParetoPoint>& points, const std::string& x_label,
                     Goal x_goal, const std::string& y_label, Goal y_goal, const std::string& title) {
  TT_CHECK(!points.empty(), "save_pareto_svg: no points to draw; measure at least one model");
  std::vector<std::vector<double>> values;
  double x_min = points[0].x, x_max = points[0].x, y_min = points[0].y, y_max = points[0].y;
  for (const ParetoPoint& point : points) {
    TT_CHECK(std::isfinite(point.x) && std::isfinite(point.y), "save_pareto_svg: the point '", point.label,
             "' has a non-finite coordinate (", point.x, ", ", point.y, ")");
    values.push_back({point.x, point.y});
    x_min = std::min(x_min, point.x), x_max = std::max(x_max, point.x);
    y_min = std::min(y_min, point.y), y_max = std::max(y_max, point.y);
  }
  const std::vector<int64_t> frontier = pareto_frontier(values, {x_goal, y_goal});

  const double width = 720, height = 480, left = 80, right = 40, top = 50, bottom = 60;
  svg::Document doc(width, height);
  const auto x_range = padded_range(x_min, x_max), y_range = padded_range(y_min, y_max);
  const svg::Scale x{x_range.first, x_range.second, left, width - right};
  const svg::Scale y{y_range.first, y_range.second, height - bottom, top};

  doc.rect(left, top, width - left - right, height - top - bottom, "#888");
  char label[160];
  for (int tick = 0; tick <= 4; ++tick) {
    const double xv = x_range.first + (x_range.second - x_range.first) * tick / 4;
    const double yv = y_range.first + (y_range.second - y_range.first) * tick / 4;
    doc.line(x(xv), top, x(xv), height - bottom, "#eeeeee");
    doc.line(left, y(yv), width - right, y(yv), "#eeeeee");
    std::snprintf(label, sizeof label, "%.4g", xv);
    doc.text(x(xv), height - bottom + 18, label, 12, "middle");
    std::snprintf(label, sizeof label, "%.4g", yv);
    doc.text(left - 8, y(yv) + 4, label, 12, "end");
  }
  doc.text(width / 2, height - 16, x_label + (x_goal == Goal::kMinimize ? "  (lower is better)" : "  (higher is better)"),
           14, "middle");
  doc.text(16, top - 16, y_label + (y_goal == Goal::kMinimize ? "  (lower is better)" : "  (higher is better)"), 14);
  std::snprintf(label, sizeof label, "%s: %zu of %zu points on the Pareto frontier",
                title.empty() ? "Pareto frontier" : title.c_str(), frontier.size(), points.size());
  doc.text(width / 2, 24, label, 15, "middle");

  // The staircase: frontier points in x order; from each, step along x first, then along y.
  std::vector<int64_t> ordered = frontier;
  std::sort(ordered.begin(), ordered.end(), [&](int64_t a, int64_t b) {
    return points[a].x != points[b].x ? points[a].x < points[b].x : points[a].y < points[b].y;
  });
  std::vector<std::pair<double, double>> stairs;
  for (size_t i = 0; i < ordered.size(); ++i) {
    const ParetoPoint& point = points[ordered[i]];
    if (i > 0) stairs.emplace_back(x(point.x), stairs.back().second);
    stairs.emplace_back(x(point.x), y(point.y));
  }
  if (stairs.size() > 1) doc.polyline(stairs, "#1f77b4", 2, "6 4");

  std::vector<bool> on_frontier(points.size(), false);
  for (int64_t index : frontier) on_frontier[static_cast<size_t>(index)] = true;
  for (size_t i = 0; i < points.size(); ++i) {
    const ParetoPoint& point = points[i];
    const char* colour = on_frontier[i] ? "#d62728" : "#aaaaaa";
    doc.circle(x(point.x), y(point.y), on_frontier[i] ? 6 : 4, colour, "#222", 1);
    doc.text(x(point.x) + 9, y(point.y) - 6, point.label + (on_frontier[i] ? " (Pareto)" : ""), 12, "start",
             on_frontier[i] ? "#222" : "#777");
  }
  doc.save(path);
}

}  // namespace benchmark
}  // namespace utils
}  // namespace tinytorch
