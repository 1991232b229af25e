#pragma once
// A few SVG primitives for the pictures TinyTorch draws (training curves, the milestones' decision
// boundaries): a Document that collects elements and a Scale that maps data onto pixels. SVG is
// plain XML text, so a chart needs no library: open it in any browser.
//
//   svg::Document doc(640, 360);
//   svg::Scale x{0, 10, 40, 600}, y{0, 1, 320, 40};          // y grows upwards: pixel range reversed
//   doc.polyline({{x(0), y(0.9)}, {x(10), y(0.1)}}, "#1f77b4");
//   doc.text(40, 24, "loss", 16);
//   doc.save("loss.svg");
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "tinytorch/errors.h"

namespace tinytorch {
namespace svg {

// Linear map from [domain_min, domain_max] to [range_min, range_max]; a zero-width domain maps to
// the middle of the range (one epoch, a constant curve).
struct Scale {
  double domain_min, domain_max, range_min, range_max;
  double operator()(double value) const {
    const double width = domain_max - domain_min;
    if (width == 0) return (range_min + range_max) / 2;
    return range_min + (value - domain_min) / width * (range_max - range_min);
  }
};

// Text with the five XML special characters escaped.
inline std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

class Document {
 public:
  // A white canvas of width x height pixels.
  Document(double width, double height) {
    add("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\">",
        width, height);
    body_ += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  }

  // anchor: "start", "middle" or "end" (where x is, relative to the text).
  void text(double x, double y, const std::string& content, double size = 12, const char* anchor = "start",
            const char* fill = "#222") {
    add("<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.0f\" text-anchor=\"%s\" fill=\"%s\">", x, y, size, anchor, fill);
    body_.pop_back();  // the text goes on the same line as its tag
    body_ += escape(content) + "</text>\n";
  }
  void rect(double x, double y, double width, double height, const char* stroke, const char* fill = "none") {
    add("<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" stroke=\"%s\"/>", x, y, width,
        height, fill, stroke);
  }
  // dash: an SVG stroke-dasharray such as "6 4", or "" for a solid line.
  void line(double x1, double y1, double x2, double y2, const char* stroke, double width = 1,
            const char* dash = "") {
    add("<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"%.1f\"%s%s%s/>", x1, y1,
        x2, y2, stroke, width, *dash ? " stroke-dasharray=\"" : "", dash, *dash ? "\"" : "");
  }
  void polyline(const std::vector<std::pair<double, double>>& points, const char* stroke, double width = 2,
                const char* dash = "") {
    std::string coordinates;
    char pair[64];
    for (const auto& [x, y] : points) {
      std::snprintf(pair, sizeof pair, "%s%.2f,%.2f", coordinates.empty() ? "" : " ", x, y);
      coordinates += pair;
    }
    body_ += "<polyline points=\"" + coordinates + "\" fill=\"none\"";
    add(" stroke=\"%s\" stroke-width=\"%.1f\"%s%s%s/>", stroke, width, *dash ? " stroke-dasharray=\"" : "", dash,
        *dash ? "\"" : "");
  }
  void circle(double cx, double cy, double r, const char* fill, const char* stroke, double stroke_width = 2) {
    add("<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.1f\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%.1f\"/>", cx, cy, r,
        fill, stroke, stroke_width);
  }
  // Any other element, written as given (it must be well-formed XML).
  void raw(const std::string& element) { body_ += element + "\n"; }

  // The finished document.
  std::string str() const { return body_ + "</svg>\n"; }

  // Writes str() to path; throws tinytorch::Error naming the path when it cannot.
  void save(const std::string& path) const {
    std::ofstream out(path, std::ios::binary);
    out << str();
    out.close();
    TT_CHECK(out.good(), "svg: could not write '", path,
             "'; check that its directory exists and is writable");
  }

 private:
  template <typename... Args>
  void add(const char* format, Args... args) {
    char element[512];
    std::snprintf(element, sizeof element, format, args...);
    body_ += element;
    body_ += '\n';
  }

  std::string body_;
};

}  // namespace svg
}  // namespace tinytorch
