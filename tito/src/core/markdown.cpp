// The parse (cmark-gfm), the terminal view and the headings of a lesson. The HTML page is in markdown_html.cpp.
#include "core/markdown.h"

#include <algorithm>
#include <cctype>
#include <mutex>
#include <regex>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>

#include "core/markdown_tree.h"

namespace tito::markdown_tree {

Document parse(const std::string& markdown) {
  static std::once_flag registered;
  std::call_once(registered, cmark_gfm_core_extensions_ensure_registered);
  // Double tildes only: lessons write "~5 ms" for "about 5 ms", which a single-tilde rule would strike out.
  std::unique_ptr<cmark_parser, void (*)(cmark_parser*)> parser(cmark_parser_new(CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE),
                                                                cmark_parser_free);
  for (const char* name : {"table", "strikethrough", "autolink"}) {
    if (cmark_syntax_extension* extension = cmark_find_syntax_extension(name))
      cmark_parser_attach_syntax_extension(parser.get(), extension);
  }
  cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
  return Document(cmark_parser_finish(parser.get()));
}

Kind extension_kind(cmark_node* node) {
  const std::string name = cmark_node_get_type_string(node);
  if (name == "table") return Kind::Table;
  if (name == "table_row" || name == "table_header") return Kind::TableRow;
  if (name == "table_cell") return Kind::TableCell;
  if (name == "strikethrough") return Kind::Strikethrough;
  return Kind::Other;
}

std::string literal(cmark_node* node) {
  const char* text = cmark_node_get_literal(node);
  return text ? text : "";
}

bool is_comment_block(cmark_node* node) {
  if (cmark_node_get_type(node) != CMARK_NODE_HTML_BLOCK) return false;
  std::string text = literal(node);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  const std::size_t start = text.find_first_not_of(" \t");
  return start != std::string::npos && text.compare(start, 4, "<!--") == 0 && text.size() >= start + 7 &&
         text.compare(text.size() - 3, 3, "-->") == 0 && text.find("-->", start + 4) == text.size() - 3;
}

std::string plain_text(cmark_node* node) {
  std::string text;
  for (cmark_node* child = cmark_node_first_child(node); child; child = cmark_node_next(child)) {
    switch (cmark_node_get_type(child)) {
      case CMARK_NODE_TEXT:
      case CMARK_NODE_CODE:
      case CMARK_NODE_HTML_INLINE: text += literal(child); break;
      case CMARK_NODE_SOFTBREAK:
      case CMARK_NODE_LINEBREAK: text += ' '; break;
      default: text += plain_text(child);  // emphasis, links, images (their alt text)
    }
  }
  return text;
}

}  // namespace tito::markdown_tree

namespace tito {
namespace {

using namespace markdown_tree;
using Lines = std::vector<std::string>;

std::size_t display_width(const std::string& text) {
  // Counts UTF-8 code points (continuation bytes are 10xxxxxx) outside "\033[...m" colour codes: good
  // enough for lesson text.
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\033') {
      while (i < text.size() && text[i] != 'm') ++i;
      continue;
    }
    if ((text[i] & 0xC0) != 0x80) ++width;
  }
  return width;
}

Lines split_lines(const std::string& text) {
  Lines lines;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  if (start < text.size()) lines.push_back(text.substr(start));
  return lines;
}

struct TerminalView {
  const Terminal& style;
  // For unrendered_markdown: code and raw HTML become "[code]" so that only the lesson's prose is checked.
  bool code_as_placeholder = false;

  // Inline spans switch their attribute on and off ("\033[23m" ends italics only), so that they nest
  // inside each other; whole blocks use the Terminal's colours.
  std::string span(const char* on, const char* off, const std::string& text) const {
    return style.colour() ? std::string("\033[") + on + "m" + text + "\033[" + off + "m" : text;
  }
};

std::string render_inlines(cmark_node* parent, const TerminalView& view);

// Inline code without colour, between backticks as the lesson wrote it; more of them, and spaces, when
// the code holds a backtick itself: `` ` ``.
std::string backticked(const std::string& code) {
  std::size_t longest = 0;
  for (std::size_t at = code.find('`'); at != std::string::npos; at = code.find('`', at)) {
    const std::size_t end = std::min(code.find_first_not_of('`', at), code.size());
    longest = std::max(longest, end - at);
    at = end;
  }
  if (longest == 0) return "`" + code + "`";
  const std::string fence(longest + 1, '`');
  return fence + " " + code + " " + fence;
}

std::string render_link(cmark_node* link, const TerminalView& view) {
  const std::string text = render_inlines(link, view);
  const std::string url = cmark_node_get_url(link) ? cmark_node_get_url(link) : "";
  const std::string shown = plain_text(link);
  if (url.empty() || url == shown || url == "mailto:" + shown) return text;  // an autolink shows its url once
  return text + " (" + url + ")";
}

