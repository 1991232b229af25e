// Module 14 (Profiling), given code: the roofline picture (tinytorch/svg.h). Both axes are
// logarithmic, so the memory roof (GFLOP/s = intensity x GB/s) is a straight line of slope 1 and
// the compute roof a horizontal one; they meet at the ridge point, peak / bandwidth FLOP/B.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tinytorch/profiling.h"
#include "tinytorch/svg.h"

namespace tinytorch {
namespace profiling {

void save_roofline_svg(const std::string& path, double peak_gflops, double bandwidth_gb_per_s,
                       const std::vector<RooflinePoint>& points) {
  TT_CHECK(peak_gflops > 0 && bandwidth_gb_per_s > 0, "save_roofline_svg: the peak (", peak_gflops,
           " GFLOP/s) and the bandwidth (", bandwidth_gb_per_s, " GB/s) must be positive; measure them first");
  const double ridge = peak_gflops / bandwidth_gb_per_s;
  // Decades wide enough for the ridge and every point.
  double min_intensity = ridge / 100, max_intensity = ridge * 100;
  double min_gflops = peak_gflops / 1000;
  for (const RooflinePoint& point : points) {
    TT_CHECK(point.intensity > 0 && point.gflops > 0, "save_roofline_svg: the point '", point.label,
             "' needs a positive intensity and GFLOP/s to sit on log axes");
    min_intensity = std::min(min_intensity, point.intensity / 2);
    max_intensity = std::max(max_intensity, point.intensity * 2);
    min_gflops = std::min(min_gflops, point.gflops / 2);
  }
  const double x_low = std::floor(std::log10(min_intensity)), x_high = std::ceil(std::log10(max_intensity));
  const double y_low = std::floor(std::log10(min_gflops)), y_high = std::ceil(std::log10(peak_gflops * 2));

  const double width = 720, height = 480, left = 80, right = 30, top = 50, bottom = 60;
  svg::Document doc(width, height);
  const svg::Scale x{x_low, x_high, left, width - right};
  const svg::Scale y{y_low, y_high, height - bottom, top};
  const auto px = [&](double intensity) { return x(std::log10(intensity)); };
  const auto py = [&](double gflops) { return y(std::log10(gflops)); };

  doc.rect(left, top, width - left - right, height - top - bottom, "#888");
  char label[128];
  for (double e = x_low; e <= x_high; ++e) {
    doc.line(x(e), top, x(e), height - bottom, "#e5e5e5");
    std::snprintf(label, sizeof label, "%g", std::pow(10.0, e));
    doc.text(x(e), height - bottom + 18, label, 12, "middle");
  }
  for (double e = y_low; e <= y_high; ++e) {
    doc.line(left, y(e), width - right, y(e), "#e5e5e5");
    std::snprintf(label, sizeof label, "%g", std::pow(10.0, e));
    doc.text(left - 8, y(e) + 4, label, 12, "end");
  }
  doc.text(width / 2, height - 16, "arithmetic intensity (FLOP/byte)", 14, "middle");
  doc.text(16, top - 16, "GFLOP/s", 14, "start");
  std::snprintf(label, sizeof label, "Roofline: peak %.1f GFLOP/s, bandwidth %.1f GB/s, ridge %.2f FLOP/B",
                peak_gflops, bandwidth_gb_per_s, ridge);
  doc.text(width / 2, 24, label, 15, "middle");

  // The roof: memory slope up to the ridge, then flat.
  // The slope starts at the left edge, or where it enters the plot from below.
  const double x_max = std::pow(10.0, x_high);
  const double x_start = std::max(std::pow(10.0, x_low), std::pow(10.0, y_low) / bandwidth_gb_per_s);
  doc.polyline({{px(x_start), py(x_start * bandwidth_gb_per_s)},
                {px(ridge), py(peak_gflops)},
                {px(x_max), py(peak_gflops)}},
               "#1f77b4", 2.5);
  doc.line(px(ridge), py(peak_gflops), px(ridge), height - bottom, "#1f77b4", 1, "5 4");

  const char* colours[] = {"#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"};
  size_t i = 0;
  for (const RooflinePoint& point : points) {
    const char* colour = colours[i++ % (sizeof colours / sizeof colours[0])];
    doc.circle(px(point.intensity), py(point.gflops), 5, colour, "#222", 1);
    std::snprintf(label, sizeof label, "%s: %.2f FLOP/B, %.2f GFLOP/s", point.label.c_str(), point.intensity,
                  point.gflops);
    doc.text(px(point.intensity) + 9, py(point.gflops) + 4, label, 12, "start", colour);
  }
  doc.save(path);
}

}  // namespace profiling
}  // namespace tinytorch
