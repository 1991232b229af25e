#pragma once
// What every milestone program shares with tito, and the 2-D pictures of milestones 01 and 02.
//
// Talking to tito: a program measures, tito judges. It prints one machine-readable line per gate,
//   TITO_RESULT {"part":1,"metric":"accuracy","value":0.97}
// and tito compares the value with the gate in milestone.json; the program never says "passed".
// Files it draws go to $TITO_OUTPUT_DIR (the learner's <workspace>/milestones/NN_slug/).
//
// A part that cannot run here (an optional dataset is not installed) says so with
//   TITO_RESULT {"part":3,"skipped":true,"reason":"... sudo apt-get install ..."}
// and tito shows it as skipped; a required part cannot be skipped.
//
// Pictures: a scatter of labelled 2-D points with a decision boundary (a line w1*x + w2*y + b = 0,
// or any function's zero level), as ASCII art for the terminal and as an SVG file; grey images and
// confusion matrices as text (milestone 03); rows of small images as SVG, such as a convolution's
// filters and feature maps (milestone 04).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "tinytorch/autograd/profiler.h"
#include "tinytorch/errors.h"
#include "tinytorch/svg.h"  // the SVG primitives the framework's training curves use too
#include "tinytorch/utils/json.h"

namespace milestone {

// `tito milestone run NN --profile trace.json` sets $TINYTORCH_PROFILE to a path in the output
// folder: the whole run, from before main to exit, is recorded as a Chrome trace (module 14).
inline tinytorch::autograd::profiler::RecordProfile* profile_from_environment() {
  const char* path = std::getenv("TINYTORCH_PROFILE");
  if (path == nullptr || *path == '\0') return nullptr;
  // An inline variable's initializer may run before this file's <iostream> set up std::cout (Clang
  // does so): an ios_base::Init object makes the standard streams usable here.
  static const std::ios_base::Init streams_ready;
  try {
    auto* profile = new tinytorch::autograd::profiler::RecordProfile(std::string(path));
    std::cout << "profiling every op to " << path << " (open it in ui.perfetto.dev)" << std::endl;
    return profile;
  } catch (const tinytorch::Error& error) {  // before main: say why and run unprofiled
    std::cout << "not profiling: " << error.what() << std::endl;
    return nullptr;
  }
}
struct ProfileForTheRun {
  tinytorch::autograd::profiler::RecordProfile* profile = profile_from_environment();
  ~ProfileForTheRun() { delete profile; }  // writes the trace at exit
};
inline ProfileForTheRun profile_for_the_run;

// tito shows a program's output as it appears, but stdout into a file is block-buffered: a part that
// trains for minutes with printf would show nothing until its end (milestone 05 part 2 printed nothing for
// ten minutes on plain-loop kernels). Line buffering, set before main prints anything, keeps it live.
inline const bool stdout_line_buffered = std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ) == 0;

// Full precision, so 0.75 reads back as exactly 0.75.
inline void report_result(int part, const std::string& metric, double value) {
  char number[64];
  std::snprintf(number, sizeof number, "%.17g", value);
  std::cout << "TITO_RESULT {\"part\":" << part << ",\"metric\":" << tinytorch::utils::json_quoted(metric)
            << ",\"value\":" << number << "}" << std::endl;  // flushed: tito shows the output live
}

// 101770 -> "101,770"
inline std::string with_commas(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value), text;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return value < 0 ? "-" + text : text;
}

// {2, 8, 6, 6} -> "[2, 8, 6, 6]", as LibTorch prints sizes.
inline std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

