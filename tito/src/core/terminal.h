#pragma once
// How tito talks to the learner: colour only on a real terminal (never with --no-color or NO_COLOR),
// prompts only when someone can answer (never under CI or without a TTY), and the shared message
// shapes (error + fix, next step) so every command reads the same.
#include <string>

namespace tito {

class Terminal {
 public:
  // Decides colour and interactivity from the flags, the environment and the file descriptors.
  void configure(bool no_color_flag);

  bool colour() const { return colour_; }
  bool interactive() const { return interactive_; }

  std::string bold(const std::string& text) const { return paint("1", text); }
  std::string dim(const std::string& text) const { return paint("2", text); }
  std::string red(const std::string& text) const { return paint("31", text); }
  std::string green(const std::string& text) const { return paint("32", text); }
  std::string yellow(const std::string& text) const { return paint("33", text); }
  std::string cyan(const std::string& text) const { return paint("36", text); }
  std::string command(const std::string& text) const { return paint("1;36", text); }  // a copy-pasteable command

  // Glyphs with an ASCII fallback for plain output (logs, CI, dumb terminals).
  std::string ok_mark() const { return colour_ ? green("✓") : "[ok]"; }
  std::string fail_mark() const { return colour_ ? red("✗") : "[x]"; }
  std::string bullet() const { return colour_ ? "•" : "-"; }
  std::string bar_full() const { return colour_ ? "█" : "#"; }
  std::string bar_empty() const { return colour_ ? "░" : "."; }

  void error(const std::string& problem, const std::string& fix) const;  // to stderr
  void warning(const std::string& text) const;                           // to stderr
  void next_step(const std::string& command_line) const;                 // "next: tito module test 01"

  // y/N question; only call when interactive(). EOF or anything but y/yes means no.
  bool confirm(const std::string& question) const;

  // Sends long text through $PAGER (or less -R) when interactive, else prints it.
  void page(const std::string& text) const;

 private:
  std::string paint(const char* code, const std::string& text) const;
  bool colour_ = false;
  bool interactive_ = false;
};

Terminal& terminal();  // the one instance, configured by main

}  // namespace tito
