// A lesson as one standalone HTML page, from the same cmark-gfm tree as the terminal view (markdown.cpp).
// Written here rather than with cmark's own HTML renderer because the page needs heading ids, highlighted
// code, rewritten links and raw HTML shown as text, not passed through.
#include <algorithm>
#include <cctype>
#include <set>

#include <cmark-gfm-core-extensions.h>

#include "core/code_highlight.h"
#include "core/markdown.h"
#include "core/markdown_tree.h"
#include "core/report_format.h"

namespace tito {
namespace {

using namespace markdown_tree;

// Light and dark colours from the reader's system setting; code and formulas in a monospace font.
constexpr const char* kPageStyle = R"css(
:root { color-scheme: light dark; --text: #1f2328; --muted: #59636e; --background: #ffffff; --code-bg: #f3f4f6;
        --border: #d1d9e0; --link: #0969da; --kw: #cf222e; --str: #0a3069; --com: #6e7781; --num: #0550ae; --dir: #8250df; }
@media (prefers-color-scheme: dark) {
  :root { --text: #e6edf3; --muted: #9198a1; --background: #0d1117; --code-bg: #161b22; --border: #3d444d;
          --link: #4493f8; --kw: #ff7b72; --str: #a5d6ff; --com: #8b949e; --num: #79c0ff; --dir: #d2a8ff; }
}
html { background: var(--background); color: var(--text); }
body { font: 16px/1.6 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; margin: 0 auto;
       max-width: 52rem; padding: 1.5rem 1.25rem 4rem; }
nav { font-size: 0.9rem; margin-bottom: 1.5rem; color: var(--muted); }
nav a { margin-right: 1rem; }
a { color: var(--link); }
h1, h2 { border-bottom: 1px solid var(--border); padding-bottom: 0.3rem; }
h1, h2, h3, h4 { line-height: 1.25; margin-top: 1.8em; }
code, pre, kbd { font-family: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
:not(pre) > code { background: var(--code-bg); border-radius: 4px; padding: 0.1em 0.35em; }
pre { background: var(--code-bg); border-radius: 6px; line-height: 1.45; overflow-x: auto; padding: 0.9rem 1rem; }
blockquote { border-left: 4px solid var(--border); color: var(--muted); margin-left: 0; padding: 0 1rem; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid var(--border); padding: 0.35rem 0.75rem; vertical-align: top; }
th { background: var(--code-bg); text-align: left; }
.align-right { text-align: right; } .align-center { text-align: center; }
img { max-width: 100%; }
hr { border: 0; border-top: 1px solid var(--border); margin: 2rem 0; }
.kw { color: var(--kw); } .str { color: var(--str); } .com { color: var(--com); font-style: italic; }
.num { color: var(--num); } .dir { color: var(--dir); }
.missing { color: var(--kw); }
ul.lessons { list-style: none; padding-left: 0; } ul.lessons li { margin: 0.3rem 0; }
.subtitle, .not-yet { color: var(--muted); }
)css";

// A scheme the page may link to; anything else (javascript:, data:, file:) is dropped. No scheme: relative.
bool safe_link(const std::string& url) {
  const std::size_t colon = url.find(':');
  if (colon == std::string::npos || url.find_first_of("/?#") < colon) return true;
  std::string scheme = url.substr(0, colon);
  std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return std::tolower(c); });
  return scheme == "http" || scheme == "https" || scheme == "mailto";
}

bool remote(const std::string& url) { return url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0 || url.rfind("//", 0) == 0; }

class HtmlWriter {
 public:
  explicit HtmlWriter(const HtmlPageOptions& options) : options_(options) {}

  std::string body(cmark_node* document) {
    blocks(document, false);
    return std::move(out_);
  }

 private:
  void blocks(cmark_node* parent, bool tight) {
    for (cmark_node* node = cmark_node_first_child(parent); node; node = cmark_node_next(node)) block(node, tight);
  }

