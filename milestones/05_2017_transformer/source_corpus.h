#pragma once
// What milestone 05's part 3 reads and how it judges what TinyGPT writes: the course's own C++ sources
// as a corpus (framework/src and framework/include, a fixed tenth of the files held out), the function
// headers of the held-out files, and `g++ -fsyntax-only` on each completion.
//
// A function header here is one line, at namespace scope, that starts a function definition and ends
// with its opening brace:
//     Tensor softmax(const Tensor& input, int64_t dim) {
// The scanner below knows just enough C++ to find those lines and their matching closing braces:
// comments, string and character literals (whose braces do not count), and which open braces belong
// to namespaces.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace milestone {
namespace code {

namespace fs = std::filesystem;

// ---- The corpus --------------------------------------------------------------------------------

struct SourceFile {
  std::string path;  // relative to the source root: "framework/src/04_losses/losses.cpp"
  std::string text;
  bool held_out = false;
};

// FNV-1a: a file's place in the split depends on its path only, so the split stays the same when
// other files are added, and is the same in the repository and in a learner's copy of it.
inline uint64_t path_hash(const std::string& path) {
  uint64_t hash = 1469598103934665603ull;
  for (const unsigned char c : path) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}
inline bool held_out_path(const std::string& path) { return path_hash(path) % 10 == 0; }

// The text with every line's indentation removed. C++ does not need it, and a small character model
// spends its first minutes on it: measured here, after "{\n  " a d = 32 model gave the next space
// a probability of 0.64 (indentation of any depth follows a newline), so greedy decoding wrote
// nothing but spaces.
inline std::string without_indentation(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool line_start = true;
  for (const char c : text) {
    if (line_start && (c == ' ' || c == '\t')) continue;
    line_start = c == '\n';
    out += c;
  }
  return out;
}

// The folder that holds framework/include/tinytorch/torch.h, first of `candidates` that does; "" if none.
inline std::string find_source_root(const std::vector<std::string>& candidates) {
  for (const auto& candidate : candidates) {
    if (candidate.empty()) continue;
    std::error_code error;
    if (fs::is_regular_file(fs::path(candidate) / "framework/include/tinytorch/torch.h", error))
      return fs::absolute(candidate).lexically_normal().string();
  }
  return "";
}

// Every .h and .cpp under framework/src and framework/include, without indentation, sorted by path.
// Module 17's instructor
// extra (framework/src/17_acceleration/extra/) is left out: a learner's copy does not have it, and
// the corpus should be the same text in both.
inline std::vector<SourceFile> read_corpus(const std::string& root) {
  std::vector<SourceFile> files;
  for (const char* folder : {"framework/src", "framework/include"}) {
    std::error_code error;
    for (fs::recursive_directory_iterator it(fs::path(root) / folder, error), end; !error && it != end; it.increment(error)) {
      const fs::path& path = it->path();
      if (!it->is_regular_file() || (path.extension() != ".h" && path.extension() != ".cpp")) continue;
      const std::string relative = fs::relative(path, root).generic_string();
      if (relative.find("17_acceleration/extra/") != std::string::npos) continue;
      std::ifstream in(path, std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      files.push_back({relative, without_indentation(text.str()), held_out_path(relative)});
    }
  }
  std::sort(files.begin(), files.end(), [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
  return files;
}

// ---- Braces, outside comments and literals --------------------------------------------------------

// Fed one character at a time; says how deep in braces the code is. Raw string literals are not
// understood (the framework has none).
class BraceScanner {
 public:
  enum class State { kCode, kLineComment, kBlockComment, kString, kChar };

  void feed(char c) {
    const char previous = previous_;
    previous_ = c;
    switch (state_) {
      case State::kLineComment:
        if (c == '\n') state_ = State::kCode;
        return;
      case State::kBlockComment:
        if (previous == '*' && c == '/') {
          state_ = State::kCode;
          previous_ = 0;  // "*/*" does not open another comment
        }
        return;
      case State::kString:
      case State::kChar:
        if (escaped_) escaped_ = false;
        else if (c == '\\') escaped_ = true;
        else if (c == (state_ == State::kString ? '"' : '\'') || c == '\n') state_ = State::kCode;
        return;
      case State::kCode:
        break;
    }
    if (previous == '/' && c == '/') {
      state_ = State::kLineComment;
      if (!statement_.empty()) statement_.pop_back();  // the first '/'
      return;
    }
    if (previous == '/' && c == '*') {
      state_ = State::kBlockComment;
      if (!statement_.empty()) statement_.pop_back();
      previous_ = 0;
      return;
    }
    if (c == '"') {
      state_ = State::kString;
    } else if (c == '\'' && !(std::isalnum(static_cast<unsigned char>(previous)))) {  // not 1'000'000
      state_ = State::kChar;
    } else if (c == '{') {
      namespace_braces_.push_back(opens_namespace());
      statement_.clear();
      return;
    } else if (c == '}') {
      if (!namespace_braces_.empty()) namespace_braces_.pop_back();
      statement_.clear();
      return;
    } else if (c == ';') {
      statement_.clear();
      return;
    } else if (c == '#' && statement_.find_first_not_of(" \t\n") == std::string::npos) {
      state_ = State::kLineComment;  // a preprocessor line: its text is no statement
      return;
    }
    statement_ += c;
  }
  void feed(const std::string& text) {
    for (const char c : text) feed(c);
  }

  State state() const { return state_; }
  int depth() const { return static_cast<int>(namespace_braces_.size()); }
  int namespace_depth() const {
    return static_cast<int>(std::count(namespace_braces_.begin(), namespace_braces_.end(), true));
  }
  // In code, and every open brace is a namespace's: where free functions are defined.
  bool at_namespace_scope() const { return state_ == State::kCode && namespace_depth() == depth(); }
  // The code read since the last ';', '{' or '}', comments left out.
  const std::string& statement() const { return statement_; }

 private:
  bool opens_namespace() const {
    const auto first = statement_.find_first_not_of(" \t\n");
    if (first == std::string::npos) return false;
    return statement_.compare(first, 9, "namespace") == 0 || statement_.compare(first, 10, "extern \"C\"") == 0;
  }

  State state_ = State::kCode;
  char previous_ = 0;
  bool escaped_ = false;
  std::string statement_;
  std::vector<bool> namespace_braces_;  // one per open brace: does it open a namespace?
};

// ---- Function headers ---------------------------------------------------------------------------

struct FunctionHeader {
  std::string file;       // relative path
  int line = 0;           // 1-based
  std::string prefix;     // the file's text before the header's line
  std::string header;     // the line, up to and including its '{'
  std::string body;       // the real body after the '{', up to and including the matching '}'
  int open_namespaces = 0;
};

inline bool starts_with_word(const std::string& line, const char* word) {
  const std::string w = word;
  return line.compare(0, w.size(), w) == 0 &&
         (line.size() == w.size() || !(std::isalnum(static_cast<unsigned char>(line[w.size()])) || line[w.size()] == '_'));
}

// A line that by itself reads as the start of a function definition: "type name(params)
// qualifiers {", balanced parentheses, no '=' before the name (an initialiser is no function).
inline bool looks_like_function_header(const std::string& line) {
  if (line.empty() || line.back() != '{' || std::isspace(static_cast<unsigned char>(line[0]))) return false;
  if (line[0] == '#' || line[0] == '}' || line[0] == '/') return false;
  for (const char* keyword : {"namespace", "struct", "class", "enum", "union", "extern", "typedef", "using", "if",
                              "for", "while", "switch", "do", "else", "return"})
    if (starts_with_word(line, keyword)) return false;
  const auto open = line.find('(');
  if (open == std::string::npos || open == 0) return false;
  const std::string before = line.substr(0, open);
  if (before.find_first_of("=[{;\"") != std::string::npos) return false;
  const char last = before.back();
  if (!(std::isalnum(static_cast<unsigned char>(last)) || last == '_' || before.find("operator") != std::string::npos))
    return false;
  int depth = 0;
  for (const char c : line) {
    if (c == '(') ++depth;
    if (c == ')' && --depth < 0) return false;
  }
  return depth == 0;
}

// The body after the '{' at `open` (exclusive), to the matching '}' (inclusive); "" if it never closes.
inline std::string body_after(const std::string& text, size_t open) {
  BraceScanner scanner;
  scanner.feed('{');
  for (size_t i = open + 1; i < text.size(); ++i) {
    scanner.feed(text[i]);
    if (scanner.depth() == 0) return text.substr(open + 1, i - open);
  }
  return "";
}

inline std::vector<FunctionHeader> function_headers(const SourceFile& file) {
  std::vector<FunctionHeader> headers;
  BraceScanner scanner;
  size_t start = 0;
  int line_number = 0;
  while (start < file.text.size()) {
    size_t end = file.text.find('\n', start);
    if (end == std::string::npos) end = file.text.size();
    ++line_number;
    std::string line = file.text.substr(start, end - start);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    // A new statement begins here (a template line above it is its own beginning).
    const std::string& pending = scanner.statement();
    const auto first = pending.find_first_not_of(" \t\n");
    const bool fresh = first == std::string::npos || pending.compare(first, 8, "template") == 0;
    if (scanner.at_namespace_scope() && fresh && looks_like_function_header(line)) {
      const size_t open = start + line.size() - 1;
      const std::string body = body_after(file.text, open);
      if (!body.empty())
        headers.push_back({file.path, line_number, file.text.substr(0, start), line, body, scanner.namespace_depth()});
    }
    scanner.feed(file.text.substr(start, end - start + 1));
    start = end + 1;
  }
  return headers;
}

// ---- The compiler ---------------------------------------------------------------------------------

// The text in single quotes for /bin/sh.
inline std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

inline bool is_executable(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error) && access(path.c_str(), X_OK) == 0;
}

// The compiler tito builds learner code with ($TITO_CXX, which tito sets), else $CXX, else g++, c++
// or clang++ from the PATH; "" when there is none.
inline std::string find_compiler() {
  for (const char* variable : {"TITO_CXX", "CXX"}) {
    const char* value = std::getenv(variable);
    if (value == nullptr || *value == '\0') continue;
    if (std::string(value).find('/') != std::string::npos) {
      if (is_executable(value)) return value;
      continue;
    }
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && is_executable(fs::path(dir) / value)) return (fs::path(dir) / value).string();
  }
  const char* path = std::getenv("PATH");
  for (const char* name : {"g++", "c++", "clang++"}) {
    std::stringstream dirs(path ? path : "/usr/bin");
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && is_executable(fs::path(dir) / name)) return (fs::path(dir) / name).string();
  }
  return "";
}

// What the compiler said about one translation unit.
struct SyntaxCheck {
  bool ran = false;       // the compiler gave a verdict (exit status 0 or 1)
  bool accepted = false;  // exit status 0
  std::string first_error;
};

// `cxx -std=c++17 -fsyntax-only -Werror=return-type` on `unit`, with the framework's public and
// internal headers and the original file's folder for its "..." includes; the compiler's output goes
// to `unit`.log. The return-type error rejects "{ }" as the body of a function that returns a value
// (a throw is accepted, as the starters' bodies are); other warnings do not count.
inline SyntaxCheck check_syntax(const std::string& cxx, const std::string& root, const fs::path& unit,
                                const std::string& original_file) {
  const fs::path log = unit.string() + ".log";
  const std::string command = shell_quoted(cxx) + " -std=c++17 -fsyntax-only -Werror=return-type -I" +
                              shell_quoted(root + "/framework/include") + " -I" + shell_quoted(root + "/framework/src") +
                              " -iquote " + shell_quoted((fs::path(root) / original_file).parent_path().string()) + " " +
                              shell_quoted(unit.string()) + " > " + shell_quoted(log.string()) + " 2>&1";
  const int status = std::system(command.c_str());
  SyntaxCheck check;
  if (status != -1 && WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    check.ran = code == 0 || code == 1;
    check.accepted = code == 0;
  }
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (line.find("error") != std::string::npos) {
      const auto name = line.find(unit.filename().string());  // without the folder
      check.first_error = name == std::string::npos ? line : line.substr(name);
      break;
    }
  }
  return check;
}

}  // namespace code
}  // namespace milestone
