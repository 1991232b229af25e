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
#include "core/i18n.h"
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

// "languages": {"en": {"gates": [...]}, "es": {...}}, English first and its gates the part's own
// "gates", so that a tito that knows no languages judges English the same way.
void read_languages(const json& languages, const std::string& where, MilestonePart& part) {
  if (!languages.is_object() || languages.empty() || !languages.contains("en"))
    throw std::runtime_error(where + ".languages must be an object with \"en\" and each other language's gates");
  for (const auto& [language, entry] : languages.items()) {
    const std::string here = fmt::format("{}.languages.{}", where, language);
    if (!entry.is_object() || !entry.contains("gates") || !entry["gates"].is_array() || entry["gates"].empty())
      throw std::runtime_error(here + ".gates is not a non-empty list");
    std::vector<MilestoneGate> gates;
    for (const json& gate : entry["gates"]) gates.push_back(gate_from_json(gate, here));
    if (gates.front().metric != part.gate.metric)
      throw std::runtime_error(fmt::format("{}: the first gate must be the part's headline metric '{}'", here,
                                           part.gate.metric));
    part.gates_by_language[language] = std::move(gates);
  }
  std::vector<MilestoneGate> english{part.gate};
  english.insert(english.end(), part.further_gates.begin(), part.further_gates.end());
  const auto& listed = part.gates_by_language["en"];
  bool same = listed.size() == english.size();
  for (std::size_t i = 0; same && i < english.size(); ++i)
    same = listed[i].metric == english[i].metric && listed[i].comparison == english[i].comparison &&
           listed[i].value == english[i].value;
  if (!same) throw std::runtime_error(where + ".languages.en.gates must equal the part's \"gates\"");
  part.languages.push_back("en");
  for (const auto& [language, gates] : part.gates_by_language)
    if (language != "en") part.languages.push_back(language);
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
  if (entry.contains("languages")) read_languages(entry["languages"], where, part);
  part.expected_minutes = entry.value("expected_minutes", 0.0);
  if (part.expected_minutes < 0) throw std::runtime_error(where + ".expected_minutes is negative");
  return part;
}

}  // namespace

bool MilestonePart::speaks(const std::string& language) const {
  return gates_by_language.count(language) > 0;
}

MilestonePart MilestonePart::in_language(const std::string& language) const {
  if (languages.empty() && language == "en") return *this;
  const auto found = gates_by_language.find(language);
  if (found == gates_by_language.end()) {
    throw UserError(
        // TRANSLATORS: a milestone part asked for with --lang; {} is the language code asked for
        languages.empty() ? trf("part {} has one language (English) and takes no --lang {}", number, language)
                          // TRANSLATORS: the language asked for with --lang, then the codes of those the part is written in
                          : trf("part {} is not written in '{}': it runs in {}", number, language, fmt::join(languages, ", ")),
        languages.empty() ? std::string(tr("leave out --lang")) : fmt::format("--lang {}", fmt::join(languages, "|")),
        kExitUsage);
  }
  MilestonePart part = *this;
  part.gate = found->second.front();
  part.further_gates.assign(found->second.begin() + 1, found->second.end());
  return part;
}

std::string MilestoneGate::describe() const {
  return fmt::format("{} {} {}", metric, comparison, value);
}

std::string MilestoneGate::describe_for_people() const {
  return fmt::format("{} {} {}", metric, comparison, format_measured_for_people(value));
}

std::string MilestonePart::describe_gates() const {
  std::string text = gate.describe();
  for (const auto& further : further_gates) text += " and " + further.describe();
  return text;
}

std::string MilestonePart::gates_for_people() const {
  std::string text = gate.describe_for_people();
  for (const auto& further : further_gates) text += tr(" and ") + further.describe_for_people();
  return text;
}

std::string format_measured(double value) { return fmt::format("{:.6g}", value); }

std::string format_measured_for_people(double value) { return format_significant(value, 6); }

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
      // TRANSLATORS: a milestone.json file, then what is wrong with it (in English)
      throw UserError(trf("{} is not a valid milestone description: {}", file.string(), error.what()),
                      trf("fix the file, or restore it: git checkout -- {}", file.string()));
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
  // TRANSLATORS: what the learner typed, then the milestones' numbers and names ("01 perceptron, 02 xor, ...")
  throw UserError(trf("there is no milestone '{}'; the milestones are {}", raw, valid), "tito milestone list", kExitUsage);
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

namespace {

// A measured value as the records write it and as people read it.
Bilingual measured_both(double value) { return {format_measured(value), format_measured_for_people(value)}; }

Bilingual joined(const std::vector<Bilingual>& items, const std::string& separator) {
  Bilingual text;
  for (std::size_t i = 0; i < items.size(); ++i) text = text + (i == 0 ? "" : separator) + items[i];
  return text;
}

}  // namespace

