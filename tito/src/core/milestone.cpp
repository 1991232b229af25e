#include "core/milestone.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "core/text.h"

namespace tito {
namespace {

using nlohmann::json;


bool all_digits(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

const std::set<std::string>& comparisons() {
  static const std::set<std::string> known = {">=", ">", "==", "<=", "<", "!="};
  return known;
}

MilestoneGate gate_from_json(const json& entry, const std::string& where) {
  if (!entry.is_object()) throw std::runtime_error(where + ".gate is missing or not an object");
  MilestoneGate gate;
  gate.metric = entry.at("metric").get<std::string>();
  gate.comparison = entry.at("comparison").get<std::string>();
  gate.value = entry.at("value").get<double>();
  if (!comparisons().count(gate.comparison))
    throw std::runtime_error(fmt::format("{}.gate.comparison \"{}\" is not one of >= > == <= < !=", where, gate.comparison));
  return gate;
}

MilestonePart part_from_json(const json& entry) {
  MilestonePart part;
  part.number = entry.at("number").get<int>();
  const std::string where = fmt::format("parts[{}]", part.number);
  part.title = entry.value("title", fmt::format("Part {}", part.number));
  const json& program = entry.at("program");
  if (program.is_string()) part.programs = {program.get<std::string>()};
  else part.programs = program.get<std::vector<std::string>>();
  if (part.programs.empty()) throw std::runtime_error(where + ".program names no file");
  part.required = entry.value("required", true);
  part.required_modules = entry.at("required_modules").get<std::vector<std::string>>();
  if (entry.contains("gates")) {
    const json& gates = entry["gates"];
    if (entry.contains("gate")) throw std::runtime_error(where + " has both \"gate\" and \"gates\"; keep one");
    if (!gates.is_array() || gates.empty()) throw std::runtime_error(where + ".gates is not a non-empty list");
    part.gate = gate_from_json(gates[0], where);
    for (std::size_t i = 1; i < gates.size(); ++i) part.further_gates.push_back(gate_from_json(gates[i], where));
  } else {
    part.gate = gate_from_json(entry.contains("gate") ? entry["gate"] : json(), where);
  }
  if (entry.contains("limits")) {
    part.time_limit_s = entry["limits"].value("time_s", part.time_limit_s);
    part.memory_limit_mb = entry["limits"].value("memory_mb", part.memory_limit_mb);
  }
  part.arguments = entry.value("arguments", std::vector<std::string>{});
  part.expected_minutes = entry.value("expected_minutes", 0.0);
  if (part.expected_minutes < 0) throw std::runtime_error(where + ".expected_minutes is negative");
  return part;
}

}  // namespace

std::string MilestoneGate::describe() const {
  return fmt::format("{} {} {}", metric, comparison, value);
}

std::string MilestonePart::describe_gates() const {
  std::string text = gate.describe();
  for (const auto& further : further_gates) text += " and " + further.describe();
  return text;
}

std::string format_measured(double value) { return fmt::format("{:.6g}", value); }

bool gate_passes(const MilestoneGate& gate, double measured) {
  if (!comparisons().count(gate.comparison)) throw std::invalid_argument("unknown comparison " + gate.comparison);
  if (!std::isfinite(measured)) return false;
  const double slack = 1e-9 * std::max(1.0, std::fabs(gate.value));
  const bool equal = std::fabs(measured - gate.value) <= slack;
  if (gate.comparison == ">=") return measured >= gate.value;
  if (gate.comparison == ">") return measured > gate.value;
  if (gate.comparison == "<=") return measured <= gate.value;
  if (gate.comparison == "<") return measured < gate.value;
  if (gate.comparison == "==") return equal;
  return !equal;  // "!="
}

std::string Milestone::label() const { return fmt::format("{} ({}, {})", id, title, year); }

const MilestonePart* Milestone::part(int number) const {
  for (const auto& candidate : parts)
    if (candidate.number == number) return &candidate;
  return nullptr;
}

bool Milestone::implemented() const {
  for (const auto& p : parts)
    for (const auto& program : p.programs)
      if (!std::filesystem::is_regular_file(dir / program)) return false;
  return !parts.empty();
}

Milestone milestone_from_json_text(const std::string& text, const std::filesystem::path& dir) {
  const json data = json::parse(text);
  Milestone milestone;
  milestone.dir = dir;
  milestone.id = data.at("id").get<std::string>();
  milestone.year = data.value("year", 0);
  milestone.slug = data.value("slug", lowercase(milestone.id));
  milestone.title = data.value("title", milestone.slug);
  milestone.summary = data.value("summary", "");
  milestone.story = data.value("story", "");
  milestone.aliases = data.value("aliases", std::vector<std::string>{});
  if (data.contains("parts"))
    for (const auto& entry : data["parts"]) milestone.parts.push_back(part_from_json(entry));
  std::sort(milestone.parts.begin(), milestone.parts.end(),
            [](const MilestonePart& a, const MilestonePart& b) { return a.number < b.number; });

  // The top level is the union of the parts'; a milestone without parts yet keeps its declared list.
  std::set<std::string> modules;
  for (const auto& p : milestone.parts) modules.insert(p.required_modules.begin(), p.required_modules.end());
  if (milestone.parts.empty()) {
    const auto declared = data.value("required_modules", std::vector<std::string>{});
    modules.insert(declared.begin(), declared.end());
  } else if (data.contains("required_modules")) {
    const auto declared = data["required_modules"].get<std::vector<std::string>>();
    if (std::set<std::string>(declared.begin(), declared.end()) != modules)
      throw std::runtime_error("required_modules is not the union of the parts' required_modules");
  }
  milestone.required_modules.assign(modules.begin(), modules.end());
  return milestone;
}

std::vector<Milestone> load_milestones(const std::filesystem::path& source_dir) {
  std::vector<Milestone> milestones;
  const auto root = source_dir / "milestones";
  if (!std::filesystem::is_directory(root)) return milestones;
  for (const auto& folder : std::filesystem::directory_iterator(root)) {
    const auto file = folder.path() / "milestone.json";
    if (!std::filesystem::is_regular_file(file)) continue;
    try {
      milestones.push_back(milestone_from_json_text(read_file(file), folder.path()));
    } catch (const std::exception& error) {
      throw UserError(fmt::format("{} is not a valid milestone description: {}", file.string(), error.what()),
                      fmt::format("fix the file, or restore it: git checkout -- {}", file.string()));
    }
  }
  std::sort(milestones.begin(), milestones.end(), [](const Milestone& a, const Milestone& b) { return a.id < b.id; });
  return milestones;
}

const Milestone& resolve_milestone(const std::vector<Milestone>& milestones, const std::string& raw) {
  const std::string text = lowercase(trimmed(raw));
  for (const auto& milestone : milestones) {
    std::vector<std::string> names = {lowercase(milestone.id), lowercase(milestone.slug), lowercase(milestone.title),
                                      lowercase(milestone.output_folder()), lowercase(milestone.dir.filename().string())};
    for (const auto& alias : milestone.aliases) names.push_back(lowercase(alias));
    if (std::find(names.begin(), names.end(), text) != names.end()) return milestone;
    if (all_digits(text) && all_digits(milestone.id) && text.size() <= 3 && std::stoi(text) == std::stoi(milestone.id))
      return milestone;
  }
  std::string valid;
  for (const auto& milestone : milestones) {
    valid += (valid.empty() ? "" : ", ") + milestone.id + " " + milestone.slug;
  }
  throw UserError(fmt::format("there is no milestone '{}'; the milestones are {}", raw, valid), "tito milestone list",
                  kExitUsage);
}

std::vector<std::string> missing_modules(const Milestone& milestone, const ProgressState& progress) {
  std::vector<std::string> missing;
  for (const auto& module : milestone.required_modules)
    if (!progress.is_completed(module)) missing.push_back(module);
  return missing;
}

std::vector<std::string> modules_changed_since_completion(
    const Milestone& milestone, const ProgressState& progress,
    const std::function<std::string(const std::string& module)>& fingerprint_now) {
  std::vector<std::string> changed;
  for (const auto& module : milestone.required_modules) {
    const auto entry = progress.modules.find(module);
    if (entry == progress.modules.end() || !entry->second.completed() || !entry->second.fingerprint) continue;
    if (fingerprint_now(module) != *entry->second.fingerprint) changed.push_back(module);
  }
  return changed;
}

std::vector<const Milestone*> milestones_runnable_after(const std::vector<Milestone>& milestones,
                                                        const std::string& just_completed,
                                                        const ProgressState& progress) {
  std::vector<const Milestone*> runnable;
  for (const auto& milestone : milestones) {
    const auto& needs = milestone.required_modules;
    if (std::find(needs.begin(), needs.end(), just_completed) == needs.end()) continue;
    if (missing_modules(milestone, progress).empty()) runnable.push_back(&milestone);
  }
  return runnable;
}

std::optional<ResultLine> parse_result_line(const std::string& raw) {
  std::string line = raw;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const std::string prefix = kResultPrefix;
  if (line.rfind(prefix, 0) != 0) return std::nullopt;
  json payload;
  try {
    payload = json::parse(line.substr(prefix.size()));
  } catch (const json::exception& error) {
    throw std::invalid_argument(fmt::format("its JSON does not parse ({})", error.what()));
  }
  if (!payload.is_object()) throw std::invalid_argument("its payload is not a JSON object");
  if (!payload.contains("part") || !payload["part"].is_number_integer())
    throw std::invalid_argument("\"part\" is missing or not a whole number");
  if (payload.contains("skipped")) {
    if (!payload["skipped"].is_boolean()) throw std::invalid_argument("\"skipped\" is not true or false");
    if (payload["skipped"].get<bool>()) {
      if (!payload.contains("reason") || !payload["reason"].is_string() || payload["reason"].get<std::string>().empty())
        throw std::invalid_argument("a skipped part needs a \"reason\" (why, and how to make it runnable)");
      return ResultLine::skip(payload["part"].get<int>(), payload["reason"].get<std::string>());
    }
  }
  if (!payload.contains("metric") || !payload["metric"].is_string())
    throw std::invalid_argument("\"metric\" is missing or not a string");
  if (!payload.contains("value") || !payload["value"].is_number())
    throw std::invalid_argument("\"value\" is missing or not a number");
  ResultLine result;
  result.part = payload["part"].get<int>();
  result.metric = payload["metric"].get<std::string>();
  result.value = payload["value"].get<double>();
  return result;
}

PartVerdict judge_part(const MilestonePart& part, const std::vector<ResultLine>& results, const std::string& run_failure) {
  PartVerdict verdict;
  std::vector<std::string> other_metrics;
  std::optional<std::string> skip_reason;
  std::vector<std::optional<double>> further_values(part.further_gates.size());
  for (const auto& result : results) {
    if (result.part != part.number) continue;
    if (result.skipped) {
      skip_reason = result.reason;
      continue;
    }
    bool gated = false;
    if (result.metric == part.gate.metric) {
      verdict.value = result.value;
      gated = true;
    }
    for (std::size_t i = 0; i < part.further_gates.size(); ++i) {
      if (result.metric != part.further_gates[i].metric) continue;
      further_values[i] = result.value;
      gated = true;
    }
    if (!gated) other_metrics.push_back(result.metric);
  }
  if (!run_failure.empty()) {
    verdict.message = fmt::format("the program did not finish: {}", run_failure);
    if (verdict.value) verdict.message += fmt::format(" (after reporting {} = {})", part.gate.metric, format_measured(*verdict.value));
    return verdict;
  }
  if (!verdict.value && skip_reason) {
    verdict.skipped = !part.required;
    verdict.message = part.required ? fmt::format("part {} is required but the program skipped it: {}", part.number, *skip_reason)
                                    : *skip_reason;
    return verdict;
  }
  auto no_result = [&](const MilestoneGate& gate) {
    std::string message = fmt::format("the program printed no result for part {}: expected a line {}{{\"part\":{},\"metric\":\"{}\","
                                      "\"value\":...}}",
                                      part.number, kResultPrefix, part.number, gate.metric);
    if (!other_metrics.empty()) message += fmt::format(" (it reported only {})", fmt::join(other_metrics, ", "));
    return message;
  };
  const bool nothing_reported =
      !verdict.value && std::none_of(further_values.begin(), further_values.end(), [](const auto& v) { return v.has_value(); });
  if (nothing_reported) {
    verdict.message = no_result(part.gate);
    verdict.failed_gates.push_back(part.gate.metric);
    return verdict;
  }
  // Every gate is judged and every miss named: a broken module often misses several, and the set
  // of misses points at the module better than the first one alone.
  std::vector<std::string> misses, met;
  auto judge = [&](const MilestoneGate& gate, const std::optional<double>& value) {
    if (!value) {
      misses.push_back(no_result(gate));
      verdict.failed_gates.push_back(gate.metric);
      return;
    }
    const std::string measured = fmt::format("{} = {}", gate.metric, format_measured(*value));
    verdict.measured += (verdict.measured.empty() ? "" : ", ") + measured;
    if (gate_passes(gate, *value)) {
      met.push_back(measured);
    } else {
      misses.push_back(fmt::format("{} does not meet the gate {}", measured, gate.describe()));
      verdict.failed_gates.push_back(gate.metric);
    }
  };
  judge(part.gate, verdict.value);
  for (std::size_t i = 0; i < part.further_gates.size(); ++i) judge(part.further_gates[i], further_values[i]);
  verdict.passed = misses.empty();
  if (verdict.passed) return verdict;
  verdict.message = fmt::format("{}", fmt::join(misses, "; "));
  if (!met.empty()) verdict.message += fmt::format(" ({} {})", fmt::join(met, ", "), met.size() == 1 ? "does" : "do");
  return verdict;
}

void check_program_arguments(const Milestone& milestone, const MilestonePart& part, const std::vector<std::string>& args) {
  if (args.empty()) return;
  const std::string command = fmt::format("tito milestone run {} --part {}", milestone.id, part.number);
  const std::string given = fmt::format("{}", fmt::join(args, " "));
  if (part.arguments.empty()) {
    throw UserError(fmt::format("milestone {} part {} takes no arguments after --, so '{}' would be ignored",
                                milestone.id, part.number, given),
                    command, kExitUsage);
  }
  std::set<std::string> options_with_value, flags;
  std::size_t positionals_accepted = 0;
  for (const auto& usage : part.arguments) {
    const std::string name = usage.substr(0, usage.find(' '));
    if (name.rfind("-", 0) != 0) ++positionals_accepted;
    else if (name.size() < usage.size()) options_with_value.insert(name);
    else flags.insert(name);
  }
  const std::string accepted = fmt::format("{}", fmt::join(part.arguments, ", "));
  const std::string example = fmt::format("{} -- {}", command, part.arguments.front());
  std::size_t positionals = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("-", 0) != 0) {
      if (++positionals > positionals_accepted)
        throw UserError(fmt::format("milestone {} part {} does not take '{}': it takes {}", milestone.id,
                                    part.number, arg, accepted), example, kExitUsage);
      continue;
    }
    const std::string name = arg.substr(0, arg.find('='));
    if (flags.count(name)) {
      if (name == arg) continue;
      throw UserError(fmt::format("milestone {} part {}: {} takes no value", milestone.id, part.number, name), example,
                      kExitUsage);
    }
    if (!options_with_value.count(name))
      throw UserError(fmt::format("milestone {} part {} has no option '{}': it takes {}", milestone.id, part.number,
                                  name, accepted), example, kExitUsage);
    if (name == arg && (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0))
      throw UserError(fmt::format("milestone {} part {}: {} needs a value", milestone.id, part.number, name), example,
                      kExitUsage);
    if (name == arg) ++i;
  }
}

}  // namespace tito
