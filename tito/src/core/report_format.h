#pragma once
// The pieces every instructor report shares (grading_reports.h, insights.h): CSV fields a spreadsheet
// cannot run, HTML-escaped text and small SVG bar charts that need no script or external file.
#include <string>
#include <vector>

namespace tito {

// A CSV field, quoted when it has to be (RFC 4180), and defused when a spreadsheet could read it as a
// formula (a leading =, +, -, @, TAB or carriage return, even after spaces, gets a leading quote).
std::string csv_field(const std::string& text);

// Text for HTML: & < > " ' escaped (as tinytorch/svg.h escapes XML).
std::string html_escape(const std::string& text);

struct ChartBar {
  std::string label;    // under the bar
  double value = 0;     // its height, relative to the tallest
  std::string tooltip;  // shown on hover (<title>)
  std::string shown;    // over the bar; "" for none
};

// The CSS of the instructor's HTML reports (grading, insights): tables, charts side by side, notes.
inline constexpr const char* kReportStyle = R"(<style>
body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:80em}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#f4f4f4}.bad{color:#a00}.ok{color:#070}.note{color:#555}.charts{display:flex;flex-wrap:wrap;gap:1.5em}
.chart{border:1px solid #ddd;padding:.6em}pre{background:#f8f8f8;padding:.5em;white-space:pre-wrap;max-width:60em}
</style>)";

// A bar chart as inline SVG, with `description` as its accessible name and `axis` under it.
std::string bar_chart_svg(const std::vector<ChartBar>& bars, const std::string& description, const std::string& axis);

}  // namespace tito
