#include "core/progress_store.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/clock.h"
#include "core/files.h"
#include "core/i18n.h"
#include "core/sha256.h"

namespace tito {
namespace {

using nlohmann::json;
constexpr int kFormatVersion = 2;  // 2 added "origin"; format 1 files are read as they are
// Each journal line says the format it was written in ("v"; absent: 1). 2 added the learning journal's
// events (test, quiz, milestone) and "v" itself.
constexpr int kJournalVersion = 2;

json optional_to_json(const std::optional<std::string>& value) { return value ? json(*value) : json(nullptr); }
json optional_to_json(const std::optional<int>& value) { return value ? json(*value) : json(nullptr); }

std::optional<std::string> string_field(const json& object, const char* key, const std::string& where) {
  if (!object.contains(key) || object[key].is_null()) return std::nullopt;
  if (!object[key].is_string()) throw std::runtime_error(fmt::format("{}.{} is not a string", where, key));
  return object[key].get<std::string>();
}

std::optional<int> int_field(const json& object, const char* key, const std::string& where) {
  if (!object.contains(key) || object[key].is_null()) return std::nullopt;
  if (!object[key].is_number_integer()) throw std::runtime_error(fmt::format("{}.{} is not a whole number", where, key));
  return object[key].get<int>();
}

json modules_to_json(const ProgressState& state) {
  json modules = json::object();
  for (const auto& [number, progress] : state.modules) {
    modules[number] = {{"started_at", optional_to_json(progress.started_at)},
                       {"completed_at", optional_to_json(progress.completed_at)},
                       {"score", optional_to_json(progress.score)},
                       {"points", optional_to_json(progress.points)},
                       {"fingerprint", optional_to_json(progress.fingerprint)},
                       {"origin", optional_to_json(progress.origin)}};
    // Only when there are some, so files written before hints had levels keep their exact shape.
    if (!progress.hints_shown.empty()) modules[number]["hints_shown"] = progress.hints_shown;
  }
  return modules;
}

std::map<std::string, ModuleProgress> modules_from_json(const json& modules) {
  static const std::regex kModuleNumber("[0-9]{2}");
  if (!modules.is_object()) throw std::runtime_error("\"modules\" is not an object");
  std::map<std::string, ModuleProgress> result;
  for (const auto& [number, entry] : modules.items()) {
    if (!std::regex_match(number, kModuleNumber)) throw std::runtime_error(fmt::format("\"{}\" is not a module number", number));
    if (!entry.is_object()) throw std::runtime_error(fmt::format("modules.{} is not an object", number));
    std::string where = "modules." + number;
    ModuleProgress progress;
    progress.started_at = string_field(entry, "started_at", where);
    progress.completed_at = string_field(entry, "completed_at", where);
    progress.score = int_field(entry, "score", where);
    progress.points = int_field(entry, "points", where);
    progress.fingerprint = string_field(entry, "fingerprint", where);
    progress.origin = string_field(entry, "origin", where);
    if (progress.origin && *progress.origin != "learner" && *progress.origin != "reference")
      throw std::runtime_error(fmt::format("{}.origin is neither \"learner\" nor \"reference\"", where));
    if (entry.contains("hints_shown") && !entry["hints_shown"].is_null()) {
      const json& shown = entry["hints_shown"];
      if (!shown.is_object()) throw std::runtime_error(fmt::format("{}.hints_shown is not an object", where));
      for (const auto& [test_case, level] : shown.items()) {
        if (!level.is_number_integer()) throw std::runtime_error(fmt::format("{}.hints_shown[\"{}\"] is not a whole number", where, test_case));
        progress.hints_shown[test_case] = level.get<int>();
      }
    }
    result[number] = progress;
  }
  return result;
}

// The learning journal's own events (test runs, quizzes, milestone runs): they change no progress
// (milestones.json keeps milestone results).
bool is_learning_event(const json& event) {
  const json& kind = event.at("event");
  return kind == "milestone" || kind == "test" || kind == "quiz";
}

// Applies one journal event to a state. Unknown events are ignored so that newer tito versions can add some.
void apply_event(ProgressState& state, const json& event) {
  if (is_learning_event(event)) return;
  const std::string kind = event.at("event").get<std::string>();
  if (kind == "snapshot") {
    state.modules = modules_from_json(event.at("modules"));
    state.last_worked = string_field(event, "last_worked", "snapshot");
    return;
  }
  const std::string module = event.at("module").get<std::string>();
  const std::string at = event.at("at").get<std::string>();
  ModuleProgress& progress = state.modules[module];
  if (kind == "start") {
    if (!progress.started_at) progress.started_at = at;
  } else if (kind == "complete") {
    if (!progress.started_at) progress.started_at = at;
    progress.completed_at = at;
    progress.score = event.at("score").get<int>();
    progress.points = event.at("points").get<int>();
    progress.fingerprint = event.at("fingerprint").get<std::string>();
    progress.origin = string_field(event, "origin", "complete");  // absent in format 1 journals
  } else if (kind == "hint") {
    int& shown = progress.hints_shown[event.at("case").get<std::string>()];
    shown = std::max(shown, event.at("level").get<int>());
  } else if (kind == "reset") {
    progress.completed_at.reset();
    progress.score.reset();
    progress.points.reset();
    progress.fingerprint.reset();
    progress.origin.reset();
  }
  state.last_worked = module;
}

}  // namespace

bool ProgressState::is_started(const std::string& module) const {
  auto found = modules.find(module);
  return found != modules.end() && found->second.started();
}

bool ProgressState::is_completed(const std::string& module) const {
  auto found = modules.find(module);
  return found != modules.end() && found->second.completed();
}

int ProgressState::completed_count() const {
  int count = 0;
  for (const auto& entry : modules) count += entry.second.completed() ? 1 : 0;
  return count;
}

std::string canonical_checksum(json document) {
  document.erase("checksum");
  return sha256_hex(document.dump());  // nlohmann orders object keys, so dump() is canonical
}

json progress_to_json(const ProgressState& state) {
  json document = {{"version", kFormatVersion},
                   {"modules", modules_to_json(state)},
                   {"last_worked", optional_to_json(state.last_worked)}};
  document["checksum"] = canonical_checksum(document);
  return document;
}

ProgressState progress_from_json(const json& document) {
  if (!document.is_object()) throw std::runtime_error("the top level is not an object");
  if (!document.contains("version") || !(document["version"] == kFormatVersion || document["version"] == 1)) {
    throw std::runtime_error("\"version\" is missing or not 1 or 2");
  }
  if (!document.contains("checksum") || !document["checksum"].is_string()) throw std::runtime_error("\"checksum\" is missing");
  if (document["checksum"].get<std::string>() != canonical_checksum(document)) {
    throw std::runtime_error("its checksum does not match (was it edited by hand?)");
  }
  if (!document.contains("modules")) throw std::runtime_error("\"modules\" is missing");
  ProgressState state;
  state.modules = modules_from_json(document["modules"]);
  state.last_worked = string_field(document, "last_worked", "progress");
  return state;
}

ProgressStore::ProgressStore(std::filesystem::path tito_dir)
    : progress_path_(tito_dir / "progress.json"), journal_path_(tito_dir / "history.jsonl") {}

void ProgressStore::initialise(const std::filesystem::path& tito_dir) {
  write_file_atomically(tito_dir / "progress.json", progress_to_json(ProgressState{}).dump(2) + "\n");
  std::ofstream(tito_dir / "history.jsonl", std::ios::app).flush();
}

ProgressStore::Replay ProgressStore::replay_journal() {
  Replay replay;
  std::ifstream in(journal_path_);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      json event = json::parse(line);
      if (!event.is_object() || !event.contains("checksum") || event["checksum"] != canonical_checksum(event)) {
        throw std::runtime_error("checksum");
      }
      ProgressState attempt = replay.state;  // apply to a copy so a half-valid event changes nothing
      apply_event(attempt, event);
      replay.state = std::move(attempt);
      ++replay.applied;
      if (event.contains("seq") && event["seq"].is_number_integer()) {
        next_seq_ = std::max(next_seq_, event["seq"].get<long>() + 1);
      }
    } catch (const std::exception&) {
      ++replay.skipped;
    }
  }
  return replay;
}

