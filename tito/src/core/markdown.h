#pragma once
// Lessons are CommonMark with GitHub's tables, parsed once by cmark-gfm and shown from that tree: in the
// terminal (`tito module view NN`) and as a standalone HTML page (`tito module view NN --html`,
// `tito lessons build`). Raw HTML in a lesson is shown as the text it is, in both views.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/terminal.h"

namespace tito {

// The terminal view: headings underlined, lists with bullets or numbers, quotes behind a dim "|", code
// indented by 4 (cyan), tables re-aligned with a rule under the header, links as "text (url)". Lines of
// a paragraph stay as written: nothing is re-wrapped.
std::string render_markdown(const std::string& markdown, const Terminal& style);

// The text of every heading outside code blocks, in order, as a reader sees it: without the #s and
// without inline-code backticks ("4. One batch: `process_batch`" gives "4. One batch: process_batch").
// Solution markers' lesson="..." must name one of these.
std::vector<std::string> markdown_headings(const std::string& markdown);

// Markdown syntax that the terminal view would show as typed because the source does not parse as the
// author meant (an unclosed `**`, a table row without its table, a `](` of a broken link), outside code:
// "line 12: **". Empty for a lesson that reads cleanly.
std::vector<std::string> unrendered_markdown(const std::string& markdown);

// A heading's id in the HTML page, as GitHub makes them: lower case, spaces to '-', punctuation dropped
// ("4. One batch: process_batch" -> "4-one-batch-process_batch").
std::string heading_slug(const std::string& heading_text);

struct HtmlPageOptions {
  std::string title;  // the page's <title>; empty: the first heading's text
  // Navigation links above the lesson, as (label, href).
  std::vector<std::pair<std::string, std::string>> navigation;
  // Where a link or image written in the lesson points in the page. Empty: as written. A link's
  // target that resolves to nothing may return "" and is then shown as text, without a link.
  std::function<std::string(const std::string& url)> link_target;
  std::function<std::string(const std::string& url)> image_source;
  std::string language = "en";  // the page's <html lang>: a translated lesson's language
};

// A complete HTML5 page that needs nothing else (its CSS inside, no script, no external resource):
// headings with unique ids (heading_slug, then "-1", "-2"... for repeats), tables, code blocks with
// cpp/c++/sh/bash/console/json/python fences highlighted (code_highlight.h). Everything is escaped.
std::string render_markdown_html(const std::string& markdown, const HtmlPageOptions& options);

// The same page frame (CSS, charset, generator mark) around body HTML that the caller has escaped.
std::string standalone_html_page(const std::string& title, const std::string& body_html,
                                 const std::string& language = "en");

// Marks every page tito writes, so that it overwrites only its own pages.
inline constexpr const char* kTitoPageGenerator = R"(<meta name="generator" content="tito lessons">)";

}  // namespace tito
