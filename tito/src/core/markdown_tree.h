#pragma once
// The one CommonMark parse that every view of a lesson walks (the terminal view and the headings in
// markdown.cpp, the HTML page in markdown_html.cpp): cmark-gfm with GitHub's tables, strikethrough and
// autolinks. Internal to those files; the rest of tito includes core/markdown.h only.
#include <memory>
#include <string>

#include <cmark-gfm.h>

namespace tito::markdown_tree {

struct NodeDeleter {
  void operator()(cmark_node* node) const { cmark_node_free(node); }
};
using Document = std::unique_ptr<cmark_node, NodeDeleter>;

Document parse(const std::string& markdown);

// The extension nodes have no fixed cmark_node_type, so they are told apart by name.
enum class Kind { Other, Table, TableRow, TableCell, Strikethrough };
Kind extension_kind(cmark_node* node);

// A node's literal, "" when it has none.
std::string literal(cmark_node* node);

// An HTML block that is only a comment ("<!-- translation-of: ... -->"): a note for the lesson's
// authors, which neither view shows (GitHub hides it too).
bool is_comment_block(cmark_node* node);

// The text a reader sees in an inline span: text and code as written, line breaks as spaces, images by
// their alt text, every emphasis, link and code marker gone.
std::string plain_text(cmark_node* node);

}  // namespace tito::markdown_tree
