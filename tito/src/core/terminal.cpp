#include "core/terminal.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <unistd.h>

#include <fmt/format.h>

#include "core/i18n.h"
#include "core/text.h"

namespace tito {
namespace {

bool env_set(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0';
}

}  // namespace

Terminal& terminal() {
  static Terminal instance;
  return instance;
}

void Terminal::configure(bool no_color_flag) {
  const char* term = std::getenv("TERM");
  const bool dumb = term != nullptr && std::strcmp(term, "dumb") == 0;
  colour_ = !no_color_flag && !env_set("NO_COLOR") && ::isatty(STDOUT_FILENO) && !dumb;
  interactive_ = !env_set("CI") && ::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO);
}

std::string Terminal::paint(const char* code, const std::string& text) const {
  return colour_ ? fmt::format("\033[{}m{}\033[0m", code, text) : text;
}

void Terminal::error(const std::string& problem, const std::string& fix) const {
  // stderr may be a terminal while stdout is not; colour follows stdout's decision for simplicity.
  // TRANSLATORS: the label before what went wrong; "fix:" labels the command that mends it.
  std::cerr << red(tr("error:")) << " " << problem << "\n";
  if (!fix.empty()) std::cerr << cyan(tr("fix:")) << " " << fix << "\n";
}

void Terminal::warning(const std::string& text) const { std::cerr << yellow(tr("warning:")) << " " << text << "\n"; }

void Terminal::next_step(const std::string& command_line) const {
  // TRANSLATORS: the label before the command to run next, e.g. "next: tito module test 01".
  std::cout << tr("next:") << " " << command(command_line) << "\n";
}

bool Terminal::confirm(const std::string& question) const {
  // TRANSLATORS: the answers offered after a yes/no question; the first letter is the one to type for yes.
  std::cout << question << " " << tr("[y/N]") << " " << std::flush;
  std::string answer;
  if (!std::getline(std::cin, answer)) return false;
  answer = lowercase(trimmed(answer));
  // English answers always count, and the learner's language's own ("s", "sí").
  // TRANSLATORS: the short and the long word for "yes" that a learner types to answer a question.
  return answer == "y" || answer == "yes" || answer == tr("y") || answer == tr("yes");
}

void Terminal::page(const std::string& text) const {
  if (!interactive_) {
    std::cout << text << std::flush;
    return;
  }
  const char* pager = std::getenv("PAGER");
  std::string command_line = (pager && *pager) ? pager : "less -R";
  std::cout.flush();
  FILE* pipe = ::popen(command_line.c_str(), "w");
  if (pipe == nullptr) {
    std::cout << text << std::flush;
    return;
  }
  std::fwrite(text.data(), 1, text.size(), pipe);
  ::pclose(pipe);
}

}  // namespace tito
