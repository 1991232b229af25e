// `tito olympics validate|submit|rank` (module 20, the Torch Olympics). validate checks a submission
// file against the schema; submit builds the learner's module 20 with tito's own measuring program,
// runs it in the sandbox, checks the learner's claims against tito's measurements and writes the
// verified record; rank orders a class's verified records per event. Each calls core/olympics.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/i18n.h"
#include "core/learner_files.h"
#include "core/milestone.h"
#include "core/olympics.h"
#include "core/sha256.h"
#include "core/terminal.h"
#include "run/module_test_runner.h"

namespace tito {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kCapstone = "20";

void print_problems(const std::string& file, const std::vector<SchemaProblem>& problems) {
  const Terminal& out = terminal();
  std::cout << out.fail_mark() << " " << out.red(fmt::format("{}: {} problem{}", file, problems.size(),
                                                             problems.size() == 1 ? "" : "s"))
            << "\n";
  for (const auto& p : problems) {
    std::cout << "  " << out.bold(p.path) << " " << p.problem << "\n";
    if (!p.fix.empty()) std::cout << "    " << out.dim("fix: " + p.fix) << "\n";
  }
}

// ---- validate ----

int run_validate(const GlobalOptions& options, const std::string& file) {
  Session session = open_session_if_possible(options);
  if (!fs::is_regular_file(file))
    throw UserError(fmt::format("{}: there is no such file", file),
                    "name the submission file olympics::save_submission wrote, e.g. tito olympics validate submission.json",
                    kExitUsage);
  const json schema = load_schema(session.installation.source_dir);
  const auto problems = validate_submission_text(read_file(file), schema);
  if (!problems.empty()) {
    print_problems(file, problems);
    return kExitFailure;
  }
  std::cout << terminal().ok_mark() << " " << file << " follows the submission schema (curriculum/20_capstone/submission.schema.json).\n"
            << terminal().dim("  The schema says nothing of the figures' truth: tito olympics submit measures them.") << "\n";
  return kExitOk;
}

// ---- submit ----

struct SubmitOptions {
  std::string learner;
  std::string claims;       // a submission file to check instead of the one the program writes
  bool reference = false;   // the reference module 20 (a demo)
};

MeasuredModel measured_from(const std::vector<ResultLine>& lines, const std::string& which) {
  std::map<std::string, double> values;
  for (const auto& line : lines)
    if (!line.skipped && line.metric.rfind(which + "_", 0) == 0) values[line.metric.substr(which.size() + 1)] = line.value;
  for (const char* key : {"accuracy", "latency_ms_median", "latency_ms_p90", "memory_bytes"})
    if (!values.count(key))
      throw UserError(fmt::format("the measuring program did not report {}_{}", which, key),
                      "tito olympics submit --verbose   (and look at its output above for the error)");
  return {values["accuracy"], values["latency_ms_median"], values["latency_ms_p90"], values["memory_bytes"]};
}

// Whose code each module of the measured build is. The build links the learner's files for
// `learner_dirs` and the reference library for every other module up to 20 (plan_program_build).
std::vector<ModuleOrigin> origins_in_build(const Session& session, const std::map<std::string, fs::path>& learner_dirs,
                                           bool reference_run) {
  std::vector<ModuleOrigin> origins;
  for (const auto& module : session.curriculum.modules()) {
    if (module.learner_files.empty() || module.number > kCapstone) continue;
    if (reference_run)
      origins.push_back({module.number, "reference", "reference_run"});
    else if (!learner_dirs.count(module.number))
      origins.push_back({module.number, "reference", "not_completed"});
    else if (origin_of_files(session.installation, module, fingerprint_learner_files(session.ws(), module)) == "reference")
      origins.push_back({module.number, "reference", "copied_reference_files"});
    else
      origins.push_back({module.number, "learner", ""});
  }
  return origins;
}

int run_submit(const GlobalOptions& global, const SubmitOptions& options) {
  set_cooperative_interrupts(true);
  Session session = open_session(global, true);
  const Terminal& out = terminal();
  const ModuleInfo* capstone = session.curriculum.find(kCapstone);
  if (capstone == nullptr || capstone->learner_files.empty())
    throw UserError("this course has no module 20 with learner files", "tito module list");
  std::map<std::string, fs::path> learner_dirs;
  if (!options.reference) {
    for (const auto& [number, entry] : session.state().modules) {
      const ModuleInfo* module = session.curriculum.find(number);
      if (entry.completed() && module && !module->learner_files.empty()) learner_dirs[number] = session.ws().module_dir(*module);
    }
    if (!session.state().is_started(kCapstone))
      throw UserError("you have not started module 20 (the capstone): its files hold your entry and your measurements",
                      "tito module start 20   (or try the reference entry: tito olympics submit --reference)");
    learner_dirs[kCapstone] = session.ws().module_dir(*capstone);
  }
  const std::string learner = options.learner.empty() ? "learner" : options.learner;
  const fs::path output_dir = session.ws().root() / "olympics";
  fs::create_directories(output_dir);
  const Toolchain toolchain = load_checked_toolchain(session.installation);

  ProgramRequest request;
  request.sources = {session.installation.source_dir / "curriculum" / "20_capstone" / "olympics_harness.cpp"};
  request.learner_dirs = learner_dirs;
  request.build_dir = session.ws().tito_dir() / "build" / "olympics";
  request.learner_objects_dir = session.ws().learner_objects_dir();
  request.binary_name = "olympics";
  request.label_prefix = "olympics/";
  request.env = {{"TITO_OUTPUT_DIR", output_dir.string()}, {"TITO_LEARNER", learner}, {"TINYTORCH_NON_INTERACTIVE", "1"}};
  request.time_limit_s = std::max(300.0, 5 * capstone->time_limit_s);  // two trainings and two measurements
  request.memory_limit_mb = 2048;
  fs::create_directories(request.build_dir);

  const std::vector<ModuleOrigin> origins = origins_in_build(session, learner_dirs, options.reference);
  const bool reference_entry = std::any_of(origins.begin(), origins.end(), [](const ModuleOrigin& m) {
    return m.module == kCapstone && m.origin == "reference";
  });
  std::cout << out.bold("Torch Olympics: measuring your entries") << out.dim(options.reference ? "  (reference module 20)" : "")
            << "\n";
  if (reference_entry)
    std::cout << out.yellow(options.reference
                                ? "A reference run: the entry is built from the reference solutions. Its record says so "
                                  "(\"origin\": \"reference\") and tito olympics rank lists it apart, never ranked."
                                : "Your module 20 files are the reference solution's (as `tito module start 20 --reference` "
                                  "writes them): the record says \"origin\": \"reference\" and tito olympics rank lists it "
                                  "apart, never ranked.")
              << "\n";
  std::vector<ResultLine> results;
  auto progress = [&out](const std::string& line) { std::cout << "  " << out.dim(line) << "\n" << std::flush; };
  auto output = [&](const std::string& line) {
    try {
      if (auto result = parse_result_line(line)) {
        results.push_back(*result);
        return;
      }
    } catch (const std::invalid_argument&) {
    }
    std::cout << "  " << out.dim("|") << " " << line << "\n" << std::flush;
  };
  const ProgramOutcome outcome = run_program(toolchain, request, progress, output, [] { return interrupt_requested(); });
  if (outcome.stopped || interrupt_requested()) return kExitInterrupted;
  if (!outcome.build_ok) {
    std::cout << out.red("Your module 20 does not compile with the measuring program:") << "\n" << outcome.build_log << "\n";
    throw UserError("the build failed", "tito module test 20   (fix the errors it shows first)");
  }
  if (!outcome.exited_cleanly())
    throw UserError(fmt::format("the measuring program did not finish: it {}", outcome.failure()),
                    "tito module test 20   (its output is in " + outcome.output_file.string() + ")");
  const MeasuredModel baseline = measured_from(results, "baseline"), optimized = measured_from(results, "optimized");

  const fs::path claims_path = options.claims.empty() ? output_dir / "submission.json" : fs::path(options.claims);
  if (!fs::is_regular_file(claims_path))
    throw UserError(fmt::format("{}: there is no such file", claims_path.string()),
                    "name the submission file to check, or leave --claims out to check the one your code writes");
  const std::string text = read_file(claims_path);
  const auto problems = validate_submission_text(text, load_schema(session.installation.source_dir));
  if (!problems.empty()) {
    print_problems(claims_path.string(), problems);
    throw UserError("the submission does not follow the schema, so its claims cannot be checked",
                    "fix the fields above (tito olympics validate " + claims_path.string() + ")");
  }
  const json submission = json::parse(text);
  const OlympicsRules rules = load_rules(session.installation.source_dir);
  const std::vector<ClaimCheck> checks = check_claims(rules, submission, baseline, optimized);

  std::cout << "\n" << fmt::format("  {:<44} {:>14} {:>14}", "claim", "claimed", "tito measured") << "\n";
  bool all_ok = true;
  for (const auto& check : checks) {
    all_ok = all_ok && check.ok;
    std::cout << "  " << (check.ok ? out.ok_mark() : out.fail_mark()) << " "
              << fmt::format("{:<42} {:>14} {:>14}", check.field, check.claimed, check.measured) << "\n";
    if (!check.ok) std::cout << "      " << out.red(check.why) << "\n";
  }
  json record = verified_record(submission, baseline, optimized, checks, rules);
  // Which code was measured: the instructor can compare these with the files the learner hands in.
  json fingerprints = json::object();
  if (!options.reference)
    for (const auto& file : capstone->learner_files) {
      const fs::path path = learner_dirs[kCapstone] / fs::path(file).filename();
      fingerprints[fs::path(file).filename().string()] = fs::is_regular_file(path) ? sha256_hex(read_file(path)) : "missing";
    }
  record["learner_files_sha256"] = fingerprints;
  mark_origins(record, origins);
  const fs::path record_path = output_dir / (learner + ".verified.json");
  write_file_atomically(record_path, record.dump(2) + "\n");
  std::cout << "\nwrote " << record_path.string() << "\n";
  if (!all_ok) {
    std::cout << out.fail_mark() << " " << out.red("Rejected: a claim is outside tito's tolerance (above).") << "\n";
    return kExitFailure;
  }
  if (reference_entry) {
    std::cout << out.ok_mark() << " "
              << out.green(fmt::format("Verified: the reference entry earns {}", record["events_verified"].dump()))
              << out.yellow("  (a reference run: not ranked)") << "\n";
    out.next_step(options.reference ? "your own entry: tito module start 20, then tito olympics submit"
                                    : "your own entry: tito module reset 20, write it, then tito olympics submit");
    return kExitOk;
  }
  std::cout << out.ok_mark() << " "
            << out.green(fmt::format("Verified: {} enters {}", learner, record["events_verified"].dump())) << "\n";
  const std::string note = reference_code_note(record);
  if (!note.empty())
    std::cout << out.yellow(fmt::format("Your build ran {}: the record says so, and so does the class's ranking.", note))
              << "\n";
  out.next_step("hand in " + record_path.string() + " (your instructor ranks the class with tito olympics rank)");
  return kExitOk;
}

// ---- rank ----

int run_rank(const GlobalOptions& options, const std::string& dir, bool csv) {
  Session session = open_session_if_possible(options);
  if (!fs::is_directory(dir))
    throw UserError(fmt::format("{}: there is no such folder", dir),
                    "name the folder that holds the class's *.verified.json records", kExitUsage);
  const Ranking ranking = rank_records(dir, load_rules(session.installation.source_dir));
  std::cout << (csv ? ranking_csv(ranking) : ranking_markdown(ranking));
  if (csv) {  // the markdown says these itself; the CSV stays one table
    for (const auto& line : ranking.warnings) std::cerr << "warning: " << line << "\n";
    for (const auto& line : ranking.skipped) std::cerr << "not ranked: " << line << "\n";
  }
  return kExitOk;
}

}  // namespace