std::string render_inlines(cmark_node* parent, const TerminalView& view) {
  std::string out;
  for (cmark_node* node = cmark_node_first_child(parent); node; node = cmark_node_next(node)) {
    switch (cmark_node_get_type(node)) {
      case CMARK_NODE_TEXT: out += literal(node); break;
      case CMARK_NODE_SOFTBREAK:
      case CMARK_NODE_LINEBREAK: out += "\n"; break;  // lines stay as written
      case CMARK_NODE_CODE:
        if (view.code_as_placeholder) out += "[code]";
        else out += view.style.colour() ? view.span("36", "39", literal(node)) : backticked(literal(node));
        break;
      case CMARK_NODE_HTML_INLINE: out += view.code_as_placeholder ? "[html]" : literal(node); break;
      case CMARK_NODE_EMPH: out += view.span("3", "23", render_inlines(node, view)); break;
      case CMARK_NODE_STRONG: out += view.span("1", "22", render_inlines(node, view)); break;
      case CMARK_NODE_LINK: out += render_link(node, view); break;
      case CMARK_NODE_IMAGE: {
        const char* url = cmark_node_get_url(node);
        out += "[image: " + render_inlines(node, view) + "] (" + (url ? url : "") + ")";
        break;
      }
      default:
        if (extension_kind(node) == Kind::Strikethrough) out += view.span("9", "29", render_inlines(node, view));
        else out += render_inlines(node, view);
    }
  }
  return out;
}

Lines render_blocks(cmark_node* parent, const TerminalView& view, bool blank_between);

Lines render_table(cmark_node* table, const TerminalView& view) {
  const std::size_t columns = cmark_gfm_extensions_get_table_columns(table);
  const uint8_t* alignments = cmark_gfm_extensions_get_table_alignments(table);
  struct Row {
    std::vector<std::string> shown;
    bool header = false;
  };
  std::vector<Row> rows;
  std::vector<std::size_t> widths(columns, 0);
  for (cmark_node* row = cmark_node_first_child(table); row; row = cmark_node_next(row)) {
    Row cells;
    cells.header = cmark_gfm_extensions_get_table_row_is_header(row) != 0;
    for (cmark_node* cell = cmark_node_first_child(row); cell && cells.shown.size() < columns; cell = cmark_node_next(cell)) {
      cells.shown.push_back(cells.header ? view.style.bold(render_inlines(cell, view)) : render_inlines(cell, view));
      widths[cells.shown.size() - 1] = std::max(widths[cells.shown.size() - 1], display_width(cells.shown.back()));
    }
    rows.push_back(std::move(cells));
  }
  Lines lines;
  for (const Row& row : rows) {
    std::string line = "  ";
    for (std::size_t c = 0; c < columns; ++c) {
      const std::string shown = c < row.shown.size() ? row.shown[c] : "";
      const std::size_t gap = widths[c] - display_width(shown);
      const char align = alignments ? static_cast<char>(alignments[c]) : 'l';
      const std::size_t before = align == 'r' ? gap : align == 'c' ? gap / 2 : 0;
      line += std::string(before, ' ') + shown + std::string(gap - before, ' ') + (c + 1 < columns ? "  " : "");
    }
    line.erase(line.find_last_not_of(' ') + 1);
    lines.push_back(line);
    if (row.header) {
      std::string rule = "  ";
      for (std::size_t c = 0; c < columns; ++c) rule += std::string(widths[c], '-') + (c + 1 < columns ? "  " : "");
      lines.push_back(view.style.dim(rule));
    }
  }
  return lines;
}

// A list item's lines behind its marker ("  • " or "  3. "), its later lines indented to match.
Lines render_list(cmark_node* list, const TerminalView& view) {
  const bool tight = cmark_node_get_list_tight(list) != 0;
  int number = cmark_node_get_list_start(list);
  Lines lines;
  for (cmark_node* item = cmark_node_first_child(list); item; item = cmark_node_next(item), ++number) {
    if (!tight && !lines.empty()) lines.push_back("");
    const bool ordered = cmark_node_get_list_type(list) == CMARK_ORDERED_LIST;
    const std::string marker = ordered ? "  " + std::to_string(number) + ". " : "  " + view.style.bullet() + " ";
    const std::string indent(display_width(marker), ' ');
    Lines body = render_blocks(item, view, !tight);
    if (body.empty()) body.push_back("");
    for (std::size_t i = 0; i < body.size(); ++i)
      lines.push_back(i == 0 ? marker + body[i] : body[i].empty() ? "" : indent + body[i]);
  }
  return lines;
}