  void block(cmark_node* node, bool tight) {
    switch (cmark_node_get_type(node)) {
      case CMARK_NODE_PARAGRAPH:
        // Items of a tight list hold their text without a paragraph, as GitHub shows them.
        if (tight) return inlines(node);
        out_ += "<p>";
        inlines(node);
        out_ += "</p>\n";
        return;
      case CMARK_NODE_HEADING: {
        const std::string level = std::to_string(cmark_node_get_heading_level(node));
        out_ += "<h" + level + " id=\"" + html_escape(unique_id(plain_text(node))) + "\">";
        inlines(node);
        out_ += "</h" + level + ">\n";
        return;
      }
      case CMARK_NODE_CODE_BLOCK: return code_block(node);
      case CMARK_NODE_HTML_BLOCK:
        if (!is_comment_block(node)) out_ += "<pre>" + html_escape(literal(node)) + "</pre>\n";
        return;
      case CMARK_NODE_THEMATIC_BREAK: out_ += "<hr>\n"; return;
      case CMARK_NODE_BLOCK_QUOTE:
        out_ += "<blockquote>\n";
        blocks(node, false);
        out_ += "</blockquote>\n";
        return;
      case CMARK_NODE_LIST: return list(node);
      default:
        if (extension_kind(node) == Kind::Table) return table(node);
        blocks(node, tight);
    }
  }

  void list(cmark_node* node) {
    const bool ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST;
    const int start = cmark_node_get_list_start(node);
    out_ += ordered ? (start == 1 ? std::string("<ol>\n") : "<ol start=\"" + std::to_string(start) + "\">\n") : "<ul>\n";
    for (cmark_node* item = cmark_node_first_child(node); item; item = cmark_node_next(item)) {
      out_ += "<li>";
      blocks(item, cmark_node_get_list_tight(node) != 0);
      out_ += "</li>\n";
    }
    out_ += ordered ? "</ol>\n" : "</ul>\n";
  }

  void code_block(cmark_node* node) {
    const std::string info = cmark_node_get_fence_info(node) ? cmark_node_get_fence_info(node) : "";
    const std::string language = info.substr(0, info.find_first_of(" \t{"));
    out_ += language.empty() ? "<pre><code>" : "<pre><code class=\"language-" + html_escape(language) + "\">";
    for (const auto& token : highlight_code(literal(node), language)) {
      const std::string css = token_class(token.kind);
      out_ += css.empty() ? html_escape(token.text) : "<span class=\"" + css + "\">" + html_escape(token.text) + "</span>";
    }
    out_ += "</code></pre>\n";
  }

  void table(cmark_node* node) {
    const uint8_t* alignments = cmark_gfm_extensions_get_table_alignments(node);
    const std::size_t columns = cmark_gfm_extensions_get_table_columns(node);
    out_ += "<div class=\"table-wrap\"><table>\n";
    bool body_open = false;
    for (cmark_node* row = cmark_node_first_child(node); row; row = cmark_node_next(row)) {
      const bool header = cmark_gfm_extensions_get_table_row_is_header(row) != 0;
      if (!header && !body_open) {
        out_ += "<tbody>\n";
        body_open = true;
      }
      out_ += header ? "<thead>\n<tr>" : "<tr>";
      std::size_t column = 0;
      for (cmark_node* cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell), ++column) {
        const char align = alignments && column < columns ? static_cast<char>(alignments[column]) : 0;
        const std::string tag = header ? "th" : "td";
        out_ += "<" + tag + (align == 'r' ? " class=\"align-right\"" : align == 'c' ? " class=\"align-center\"" : "") + ">";
        inlines(cell);
        out_ += "</" + tag + ">";
      }
      out_ += header ? "</tr>\n</thead>\n" : "</tr>\n";
    }
    out_ += body_open ? "</tbody>\n</table></div>\n" : "</table></div>\n";
  }