void register_olympics_commands(CommandRegistry& registry) {
  const GlobalOptions* options = &registry.options;
  CLI::App* group = registry.app.add_subcommand("olympics", tr("The Torch Olympics (module 20): check, submit and rank entries"));
  group->require_subcommand(0, 1);
  group->fallthrough();

  auto file = std::make_shared<std::string>();
  auto* validate = group->add_subcommand("validate", "Check a submission file against the schema, naming each bad field and its fix");
  validate->add_option("FILE", *file, "The submission (olympics::save_submission writes it)")->required();
  on_chosen(validate, registry, [options, file] { return run_validate(*options, *file); });

  auto submit_options = std::make_shared<SubmitOptions>();
  auto* submit = group->add_subcommand(
      "submit", "Build your module 20, measure your entries with tito's own program, check your claims, write the record");
  submit->add_option("--learner", submit_options->learner, "Your name or id, as the class list has it");
  submit->add_option("--claims", submit_options->claims,
                     "Check this submission file instead of the one your code writes (olympics/submission.json)");
  submit->add_flag("--reference", submit_options->reference, "Use the reference module 20 (a demo)");
  on_chosen(submit, registry, [options, submit_options] { return run_submit(*options, *submit_options); });

  auto dir = std::make_shared<std::string>();
  auto csv = std::make_shared<bool>(false);
  auto* rank = group->add_subcommand("rank", "Instructor: rank a class's verified submissions per event");
  rank->add_option("DIR", *dir, "A folder of *.verified.json records (searched recursively)")->required();
  rank->add_flag("--csv", *csv, "CSV instead of markdown tables");
  on_chosen(rank, registry, [options, dir, csv] { return run_rank(*options, *dir, *csv); });

  require_subcommand_or_help(*group, registry.selected);
}

}  // namespace tito