Lines render_block(cmark_node* node, const TerminalView& view) {
  const Terminal& style = view.style;
  switch (cmark_node_get_type(node)) {
    case CMARK_NODE_PARAGRAPH: return split_lines(render_inlines(node, view));
    case CMARK_NODE_HEADING: {
      const std::string title = render_inlines(node, view);
      const std::size_t width = display_width(title);
      switch (cmark_node_get_heading_level(node)) {
        case 1: return {style.bold(style.cyan(title)), style.cyan(std::string(width, '='))};
        case 2: return {style.bold(style.cyan(title)), style.dim(std::string(width, '-'))};
        default: return {style.bold(title)};
      }
    }
    case CMARK_NODE_CODE_BLOCK: {
      if (view.code_as_placeholder) return {"    [code]"};
      Lines lines;
      for (const auto& line : split_lines(literal(node))) lines.push_back(line.empty() ? "" : "    " + style.cyan(line));
      return lines;
    }
    case CMARK_NODE_HTML_BLOCK:
      if (is_comment_block(node)) return {};
      return view.code_as_placeholder ? Lines{"[html]"} : split_lines(literal(node));
    case CMARK_NODE_THEMATIC_BREAK: return {style.dim(std::string(60, '-'))};
    case CMARK_NODE_BLOCK_QUOTE: {
      Lines lines = render_blocks(node, view, true);
      for (auto& line : lines) line = "  " + style.dim("|") + (line.empty() ? "" : " " + line);
      return lines;
    }
    case CMARK_NODE_LIST: return render_list(node, view);
    default:
      if (extension_kind(node) == Kind::Table) return render_table(node, view);
      return render_blocks(node, view, true);
  }
}

Lines render_blocks(cmark_node* parent, const TerminalView& view, bool blank_between) {
  Lines lines;
  for (cmark_node* block = cmark_node_first_child(parent); block; block = cmark_node_next(block)) {
    Lines rendered = render_block(block, view);
    if (rendered.empty()) continue;  // a comment: no blank line for it either
    if (blank_between && !lines.empty()) lines.push_back("");
    lines.insert(lines.end(), rendered.begin(), rendered.end());
  }
  return lines;
}

// Calls `visit` on every node of the document, depth first, in reading order.
template <typename Visit>
void for_each_node(cmark_node* root, Visit visit) {
  cmark_iter* iter = cmark_iter_new(root);
  for (cmark_event_type event; (event = cmark_iter_next(iter)) != CMARK_EVENT_DONE;) {
    if (event == CMARK_EVENT_ENTER) visit(cmark_iter_get_node(iter));
  }
  cmark_iter_free(iter);
}

// What prose shows only when its Markdown did not parse: each pattern and how the author would see it.
const std::vector<std::pair<std::regex, std::string>>& unrendered_patterns() {
  static const std::vector<std::pair<std::regex, std::string>> patterns = {
      {std::regex(R"(\*\*|__)"), "an unclosed ** or __"},
      {std::regex("```|~~~"), "a code fence that opens no code block"},
      {std::regex("`"), "an unclosed ` code span"},
      {std::regex(R"(\]\(|!\[)"), "a link or image that did not parse"},
      {std::regex(R"(^\s*#{1,6}([^#]|$))"), "a heading's #s that are no heading (a blank line or space missing?)"},
      {std::regex(R"(^\s*\|.*\|\s*$|\|\s*:?-{3,}:?\s*\|)"), "a table row outside a table (its header or rule missing?)"},
      {std::regex(R"((^|\s)[*_][^\s*_])"), "an unclosed * or _ emphasis"},
  };
  return patterns;
}

}  // namespace

std::string render_markdown(const std::string& markdown, const Terminal& style) {
  const Document document = parse(markdown);
  std::string out;
  for (const auto& line : render_blocks(document.get(), TerminalView{style}, true)) out += line + "\n";
  return out;
}

std::vector<std::string> markdown_headings(const std::string& markdown) {
  const Document document = parse(markdown);
  std::vector<std::string> headings;
  for_each_node(document.get(), [&](cmark_node* node) {
    if (cmark_node_get_type(node) == CMARK_NODE_HEADING) headings.push_back(plain_text(node));
  });
  return headings;
}

std::vector<std::string> unrendered_markdown(const std::string& markdown) {
  const Document document = parse(markdown);
  const Terminal plain;
  const TerminalView view{plain, true};
  std::vector<std::string> problems;
  for_each_node(document.get(), [&](cmark_node* node) {
    const cmark_node_type type = cmark_node_get_type(node);
    if (type != CMARK_NODE_PARAGRAPH && type != CMARK_NODE_HEADING && extension_kind(node) != Kind::TableCell) return;
    // A paragraph's soft breaks are its source lines, so the n-th line shown is the n-th line written.
    const Lines lines = split_lines(render_inlines(node, view));
    for (std::size_t i = 0; i < lines.size(); ++i) {
      for (const auto& [pattern, meaning] : unrendered_patterns()) {
        if (!std::regex_search(lines[i], pattern)) continue;
        problems.push_back("line " + std::to_string(cmark_node_get_start_line(node) + static_cast<int>(i)) + ": " +
                           meaning + ": " + lines[i]);
        break;
      }
    }
  });
  return problems;
}

std::string heading_slug(const std::string& heading_text) {
  std::string slug;
  for (const char c : heading_text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80) slug += c;  // letters of other scripts pass through, as on GitHub
    else if (std::isalnum(byte) || c == '_' || c == '-') slug += static_cast<char>(std::tolower(byte));
    else if (c == ' ') slug += '-';
  }
  return slug.empty() ? "section" : slug;
}

}  // namespace tito
