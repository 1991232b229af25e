#include "core/learning_path.h"

#include <algorithm>

namespace tito {

const char* to_string(ModuleState state) {
  switch (state) {
    case ModuleState::Unavailable: return "not yet available";
    case ModuleState::Locked: return "locked";
    case ModuleState::Ready: return "ready";
    case ModuleState::Started: return "started";
    case ModuleState::Completed: return "completed";
  }
  return "unknown";
}

std::vector<std::string> missing_prerequisites(const ModuleInfo& module, const ProgressState& progress) {
  std::vector<std::string> missing;
  for (const auto& prerequisite : module.prerequisites) {
    if (!progress.is_completed(prerequisite)) missing.push_back(prerequisite);
  }
  return missing;
}

ModuleState state_of(const ModuleInfo& module, const ProgressState& progress) {
  if (progress.is_completed(module.number)) return ModuleState::Completed;
  if (progress.is_started(module.number)) return ModuleState::Started;
  if (!module.available()) return ModuleState::Unavailable;
  if (!missing_prerequisites(module, progress).empty()) return ModuleState::Locked;
  return ModuleState::Ready;
}

std::vector<const ModuleInfo*> unlocked_by(const Curriculum& curriculum, const std::string& just_completed,
                                           const ProgressState& progress) {
  std::vector<const ModuleInfo*> unlocked;
  for (const auto& module : curriculum.modules()) {
    const auto& needs = module.prerequisites;
    if (std::find(needs.begin(), needs.end(), just_completed) == needs.end()) continue;
    if (progress.is_completed(module.number)) continue;
    if (missing_prerequisites(module, progress).empty()) unlocked.push_back(&module);
  }
  return unlocked;
}

MilestoneDistance next_milestone(const Curriculum& curriculum, const ProgressState& progress) {
  for (const auto& milestone : curriculum.milestones()) {
    MilestoneDistance distance;
    for (const auto& module : milestone.required_modules) {
      if (!progress.is_completed(module)) distance.missing_modules.push_back(module);
    }
    if (!distance.missing_modules.empty()) {
      distance.milestone = &milestone;
      return distance;
    }
  }
  return {};
}

std::string next_command(const Curriculum& curriculum, const ProgressState& progress) {
  // Unfinished work first (the most recent module if it is one), then the first module that is ready.
  if (progress.last_worked && progress.is_started(*progress.last_worked) && !progress.is_completed(*progress.last_worked)) {
    return "tito module test " + *progress.last_worked;
  }
  for (const auto& module : curriculum.modules()) {
    if (state_of(module, progress) == ModuleState::Started) return "tito module test " + module.number;
  }
  for (const auto& module : curriculum.modules()) {
    if (state_of(module, progress) == ModuleState::Ready) return "tito module start " + module.number;
  }
  return "tito module status";
}

}  // namespace tito
