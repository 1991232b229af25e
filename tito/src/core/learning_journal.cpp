#include "core/learning_journal.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "core/clock.h"
#include "core/progress_store.h"

namespace tito {
namespace {

using nlohmann::json;

int int_or(const json& object, const char* key, int fallback) {
  return object.contains(key) && object[key].is_number_integer() ? object[key].get<int>() : fallback;
}

// nlohmann's value() throws when the key holds another type; a hostile journal must not stop a report.
bool bool_or(const json& object, const char* key) {
  return object.contains(key) && object[key].is_boolean() && object[key].get<bool>();
}

std::string string_or(const json& object, const char* key, const std::string& fallback = "") {
  return object.contains(key) && object[key].is_string() ? object[key].get<std::string>() : fallback;
}

std::vector<std::string> strings_of(const json& object, const char* key) {
  std::vector<std::string> out;
  if (!object.contains(key) || !object[key].is_array()) return out;
  for (const auto& item : object[key])
    if (item.is_string()) out.push_back(item.get<std::string>());
  return out;
}

// Why a line is not an event this reader can use; "" when it is.
std::string problem_with(const json& event) {
  static const std::regex kModule("[0-9]{2}");
  if (!event.is_object()) return "not a JSON object";
  if (!event.contains("event") || !event["event"].is_string()) return "no \"event\"";
  if (!event.contains("at") || !event["at"].is_string() || !parse_iso8601(event["at"].get<std::string>()))
    return "no readable \"at\" time";
  if (!event.contains("checksum") || event["checksum"] != canonical_checksum(event))
    return "its checksum does not match (edited by hand, or cut short)";
  const std::string kind = event["event"].get<std::string>();
  if (kind == "snapshot") return "";
  if (kind == "milestone") {
    if (!event.contains("milestone") || !event["milestone"].is_string()) return "a milestone event without \"milestone\"";
    return "";
  }
  if (!event.contains("module") || !event["module"].is_string() || !std::regex_match(event["module"].get<std::string>(), kModule))
    return "no two-digit \"module\"";
  return "";
}

}  // namespace

LearningJournal parse_learning_journal(const std::string& text) {
  LearningJournal journal;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (number > kMaxJournalLines) {
      journal.truncated = true;
      break;
    }
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (line.size() > kMaxJournalLineBytes) {
      journal.skipped.push_back({number, fmt::format("longer than {} KiB", kMaxJournalLineBytes / 1024)});
      continue;
    }
    const json event = json::parse(line, nullptr, false);
    if (event.is_discarded()) {
      journal.skipped.push_back({number, "not valid JSON (cut short?)"});
      continue;
    }
    const std::string problem = problem_with(event);
    if (!problem.empty()) {
      journal.skipped.push_back({number, problem});
      continue;
    }
    JournalEvent parsed;
    parsed.kind = event["event"].get<std::string>();
    parsed.module = string_or(event, "module");
    if (parsed.kind == "milestone") parsed.milestone = event["milestone"].get<std::string>();
    parsed.at = *parse_iso8601(event["at"].get<std::string>());
    parsed.seq = event.contains("seq") && event["seq"].is_number_integer() ? event["seq"].get<long>() : 0;
    parsed.fields = event;
    journal.events.push_back(std::move(parsed));
  }
  std::stable_sort(journal.events.begin(), journal.events.end(), [](const JournalEvent& a, const JournalEvent& b) {
    return a.at != b.at ? a.at < b.at : a.seq < b.seq;
  });
  return journal;
}

