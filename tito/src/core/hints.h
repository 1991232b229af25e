#pragma once
// A module's hints (curriculum/NN_slug/hints.json): per test case, help in levels, from a nudge to
// the step-by-step. `tito module hint NN CASE` reveals one level per call (remembered in the
// workspace's progress); a failing test shows the first level.
//
// Accepted shapes, per case:  "case": "one hint"   |   "case": ["level 1", "level 2", ...]
//                             "case": {"levels": [...]} or {"hint": "..."}
// wrapped or not in {"hints": {...}}; or an array of {"test"|"case"|"name": ..., "hint"|"levels": ...}.
#include <filesystem>
#include <string>
#include <vector>

namespace tito {

struct CaseHints {
  std::string test_case;
  std::vector<std::string> levels;  // never empty
};

// The hints in the file's order. A missing or unreadable file gives none: hints are a help, not a
// requirement (`tito instructor validate` reports cases without one).
std::vector<CaseHints> load_hint_levels(const std::filesystem::path& hints_file);

// The cases whose name contains `query` (case-insensitive); an exact name wins outright.
std::vector<const CaseHints*> match_hint_cases(const std::vector<CaseHints>& hints, const std::string& query);

}  // namespace tito
