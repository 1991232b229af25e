#include "core/olympics.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "core/files.h"

namespace tito {
namespace {

using nlohmann::json;

std::string type_of(const json& value) {
  if (value.is_null()) return "null";
  if (value.is_boolean()) return "boolean";
  if (value.is_number_integer() || value.is_number_unsigned()) return "integer";
  if (value.is_number()) return "number";
  if (value.is_string()) return "string";
  if (value.is_array()) return "array";
  return "object";
}

bool has_type(const json& value, const std::string& type) {
  if (type == "number") return value.is_number();
  if (type == "integer") {
    if (value.is_number_integer() || value.is_number_unsigned()) return true;
    return value.is_number_float() && std::isfinite(value.get<double>()) && value.get<double>() == std::floor(value.get<double>());
  }
  return type_of(value) == type;
}

// How a value reads in a message: short, as JSON.
std::string shown(const json& value) {
  std::string text = value.dump();
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

std::string join_path(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

struct Validator {
  const json& root_schema;
  std::vector<SchemaProblem> problems;

  void add(const std::string& path, const std::string& problem, const json& schema, const std::string& default_fix) {
    std::string fix = schema.contains("x-fix") ? schema["x-fix"].get<std::string>() : default_fix;
    problems.push_back({path.empty() ? "(the document)" : path, problem, fix});
  }

  const json& resolve(const json& schema) const {
    if (!schema.contains("$ref")) return schema;
    const std::string ref = schema["$ref"].get<std::string>();
    const std::string prefix = "#/$defs/";
    if (ref.rfind(prefix, 0) != 0 || !root_schema.contains("$defs") || !root_schema["$defs"].contains(ref.substr(prefix.size())))
      throw std::runtime_error("the schema's $ref " + ref + " names no entry of $defs");
    return root_schema["$defs"][ref.substr(prefix.size())];
  }

  void check(const json& value, const json& schema_or_ref, const std::string& path) {
    const json& schema = resolve(schema_or_ref);
    if (schema.contains("const") && value != schema["const"]) {
      add(path, fmt::format("is {}, but must be {}", shown(value), shown(schema["const"])), schema, "");
      return;
    }
    if (schema.contains("enum")) {
      const auto& choices = schema["enum"];
      if (std::find(choices.begin(), choices.end(), value) == choices.end()) {
        std::vector<std::string> names;
        for (const auto& c : choices) names.push_back(shown(c));
        add(path, fmt::format("is {}, which is not one of {}", shown(value), fmt::join(names, ", ")), schema,
            fmt::format("use one of {}", fmt::join(names, ", ")));
        return;
      }
    }
    if (schema.contains("type")) {
      const std::string type = schema["type"].get<std::string>();
      if (!has_type(value, type)) {
        add(path, fmt::format("is {} (a JSON {}), but must be {} {}", shown(value), type_of(value),
                              type == "integer" || type == "array" || type == "object" ? "an" : "a", type),
            schema, fmt::format("write a JSON {}", type));
        return;
      }
    }
    if (value.is_number()) {
      const double v = value.get<double>();
      if (schema.contains("minimum") && v < schema["minimum"].get<double>())
        add(path, fmt::format("is {}, below the minimum {}", shown(value), shown(schema["minimum"])), schema, "");
      if (schema.contains("exclusiveMinimum") && !(v > schema["exclusiveMinimum"].get<double>()))
        add(path, fmt::format("is {}, but must be greater than {}", shown(value), shown(schema["exclusiveMinimum"])), schema, "");
      if (schema.contains("maximum") && v > schema["maximum"].get<double>())
        add(path, fmt::format("is {}, above the maximum {}", shown(value), shown(schema["maximum"])), schema, "");
    }
    if (value.is_string() && schema.contains("minLength") &&
        value.get<std::string>().size() < schema["minLength"].get<std::size_t>())
      add(path, "is empty", schema, "write a non-empty string");
    if (value.is_array()) {
      if (schema.contains("minItems") && value.size() < schema["minItems"].get<std::size_t>())
        add(path, fmt::format("has {} items, fewer than {}", value.size(), schema["minItems"].get<std::size_t>()), schema, "");
      if (schema.value("uniqueItems", false)) {
        std::set<std::string> seen;
        for (const auto& item : value)
          if (!seen.insert(item.dump()).second) add(path, fmt::format("lists {} twice", shown(item)), schema, "list each item once");
      }
      if (schema.contains("items"))
        for (std::size_t i = 0; i < value.size(); ++i) check(value[i], schema["items"], fmt::format("{}[{}]", path, i));
    }
    if (value.is_object()) {
      if (schema.contains("required"))
        for (const auto& key : schema["required"])
          if (!value.contains(key.get<std::string>())) {
            const json& property = schema.contains("properties") && schema["properties"].contains(key.get<std::string>())
                                       ? resolve(schema["properties"][key.get<std::string>()])
                                       : json::object();
            add(join_path(path, key.get<std::string>()), "is missing", property, "add it");
          }
      const json properties = schema.value("properties", json::object());
      for (const auto& [key, item] : value.items()) {
        if (properties.contains(key)) {
          check(item, properties[key], join_path(path, key));
        } else if (schema.contains("additionalProperties") && schema["additionalProperties"] == false) {
          std::vector<std::string> names;
          for (const auto& [name, ignored] : properties.items()) names.push_back(name);
          add(join_path(path, key), "is not a field of the submission", json::object(),
              fmt::format("remove it, or check its spelling: the fields here are {}", fmt::join(names, ", ")));
        }
      }
    }
  }
};

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

std::string number_text(double value) { return fmt::format("{:.6g}", value); }

double metric(const json& metrics, const char* key) { return metrics.at(key).get<double>(); }

}  // namespace

std::vector<SchemaProblem> validate_json(const json& document, const json& schema) {
  Validator validator{schema, {}};
  validator.check(document, schema, "");
  return validator.problems;
}

std::vector<SchemaProblem> validate_submission_text(const std::string& text, const json& schema) {
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& error) {
    return {{"(the document)", fmt::format("is not valid JSON: {}", error.what()),
             "write it with olympics::save_submission, or fix the JSON at the byte the message names"}};
  }
  return validate_json(document, schema);
}

OlympicsRules rules_from_json(const json& rules) {
  try {
    OlympicsRules r;
    r.min_accuracy = rules.at("min_accuracy").get<double>();
    r.max_latency_ms = rules.at("max_latency_ms").get<double>();
    r.max_memory_bytes = rules.at("max_memory_bytes").get<int64_t>();
    r.max_accuracy_drop = rules.at("max_accuracy_drop").get<double>();
    const json& t = rules.at("tolerance");
    r.accuracy_tolerance = t.at("accuracy_abs").get<double>();
    r.latency_factor = t.at("latency_factor").get<double>();
    r.memory_low_factor = t.at("memory_low_factor").get<double>();
    r.memory_high_factor = t.at("memory_high_factor").get<double>();
    r.memory_slack_bytes = t.at("memory_slack_bytes").get<double>();
    return r;
  } catch (const json::exception& error) {
    throw std::runtime_error(std::string("the Olympics rules lack a value: ") + error.what());
  }
}

OlympicsRules load_rules(const fs::path& source_dir) {
  const fs::path path = source_dir / "curriculum" / "20_capstone" / "olympics_rules.json";
  try {
    return rules_from_json(json::parse(read_file(path)));
  } catch (const std::exception& error) {
    throw std::runtime_error(path.string() + ": " + error.what());
  }
}

json load_schema(const fs::path& source_dir) {
  const fs::path path = source_dir / "curriculum" / "20_capstone" / "submission.schema.json";
  try {
    return json::parse(read_file(path));
  } catch (const std::exception& error) {
    throw std::runtime_error(path.string() + ": " + error.what());
  }
}

std::vector<std::string> earned_events(const OlympicsRules& rules, const MeasuredModel& entry, const MeasuredModel& baseline,
                                       std::map<std::string, std::string>* why) {
  std::vector<std::string> earned;
  auto judge = [&](const std::string& event, const std::string& failed_rule) {
    if (failed_rule.empty()) earned.push_back(event);
    else if (why) (*why)[event] = failed_rule;
  };
  const std::string floor = entry.accuracy >= rules.min_accuracy
                                ? ""
                                : fmt::format("accuracy {:.4f} is below the minimum {:.4f}", entry.accuracy, rules.min_accuracy);
  judge("latency", floor);
  judge("memory", floor);
  std::string budget;
  if (!(entry.latency_ms_median < rules.max_latency_ms))
    budget = fmt::format("median latency {:.4g} ms is not below {:.4g} ms", entry.latency_ms_median, rules.max_latency_ms);
  else if (!(entry.memory_bytes < static_cast<double>(rules.max_memory_bytes)))
    budget = fmt::format("memory {:.0f} bytes is not below {} bytes", entry.memory_bytes, rules.max_memory_bytes);
  judge("accuracy", budget);
  std::string all_round = floor;
  if (all_round.empty() && !(entry.accuracy >= baseline.accuracy - rules.max_accuracy_drop))
    all_round = fmt::format("accuracy {:.4f} is more than {:.4f} below the baseline's {:.4f}", entry.accuracy,
                            rules.max_accuracy_drop, baseline.accuracy);
  judge("all_round", all_round);
  return earned;
}

double olympic_score(const std::string& event, const MeasuredModel& entry, const MeasuredModel& baseline) {
  if (event == "latency") return entry.latency_ms_median;
  if (event == "memory") return entry.memory_bytes;
  if (event == "accuracy") return entry.accuracy;
  if (event == "all_round") {
    if (entry.latency_ms_median <= 0 || entry.memory_bytes <= 0 || baseline.accuracy <= 0) return 0;
    return std::cbrt((baseline.latency_ms_median / entry.latency_ms_median) * (baseline.memory_bytes / entry.memory_bytes) *
                     (entry.accuracy / baseline.accuracy));
  }
  throw std::invalid_argument("unknown Olympics event " + event);
}

bool olympic_lower_is_better(const std::string& event) { return event == "latency" || event == "memory"; }

std::vector<ClaimCheck> check_claims(const OlympicsRules& rules, const json& submission, const MeasuredModel& baseline,
                                     const MeasuredModel& optimized) {
  std::vector<ClaimCheck> checks;
  const json& claimed = submission.at("claimed_metrics");
  for (const auto& [name, measured] : {std::pair<std::string, MeasuredModel>{"baseline", baseline}, {"optimized", optimized}}) {
    const json& m = claimed.at(name);
    const std::string prefix = "claimed_metrics." + name + ".";
    {
      const double c = metric(m, "accuracy");
      ClaimCheck check{prefix + "accuracy", number_text(c), number_text(measured.accuracy), true, ""};
      if (std::fabs(c - measured.accuracy) > rules.accuracy_tolerance) {
        check.ok = false;
        check.why = fmt::format("claims {:.4f}, tito measured {:.4f} on the same test set (tolerance {:.4f}): claim what "
                                "measure_model returns for this model",
                                c, measured.accuracy, rules.accuracy_tolerance);
      }
      checks.push_back(check);
    }
    for (const auto& [key, value] : {std::pair<const char*, double>{"latency_ms_median", measured.latency_ms_median},
                                     {"latency_ms_p90", measured.latency_ms_p90}}) {
      const double c = metric(m, key);
      ClaimCheck check{prefix + key, number_text(c), number_text(value), true, ""};
      if (!(c >= value / rules.latency_factor && c <= value * rules.latency_factor)) {
        check.ok = false;
        check.why = fmt::format("claims {:.4g} ms, tito measured {:.4g} ms: more than a factor {:.3g} apart. Claim what "
                                "your measure_model measured on this machine (tito olympics submit writes it)",
                                c, value, rules.latency_factor);
      }
      checks.push_back(check);
    }
    {
      const double c = metric(m, "memory_bytes");
      ClaimCheck check{prefix + "memory_bytes", number_text(c), number_text(measured.memory_bytes), true, ""};
      const double low = rules.memory_low_factor * measured.memory_bytes - rules.memory_slack_bytes;
      const double high = rules.memory_high_factor * measured.memory_bytes + rules.memory_slack_bytes;
      if (!(c >= low && c <= high)) {
        check.ok = false;
        check.why = c < low ? fmt::format("claims {:.0f} bytes, but the model holds {:.0f} (by the allocator): count every "
                                          "tensor predict keeps, and free what it does not need (model->zero_grad() after "
                                          "training frees the gradients)",
                                          c, measured.memory_bytes)
                            : fmt::format("claims {:.0f} bytes, but the model holds only {:.0f}: count the bytes as the "
                                          "model stores them",
                                          c, measured.memory_bytes);
      }
      checks.push_back(check);
    }
  }
  std::map<std::string, std::string> why_not;
  const std::vector<std::string> earned = earned_events(rules, optimized, baseline, &why_not);
  for (const auto& event : submission.at("events")) {
    const std::string name = event.get<std::string>();
    ClaimCheck check{"events", name, "", true, ""};
    if (std::find(earned.begin(), earned.end(), name) == earned.end()) {
      check.ok = false;
      check.measured = "not earned";
      check.why = fmt::format("the {} event is not earned by the measured figures: {}", name,
                              why_not.count(name) ? why_not[name] : "unknown event");
    } else {
      check.measured = "earned";
    }
    checks.push_back(check);
  }
  return checks;
}

json verified_record(const json& submission, const MeasuredModel& baseline, const MeasuredModel& optimized,
                     const std::vector<ClaimCheck>& checks, const OlympicsRules& rules) {
  auto measured_json = [](const MeasuredModel& m) {
    return json{{"accuracy", m.accuracy}, {"latency_ms_median", m.latency_ms_median}, {"latency_ms_p90", m.latency_ms_p90},
                {"memory_bytes", m.memory_bytes}};
  };
  bool verified = true;
  json check_list = json::array();
  for (const auto& c : checks) {
    verified = verified && c.ok;
    check_list.push_back({{"field", c.field}, {"claimed", c.claimed}, {"measured", c.measured}, {"ok", c.ok}, {"why", c.why}});
  }
  json events = json::array();
  for (const auto& event : submission.at("events")) {
    const std::string name = event.get<std::string>();
    const auto earned = earned_events(rules, optimized, baseline);
    if (std::find(earned.begin(), earned.end(), name) != earned.end()) events.push_back(name);
  }
  return json{{"olympics_record_version", "1.0"},
              {"verified", verified},
              {"learner", submission.at("learner")},
              {"model", submission.at("model")},
              {"events_verified", events},
              {"measured_by_tito", {{"baseline", measured_json(baseline)}, {"optimized", measured_json(optimized)}}},
              {"checks", check_list},
              {"submission", submission}};
}

void mark_origins(json& record, const std::vector<ModuleOrigin>& modules) {
  std::string origin = "learner";
  json listed = json::object();
  for (const auto& module : modules) {
    json entry = {{"origin", module.origin}};
    if (!module.reason.empty()) entry["reason"] = module.reason;
    listed[module.module] = entry;
    if (module.module == kOlympicsModule) origin = module.origin;
  }
  record["origin"] = origin;
  record["modules"] = listed;
}

std::string reference_code_note(const json& record) {
  if (!record.contains("modules") || !record.at("modules").is_object()) return "";
  // reason -> modules, in the order a reader cares about: copies first.
  const std::vector<std::pair<std::string, std::string>> reasons = {
      {"copied_reference_files", "copied reference files"}, {"not_completed", "not completed"}, {"reference_run", "reference run"}};
  std::map<std::string, std::vector<std::string>> by_reason;
  for (const auto& [number, entry] : record.at("modules").items()) {
    if (number == kOlympicsModule || !entry.is_object() || entry.value("origin", std::string()) != "reference") continue;
    by_reason[entry.value("reason", std::string("no reason given"))].push_back(number);
  }
  std::vector<std::string> parts;
  auto part = [](const std::vector<std::string>& numbers, const std::string& why) {
    return fmt::format("module{} {} ({})", numbers.size() == 1 ? "" : "s", fmt::join(numbers, ", "), why);
  };
  for (const auto& [reason, words] : reasons) {
    auto found = by_reason.find(reason);
    if (found == by_reason.end()) continue;
    parts.push_back(part(found->second, words));
    by_reason.erase(found);
  }
  for (const auto& [reason, numbers] : by_reason) parts.push_back(part(numbers, reason));
  return parts.empty() ? "" : fmt::format("reference code in {}", fmt::join(parts, "; "));
}

Ranking rank_records(const fs::path& dir, const OlympicsRules& rules) {
  Ranking ranking;
  for (const auto& event : olympic_events()) ranking.by_event[event];
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && ends_with(entry.path().filename().string(), ".verified.json")) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    json record;
    try {
      record = json::parse(read_file(file));
    } catch (const std::exception& error) {
      ranking.skipped.push_back(file.string() + ": not readable JSON (" + error.what() + ")");
      continue;
    }
    if (!record.is_object() || !record.contains("olympics_record_version")) {
      ranking.skipped.push_back(file.string() + ": not a verified record (run tito olympics submit; it writes one)");
      continue;
    }
    if (!record.value("verified", false)) {
      ranking.skipped.push_back(file.string() + ": its claims were rejected by tito olympics submit");
      continue;
    }
    // Whose entry: a reference run earns nothing; a record older than the field is taken as the learner's.
    std::string origin = "learner";
    if (!record.contains("origin")) {
      ranking.warnings.push_back(file.string() +
                                 ": no \"origin\" (written by an older tito): ranked as the learner's own code, unchecked; "
                                 "a new tito olympics submit writes whose code it measured");
    } else if (record.at("origin").is_string() &&
               (record.at("origin") == "learner" || record.at("origin") == "reference")) {
      origin = record.at("origin").get<std::string>();
    } else {
      ranking.skipped.push_back(file.string() + ": its \"origin\" is neither \"learner\" nor \"reference\"");
      continue;
    }
    try {
      auto measured = [&](const char* which) {
        const json& m = record.at("measured_by_tito").at(which);
        return MeasuredModel{m.at("accuracy").get<double>(), m.at("latency_ms_median").get<double>(),
                             m.at("latency_ms_p90").get<double>(), m.at("memory_bytes").get<double>()};
      };
      const MeasuredModel baseline = measured("baseline"), optimized = measured("optimized");
      const std::vector<std::string> earned = earned_events(rules, optimized, baseline);
      const std::string learner = record.at("learner").get<std::string>();
      const std::string model = record.at("model").value("description", "");
      std::vector<std::pair<std::string, double>> scores;
      for (const auto& event : record.at("events_verified")) {
        const std::string name = event.get<std::string>();
        if (std::find(earned.begin(), earned.end(), name) == earned.end()) continue;  // the rules changed since
        scores.emplace_back(name, olympic_score(name, optimized, baseline));
      }
      if (origin == "reference") {
        ranking.reference_runs.push_back({file.string(), learner, model, scores});
        continue;
      }
      const std::string note = reference_code_note(record);
      ++ranking.verified;
      for (const auto& [event, score] : scores) ranking.by_event[event].push_back({learner, model, score, note});
    } catch (const std::exception& error) {
      ranking.skipped.push_back(file.string() + ": incomplete record (" + error.what() + ")");
    }
  }
  for (auto& [event, entries] : ranking.by_event) {
    const bool lower = olympic_lower_is_better(event);
    std::stable_sort(entries.begin(), entries.end(), [lower](const RankedEntry& a, const RankedEntry& b) {
      if (a.score != b.score) return lower ? a.score < b.score : a.score > b.score;
      return a.learner < b.learner;
    });
  }
  return ranking;
}

