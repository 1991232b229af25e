#include "core/milestone_record.h"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "core/clock.h"
#include "core/files.h"
#include "core/i18n.h"

namespace tito {
namespace {

using nlohmann::json;
constexpr int kFormatVersion = 1;

json part_to_json(const PartRecord& part) {
  json entry = {{"status", part.passed ? "passed" : part.skipped ? "skipped" : "failed"},
                {"metric", part.metric},
                {"value", part.value ? json(*part.value) : json(nullptr)},
                {"gate", part.gate},
                {"seconds", part.seconds},
                {"at", part.at},
                {"message", part.message}};
  entry["passed_at"] = part.passed_at ? json(*part.passed_at) : json(nullptr);
  entry["code"] = {{"learner", part.learner_modules}, {"reference", part.reference_modules}};
  return entry;
}

PartRecord part_from_json(const json& entry, const std::string& where) {
  if (!entry.is_object()) throw std::runtime_error(where + " is not an object");
  PartRecord part;
  const std::string status = entry.at("status").get<std::string>();
  if (status != "passed" && status != "failed" && status != "skipped")
    throw std::runtime_error(where + ".status is not passed, failed or skipped");
  part.passed = status == "passed";
  part.skipped = status == "skipped";
  part.metric = entry.value("metric", "");
  if (entry.contains("value") && !entry["value"].is_null()) part.value = entry["value"].get<double>();
  part.gate = entry.value("gate", "");
  part.seconds = entry.value("seconds", 0.0);
  part.at = entry.at("at").get<std::string>();
  if (entry.contains("passed_at") && !entry["passed_at"].is_null()) part.passed_at = entry["passed_at"].get<std::string>();
  part.message = entry.value("message", "");
  if (entry.contains("code")) {  // absent in records written before it was kept
    part.learner_modules = entry["code"].value("learner", std::vector<std::string>{});
    part.reference_modules = entry["code"].value("reference", std::vector<std::string>{});
  }
  return part;
}

}  // namespace

json milestone_records_to_json(const MilestoneRecords& records) {
  json milestones = json::object();
  for (const auto& [id, record] : records.milestones) {
    json parts = json::object();
    for (const auto& [number, part] : record.parts) parts[std::to_string(number)] = part_to_json(part);
    milestones[id] = {{"parts", parts}, {"achieved_at", record.achieved_at ? json(*record.achieved_at) : json(nullptr)}};
  }
  return {{"version", kFormatVersion}, {"milestones", milestones}};
}

MilestoneRecords milestone_records_from_json(const json& document) {
  if (!document.is_object() || document.value("version", 0) != kFormatVersion)
    throw std::runtime_error("\"version\" is missing or not 1");
  MilestoneRecords records;
  try {
    for (const auto& [id, entry] : document.at("milestones").items()) {
      MilestoneRecord record;
      for (const auto& [number, part] : entry.at("parts").items())
        record.parts[std::stoi(number)] = part_from_json(part, fmt::format("milestones.{}.parts.{}", id, number));
      if (entry.contains("achieved_at") && !entry["achieved_at"].is_null())
        record.achieved_at = entry["achieved_at"].get<std::string>();
      records.milestones[id] = record;
    }
  } catch (const json::exception& error) {
    throw std::runtime_error(error.what());
  } catch (const std::logic_error& error) {  // std::stoi on a part key that is not a number
    throw std::runtime_error(std::string("a part key is not a number (") + error.what() + ")");
  }
  return records;
}

bool is_achieved(const Milestone& milestone, const MilestoneRecord* record) {
  if (!record || milestone.parts.empty()) return false;
  for (const auto& part : milestone.parts) {
    if (!part.required) continue;
    auto found = record->parts.find(part.number);
    if (found == record->parts.end() || !found->second.passed_at) return false;
  }
  return true;
}

std::string code_summary(const std::vector<std::string>& learner_modules, const std::vector<std::string>& reference_modules) {
  auto modules = [](const std::vector<std::string>& numbers) {
    // TRANSLATORS: {} lists module numbers, e.g. "01, 02, 03"
    return trnf("module {}", "modules {}", numbers.size(), fmt::join(numbers, ", "));
  };
  // TRANSLATORS: whose code a milestone ran on; {} is e.g. "modules 01, 02, 03"
  if (reference_modules.empty()) return trf("on code you wrote yourself ({})", modules(learner_modules));
  // TRANSLATORS: whose code a milestone ran on; {} is e.g. "modules 01, 02, 03"
  if (learner_modules.empty()) return trf("on the reference solution only ({}), none of your code", modules(reference_modules));
  // TRANSLATORS: whose code a milestone ran on; each {} is e.g. "modules 01, 02"
  return trf("on your code for {} and the reference solution for {}", modules(learner_modules), modules(reference_modules));
}

MilestoneStore::MilestoneStore(const std::filesystem::path& tito_dir) : path_(tito_dir / "milestones.json") {}

std::string MilestoneStore::load() {
  records_ = {};
  if (!std::filesystem::exists(path_)) return "";
  std::string problem;
  try {
    records_ = milestone_records_from_json(json::parse(read_file(path_)));
    return "";
  } catch (const json::exception&) {
    problem = "is not valid JSON";
  } catch (const std::runtime_error& error) {
    problem = fmt::format("is damaged ({})", error.what());
  }
  records_ = {};
  auto aside = unique_path(path_.string() + ".corrupt-" + filename_stamp_now());
  std::filesystem::rename(path_, aside);
  const std::string notice =
      fmt::format("milestones.json {}; it was kept as {} and your milestone results start afresh (re-run a milestone to "
                  "record it again)",
                  problem, aside.filename().string());
  spdlog::warn("{}", notice);
  return notice;
}

const MilestoneRecord* MilestoneStore::find(const std::string& id) const {
  auto found = records_.milestones.find(id);
  return found == records_.milestones.end() ? nullptr : &found->second;
}

bool MilestoneStore::record_part(const Milestone& milestone, int part, const PartRecord& result) {
  MilestoneRecord& record = records_.milestones[milestone.id];
  PartRecord entry = result;
  if (entry.at.empty()) entry.at = iso8601_now();
  auto previous = record.parts.find(part);
  if (previous != record.parts.end() && previous->second.passed_at) entry.passed_at = previous->second.passed_at;
  if (entry.passed && !entry.passed_at) entry.passed_at = entry.at;
  record.parts[part] = entry;
  bool newly_achieved = false;
  if (!record.achieved_at && is_achieved(milestone, &record)) {
    record.achieved_at = entry.at;
    newly_achieved = true;
  }
  save();
  return newly_achieved;
}

void MilestoneStore::save() const {
  write_file_atomically(path_, milestone_records_to_json(records_).dump(2) + "\n");
}

}  // namespace tito
