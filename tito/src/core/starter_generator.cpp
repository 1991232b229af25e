#include "core/starter_generator.h"

#include <regex>
#include <sstream>

#include <fmt/format.h>

namespace tito {
namespace {

// Loose patterns find anything that looks like a marker, so a typo in the attributes is reported
// rather than silently leaving a solution in the starter.
const std::regex kBeginPattern(R"(^([ \t]*)//\s*BEGIN\s+SOLUTION\b(.*)$)");
const std::regex kEndPattern(R"(^[ \t]*//\s*END\s+SOLUTION\b.*$)");

std::string attribute(const std::string& attributes, const std::string& key) {
  std::regex pattern("(^|\\s)" + key + R"(\s*=\s*"([^"]*)\")");
  std::smatch match;
  if (std::regex_search(attributes, match, pattern)) return match[2].str();
  return {};
}

std::vector<std::string> split_lines(const std::string& source) {
  std::vector<std::string> lines;
  std::istringstream in(source);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

struct Scan {
  std::vector<SolutionRegion> regions;
  std::vector<std::string> indents;  // of each region's BEGIN line
};

Scan scan(const std::vector<std::string>& lines, const std::string& file_label) {
  Scan result;
  bool inside = false;
  for (int index = 0; index < static_cast<int>(lines.size()); ++index) {
    const int line_number = index + 1;
    std::smatch match;
    if (std::regex_match(lines[index], match, kBeginPattern)) {
      if (inside) {
        throw MarkerError(file_label, line_number,
                          fmt::format("BEGIN SOLUTION inside the region opened at line {} (regions cannot nest)",
                                      result.regions.back().begin_line));
      }
      SolutionRegion region;
      region.name = attribute(match[2].str(), "name");
      region.lesson = attribute(match[2].str(), "lesson");
      region.begin_line = line_number;
      if (region.name.empty()) throw MarkerError(file_label, line_number, "BEGIN SOLUTION has no name=\"...\" attribute");
      if (region.lesson.empty()) throw MarkerError(file_label, line_number, "BEGIN SOLUTION has no lesson=\"...\" attribute");
      result.regions.push_back(region);
      result.indents.push_back(match[1].str());
      inside = true;
    } else if (std::regex_match(lines[index], kEndPattern)) {
      if (!inside) throw MarkerError(file_label, line_number, "END SOLUTION without a BEGIN SOLUTION before it");
      result.regions.back().end_line = line_number;
      inside = false;
    }
  }
  if (inside) {
    throw MarkerError(file_label, result.regions.back().begin_line, "BEGIN SOLUTION is never closed by END SOLUTION");
  }
  return result;
}

}  // namespace

MarkerError::MarkerError(const std::string& file_, int line_, const std::string& problem)
    : std::runtime_error(fmt::format("{}:{}: {}", file_, line_, problem)), file(file_), line(line_) {}

std::vector<SolutionRegion> scan_solution_regions(const std::string& source, const std::string& file_label) {
  return scan(split_lines(source), file_label).regions;
}

std::string make_starter(const std::string& source, const std::string& file_label, const std::string& module_folder,
                         const std::string& header) {
  const std::vector<std::string> lines = split_lines(source);
  const Scan found = scan(lines, file_label);
  std::string out = header;
  std::size_t next_region = 0;
  for (int index = 0; index < static_cast<int>(lines.size()); ++index) {
    const int line_number = index + 1;
    if (next_region < found.regions.size() && line_number == found.regions[next_region].begin_line) {
      const SolutionRegion& region = found.regions[next_region];
      out += fmt::format("{}throw tinytorch::NotImplemented(\"{}\", \"{}\", \"{}\");\n", found.indents[next_region],
                         region.name, module_folder, region.lesson);
      index = region.end_line - 1;  // skip through END SOLUTION
      ++next_region;
      continue;
    }
    out += lines[index] + "\n";
  }
  return out;
}

}  // namespace tito
