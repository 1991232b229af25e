#include "core/code_highlight.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace tito {
namespace {

enum class Language { None, Cpp, Shell, Console, Json, Python };

Language language_of(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  if (name == "cpp" || name == "c++" || name == "cxx" || name == "cc" || name == "c" || name == "h" || name == "hpp")
    return Language::Cpp;
  if (name == "sh" || name == "bash" || name == "shell") return Language::Shell;
  if (name == "console" || name == "shell-session") return Language::Console;
  if (name == "json") return Language::Json;
  if (name == "python" || name == "py") return Language::Python;
  return Language::None;
}

const std::set<std::string>& keywords(Language language) {
  static const std::set<std::string> cpp = {
      "alignas", "alignof", "auto", "bool", "break", "case", "catch", "char", "class", "const", "constexpr",
      "const_cast", "continue", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
      "explicit", "extern", "false", "float", "for", "friend", "if", "inline", "int", "int64_t", "int32_t", "long",
      "mutable", "namespace", "new", "noexcept", "nullptr", "operator", "override", "private", "protected", "public",
      "reinterpret_cast", "return", "short", "signed", "size_t", "sizeof", "static", "static_assert", "static_cast",
      "struct", "switch", "template", "this", "throw", "true", "try", "typedef", "typename", "uint8_t", "union",
      "unsigned", "using", "virtual", "void", "volatile", "while"};
  static const std::set<std::string> shell = {"case", "do", "done", "elif", "else", "esac", "export", "fi", "for",
                                              "function", "if", "in", "local", "return", "then", "until", "while"};
  static const std::set<std::string> json = {"true", "false", "null"};
  static const std::set<std::string> python = {
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
      "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
      "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"};
  static const std::set<std::string> none;
  switch (language) {
    case Language::Cpp: return cpp;
    case Language::Shell:
    case Language::Console: return shell;
    case Language::Json: return json;
    case Language::Python: return python;
    default: return none;
  }
}

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Walks the code once, left to right; each rule takes the longest token it recognises at `pos`.
class Scanner {
 public:
  Scanner(const std::string& code, Language language) : code_(code), language_(language), keywords_(keywords(language)) {}

  std::vector<CodeToken> run() {
    while (pos_ < code_.size()) {
      if (language_ == Language::Console && at_line_start()) console_line_start();
      else next_token();
    }
    return std::move(tokens_);
  }

 private:
  void emit(TokenKind kind, std::size_t end) {
    end = std::min(std::max(end, pos_ + 1), code_.size());
    if (!tokens_.empty() && tokens_.back().kind == kind) tokens_.back().text.append(code_, pos_, end - pos_);
    else tokens_.push_back({kind, code_.substr(pos_, end - pos_)});
    pos_ = end;
  }

  bool at_line_start() const { return pos_ == 0 || code_[pos_ - 1] == '\n'; }
  bool starts_with(const char* text) const { return code_.compare(pos_, std::char_traits<char>::length(text), text) == 0; }
  std::size_t line_end(std::size_t from) const { return std::min(code_.find('\n', from), code_.size()); }

  // A quoted string from pos_, backslash escapes honoured; it ends at its quote or, when
  // `multiline` is false, at the end of the line.
  std::size_t string_end(char quote, bool multiline) const {
    std::size_t i = pos_ + 1;
    while (i < code_.size() && code_[i] != quote && (multiline || code_[i] != '\n')) i += code_[i] == '\\' ? 2 : 1;
    return std::min(i + 1, code_.size());
  }

  // Digits, letters (0x1F, 1e-3, 2.5f), dots and C++'s digit separators (1'000'000), from `from`.
  std::size_t number_end(std::size_t from) const {
    std::size_t i = from;
    while (i < code_.size()) {
      const char c = code_[i];
      const bool exponent_sign = (c == '+' || c == '-') && i > from && (code_[i - 1] == 'e' || code_[i - 1] == 'E') &&
                                 code_.compare(from, 2, "0x") != 0;
      if (!(is_identifier_char(c) || c == '.' || (c == '\'' && language_ == Language::Cpp) || exponent_sign)) break;
      ++i;
    }
    return i;
  }

  // console: "$ command" lines are shell, the others are the command's output.
  void console_line_start() {
    if (starts_with("$ ")) emit(TokenKind::Directive, pos_ + 2);
    else emit(TokenKind::Plain, line_end(pos_) + 1);
  }