inline void report_skipped(int part, const std::string& reason) {
  std::cout << "TITO_RESULT {\"part\":" << part << ",\"skipped\":true,\"reason\":" << tinytorch::utils::json_quoted(reason) << "}"
            << std::endl;
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
// `side(x, y)` is any function whose sign is the model's answer: > 0 means class 1. It is called
// once per cell corner, (width + 1) * (height + 1) times.
template <typename SideFunction>
std::string ascii_region_plot(const std::vector<LabelledPoint>& points, SideFunction side, const PlotArea& area,
                              int width = 48, int height = 20) {
  const double dx = (area.x_max - area.x_min) / width, dy = (area.y_max - area.y_min) / height;
  std::vector<std::vector<double>> corner(height + 1, std::vector<double>(width + 1));  // [row][column], top row first
  for (int r = 0; r <= height; ++r)
    for (int c = 0; c <= width; ++c) corner[r][c] = side(area.x_min + c * dx, area.y_max - r * dy);
  std::vector<std::string> rows(height, std::string(width, ' '));
  for (int r = 0; r < height; ++r) {
    for (int c = 0; c < width; ++c) {
      const double corners[4] = {corner[r][c], corner[r][c + 1], corner[r + 1][c], corner[r + 1][c + 1]};
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

inline std::string ascii_plot(const std::vector<LabelledPoint>& points, const LinearBoundary& boundary,
                              const PlotArea& area, int width = 48, int height = 20) {
  return ascii_region_plot(points, [&](double x, double y) { return boundary.side(x, y); }, area, width, height);
}

inline std::string svg_plot(const std::vector<LabelledPoint>& points, const LinearBoundary& boundary,
                            const PlotArea& area, const std::string& title) {
  const double size = 480, pad = 40;
  const tinytorch::svg::Scale px{area.x_min, area.x_max, pad, pad + size};
  const tinytorch::svg::Scale py{area.y_min, area.y_max, pad + size, pad};  // y grows upwards
  tinytorch::svg::Document doc(size + 2 * pad, size + 2 * pad);
  doc.text(pad, 24, title, 16);
  doc.rect(pad, pad, size, size, "#888");
  char buffer[256];
  std::snprintf(buffer, sizeof buffer,
                "<clipPath id=\"plot\"><rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\"/></clipPath>", pad,
                pad, size, size);
  doc.raw(buffer);
  // The boundary as a long segment: from the point of the line nearest the centre, both ways.
  const double norm2 = boundary.w1 * boundary.w1 + boundary.w2 * boundary.w2;
  if (norm2 > 0) {
    const double cx = (area.x_min + area.x_max) / 2, cy = (area.y_min + area.y_max) / 2;
    const double t = boundary.side(cx, cy) / norm2;
    const double x0 = cx - t * boundary.w1, y0 = cy - t * boundary.w2;
    const double reach = 4 * ((area.x_max - area.x_min) + (area.y_max - area.y_min)) / std::sqrt(norm2);
    std::snprintf(buffer, sizeof buffer,
                  "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#d33\" stroke-width=\"2\" "
                  "clip-path=\"url(#plot)\"/>",
                  px(x0 - reach * boundary.w2), py(y0 + reach * boundary.w1), px(x0 + reach * boundary.w2),
                  py(y0 - reach * boundary.w1));
    doc.raw(buffer);
  }
  for (const auto& p : points) {
    doc.circle(px(p.x), py(p.y), 5, p.label == 1 ? "#1f77b4" : "white", p.correct ? "#1f77b4" : "#d33");
  }
  doc.text(pad, size + 2 * pad - 12,
           "filled: class 1, hollow: class 0, red ring: predicted wrong, red line: w1*x1 + w2*x2 + b = 0", 12);
  return doc.str();
}

// A grey image (values in [0, 1], row-major) as text, two characters per pixel so that it keeps
// its shape in a terminal whose characters are twice as tall as wide.
inline std::vector<std::string> grey_image_rows(const std::vector<float>& pixels, int rows, int columns) {
  static const std::string shades = " .:-=+*#%@";  // dark to bright
  std::vector<std::string> lines;
  for (int r = 0; r < rows; ++r) {
    std::string line;
    for (int c = 0; c < columns; ++c) {
      const float v = std::clamp(pixels[static_cast<size_t>(r * columns + c)], 0.0f, 1.0f);
      const char shade = shades[static_cast<size_t>(std::lround(v * (shades.size() - 1)))];
      line += std::string(2, shade);
    }
    lines.push_back(line);
  }
  return lines;
}

// Several images next to each other, each framed, with a caption underneath.
inline std::string images_side_by_side(const std::vector<std::vector<float>>& images, int rows, int columns,
                                       const std::vector<std::string>& captions) {
  const size_t width = static_cast<size_t>(2 * columns);
  std::vector<std::vector<std::string>> drawn;
  for (const auto& image : images) drawn.push_back(grey_image_rows(image, rows, columns));
  std::string text;
  auto border = [&] {
    text += " ";
    for (size_t i = 0; i < drawn.size(); ++i) text += " +" + std::string(width, '-') + "+";
    text += "\n";
  };
  border();
  for (int r = 0; r < rows; ++r) {
    text += " ";
    for (const auto& image : drawn) text += " |" + image[static_cast<size_t>(r)] + "|";
    text += "\n";
  }
  border();
  text += " ";
  for (size_t i = 0; i < drawn.size(); ++i) {
    std::string caption = i < captions.size() ? captions[i] : "";
    caption.resize(width + 2, ' ');
    text += " " + caption;
  }
  return text + "\n";
}

// counts[true_class][predicted_class], printed with the classes' names, a recall column (the share
// of each true class the model gets right) and the diagonal marked.
inline std::string confusion_matrix_text(const std::vector<std::vector<int64_t>>& counts,
                                         const std::vector<std::string>& names) {
  size_t name_width = 4;
  for (const auto& name : names) name_width = std::max(name_width, name.size() + 1);
  char cell[64];
  std::string text = "  " + std::string(name_width, ' ') + "  predicted ->\n";
  text += "  " + std::string(name_width, ' ');
  for (size_t c = 0; c < counts.size(); ++c) {
    std::snprintf(cell, sizeof cell, " %4zu ", c);
    text += cell;
  }
  text += "  right\n";
  for (size_t r = 0; r < counts.size(); ++r) {
    std::string name = names[r];
    name.resize(name_width, ' ');
    text += "  " + name;
    int64_t row_total = 0;
    for (size_t c = 0; c < counts[r].size(); ++c) {
      row_total += counts[r][c];
      if (r == c) std::snprintf(cell, sizeof cell, "[%4lld]", static_cast<long long>(counts[r][c]));
      else if (counts[r][c] == 0) std::snprintf(cell, sizeof cell, "    . ");
      else std::snprintf(cell, sizeof cell, " %4lld ", static_cast<long long>(counts[r][c]));
      text += cell;
    }
    std::snprintf(cell, sizeof cell, " %5.1f%%\n", row_total ? 100.0 * counts[r][r] / row_total : 0.0);
    text += cell;
  }
  return text + "  rows: the true class; [n] on the diagonal: right answers; '.' zero\n";
}

// One small image of an SVG picture: row-major values, drawn cell by cell.
struct ImagePanel {
  std::vector<float> values;
  int rows = 0, columns = 0;
  std::string caption;
};

// A heading and the panels drawn side by side under it. Signed rows (filters: weights can be
// negative) use blue for negative, white for 0 and red for positive, scaled to the panel's largest
// magnitude; unsigned rows (images, feature maps after ReLU) use grey from black (the panel's
// smallest value) to white (its largest), so every panel shows its own pattern.
struct ImagePanelRow {
  std::string heading;
  std::vector<ImagePanel> panels;
  bool signed_values = false;
};

inline std::string svg_panel_rows(const std::string& title, const std::vector<ImagePanelRow>& rows,
                                  double panel_size = 72) {
  const double pad = 20, gap = 12, heading_height = 22, caption_height = 16;
  size_t most_panels = 1;
  for (const auto& row : rows) most_panels = std::max(most_panels, row.panels.size());
  const double width = 2 * pad + static_cast<double>(most_panels) * (panel_size + gap);
  const double row_height = heading_height + panel_size + caption_height + gap;
  tinytorch::svg::Document doc(width, 50 + static_cast<double>(rows.size()) * row_height);
  doc.text(pad, 28, title, 16);
  double top = 50;
  char colour[8];
  for (const auto& row : rows) {
    doc.text(pad, top + 14, row.heading, 13);
    double left = pad;
    for (const auto& panel : row.panels) {
      float low = 0, high = 0;
      if (!panel.values.empty()) {
        low = *std::min_element(panel.values.begin(), panel.values.end());
        high = *std::max_element(panel.values.begin(), panel.values.end());
      }
      const float magnitude = std::max(std::fabs(low), std::fabs(high));
      const double cell_w = panel_size / std::max(1, panel.columns), cell_h = panel_size / std::max(1, panel.rows);
      for (int r = 0; r < panel.rows; ++r) {
        for (int c = 0; c < panel.columns; ++c) {
          const float v = panel.values[static_cast<size_t>(r * panel.columns + c)];
          int red, green, blue;
          if (row.signed_values) {
            const float t = magnitude > 0 ? v / magnitude : 0.0f;  // -1 .. 1
            const int fade = static_cast<int>(std::lround(255 * (1 - std::fabs(t))));
            red = t < 0 ? fade : 255;
            green = fade;
            blue = t > 0 ? fade : 255;
          } else {
            const float t = high > low ? (v - low) / (high - low) : 0.0f;
            red = green = blue = static_cast<int>(std::lround(255 * t));
          }
          std::snprintf(colour, sizeof colour, "#%02x%02x%02x", red, green, blue);
          doc.rect(left + c * cell_w, top + heading_height + r * cell_h, cell_w, cell_h, "none", colour);
        }
      }
      doc.rect(left, top + heading_height, panel_size, panel_size, "#888");
      doc.text(left, top + heading_height + panel_size + 13, panel.caption, 11);
      left += panel_size + gap;
    }
    top += row_height;
  }
  return doc.str();
}

}  // namespace milestone