ProgressLoad ProgressStore::load() {
  next_seq_ = 1;
  Replay replay = replay_journal();
  next_seq_ = std::max<long>(next_seq_, replay.applied + replay.skipped + 1);

  std::string problem;  // what was wrong with progress.json, as the learner reads it
  const bool missing = !std::filesystem::exists(progress_path_);
  if (missing) {
    problem = tr("progress.json was missing");
  } else {
    try {
      state_ = progress_from_json(json::parse(read_file(progress_path_)));
      if (replay.applied == 0 && !state_.modules.empty()) {
        // The journal is gone but the state is fine: seed a new journal so the state stays recoverable.
        append_event({{"event", "snapshot"}, {"modules", modules_to_json(state_)},
                      {"last_worked", optional_to_json(state_.last_worked)}});
      }
      return {};
    } catch (const json::exception& error) {
      problem = tr("progress.json is not valid JSON");
      spdlog::warn("progress.json: {}", error.what());
    } catch (const std::runtime_error& error) {
      problem = trf("progress.json is damaged: {}", error.what());
    }
  }

  ProgressLoad outcome;
  std::string kept;
  if (std::filesystem::exists(progress_path_)) {
    auto aside = unique_path(progress_path_.string() + ".corrupt-" + filename_stamp_now());
    std::filesystem::rename(progress_path_, aside);
    kept = trf("; the old file is kept as {}", aside.filename().string());
  }
  state_ = replay.state;
  save();
  if (missing && replay.applied == 0 && replay.skipped == 0) return outcome;  // a fresh start
  const std::string skipped =
      replay.skipped ? trnf(", {} unreadable line skipped", ", {} unreadable lines skipped", static_cast<unsigned long>(replay.skipped),
                            replay.skipped)
                     : "";
  // TRANSLATORS: the fields, in order: what was wrong with progress.json; where the old file is kept (may be
  // empty); how many events of the journal were replayed; how many lines were skipped (may be empty).
  outcome.notice = trnf("{}{}; rebuilt your progress from history.jsonl ({} event{})",
                        "{}{}; rebuilt your progress from history.jsonl ({} events{})", static_cast<unsigned long>(replay.applied),
                        problem, kept, replay.applied, skipped);
  spdlog::warn("{}", outcome.notice);
  return outcome;
}