  void inlines(cmark_node* parent) {
    for (cmark_node* node = cmark_node_first_child(parent); node; node = cmark_node_next(node)) {
      switch (cmark_node_get_type(node)) {
        case CMARK_NODE_TEXT:
        case CMARK_NODE_HTML_INLINE: out_ += html_escape(literal(node)); break;
        case CMARK_NODE_SOFTBREAK: out_ += "\n"; break;
        case CMARK_NODE_LINEBREAK: out_ += "<br>\n"; break;
        case CMARK_NODE_CODE: out_ += "<code>" + html_escape(literal(node)) + "</code>"; break;
        case CMARK_NODE_EMPH: wrap("em", node); break;
        case CMARK_NODE_STRONG: wrap("strong", node); break;
        case CMARK_NODE_LINK: link(node); break;
        case CMARK_NODE_IMAGE: image(node); break;
        default:
          if (extension_kind(node) == Kind::Strikethrough) wrap("del", node);
          else inlines(node);
      }
    }
  }

  void wrap(const std::string& tag, cmark_node* node) {
    out_ += "<" + tag + ">";
    inlines(node);
    out_ += "</" + tag + ">";
  }

  void link(cmark_node* node) {
    const std::string written = cmark_node_get_url(node) ? cmark_node_get_url(node) : "";
    const std::string target = options_.link_target ? options_.link_target(written) : written;
    if (target.empty() || !safe_link(target)) return inlines(node);  // shown as its text, without a link
    const std::string title = cmark_node_get_title(node) ? cmark_node_get_title(node) : "";
    out_ += "<a href=\"" + html_escape(target) + "\"" + (title.empty() ? "" : " title=\"" + html_escape(title) + "\"") + ">";
    inlines(node);
    out_ += "</a>";
  }

  void image(cmark_node* node) {
    const std::string written = cmark_node_get_url(node) ? cmark_node_get_url(node) : "";
    const std::string alt = plain_text(node);
    const std::string source = options_.image_source ? options_.image_source(written) : written;
    if (source.empty()) {
      out_ += "<span class=\"missing\">[image not found: " + html_escape(alt.empty() ? written : alt) + "]</span>";
    } else if (remote(source) || !(safe_link(source) || source.rfind("data:image/", 0) == 0)) {
      // The page loads nothing from elsewhere: a remote image becomes a link to it.
      out_ += safe_link(source) ? "<a href=\"" + html_escape(source) + "\">[image: " + html_escape(alt) + "]</a>"
                                : "[image: " + html_escape(alt) + "]";
    } else {
      out_ += "<img src=\"" + html_escape(source) + "\" alt=\"" + html_escape(alt) + "\">";
    }
  }

  // GitHub's rule: the slug, then "-1", "-2"... for the same slug again.
  std::string unique_id(const std::string& heading) {
    const std::string slug = heading_slug(heading);
    std::string id = slug;
    for (int n = 1; used_ids_.count(id); ++n) id = slug + "-" + std::to_string(n);
    used_ids_.insert(id);
    return id;
  }

  const HtmlPageOptions& options_;
  std::set<std::string> used_ids_;
  std::string out_;
};

std::string first_heading(cmark_node* document) {
  for (cmark_node* node = cmark_node_first_child(document); node; node = cmark_node_next(node))
    if (cmark_node_get_type(node) == CMARK_NODE_HEADING) return plain_text(node);
  return "";
}

}  // namespace

std::string standalone_html_page(const std::string& title, const std::string& body_html, const std::string& language) {
  return "<!DOCTYPE html>\n<html lang=\"" + html_escape(language) + "\">\n<head>\n<meta charset=\"utf-8\">\n" +
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n" + kTitoPageGenerator + "\n" +
         "<title>" + html_escape(title) + "</title>\n<style>" + kPageStyle + "</style>\n</head>\n<body>\n" + body_html +
         "</body>\n</html>\n";
}

std::string render_markdown_html(const std::string& markdown, const HtmlPageOptions& options) {
  const Document document = parse(markdown);
  std::string title = options.title.empty() ? first_heading(document.get()) : options.title;
  if (title.empty()) title = "Lesson";
  std::string body;
  if (!options.navigation.empty()) {
    body += "<nav>";
    for (const auto& [label, href] : options.navigation) body += "<a href=\"" + html_escape(href) + "\">" + html_escape(label) + "</a>";
    body += "</nav>\n";
  }
  body += "<main>\n" + HtmlWriter(options).body(document.get()) + "</main>\n";
  return standalone_html_page(title, body, options.language);
}

}  // namespace tito
