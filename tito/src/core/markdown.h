#pragma once
// A small Markdown-to-terminal renderer for lessons: headings, emphasis, inline code, lists, quotes,
// fenced code blocks (indented) and pipe tables (re-aligned). Anything else passes through unchanged.
#include <string>

#include "core/terminal.h"

namespace tito {

std::string render_markdown(const std::string& markdown, const Terminal& style);

}  // namespace tito
