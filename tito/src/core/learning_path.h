#pragma once
// What the learner may do next: each module's state from the curriculum and the progress, what a
// completion unlocks, and how far the next milestone is.
#include <string>
#include <vector>

#include "core/curriculum.h"
#include "core/progress_store.h"

namespace tito {

enum class ModuleState { Unavailable, Locked, Ready, Started, Completed };

const char* to_string(ModuleState state);  // "not yet available", "locked", "ready", "started", "completed"

ModuleState state_of(const ModuleInfo& module, const ProgressState& progress);
std::vector<std::string> missing_prerequisites(const ModuleInfo& module, const ProgressState& progress);

// Modules that list `just_completed` as a prerequisite and whose prerequisites are now all complete.
std::vector<const ModuleInfo*> unlocked_by(const Curriculum& curriculum, const std::string& just_completed,
                                           const ProgressState& progress);

struct MilestoneDistance {
  const MilestoneInfo* milestone = nullptr;  // the first milestone still out of reach; null when all are
  std::vector<std::string> missing_modules;
};
MilestoneDistance next_milestone(const Curriculum& curriculum, const ProgressState& progress);

// The single most useful command for the learner right now, e.g. "tito module test 02".
std::string next_command(const Curriculum& curriculum, const ProgressState& progress);

}  // namespace tito
