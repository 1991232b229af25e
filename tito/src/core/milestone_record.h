#pragma once
// The learner's milestone results: <ws>/.tito/milestones.json, written only here and always
// atomically. Per milestone and part it keeps the latest run (measured value, gate, time, pass or
// fail, why) and, once a part has ever passed, when. A milestone is achieved when every required
// part has passed at some point. A damaged file is set aside and the record starts empty: results
// can be earned again by re-running, whereas module progress (progress_store.h) has a journal.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/milestone.h"

namespace tito {

struct PartRecord {
  bool passed = false;                  // the latest run's verdict
  bool skipped = false;                 // an optional part that could not run (message says why)
  std::optional<double> value;          // what the program measured (absent: it reported nothing)
  std::string metric;
  std::string gate;                     // "accuracy >= 0.95", as judged
  double seconds = 0;                   // build + run time of the latest run
  std::string at;                       // ISO-8601 of the latest run
  std::optional<std::string> passed_at; // first time it passed; kept when a later run fails
  std::string message;                  // why it failed, one line; empty when it passed
  // Whose code the latest run was built on: modules whose files the learner wrote, and modules that
  // ran the reference solution (copied with --reference, or not completed and linked from the
  // reference library). Both empty in records from before they were kept.
  std::vector<std::string> learner_modules;
  std::vector<std::string> reference_modules;
};

struct MilestoneRecord {
  std::map<int, PartRecord> parts;
  std::optional<std::string> achieved_at;  // when the last required part first passed
};

struct MilestoneRecords {
  std::map<std::string, MilestoneRecord> milestones;  // "01" -> record
};

class MilestoneStore {
 public:
  explicit MilestoneStore(const std::filesystem::path& tito_dir);

  // Missing file: empty. Damaged file: moved to milestones.json.corrupt-<stamp>, empty, notice set.
  std::string load();  // returns a one-line notice for the learner, or ""

  const MilestoneRecords& records() const { return records_; }
  const MilestoneRecord* find(const std::string& id) const;

  // Records one part's run and saves; marks the milestone achieved when its required parts have all
  // passed. Returns true when this call made the milestone achieved.
  bool record_part(const Milestone& milestone, int part, const PartRecord& result);

  const std::filesystem::path& path() const { return path_; }

 private:
  void save() const;
  std::filesystem::path path_;
  MilestoneRecords records_;
};

bool is_achieved(const Milestone& milestone, const MilestoneRecord* record);

// "on your code for modules 01, 02 and the reference solution for modules 03, 04", or "on code you
// wrote yourself (modules 01, 02)" when no module ran the reference; in the learner's language (it is only printed).
std::string code_summary(const std::vector<std::string>& learner_modules, const std::vector<std::string>& reference_modules);

nlohmann::json milestone_records_to_json(const MilestoneRecords& records);
MilestoneRecords milestone_records_from_json(const nlohmann::json& document);  // throws std::runtime_error

}  // namespace tito
