#pragma once
// Splits a lesson's code block into coloured tokens for the HTML page: C++ (cpp, c++, c, h), shell
// (sh, bash, console: only the "$ " command lines), JSON and Python. A small scanner per language, not a
// parser: it only has to tell keywords, strings, comments and numbers from the rest, and an unknown
// language is one plain token.
#include <string>
#include <vector>

namespace tito {

enum class TokenKind { Plain, Keyword, String, Comment, Number, Directive };  // Directive: #include, a "$ " prompt

struct CodeToken {
  TokenKind kind;
  std::string text;
};

// The tokens' texts concatenated give back `code` exactly. `language` is the fence's info word ("cpp").
std::vector<CodeToken> highlight_code(const std::string& code, const std::string& language);

// The CSS class of a token kind in the page ("kw", "str", ...); "" for Plain.
const char* token_class(TokenKind kind);

}  // namespace tito