namespace {
std::string score_text(const std::string& event, double score) {
  if (event == "latency") return fmt::format("{:.4g} ms", score);
  if (event == "memory") return fmt::format("{:.0f} bytes", score);
  if (event == "accuracy") return fmt::format("{:.2f}%", 100 * score);
  return fmt::format("{:.3f}", score);
}
// Markdown and CSV cells: no line breaks, no pipes; CSV quotes and defuses spreadsheet formulas.
std::string markdown_cell(std::string text) {
  for (char& c : text)
    if (c == '|' || c == '\n' || c == '\r') c = ' ';
  return text;
}
std::string csv_cell(std::string text) {
  if (!text.empty() && std::string("=+-@").find(text[0]) != std::string::npos) text = "'" + text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
  return out + "\"";
}
}  // namespace

std::string ranking_markdown(const Ranking& ranking) {
  std::string text = fmt::format("# Torch Olympics: {} verified submission{}\n", ranking.verified, ranking.verified == 1 ? "" : "s");
  if (!ranking.reference_runs.empty())
    text += fmt::format("\n{} reference run{} listed apart below, not ranked.\n", ranking.reference_runs.size(),
                        ranking.reference_runs.size() == 1 ? "" : "s");
  bool any_note = false;
  for (const auto& [event, entries] : ranking.by_event)
    for (const auto& entry : entries) any_note = any_note || !entry.note.empty();
  for (const auto& event : olympic_events()) {
    const auto& entries = ranking.by_event.at(event);
    text += fmt::format("\n## {} ({} first)\n\n", event, olympic_lower_is_better(event) ? "lowest" : "highest");
    if (entries.empty()) {
      text += "No verified entry earned this event.\n";
      continue;
    }
    text += any_note ? "| rank | learner | score | model | not the learner's code |\n|---|---|---|---|---|\n"
                     : "| rank | learner | score | model |\n|---|---|---|---|\n";
    for (std::size_t i = 0; i < entries.size(); ++i) {
      text += fmt::format("| {} | {} | {} | {} |", i + 1, markdown_cell(entries[i].learner), score_text(event, entries[i].score),
                          markdown_cell(entries[i].model));
      text += any_note ? " " + markdown_cell(entries[i].note) + " |\n" : "\n";
    }
  }
  if (!ranking.reference_runs.empty()) {
    text += "\n## Reference runs (not ranked)\n\nBuilt from the reference solutions (tito olympics submit --reference, or module "
            "20's files are the reference's own): for comparison only.\n\n| learner | event | score | model | record |\n"
            "|---|---|---|---|---|\n";
    for (const auto& run : ranking.reference_runs) {
      if (run.scores.empty())
        text += fmt::format("| {} | none earned | | {} | {} |\n", markdown_cell(run.learner), markdown_cell(run.model),
                            markdown_cell(run.file));
      for (const auto& [event, score] : run.scores)
        text += fmt::format("| {} | {} | {} | {} | {} |\n", markdown_cell(run.learner), event, score_text(event, score),
                            markdown_cell(run.model), markdown_cell(run.file));
    }
  }
  if (!ranking.warnings.empty()) {
    text += "\nWarnings (ranked all the same):\n";
    for (const auto& line : ranking.warnings) text += "- " + markdown_cell(line) + "\n";
  }
  if (!ranking.skipped.empty()) {
    text += "\nNot ranked:\n";
    for (const auto& line : ranking.skipped) text += "- " + markdown_cell(line) + "\n";
  }
  return text;
}

std::string ranking_csv(const Ranking& ranking) {
  std::string text = "event,rank,learner,score,model,note\n";
  for (const auto& event : olympic_events()) {
    const auto& entries = ranking.by_event.at(event);
    for (std::size_t i = 0; i < entries.size(); ++i)
      text += fmt::format("{},{},{},{:.17g},{},{}\n", event, i + 1, csv_cell(entries[i].learner), entries[i].score,
                          csv_cell(entries[i].model), csv_cell(entries[i].note));
  }
  // Reference runs after every ranked row, with no rank: a sort by rank cannot mix them in.
  const std::string reference_note = csv_cell("reference run (built from the reference solutions), not ranked");
  for (const auto& run : ranking.reference_runs) {
    if (run.scores.empty())
      text += fmt::format(",not ranked,{},,{},{}\n", csv_cell(run.learner), csv_cell(run.model), reference_note);
    for (const auto& [event, score] : run.scores)
      text += fmt::format("{},not ranked,{},{:.17g},{},{}\n", event, csv_cell(run.learner), score, csv_cell(run.model),
                          reference_note);
  }
  return text;
}

}  // namespace tito