LearningJournal read_learning_journal_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::string text(kMaxJournalBytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  const bool cut = in.peek() != std::char_traits<char>::eof();
  if (cut) text.erase(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n'));  // no half line
  LearningJournal journal = parse_learning_journal(text);
  journal.truncated = journal.truncated || cut;
  return journal;
}

JournalSummary summarize_learning_journal(const LearningJournal& journal) {
  JournalSummary summary;
  const JournalEvent* previous = nullptr;
  for (const JournalEvent& event : journal.events) {
    if (!summary.first_event) summary.first_event = event.at;
    summary.last_event = event.at;
    // Time on task: the pause since the previous event, when short, went into this event's module.
    double gap = 0;
    if (previous) {
      const auto pause = event.at - previous->at;
      if (pause <= kIdleGap) gap = std::chrono::duration<double>(pause).count();
    }
    previous = &event;
    const json& fields = event.fields;

    if (event.kind == "milestone") {
      MilestoneAttempts& attempts = summary.milestones[event.milestone];
      const int part = int_or(fields, "part", 0);
      const bool passed = bool_or(fields, "passed");
      ++attempts.runs;
      if (passed) {
        ++attempts.passed;
        if (!attempts.first_pass) attempts.first_pass = event.at;
      }
      attempts.part_passed[part] = attempts.part_passed[part] || passed;
      if (fields.contains("value") && fields["value"].is_number()) {
        const double value = fields["value"].get<double>();
        if (std::isfinite(value) && (passed || !attempts.best_value.count(part))) attempts.best_value[part] = value;
      }
      if (fields.contains("metric") && fields["metric"].is_string()) attempts.metric[part] = fields["metric"].get<std::string>();
      continue;
    }
    if (event.kind == "snapshot") {
      // A journal re-seeded from progress.json: the modules it lists were started (and maybe completed) before.
      if (!fields.contains("modules") || !fields["modules"].is_object()) continue;
      for (const auto& [number, entry] : fields["modules"].items()) {
        if (!entry.is_object()) continue;
        ModuleRecord& record = summary.modules[number];
        for (const char* key : {"started_at", "completed_at"}) {
          if (!entry.contains(key) || !entry[key].is_string()) continue;
          auto when = parse_iso8601(entry[key].get<std::string>());
          if (!when) continue;
          (std::string(key) == "started_at" ? record.started : record.completed) = when;
        }
      }
      continue;
    }

    ModuleRecord& record = summary.modules[event.module];
    record.active_seconds += gap;
    if (!record.first_pass) record.active_seconds_to_pass += gap;
    if (event.kind == "start") {
      if (!record.started) record.started = event.at;
    } else if (event.kind == "complete") {
      if (!record.started) record.started = event.at;
      if (!record.first_pass) record.first_pass = event.at;  // journals from before test runs were kept
      record.completed = event.at;
      record.origin = string_or(fields, "origin", "learner");
    } else if (event.kind == "reset") {
      record.completed.reset();
      record.origin.clear();
    } else if (event.kind == "hint") {
      const std::string test_case = string_or(fields, "case");
      int& level = record.hint_levels[test_case];
      level = std::max(level, int_or(fields, "level", 0));
    } else if (event.kind == "test") {
      ++record.test_runs;
      const bool full = string_or(fields, "filter").empty();
      const bool build_ok = bool_or(fields, "build_ok");
      const int total = int_or(fields, "total", 0), passed = int_or(fields, "passed", 0);
      const auto failed = strings_of(fields, "failed");
      if (record.first_failures.empty() && !failed.empty()) record.first_failures = failed;
      if (full) record.failures_per_run.push_back(build_ok ? std::max(0, total - passed) : -1);
      if (full && build_ok && total > 0 && passed == total && !record.first_pass) {
        record.first_pass = event.at;
        record.test_runs_to_pass = record.test_runs;
      }
    } else if (event.kind == "quiz") {
      ++record.quiz_attempts;
      QuizTaken taken;
      taken.at = event.at;
      taken.score = int_or(fields, "score", 0);
      taken.total = int_or(fields, "total", 0);
      if (fields.contains("answers") && fields["answers"].is_array())
        for (const auto& answer : fields["answers"])
          if (answer.is_object() && answer.contains("id") && answer["id"].is_string())
            taken.correct[answer["id"].get<std::string>()] = bool_or(answer, "correct");
      const std::string phase = string_or(fields, "phase");
      if (phase == "pre" && !record.pre) record.pre = taken;
      if (phase == "post" && !record.post) record.post = taken;
    }
  }
  return summary;
}

}  // namespace tito