PartVerdict judge_part(const MilestonePart& part, const std::vector<ResultLine>& results, const std::string& run_failure,
                       const std::string& run_failure_shown) {
  PartVerdict verdict;
  const auto finish = [&verdict](const Bilingual& text) {
    verdict.message = text.english;
    verdict.shown_message = text.shown;
  };
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
    const Bilingual failure{run_failure, run_failure_shown.empty() ? run_failure : run_failure_shown};
    // TRANSLATORS: why a milestone part failed; {} is e.g. "it crashed with SIGSEGV (...)"
    Bilingual text = trb("the program did not finish: {}", failure);
    // TRANSLATORS: follows "the program did not finish: ...": the value it had reported, e.g. "accuracy = 0.97"
    if (verdict.value) text = text + trb(" (after reporting {} = {})", part.gate.metric, measured_both(*verdict.value));
    finish(text);
    return verdict;
  }
  if (!verdict.value && skip_reason) {
    verdict.skipped = !part.required;
    // TRANSLATORS: the second {} is the program's own reason (in English)
    finish(part.required ? trb("part {} is required but the program skipped it: {}", part.number, *skip_reason)
                         : Bilingual::same(*skip_reason));
    return verdict;
  }
  auto no_result = [&](const MilestoneGate& gate) {
    // TRANSLATORS: keep TITO_RESULT and the JSON as they are: the second {} is "TITO_RESULT ", {{ and }} print { and }
    Bilingual message = trb("the program printed no result for part {}: expected a line {}{{\"part\":{},\"metric\":\"{}\","
                            "\"value\":...}}",
                            part.number, kResultPrefix, part.number, gate.metric);
    // TRANSLATORS: the metrics a milestone program reported, none of them the one a gate needs
    if (!other_metrics.empty()) message = message + trb(" (it reported only {})", fmt::format("{}", fmt::join(other_metrics, ", ")));
    return message;
  };
  const bool nothing_reported =
      !verdict.value && std::none_of(further_values.begin(), further_values.end(), [](const auto& v) { return v.has_value(); });
  if (nothing_reported) {
    finish(no_result(part.gate));
    verdict.failed_gates.push_back(part.gate.metric);
    return verdict;
  }
  // Every gate is judged and every miss named: a broken module often misses several, and the set
  // of misses points at the module better than the first one alone.
  std::vector<Bilingual> misses, met;
  auto judge = [&](const MilestoneGate& gate, const std::optional<double>& value) {
    if (!value) {
      misses.push_back(no_result(gate));
      verdict.failed_gates.push_back(gate.metric);
      return;
    }
    const Bilingual measured = Bilingual::same(gate.metric + " = ") + measured_both(*value);
    verdict.measured += (verdict.measured.empty() ? "" : ", ") + measured.english;
    if (gate_passes(gate, *value)) {
      met.push_back(measured);
    } else {
      // TRANSLATORS: a measured value ("accuracy = 0.6"), then the gate it misses ("accuracy >= 0.95")
      misses.push_back(trb("{} does not meet the gate {}", measured, Bilingual{gate.describe(), gate.describe_for_people()}));
      verdict.failed_gates.push_back(gate.metric);
    }
  };
  judge(part.gate, verdict.value);
  for (std::size_t i = 0; i < part.further_gates.size(); ++i) judge(part.further_gates[i], further_values[i]);
  verdict.passed = misses.empty();
  if (verdict.passed) return verdict;
  Bilingual message = joined(misses, "; ");
  if (!met.empty()) {
    const Bilingual list = joined(met, ", ");
    // TRANSLATORS: after the gates a part missed: the measured values that do meet theirs, e.g. " (accuracy = 0.97 does)"
    message = message + Bilingual{fmt::format(" ({} {})", list.english, met.size() == 1 ? "does" : "do"),
                                  trnf(" ({} does)", " ({} do)", met.size(), list.shown)};
  }
  finish(message);
  return verdict;
}

void check_program_arguments(const Milestone& milestone, const MilestonePart& part, const std::vector<std::string>& args) {
  if (args.empty()) return;
  const std::string command = fmt::format("tito milestone run {} --part {}", milestone.id, part.number);
  const std::string given = fmt::format("{}", fmt::join(args, " "));
  if (part.arguments.empty()) {
    // TRANSLATORS: the milestone's number, the part's, then the arguments the learner gave after --
    throw UserError(trf("milestone {} part {} takes no arguments after --, so '{}' would be ignored", milestone.id,
                        part.number, given),
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
        // TRANSLATORS: the milestone, the part, an argument it does not take, then the ones it takes ("--seed N")
        throw UserError(trf("milestone {} part {} does not take '{}': it takes {}", milestone.id, part.number, arg,
                            accepted),
                        example, kExitUsage);
      continue;
    }
    const std::string name = arg.substr(0, arg.find('='));
    if (flags.count(name)) {
      if (name == arg) continue;
      // TRANSLATORS: the milestone, the part, then an option of its program (e.g. --verbose)
      throw UserError(trf("milestone {} part {}: {} takes no value", milestone.id, part.number, name), example,
                      kExitUsage);
    }
    if (!options_with_value.count(name))
      // TRANSLATORS: the milestone, the part, an option it does not have, then the arguments it takes ("--seed N")
      throw UserError(trf("milestone {} part {} has no option '{}': it takes {}", milestone.id, part.number, name,
                          accepted),
                      example, kExitUsage);
    if (name == arg && (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0))
      // TRANSLATORS: the milestone, the part, then an option of its program (e.g. --seed)
      throw UserError(trf("milestone {} part {}: {} needs a value", milestone.id, part.number, name), example,
                      kExitUsage);
    if (name == arg) ++i;
  }
}

}  // namespace tito
