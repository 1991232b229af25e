#include "core/milestone_knockout.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.h"
#include "core/files.h"
#include "core/learner_files.h"
#include "core/milestone_program.h"
#include "core/variants.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

struct Task {
  const Milestone* milestone = nullptr;
  const MilestonePart* part = nullptr;
  const ModuleInfo* module = nullptr;  // nullptr: the reference run
  std::size_t variant = 0;
  double time_limit_s = 0;
  const std::vector<ResultLine>* reference_results = nullptr;  // what the reference reported for the part
};

std::string first_lines(const std::string& text, std::size_t count) {
  std::istringstream lines(text);
  std::string kept;
  std::size_t taken = 0;
  for (std::string line; taken < count && std::getline(lines, line); ++taken)
    kept += (kept.empty() ? "" : " | ") + (line.size() > 160 ? line.substr(0, 160) + "..." : line);
  return kept;
}

// Writes `content` only when the file holds something else, so that ninja recompiles only the files a
// variant changed (and the one it changed last time, restored).
void write_if_different(const fs::path& file, const std::string& content) {
  if (fs::is_regular_file(file) && read_file(file) == content) return;
  write_file_atomically(file, content);
}

// metric -> last value, timings left out.
std::map<std::string, double> computed_values(const std::vector<ResultLine>& results) {
  std::map<std::string, double> values;
  for (const auto& result : results)
    if (!result.skipped && !measures_time(result.metric)) values[result.metric] = result.value;
  return values;
}

class Study {
 public:
  Study(const Installation& installation, const Curriculum& curriculum, const Toolchain& toolchain,
        const KnockoutOptions& options)
      : installation_(installation), curriculum_(curriculum), toolchain_(toolchain), options_(options) {}

  const PreparedVariants& variants_of(const ModuleInfo& module) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = variants_.find(module.number);
    if (found == variants_.end()) found = variants_.emplace(module.number, prepare_variants(installation_, module)).first;
    return found->second;
  }

  const std::vector<GeneratedFile>& reference_files(const ModuleInfo& module) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = reference_.find(module.number);
    if (found == reference_.end())
      found = reference_.emplace(module.number, generate_module_files(installation_, module, FileFlavour::Reference)).first;
    return found->second;
  }

  // One build and run in slot `slot`'s folders: the reference alone, or the reference with one module's
  // file replaced by a variant.
  KnockoutRun run(const Task& task, int slot) {
    KnockoutRun result;
    result.milestone = task.milestone->id;
    result.part = task.part->number;
    const fs::path dir = options_.scratch_dir / fmt::format("slot-{}", slot);
    ProgramRequest request = milestone_part_request(installation_, toolchain_, *task.milestone, *task.part, dir / "out",
                                                    dir / "build" / ("milestone-" + task.milestone->id));
    request.learner_objects_dir = dir / "objects";
    request.time_limit_s = task.time_limit_s;
    fs::create_directories(dir / "out");
    fs::create_directories(request.build_dir);
    // Every module the part uses is built from learner files, as in a learner's run (the build links the
    // reference library only below the last learner module): the reference solution's, but for the
    // variant's one file.
    std::string changed_file, changed_source;
    if (task.module == nullptr) {
      result.outcome = KnockoutOutcome::Reference;
    } else {
      const PreparedVariants& prepared = variants_of(*task.module);
      const Variant& variant = prepared.variants[task.variant];
      result.module = task.module->number;
      result.variant = variant.name;
      changed_file = fs::path(variant.file).filename().string();
      changed_source = prepared.sources[task.variant];
    }
    for (const auto& number : task.part->required_modules) {
      const ModuleInfo* module = curriculum_.find(number);
      if (module == nullptr || module->learner_files.empty()) continue;
      const fs::path files = dir / "files" / module->folder();
      fs::create_directories(files);
      const bool varied = task.module == module;
      for (const auto& file : reference_files(*module))
        write_if_different(files / file.name, varied && file.name == changed_file ? changed_source : file.content);
      request.learner_dirs[number] = files;
    }
    std::vector<ResultLine> results;
    auto collect = [&results](const std::string& line) {
      try {
        if (auto parsed = parse_result_line(line)) results.push_back(*parsed);
      } catch (const std::invalid_argument&) {
        // an unreadable line counts as no result, as in `tito milestone run`
      }
    };
    const ProgramOutcome outcome = run_program(toolchain_, request, {}, collect);
    result.results = results;
    result.seconds = outcome.build_seconds + outcome.run_seconds;
    if (!outcome.build_ok) {
      result.outcome = KnockoutOutcome::NotBuilt;
      result.problem = first_lines(outcome.build_log, 3);
      return result;
    }
    result.verdict = judge_part(*task.part, results, outcome.failure());
    result.problem = outcome.failure();
    if (result.outcome == KnockoutOutcome::Reference) return result;
    if (outcome.timed_out && task.time_limit_s < task.part->time_limit_s) result.outcome = KnockoutOutcome::Slow;
    else if (!result.verdict.passed) result.outcome = KnockoutOutcome::Caught;
    // Passing with the reference's very measurements: the variant changed nothing the part computes.
    else if (task.reference_results && computed_values(*task.reference_results) == computed_values(results))
      result.outcome = KnockoutOutcome::NoEffect;
    else result.outcome = KnockoutOutcome::NotCaught;
    return result;
  }

  // Runs `tasks` on options.jobs slots; `finished` is called (serialised) as each ends.
  std::vector<KnockoutRun> run_all(const std::vector<Task>& tasks, const KnockoutProgress& finished) {
    std::vector<KnockoutRun> runs(tasks.size());
    std::atomic<std::size_t> next{0};
    std::mutex report;
    auto worker = [&](int slot) {
      for (std::size_t i = next++; i < tasks.size(); i = next++) {
        try {
          runs[i] = run(tasks[i], slot);
        } catch (const std::exception& error) {
          runs[i].milestone = tasks[i].milestone->id;
          runs[i].part = tasks[i].part->number;
          runs[i].problem = std::string("it could not be run: ") + error.what();
        }
        if (finished) {
          std::lock_guard<std::mutex> lock(report);
          finished(runs[i]);
        }
      }
    };
    const int jobs = std::max(1, std::min<int>(options_.jobs, static_cast<int>(tasks.size())));
    std::vector<std::thread> pool;
    for (int slot = 1; slot < jobs; ++slot) pool.emplace_back(worker, slot);
    worker(0);
    for (auto& thread : pool) thread.join();
    return runs;
  }

 private:
  const Installation& installation_;
  const Curriculum& curriculum_;
  const Toolchain& toolchain_;
  const KnockoutOptions& options_;
  std::mutex mutex_;
  std::map<std::string, PreparedVariants> variants_;
  std::map<std::string, std::vector<GeneratedFile>> reference_;
};

