#pragma once
// A module's hints (curriculum/NN_slug/hints.json): per test case, help in levels, from a nudge to
// the step-by-step. `tito module hint NN CASE` reveals one level per call (remembered in the
// workspace's progress); a failing test shows the first level.
//
// Accepted shapes, per case:  "case": "one hint"   |   "case": ["level 1", "level 2", ...]
//                             "case": {"levels": [...]} or {"hint": "..."}
// wrapped or not in {"hints": {...}}; or an array of {"test"|"case"|"name": ..., "hint"|"levels": ...}.
// The object shapes may also say
//   "exercises": ["scale", "softmax", ...]  what the case depends on (functions or properties). When
//       several cases fail, one whose list is contained in another's is the more specific: the report
//       shows it first and folds the other into one line (the same bug most likely fails both).
//   "checks": {"LABEL": <levels, any shape above, with its own "exercises" if it depends on less>}
//       the hint for a failure under the test's LABEL_CHECKS("LABEL") (curriculum/common's testing.h),
//       shown instead of the case's. A failed check that depends on less than its case (a property
//       that isolates one step) makes the case that specific.
#include <filesystem>
#include <string>
#include <vector>

namespace tito {

struct CaseHints {
  std::string test_case;
  std::vector<std::string> levels;     // never empty
  std::string check;                   // "" for the case's own hint, else the LABEL_CHECKS label it answers
  std::vector<std::string> exercises;  // what the case (or the check) depends on; empty when undeclared
  // What `tito module hint` takes and remembers: the case's name, or "case / check".
  std::string key() const { return check.empty() ? test_case : test_case + " / " + check; }
};

// The hints in the file's order, each case's check hints right after it. A missing or unreadable file
// gives none: hints are a help, not a requirement (`tito instructor validate` reports cases without one).
std::vector<CaseHints> load_hint_levels(const std::filesystem::path& hints_file);

// The entries whose key contains `query` (case-insensitive); an exact key wins outright, and so does a
// case's own entry over its check hints when the query matches nothing else.
std::vector<const CaseHints*> match_hint_cases(const std::vector<CaseHints>& hints, const std::string& query);

// A module's hints as a test report uses them.
struct ModuleHints {
  std::string module_number;  // for the command that shows the next level
  std::vector<CaseHints> entries;

  bool has_case(const std::string& test_case) const { return find(test_case) != nullptr; }
  // The entry of (test_case, check); nullptr when there is none.
  const CaseHints* find(const std::string& test_case, const std::string& check = "") const;
  // Level 1 of the hint for a failure of `test_case` under `check` (the case's own when that check has
  // none), with the command that reveals the next level, in the learner's language; "" when the case has no hint.
  std::string first_level(const std::string& test_case, const std::string& check = "") const;
  const std::vector<std::string>& exercises(const std::string& test_case, const std::string& check = "") const;
};

}  // namespace tito
