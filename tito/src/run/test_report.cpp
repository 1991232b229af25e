#include "run/test_report.h"

#include <algorithm>
#include <limits>

namespace tito {

const char* to_string(CaseStatus status) {
  switch (status) {
    case CaseStatus::Passed: return "passed";
    case CaseStatus::Failed: return "failed";
    case CaseStatus::NotImplemented: return "not implemented";
    case CaseStatus::Errored: return "error";
    case CaseStatus::Crashed: return "crashed";
    case CaseStatus::TimedOut: return "timed out";
    case CaseStatus::OutOfMemory: return "out of memory";
    case CaseStatus::NotRun: return "not run";
  }
  return "unknown";
}

namespace {

// Failures an implementation bug causes: a case that crashed or hung is shown on its own.
bool failed_by_checks(const CaseResult& c) { return c.status == CaseStatus::Failed || c.status == CaseStatus::Errored; }

bool contains_all(const std::vector<std::string>& outer, const std::vector<std::string>& inner) {
  return std::all_of(inner.begin(), inner.end(),
                     [&](const std::string& item) { return std::find(outer.begin(), outer.end(), item) != outer.end(); });
}

}  // namespace

void explain_failures(std::vector<CaseResult>& cases, const ModuleHints& hints) {
  for (auto& c : cases) {
    c.exercises = hints.exercises(c.name);
    if (c.passed()) continue;
    // The failed check that has its own hint, the one that depends on least when several do.
    std::string check;
    std::size_t least = std::numeric_limits<std::size_t>::max();
    for (const auto& failure : c.failures) {
      if (failure.check.empty() || !hints.find(c.name, failure.check)) continue;
      const auto& depends = hints.exercises(c.name, failure.check);
      const std::size_t size = depends.empty() ? std::numeric_limits<std::size_t>::max() - 1 : depends.size();
      if (size < least) {
        least = size;
        check = failure.check;
      }
    }
    if (!check.empty() && !hints.exercises(c.name, check).empty()) c.exercises = hints.exercises(c.name, check);
    c.hint = hints.first_level(c.name, check);
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& mine = cases[i].exercises;
    if (!failed_by_checks(cases[i]) || mine.empty()) continue;
    // The most specific failed case whose exercises are all among this one's (the earlier on a tie).
    const CaseResult* cause = nullptr;
    std::size_t cause_size = mine.size() + 1;
    for (std::size_t j = 0; j < cases.size(); ++j) {
      const auto& theirs = cases[j].exercises;
      if (j == i || !failed_by_checks(cases[j]) || theirs.empty() || !contains_all(mine, theirs)) continue;
      if (theirs.size() == mine.size() && j > i) continue;  // the same list: the earlier case explains the later
      if (theirs.size() < cause_size) {
        cause = &cases[j];
        cause_size = theirs.size();
      }
    }
    if (cause) cases[i].same_cause_as = cause->name;
  }
}

int TestReport::points_earned() const {
  int total = 0;
  for (const auto& c : cases)
    if (c.passed()) total += c.points;
  return total;
}

int TestReport::points_possible() const {
  int total = 0;
  for (const auto& c : cases) total += c.points;
  return total;
}

int TestReport::passed_count() const {
  return static_cast<int>(std::count_if(cases.begin(), cases.end(), [](const CaseResult& c) { return c.passed(); }));
}

int TestReport::failed_count() const { return static_cast<int>(cases.size()) - passed_count(); }

bool TestReport::all_passed() const { return build_ok && failed_count() == 0; }

}  // namespace tito
