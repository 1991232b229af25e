#pragma once
// `tito instructor validate`: can every available module be graded? For each one: its solution
// markers are well formed, sit inside function bodies and name a heading of the lesson, no TODO
// quotes its solution, no lesson, hint or starter points into framework/src/, the points in its tests add up to the
// total in curriculum.json, the generated starter compiles and scores 0 without crashing, and the
// reference scores full points, and every known-wrong variant of the reference (variants.h) makes a
// test fail. Uses the same build and sandbox path as `tito grade`.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/curriculum.h"
#include "core/installation.h"
#include "run/module_test_runner.h"

namespace tito {

struct ValidationCheck {
  std::string name;     // "markers", "points", "starter fails", "reference passes", "variants", "hints"
  bool ok = false;
  bool warning_only = false;  // reported but does not fail validation
  std::string detail;
};

struct ModuleValidation {
  std::string number, title;
  std::vector<ValidationCheck> checks;
  bool ok() const;
};

// Problems with the solution markers of one learner file ("file:line: ..."): the starter
// generator's own errors (unterminated, nested, END without BEGIN, missing attributes), and any
// region that is not inside a function body or leaves its braces unbalanced.
std::vector<std::string> marker_problems(const std::string& source, const std::string& file_label);

// The heading a misspelt lesson reference most likely meant (the one with the same section number,
// "4. Samplers: order" for "4. Samplers"); "" when none is close.
std::string closest_heading(const std::string& wanted, const std::vector<std::string>& headings);

// Regions whose lesson="..." names no heading of the module's lesson ("file:line: ..."), given the
// lesson's headings as markdown_headings() reads them; the message suggests the closest heading.
std::vector<std::string> lesson_reference_problems(const std::string& source, const std::string& file_label,
                                                   const std::vector<std::string>& headings);

// The places in a module's hints.json that send the learner to the lesson ("section 4", "section 5,
// 'Masking'") and find nothing there: no heading numbered 4, or no heading or bold paragraph lead
// (**Masking.**) of that title. One line each ("hints.json: ..."); empty when every reference resolves.
std::vector<std::string> hint_section_problems(const std::string& hints_text, const std::string& lesson_markdown);

// A TODO states the contract; it must not hand out the answer. Reports ("file:line: ...") every
// line of a region's solution that its TODO (the comment block above the region, or above the
// function the region sits in) quotes verbatim. Lines under `min_chars` are too generic to count,
// and lines holding a string literal (error messages, dispatch names) are contract, not answer.
std::vector<std::string> todo_leaks(const std::string& source, const std::string& file_label, std::size_t min_chars = 16);

// Lines of `text` that send the learner into the framework's sources ("framework/src/"), which a
// workspace does not have and where the solutions sit ("label:line: ...").
std::vector<std::string> framework_source_mentions(const std::string& text, const std::string& label);
// Every module with tests carries at least this many known-wrong variants.
constexpr std::size_t kMinimumVariants = 5;

using ValidationProgress = std::function<void(const std::string& line)>;

std::vector<ModuleValidation> validate_modules(const Installation& installation, const Curriculum& curriculum,
                                               const Toolchain& toolchain, const std::vector<const ModuleInfo*>& modules,
                                               const std::filesystem::path& scratch_dir, int jobs,
                                               bool check_variants_too = true, const ValidationProgress& progress = {});

}  // namespace tito