void ProgressStore::append_event(json event) {
  event["seq"] = next_seq_++;
  event["v"] = kJournalVersion;
  if (!event.contains("at")) event["at"] = iso8601_now();
  event["checksum"] = canonical_checksum(event);
  append_line_durably(journal_path_, event.dump());
  // The learning journal's own events change no progress: progress.json stays as it is.
  if (is_learning_event(event)) return;
  apply_event(state_, event);
  save();
}

void ProgressStore::save() const { write_file_atomically(progress_path_, progress_to_json(state_).dump(2) + "\n"); }

void ProgressStore::record_started(const std::string& module) { append_event({{"event", "start"}, {"module", module}}); }

void ProgressStore::record_completed(const std::string& module, int score, int points, const std::string& fingerprint,
                                     const std::string& origin) {
  append_event({{"event", "complete"}, {"module", module}, {"score", score}, {"points", points},
                {"fingerprint", fingerprint}, {"origin", origin}});
}

void ProgressStore::clear_completion(const std::string& module) { append_event({{"event", "reset"}, {"module", module}}); }

void ProgressStore::record_test_run(const std::string& module, json fields) {
  fields["event"] = "test";
  fields["module"] = module;
  append_event(std::move(fields));
}

void ProgressStore::record_quiz(const std::string& module, json fields) {
  fields["event"] = "quiz";
  fields["module"] = module;
  append_event(std::move(fields));
}

void ProgressStore::record_milestone_run(const std::string& milestone, json fields) {
  fields["event"] = "milestone";
  fields["milestone"] = milestone;
  append_event(std::move(fields));
}

void ProgressStore::record_hint_shown(const std::string& module, const std::string& test_case, int level) {
  append_event({{"event", "hint"}, {"module", module}, {"case", test_case}, {"level", level}});
}

}  // namespace tito
