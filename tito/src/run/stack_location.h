#pragma once
// Where in the learner's code a test program was: from the backtrace block a module test binary
// writes when tito asks (SIGUSR1 before a time-out kill) or when it crashes (curriculum/common/src/
// backtrace_on_signal.h), symbolised with addr2line; and what a sanitizer report says went wrong.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/i18n.h"

namespace tito {

struct CodeLocation {
  std::string function;          // "tinytorch::native::mm(...)"
  std::filesystem::path file;    // as the debug information names it
  int line = 0;
  std::string short_text() const;  // "matmul.cpp:23 in tinytorch::native::mm"
  Bilingual short_text_both() const;  // that, and in the message language (for people)
};

// The addresses of the last complete backtrace block in `output`, already relative to the
// executable (ready for addr2line); empty when there is none.
std::vector<unsigned long long> backtrace_addresses(const std::string& output);

// `output` without any backtrace block: the learner need not see raw addresses.
std::string without_backtrace_blocks(const std::string& output);

// Symbolises `addresses` in `binary` with addr2line (inlined frames included, innermost first).
// Empty when addr2line is missing or fails.
std::vector<CodeLocation> symbolise(const std::filesystem::path& binary, const std::vector<unsigned long long>& addresses);

// The innermost frame in a file under one of `learner_dirs`.
std::optional<CodeLocation> first_learner_frame(const std::vector<CodeLocation>& frames,
                                                const std::vector<std::filesystem::path>& learner_dirs);

// A sanitizer's report in a program's output, reduced to one line for the learner:
// "heap-buffer-overflow, write of 4 bytes, elementwise.cpp:57 in tinytorch::native::add".
// Empty when the output holds no AddressSanitizer or UndefinedBehaviorSanitizer report.
std::string sanitizer_diagnosis(const std::string& output, const std::vector<std::filesystem::path>& learner_dirs);
// The same in English and in the message language (CaseResult::set_diagnosis).
Bilingual sanitizer_diagnosis_both(const std::string& output, const std::vector<std::filesystem::path>& learner_dirs);

}  // namespace tito