std::vector<std::pair<const Milestone*, const MilestonePart*>> chosen_parts(const std::vector<Milestone>& milestones,
                                                                          const KnockoutOptions& options) {
  std::vector<const Milestone*> chosen;
  if (options.milestones.empty()) {
    for (const auto& milestone : milestones)
      if (milestone.implemented()) chosen.push_back(&milestone);
  } else {
    for (const auto& name : options.milestones) chosen.push_back(&resolve_milestone(milestones, name));
  }
  std::vector<std::pair<const Milestone*, const MilestonePart*>> parts;
  for (const Milestone* milestone : chosen) {
    if (options.part != 0) {
      const MilestonePart* part = milestone->part(options.part);
      if (part == nullptr)
        throw UserError(fmt::format("milestone {} has no part {}", milestone->id, options.part),
                        "tito milestone info " + milestone->id + "   (lists its parts)", kExitUsage);
      parts.emplace_back(milestone, part);
      continue;
    }
    for (const auto& part : milestone->parts)
      if (part.required) parts.emplace_back(milestone, &part);
  }
  return parts;
}

}  // namespace

std::vector<KnockoutRun> run_knockout(const Installation& installation, const Curriculum& curriculum,
                                      const Toolchain& toolchain, const std::vector<Milestone>& milestones,
                                      const KnockoutOptions& options, const KnockoutProgress& progress) {
  for (const auto& number : options.modules)
    if (curriculum.find(number) == nullptr)
      throw UserError(fmt::format("there is no module {} in curriculum.json", number), "tito module list", kExitUsage);
  const auto parts = chosen_parts(milestones, options);
  Study study(installation, curriculum, toolchain, options);
  // Names checked before anything runs: a misspelt variant would otherwise cost the reference runs first.
  std::set<std::string> known_variants;
  for (const auto& entry : parts)
    for (const auto& number : entry.second->required_modules)
      if (const ModuleInfo* module = curriculum.find(number))
        for (const auto& variant : study.variants_of(*module).variants) known_variants.insert(variant.name);
  for (const auto& name : options.variants)
    if (!known_variants.count(name))
      throw UserError(fmt::format("no module the chosen milestone parts use has a variant named '{}'", name),
                      "the names are in curriculum/NN_slug/variants.json", kExitUsage);

  // First the reference, once per part: its time sets the variants' time limit, and a part the reference
  // fails says nothing about any variant.
  std::vector<Task> baselines;
  for (const auto& [milestone, part] : parts) baselines.push_back({milestone, part, nullptr, 0, part->time_limit_s});
  const std::vector<KnockoutRun> references = study.run_all(baselines, progress);  // outlives the tasks pointing into it
  std::vector<KnockoutRun> runs = references;

  std::vector<Task> tasks;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const auto& [milestone, part] = parts[p];
    const KnockoutRun& reference = references[p];
    if (!reference.verdict.passed) continue;
    const double limit = std::min(part->time_limit_s, std::max(60.0, options.slowdown_limit * reference.seconds));
    for (const auto& number : part->required_modules) {
      if (!options.modules.empty() && std::find(options.modules.begin(), options.modules.end(), number) == options.modules.end())
        continue;
      const ModuleInfo* module = curriculum.find(number);
      if (module == nullptr) continue;
      const PreparedVariants& prepared = study.variants_of(*module);
      if (!prepared.problem.empty()) {
        KnockoutRun broken;
        broken.milestone = milestone->id;
        broken.part = part->number;
        broken.module = number;
        broken.variant = "(variants.json)";
        broken.problem = prepared.problem;
        runs.push_back(broken);
        continue;
      }
      for (std::size_t v = 0; v < prepared.variants.size(); ++v) {
        const std::string& name = prepared.variants[v].name;
        if (!options.variants.empty() && std::find(options.variants.begin(), options.variants.end(), name) == options.variants.end())
          continue;
        tasks.push_back({milestone, part, module, v, limit, &reference.results});
      }
    }
  }
  const auto variant_runs = study.run_all(tasks, progress);
  runs.insert(runs.end(), variant_runs.begin(), variant_runs.end());
  // Reference first, then each variant, grouped by milestone part and module in curriculum order.
  std::stable_sort(runs.begin(), runs.end(), [](const KnockoutRun& a, const KnockoutRun& b) {
    if (a.milestone != b.milestone) return a.milestone < b.milestone;
    if (a.part != b.part) return a.part < b.part;
    return a.module < b.module;
  });
  return runs;
}