  void next_token() {
    const char c = code_[pos_];
    const bool word_start = pos_ == 0 || std::isspace(static_cast<unsigned char>(code_[pos_ - 1]));
    const bool hash_comments = language_ == Language::Shell || language_ == Language::Console || language_ == Language::Python;
    if (language_ == Language::Console && c == '\n') return emit(TokenKind::Plain, pos_ + 1);
    if (language_ == Language::Cpp && c == '#' && only_spaces_before_on_line()) {
      const std::size_t comment = code_.find("//", pos_);
      return emit(TokenKind::Directive, std::min(line_end(pos_), comment));
    }
    if (language_ == Language::Cpp && starts_with("//")) return emit(TokenKind::Comment, line_end(pos_));
    if (language_ == Language::Cpp && starts_with("/*")) {
      const std::size_t close = code_.find("*/", pos_ + 2);
      return emit(TokenKind::Comment, close == std::string::npos ? code_.size() : close + 2);
    }
    if (hash_comments && c == '#' && (word_start || language_ == Language::Python)) return emit(TokenKind::Comment, line_end(pos_));
    if (language_ == Language::Cpp && starts_with("R\"")) return raw_string();
    if (language_ == Language::Python && (starts_with("\"\"\"") || starts_with("'''"))) {
      const std::size_t close = code_.find(code_.substr(pos_, 3), pos_ + 3);
      return emit(TokenKind::String, close == std::string::npos ? code_.size() : close + 3);
    }
    if (c == '"') return emit(TokenKind::String, string_end('"', language_ == Language::Shell));
    if (c == '\'' && language_ != Language::Json) {
      // Shell single quotes have no escapes and may span lines.
      if (language_ == Language::Shell || language_ == Language::Console) {
        const std::size_t close = code_.find('\'', pos_ + 1);
        return emit(TokenKind::String, close == std::string::npos ? code_.size() : close + 1);
      }
      return emit(TokenKind::String, string_end('\'', false));
    }
    const bool signed_json_number = language_ == Language::Json && c == '-' && pos_ + 1 < code_.size() && is_digit(code_[pos_ + 1]);
    if (signed_json_number) return emit(TokenKind::Number, number_end(pos_ + 1));
    if (is_digit(c) && (pos_ == 0 || !is_identifier_char(code_[pos_ - 1]))) return emit(TokenKind::Number, number_end(pos_));
    if (is_identifier_start(c)) {
      std::size_t end = pos_;
      while (end < code_.size() && is_identifier_char(code_[end])) ++end;
      return emit(keywords_.count(code_.substr(pos_, end - pos_)) ? TokenKind::Keyword : TokenKind::Plain, end);
    }
    emit(TokenKind::Plain, pos_ + 1);
  }

  bool only_spaces_before_on_line() const {
    for (std::size_t i = pos_; i > 0 && code_[i - 1] != '\n'; --i)
      if (code_[i - 1] != ' ' && code_[i - 1] != '\t') return false;
    return true;
  }

  // R"delim( ... )delim"
  void raw_string() {
    const std::size_t open = code_.find('(', pos_ + 2);
    if (open == std::string::npos || open - pos_ > 18) return emit(TokenKind::Plain, pos_ + 1);
    const std::string close = ")" + code_.substr(pos_ + 2, open - pos_ - 2) + "\"";
    const std::size_t end = code_.find(close, open);
    emit(TokenKind::String, end == std::string::npos ? code_.size() : end + close.size());
  }

  const std::string& code_;
  Language language_;
  const std::set<std::string>& keywords_;
  std::size_t pos_ = 0;
  std::vector<CodeToken> tokens_;
};

}  // namespace

std::vector<CodeToken> highlight_code(const std::string& code, const std::string& language) {
  const Language known = language_of(language);
  if (known == Language::None) return {{TokenKind::Plain, code}};
  return Scanner(code, known).run();
}

const char* token_class(TokenKind kind) {
  switch (kind) {
    case TokenKind::Keyword: return "kw";
    case TokenKind::String: return "str";
    case TokenKind::Comment: return "com";
    case TokenKind::Number: return "num";
    case TokenKind::Directive: return "dir";
    default: return "";
  }
}

}  // namespace tito
