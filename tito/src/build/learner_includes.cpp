#include "build/learner_includes.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "build/captured_command.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

// The source as the preprocessor sees its lines: backslash-newlines spliced and comments replaced by
// a space; string literals are kept (an include's operand is one). Each line remembers where it began.
struct LogicalLine {
  int number;
  std::string text;
};

std::vector<LogicalLine> logical_lines(const std::string& source) {
  std::vector<LogicalLine> lines;
  enum { Code, LineComment, BlockComment, String, Char } state = Code;
  int physical = 1;
  LogicalLine current{1, ""};
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\\' && i + 1 < source.size() && source[i + 1] == '\n') {
      ++i;
      ++physical;
      continue;
    }
    if (c == '\n') {
      ++physical;
      if (state == LineComment || state == String || state == Char) state = Code;
      if (state == BlockComment) continue;  // the comment goes on; the logical line does too
      lines.push_back(current);
      current = {physical, ""};
      continue;
    }
    const char next = i + 1 < source.size() ? source[i + 1] : '\0';
    switch (state) {
      case Code:
        if (c == '/' && next == '/') {
          state = LineComment;
          current.text += ' ';
        } else if (c == '/' && next == '*') {
          state = BlockComment;
          current.text += ' ';
          ++i;
        } else {
          if (c == '"') state = String;
          if (c == '\'') state = Char;
          current.text += c;
        }
        break;
      case LineComment:
        break;
      case BlockComment:
        if (c == '*' && next == '/') {
          state = Code;
          ++i;
        }
        break;
      case String:
      case Char:
        current.text += c;
        if (c == '\\' && next != '\0' && next != '\n') {
          current.text += next;
          ++i;
        } else if ((state == String && c == '"') || (state == Char && c == '\'')) {
          state = Code;
        }
        break;
    }
  }
  lines.push_back(current);
  return lines;
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\f\v");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\f\v") - first + 1);
}

// Why an include operand ("x.h" or <x.h>, delimiters included) reaches outside, or "".
std::string operand_problem(const std::string& operand) {
  if (operand.size() < 2) return "";
  const char open = operand.front();
  const char close = open == '"' ? '"' : open == '<' ? '>' : '\0';
  if (close == '\0') return "";  // a macro: the compiler's own account (the depfile) decides
  const auto end = operand.find(close, 1);
  const std::string path = operand.substr(1, end == std::string::npos ? std::string::npos : end - 1);
  if (!path.empty() && path.front() == '/') return "an absolute path";
  for (const auto& part : fs::path(path))
    if (part == "..") return "a '..' component";
  return "";
}

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The asm keywords as whole words of the code outside string literals.
std::string asm_keyword_in(const std::string& code) {
  std::string word;
  bool in_string = false;
  char quote = 0;
  for (std::size_t i = 0; i <= code.size(); ++i) {
    const char c = i < code.size() ? code[i] : ' ';
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == quote) in_string = false;
      continue;
    }
    if (is_identifier_char(c)) {
      word += c;
      continue;
    }
    if (word == "asm" || word == "__asm" || word == "__asm__") return word;
    word.clear();
    if (c == '"' || c == '\'') {
      in_string = true;
      quote = c;
    }
  }
  return "";
}

}  // namespace

std::vector<std::string> forbidden_include_lines(const std::string& source) {
  std::vector<std::string> found;
  for (const auto& line : logical_lines(source)) {
    const std::string text = trimmed(line.text);
    const std::string where = "line " + std::to_string(line.number) + ": ";
    if (!text.empty() && text.front() == '#') {
      std::string rest = trimmed(text.substr(1));
      std::size_t name_end = 0;
      while (name_end < rest.size() && is_identifier_char(rest[name_end])) ++name_end;
      const std::string directive = rest.substr(0, name_end);
      if (directive == "include" || directive == "include_next" || directive == "import") {
        const std::string operand = trimmed(rest.substr(name_end));
        const std::string problem = operand_problem(operand);
        if (!problem.empty()) found.push_back(where + "#" + directive + " " + operand + " (" + problem + ")");
        continue;
      }
    }
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    const std::string keyword = asm_keyword_in(text);
    if (!keyword.empty()) found.push_back(where + "`" + keyword + "` (inline assembly can read any file; not allowed here)");
    else if (lower.find("incbin") != std::string::npos) found.push_back(where + "`.incbin` (reads a file into the program)");
  }
  return found;
}

std::vector<fs::path> depfile_dependencies(const std::string& text) {
  std::vector<fs::path> files;
  std::string word;
  bool seen_target = false;
  auto finish_word = [&] {
    if (word.empty()) return;
    if (!seen_target && word.back() == ':') {
      seen_target = true;  // "x.o:" names the object, not a dependency
    } else if (seen_target) {
      files.emplace_back(word);
    }
    word.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '\\' && (next == ' ' || next == '#')) {
      word += next;
      ++i;
    } else if (c == '\\' && (next == '\n' || next == '\r')) {
      finish_word();
      ++i;
    } else if (c == '$' && next == '$') {
      word += '$';
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      finish_word();
    } else if (c == ':' && !seen_target && (next == ' ' || next == '\n' || next == '\0')) {
      word += c;
      finish_word();
    } else {
      word += c;
    }
  }
  finish_word();
  return files;
}

std::vector<fs::path> dependencies_outside(const std::vector<fs::path>& dependencies, const std::vector<fs::path>& allowed_roots) {
  std::vector<fs::path> roots;
  std::error_code error;
  for (const auto& root : allowed_roots) {
    fs::path canonical = fs::weakly_canonical(fs::absolute(root), error);
    if (!error) roots.push_back(canonical);
  }
  std::vector<fs::path> outside;
  for (const auto& dependency : dependencies) {
    const fs::path resolved = fs::weakly_canonical(fs::absolute(dependency), error);
    const bool allowed = !error && std::any_of(roots.begin(), roots.end(), [&](const fs::path& root) {
      const fs::path relative = resolved.lexically_relative(root);
      return !relative.empty() && *relative.begin() != "..";
    });
    if (!allowed) outside.push_back(dependency);
  }
  return outside;
}

std::vector<fs::path> compiler_system_include_dirs(const std::string& cxx) {
  const std::string compiler = find_executable(cxx);
  if (compiler.empty()) return {};
  std::vector<fs::path> dirs;
  bool listing = false;
  run_captured({compiler, "-x", "c++", "-E", "-v", "/dev/null", "-o", "/dev/null"}, {}, [&](const std::string& line) {
    if (line.rfind("#include <...> search starts here:", 0) == 0) {
      listing = true;
    } else if (line.rfind("End of search list.", 0) == 0) {
      listing = false;
    } else if (listing && !line.empty() && line[0] == ' ') {
      std::string dir = trimmed(line);
      const auto framework = dir.find(" (framework directory)");
      if (framework != std::string::npos) dir.erase(framework);
      dirs.emplace_back(dir);
    }
  });
  return dirs;
}

}  // namespace tito
