#pragma once
// What every milestone program shares with tito, and the 2-D pictures of milestones 01 and 02.
//
// Talking to tito: a program measures, tito judges. It prints one machine-readable line per gate,
//   TITO_RESULT {"part":1,"metric":"accuracy","value":0.97}
// and tito compares the value with the gate in milestone.json; the program never says "passed".
// Files it draws go to $TITO_OUTPUT_DIR (the learner's <workspace>/milestones/NN_slug/).
//
// Pictures: a scatter of labelled 2-D points with a linear decision boundary w1*x + w2*y + b = 0,
// as ASCII art for the terminal and as an SVG file.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace milestone {

// Full precision, so 0.75 reads back as exactly 0.75.
inline void report_result(int part, const std::string& metric, double value) {
  char number[64];
  std::snprintf(number, sizeof number, "%.17g", value);
  std::cout << "TITO_RESULT {\"part\":" << part << ",\"metric\":\"" << metric << "\",\"value\":" << number << "}"
            << std::endl;  // flushed: tito shows the output live
}

inline std::string output_dir() {
  const char* dir = std::getenv("TITO_OUTPUT_DIR");
  return (dir && *dir) ? dir : ".";
}

// Writes the file and says where; returns false (and says why) when it cannot.
inline bool write_output_file(const std::string& name, const std::string& text) {
  const std::string path = output_dir() + "/" + name;
  std::ofstream out(path);
  out << text;
  if (!out) {
    std::cout << "could not write " << path << "\n";
    return false;
  }
  std::cout << "saved " << path << "\n";
  return true;
}

struct LabelledPoint {
  double x = 0, y = 0;
  int label = 0;         // 0 or 1
  bool correct = true;   // does the model predict the label?
};

// The boundary w1*x + w2*y + b = 0; the model says 1 where w1*x + w2*y + b > 0.
struct LinearBoundary {
  double w1 = 0, w2 = 0, b = 0;
  double side(double x, double y) const { return w1 * x + w2 * y + b; }
};

struct PlotArea {
  double x_min, x_max, y_min, y_max;
};

// The points' bounding box with a margin, so nothing sits on the edge.
inline PlotArea area_around(const std::vector<LabelledPoint>& points, double margin) {
  PlotArea area{points.front().x, points.front().x, points.front().y, points.front().y};
  for (const auto& p : points) {
    area.x_min = std::min(area.x_min, p.x);
    area.x_max = std::max(area.x_max, p.x);
    area.y_min = std::min(area.y_min, p.y);
    area.y_max = std::max(area.y_max, p.y);
  }
  return {area.x_min - margin, area.x_max + margin, area.y_min - margin, area.y_max + margin};
}

// Characters: '#' class 1, 'o' class 0, '!' a point the model gets wrong, '*' the boundary (cells
// whose corners lie on both sides of it), '.' the region the model calls class 1.
inline std::string ascii_plot(const std::vector<LabelledPoint>& points, const LinearBoundary& boundary,
                              const PlotArea& area, int width = 48, int height = 20) {
  const double dx = (area.x_max - area.x_min) / width, dy = (area.y_max - area.y_min) / height;
  std::vector<std::string> rows(height, std::string(width, ' '));
  for (int r = 0; r < height; ++r) {
    const double y_top = area.y_max - r * dy, y_bottom = y_top - dy;
    for (int c = 0; c < width; ++c) {
      const double x_left = area.x_min + c * dx, x_right = x_left + dx;
      const double corners[4] = {boundary.side(x_left, y_top), boundary.side(x_right, y_top),
                                 boundary.side(x_left, y_bottom), boundary.side(x_right, y_bottom)};
      const bool positive = *std::max_element(corners, corners + 4) > 0;
      const bool negative = *std::min_element(corners, corners + 4) <= 0;
      rows[r][c] = (positive && negative) ? '*' : positive ? '.' : ' ';
    }
  }
  for (const auto& p : points) {
    const int c = std::clamp(static_cast<int>((p.x - area.x_min) / dx), 0, width - 1);
    const int r = std::clamp(static_cast<int>((area.y_max - p.y) / dy), 0, height - 1);
    rows[r][c] = !p.correct ? '!' : (p.label == 1 ? '#' : 'o');
  }
  std::string text = "  +" + std::string(width, '-') + "+\n";
  for (const auto& row : rows) text += "  |" + row + "|\n";
  text += "  +" + std::string(width, '-') + "+\n";
  char axes[160];
  std::snprintf(axes, sizeof axes, "  x1 from %.2f to %.2f (left to right), x2 from %.2f to %.2f (bottom to top)\n",
                area.x_min, area.x_max, area.y_min, area.y_max);
  text += axes;
  text += "  # class 1   o class 0   ! predicted wrong   * boundary   . predicted class 1\n";
  return text;
}

inline std::string svg_plot(const std::vector<LabelledPoint>& points, const LinearBoundary& boundary,
                            const PlotArea& area, const std::string& title) {
  const double size = 480, pad = 40;
  auto px = [&](double x) { return pad + (x - area.x_min) / (area.x_max - area.x_min) * size; };
  auto py = [&](double y) { return pad + (area.y_max - y) / (area.y_max - area.y_min) * size; };
  char buffer[512];
  std::string svg;
  std::snprintf(buffer, sizeof buffer,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\">\n"
                "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
                "<text x=\"%.0f\" y=\"24\" font-size=\"16\">%s</text>\n"
                "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#888\"/>\n"
                "<clipPath id=\"plot\"><rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\"/></clipPath>\n",
                size + 2 * pad, size + 2 * pad, pad, title.c_str(), pad, pad, size, size, pad, pad, size, size);
  svg += buffer;
  // The boundary as a long segment: from the point of the line nearest the centre, both ways.
  const double norm2 = boundary.w1 * boundary.w1 + boundary.w2 * boundary.w2;
  if (norm2 > 0) {
    const double cx = (area.x_min + area.x_max) / 2, cy = (area.y_min + area.y_max) / 2;
    const double t = boundary.side(cx, cy) / norm2;
    const double x0 = cx - t * boundary.w1, y0 = cy - t * boundary.w2;
    const double reach = 4 * ((area.x_max - area.x_min) + (area.y_max - area.y_min)) / std::sqrt(norm2);
    std::snprintf(buffer, sizeof buffer,
                  "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#d33\" stroke-width=\"2\" "
                  "clip-path=\"url(#plot)\"/>\n",
                  px(x0 - reach * boundary.w2), py(y0 + reach * boundary.w1), px(x0 + reach * boundary.w2),
                  py(y0 - reach * boundary.w1));
    svg += buffer;
  }
  for (const auto& p : points) {
    const char* fill = p.label == 1 ? "#1f77b4" : "white";
    const char* stroke = p.correct ? "#1f77b4" : "#d33";
    std::snprintf(buffer, sizeof buffer,
                  "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"5\" fill=\"%s\" stroke=\"%s\" stroke-width=\"2\"/>\n", px(p.x),
                  py(p.y), fill, stroke);
    svg += buffer;
  }
  std::snprintf(buffer, sizeof buffer,
                "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\">filled: class 1, hollow: class 0, red ring: predicted "
                "wrong, red line: w1*x1 + w2*x2 + b = 0</text>\n</svg>\n",
                pad, size + 2 * pad - 12);
  svg += buffer;
  return svg;
}

}  // namespace milestone
