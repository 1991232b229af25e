#pragma once
// A small Markdown-to-terminal renderer for lessons: headings, emphasis, inline code, lists, quotes,
// fenced code blocks (indented) and pipe tables (re-aligned). Anything else passes through unchanged.
#include <string>
#include <vector>

#include "core/terminal.h"

namespace tito {

std::string render_markdown(const std::string& markdown, const Terminal& style);

}  // namespace tito

namespace tito {

// The text of every heading (`#`..`######`) outside fenced code blocks, in order, as a reader sees it:
// without the leading #s and without inline-code backticks ("4. One batch: `process_batch`" gives
// "4. One batch: process_batch"). Solution markers' lesson="..." must name one of these.
std::vector<std::string> markdown_headings(const std::string& markdown);

}  // namespace tito
