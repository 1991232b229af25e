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

// A bar chart as inline SVG, with `description` as its accessible name and `axis` under it.
std::string bar_chart_svg(const std::vector<ChartBar>& bars, const std::string& description, const std::string& axis);

}  // namespace tito