bool measures_time(const std::string& metric) {
  for (const char* word : {"seconds", "per_second", "speedup", "latency", "p_value"})
    if (metric.find(word) != std::string::npos) return true;
  auto ends_with = [&](const std::string& suffix) {
    return metric.size() >= suffix.size() && metric.compare(metric.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends_with("_ms") || ends_with("_us");
}

std::string what_failed(const KnockoutRun& run) {
  switch (run.outcome) {
    case KnockoutOutcome::Reference:
      return run.verdict.passed ? fmt::format("passes ({})", run.verdict.measured)
                                : fmt::format("THE REFERENCE FAILS: {} (its variants were not run)", run.verdict.message);
    case KnockoutOutcome::Caught:
      if (!run.verdict.failed_gates.empty()) return fmt::format("{}", fmt::join(run.verdict.failed_gates, ", "));
      return "did not finish: " + run.problem;
    case KnockoutOutcome::NotCaught:
      return fmt::format("PASSES EVERY GATE ({})", run.verdict.measured);
    case KnockoutOutcome::NoEffect:
      return "no effect: every measurement equals the reference's";
    case KnockoutOutcome::Slow:
      return "stopped: " + run.problem;
    case KnockoutOutcome::NotBuilt:
      return "not run: " + run.problem;
  }
  return "";
}

std::string knockout_table(const std::vector<KnockoutRun>& runs) {
  std::size_t width = 9;
  for (const auto& run : runs) width = std::max(width, run.module.size() + 1 + run.variant.size());
  std::string table = fmt::format("{:<6} {:<{}} {:>7}  {}\n", "part", "variant", width, "seconds", "failing gates");
  std::map<KnockoutOutcome, int> counts;
  double seconds = 0;
  for (const auto& run : runs) {
    const std::string who = run.module.empty() ? "reference" : run.module + " " + run.variant;
    table += fmt::format("{:<6} {:<{}} {:>7.1f}  {}\n", fmt::format("{}/{}", run.milestone, run.part), who, width,
                         run.seconds, what_failed(run));
    ++counts[run.outcome];
    seconds += run.seconds;
  }
  const int variants = counts[KnockoutOutcome::Caught] + counts[KnockoutOutcome::NotCaught] +
                       counts[KnockoutOutcome::NoEffect] + counts[KnockoutOutcome::Slow] + counts[KnockoutOutcome::NotBuilt];
  table += fmt::format("\n{} variant runs: {} caught by a gate, {} pass every gate (findings: add a probe to the gate), "
                       "{} without effect on the part, {} stopped as too slow, {} not run; {:.0f} s of build and run in all\n",
                       variants, counts[KnockoutOutcome::Caught], counts[KnockoutOutcome::NotCaught],
                       counts[KnockoutOutcome::NoEffect], counts[KnockoutOutcome::Slow], counts[KnockoutOutcome::NotBuilt],
                       seconds);
  return table;
}

}  // namespace tito
