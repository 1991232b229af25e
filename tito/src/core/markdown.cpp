#include "core/markdown.h"

#include <algorithm>
#include <regex>
#include <sstream>
#include <vector>

namespace tito {
namespace {

std::size_t display_width(const std::string& text) {
  // Counts UTF-8 code points (continuation bytes are 10xxxxxx): good enough for lesson text.
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// Inline spans: `code`, **bold**, *emphasis* / _emphasis_, [text](url).
std::string render_inline(const std::string& text, const Terminal& style) {
  static const std::regex kCode("`([^`]+)`");
  static const std::regex kBold(R"(\*\*([^*]+)\*\*)");
  static const std::regex kEmphasis(R"((^|[^\w*])[*_]([^*_\s][^*_]*)[*_](?=$|[^\w*]))");
  static const std::regex kLink(R"(\[([^\]]+)\]\(([^)]+)\))");
  std::string out;
  // Code spans first, protected from the other rules by rendering the pieces between them separately.
  auto begin = std::sregex_iterator(text.begin(), text.end(), kCode);
  std::size_t last = 0;
  auto render_plain = [&](const std::string& piece) {
    std::string result = std::regex_replace(piece, kLink, "$1 ($2)");
    std::string bolded;
    std::size_t position = 0;
    for (auto it = std::sregex_iterator(result.begin(), result.end(), kBold); it != std::sregex_iterator(); ++it) {
      bolded += result.substr(position, it->position() - position) + style.bold((*it)[1].str());
      position = it->position() + it->length();
    }
    bolded += result.substr(position);
    std::string emphasised;
    position = 0;
    for (auto it = std::sregex_iterator(bolded.begin(), bolded.end(), kEmphasis); it != std::sregex_iterator(); ++it) {
      emphasised += bolded.substr(position, it->position() - position) + (*it)[1].str() +
                    (style.colour() ? "\033[3m" + (*it)[2].str() + "\033[0m" : (*it)[2].str());
      position = it->position() + it->length();
    }
    return emphasised + bolded.substr(position);
  };
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    out += render_plain(text.substr(last, it->position() - last));
    out += style.colour() ? style.cyan((*it)[1].str()) : "`" + (*it)[1].str() + "`";
    last = it->position() + it->length();
  }
  return out + render_plain(text.substr(last));
}

std::vector<std::string> split_row(const std::string& row) {
  std::string inner = row;
  inner.erase(0, inner.find_first_not_of(" \t"));
  if (!inner.empty() && inner.front() == '|') inner.erase(0, 1);
  if (!inner.empty() && inner.back() == '|') inner.pop_back();
  std::vector<std::string> cells;
  std::string cell;
  for (std::size_t i = 0; i < inner.size(); ++i) {
    if (inner[i] == '\\' && i + 1 < inner.size() && inner[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (inner[i] == '|') {
      cells.push_back(cell);
      cell.clear();
    } else {
      cell += inner[i];
    }
  }
  cells.push_back(cell);
  for (auto& c : cells) {
    c.erase(0, c.find_first_not_of(" \t"));
    c.erase(c.find_last_not_of(" \t") + 1);
  }
  return cells;
}

bool is_separator_row(const std::vector<std::string>& cells) {
  static const std::regex kSeparator(R"(:?-{3,}:?)");
  return std::all_of(cells.begin(), cells.end(), [](const std::string& c) { return std::regex_match(c, kSeparator); });
}

std::string render_table(const std::vector<std::string>& rows, const Terminal& style) {
  std::vector<std::vector<std::string>> cells;
  bool has_header = false;
  for (const auto& row : rows) {
    auto parsed = split_row(row);
    if (is_separator_row(parsed)) {
      has_header = cells.size() == 1;
      continue;
    }
    cells.push_back(parsed);
  }
  std::size_t columns = 0;
  for (const auto& row : cells) columns = std::max(columns, row.size());
  Terminal plain;  // default-constructed: no colour, used only to measure widths
  std::vector<std::size_t> widths(columns, 0);
  for (const auto& row : cells) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], display_width(render_inline(row[c], plain)));
  }
  std::string out;
  for (std::size_t r = 0; r < cells.size(); ++r) {
    std::string line = "  ";
    for (std::size_t c = 0; c < columns; ++c) {
      std::string text = c < cells[r].size() ? cells[r][c] : "";
      std::string shown = render_inline(text, style);
      if (r == 0 && has_header) shown = style.bold(render_inline(text, plain));
      line += shown + std::string(widths[c] - display_width(render_inline(text, plain)), ' ');
      if (c + 1 < columns) line += "  ";
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
    if (r == 0 && has_header) {
      std::string rule = "  ";
      for (std::size_t c = 0; c < columns; ++c) rule += std::string(widths[c], '-') + (c + 1 < columns ? "  " : "");
      out += style.dim(rule) + "\n";
    }
  }
  return out;
}

bool is_table_line(const std::string& line) {
  const std::size_t first = line.find_first_not_of(" \t");
  return first != std::string::npos && line[first] == '|';
}

}  // namespace

std::string render_markdown(const std::string& markdown, const Terminal& style) {
  static const std::regex kHeading(R"(^(#{1,6})\s+(.*?)\s*#*\s*$)");
  static const std::regex kBullet(R"(^(\s*)[-*+]\s+(.*)$)");
  static const std::regex kNumbered(R"(^(\s*)(\d+)[.)]\s+(.*)$)");
  static const std::regex kQuote(R"(^\s*>\s?(.*)$)");
  static const std::regex kRule(R"(^\s*([-*_])(\s*\1){2,}\s*$)");

  std::istringstream in(markdown);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }

  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    std::smatch match;
    if (line.rfind("```", 0) == 0 || line.rfind("~~~", 0) == 0) {
      const std::string fence = line.substr(0, 3);
      for (++i; i < lines.size() && lines[i].rfind(fence, 0) != 0; ++i) out += "    " + style.cyan(lines[i]) + "\n";
      continue;
    }
    if (is_table_line(line)) {
      std::vector<std::string> table;
      for (; i < lines.size() && is_table_line(lines[i]); ++i) table.push_back(lines[i]);
      --i;
      out += render_table(table, style);
      continue;
    }
    if (std::regex_match(line, match, kHeading)) {
      const std::size_t level = match[1].length();
      const std::string title = render_inline(match[2].str(), style);
      if (level == 1) {
        out += style.bold(style.cyan(title)) + "\n" + style.cyan(std::string(display_width(match[2].str()), '=')) + "\n";
      } else if (level == 2) {
        out += style.bold(style.cyan(title)) + "\n" + style.dim(std::string(display_width(match[2].str()), '-')) + "\n";
      } else {
        out += style.bold(title) + "\n";
      }
    } else if (std::regex_match(line, kRule)) {
      out += style.dim(std::string(60, '-')) + "\n";
    } else if (std::regex_match(line, match, kBullet)) {
      out += match[1].str() + "  " + style.bullet() + " " + render_inline(match[2].str(), style) + "\n";
    } else if (std::regex_match(line, match, kNumbered)) {
      out += match[1].str() + "  " + match[2].str() + ". " + render_inline(match[3].str(), style) + "\n";
    } else if (std::regex_match(line, match, kQuote)) {
      out += "  " + style.dim("|") + " " + render_inline(match[1].str(), style) + "\n";
    } else if (line.rfind("    ", 0) == 0 || line.rfind("\t", 0) == 0) {
      out += "    " + style.cyan(line.substr(line.find_first_not_of(" \t"))) + "\n";  // indented code block
    } else {
      out += render_inline(line, style) + "\n";
    }
  }
  return out;
}

}  // namespace tito

namespace tito {

std::vector<std::string> markdown_headings(const std::string& markdown) {
  static const std::regex kHeading(R"(^#{1,6}[ \t]+(.*?)[ \t#]*$)");
  std::vector<std::string> headings;
  std::istringstream in(markdown);
  bool in_fence = false;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto first = line.find_first_not_of(' ');
    if (first != std::string::npos && first < 4 && (line.compare(first, 3, "```") == 0 || line.compare(first, 3, "~~~") == 0)) {
      in_fence = !in_fence;
      continue;
    }
    std::smatch match;
    if (in_fence || !std::regex_match(line, match, kHeading)) continue;
    std::string text = match[1].str();
    text.erase(std::remove(text.begin(), text.end(), '`'), text.end());
    headings.push_back(text);
  }
  return headings;
}

}  // namespace tito
