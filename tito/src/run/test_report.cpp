#include "run/test_report.h"

#include <algorithm>

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
