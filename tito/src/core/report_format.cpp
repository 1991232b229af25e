#include "core/report_format.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tinytorch/svg.h"

namespace tito {

std::string csv_field(const std::string& text) {
  std::string value = text;
  const auto first = value.find_first_not_of(' ');
  if (first != std::string::npos && std::string("=+-@\t\r").find(value[first]) != std::string::npos) value = "'" + value;
  if (value.find_first_of(",\"\n\r") == std::string::npos) return value;
  std::string quoted = "\"";
  for (char c : value) quoted += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// The framework's SVG writer escapes the same five characters for XML, which is what HTML text and
// attributes need too (&apos; is HTML5).
std::string html_escape(const std::string& text) { return tinytorch::svg::escape(text); }

std::string bar_chart_svg(const std::vector<ChartBar>& bars, const std::string& description, const std::string& axis) {
  const int bar = 28, gap = 2, base = 115, tallest_px = 90;
  const int width = std::max(120, 20 + static_cast<int>(bars.size()) * (bar + gap));
  const int height = 140;
  double tallest = 0;
  for (const auto& entry : bars) tallest = std::max(tallest, entry.value);
  if (tallest <= 0) tallest = 1;
  std::string svg = fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" role="img" aria-label="{}">)",
                                width, height, html_escape(description));
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const ChartBar& entry = bars[i];
    const int h = static_cast<int>(std::lround(tallest_px * std::max(0.0, entry.value) / tallest));
    const int x = 10 + static_cast<int>(i) * (bar + gap);
    svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="#4a7ebb"><title>{}</title></rect>)", x, base - h, bar,
                       h, html_escape(entry.tooltip));
    if (!entry.shown.empty())
      svg += fmt::format(R"(<text x="{}" y="{}" font-size="10" text-anchor="middle">{}</text>)", x + bar / 2, base - h - 3,
                         html_escape(entry.shown));
    svg += fmt::format(R"(<text x="{}" y="{}" font-size="9" text-anchor="middle">{}</text>)", x + bar / 2, base + 12,
                       html_escape(entry.label));
  }
  svg += fmt::format(R"(<line x1="8" y1="{}" x2="{}" y2="{}" stroke="#888"/>)", base, width - 8, base);
  svg += fmt::format(R"(<text x="{}" y="{}" font-size="9" text-anchor="middle">{}</text></svg>)", width / 2, height - 2,
                     html_escape(axis));
  return svg;
}

}  // namespace tito
