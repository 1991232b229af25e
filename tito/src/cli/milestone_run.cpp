// `tito milestone run NN`: build a milestone's program(s) against the learner's completed modules,
// run each part in the sandbox with its output live on screen, judge the value it measures
// against the part's gate in milestone.json, and record the result (unless --reference).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cli/commands.h"
#include "cli/report_printer.h"
#include "core/errors.h"
#include "core/learner_files.h"
#include "core/milestone.h"
#include "core/milestone_program.h"
#include "core/milestone_record.h"
#include "core/terminal.h"
#include "run/module_test_runner.h"

namespace tito {
namespace {

namespace fs = std::filesystem;
constexpr std::size_t kMaxBuildLogLines = 60;

struct RunOptions {
  std::string id;
  bool reference = false;  // the full reference library; records nothing
  int part = 0;            // 0: the required parts, or every part with --all
  bool all = false;        // the optional parts too (they take minutes, or a dataset)
  std::string data_dir;    // a dataset the user has (CIFAR-10), handed to the program as $TITO_DATA_DIR
  std::string profile;     // a trace file name: each part records a Chrome trace of its ops (module 14)
  std::vector<std::string> program_args;  // after `--`: handed to the one part's program (--part N)
};


void refuse_if_locked(const Session& session, const Milestone& milestone) {
  const auto missing = missing_modules(milestone, session.state());
  if (missing.empty()) return;
  const std::string& first = missing.front();
  const std::string fix = session.state().is_started(first) ? "tito module complete " + first
                                                            : "tito module start " + first;
  throw UserError(fmt::format("milestone {} is locked: it runs on your code for module{} {}, which you have not "
                              "completed yet",
                              milestone.label(), missing.size() == 1 ? "" : "s", module_names(session, missing)),
                  fix + "   (or try it on the reference code: tito milestone run " + milestone.id + " --reference)");
}


// Learner code for every completed module; everything else links the reference solution libraries.
std::map<std::string, fs::path> learner_dirs_for(const Session& session, bool reference) {
  std::map<std::string, fs::path> dirs;
  if (reference) return dirs;
  for (const auto& [number, entry] : session.state().modules) {
    const ModuleInfo* module = session.curriculum.find(number);
    if (entry.completed() && module && !module->learner_files.empty()) dirs[number] = session.ws().module_dir(*module);
  }
  return dirs;
}

// Before anything is built or recorded: a module edited after `tito module complete` runs code its
// tests never passed, and the result would be recorded as if they had.
void warn_about_changed_modules(const Session& session, const Milestone& milestone) {
  const auto changed = modules_changed_since_completion(milestone, session.state(), [&](const std::string& number) {
    const ModuleInfo* module = session.curriculum.find(number);
    return module ? fingerprint_learner_files(session.ws(), *module) : std::string();
  });
  if (changed.empty()) return;
  terminal().warning(fmt::format(
      "your files of module{} {} changed since you completed {}: this run builds on the changed code, which the "
      "module tests have not passed, and records its result. To test them again first: tito module complete {}",
      changed.size() == 1 ? "" : "s", module_names(session, changed), changed.size() == 1 ? "it" : "them",
      changed.front()));
}

// Whose code a milestone build runs, module by module, and why each reference module is one.
struct CodeInBuild {
  std::vector<std::string> learner;              // the learner's own files
  std::vector<std::string> reference;            // every module that runs the reference solution
  std::vector<std::string> reference_copies;     // ... because the learner's files are its copy (--reference)
  std::vector<std::string> not_completed;        // ... because the learner has not completed it
};

// The build links the learner's files for `dirs` and the reference library for every other module up
// to the last of them (plan_program_build); with no dirs (--reference), the reference for everything.
CodeInBuild code_in_build(const Session& session, const std::map<std::string, fs::path>& dirs) {
  CodeInBuild code;
  const std::string last = dirs.empty() ? "" : dirs.rbegin()->first;
  for (const auto& module : session.curriculum.modules()) {
    if (module.learner_files.empty() || (!last.empty() && module.number > last)) continue;
    if (!dirs.count(module.number)) {
      code.reference.push_back(module.number);
      if (!last.empty()) code.not_completed.push_back(module.number);
    } else if (origin_of_files(session.installation, module, fingerprint_learner_files(session.ws(), module)) ==
               "reference") {
      code.reference.push_back(module.number);
      code.reference_copies.push_back(module.number);
    } else {
      code.learner.push_back(module.number);
    }
  }
  return code;
}

void print_code_header(const CodeInBuild& code) {
  const Terminal& out = terminal();
  if (code.reference.empty()) {
    std::cout << out.dim(fmt::format("Built on your code for module{} {}.", code.learner.size() == 1 ? "" : "s",
                                     fmt::join(code.learner, ", ")))
              << "\n";
    return;
  }
  std::cout << "Your code:          "
            << (code.learner.empty() ? std::string("none") : fmt::format("modules {}", fmt::join(code.learner, ", ")))
            << "\n";
  std::cout << "Reference solution: " << out.yellow(fmt::format("modules {}", fmt::join(code.reference, ", ")));
  std::vector<std::string> why;
  if (!code.reference_copies.empty())
    why.push_back(fmt::format("{}: your files are the copy `tito module start NN --reference` wrote",
                              fmt::join(code.reference_copies, ", ")));
  if (!code.not_completed.empty())
    why.push_back(fmt::format("{}: not completed by you", fmt::join(code.not_completed, ", ")));
  if (!why.empty()) std::cout << out.dim(fmt::format(" ({})", fmt::join(why, "; ")));
  std::cout << "\n";
}

void print_build_failure(const ProgramOutcome& outcome, const Session& session, const Toolchain& toolchain) {
  const Terminal& out = terminal();
  if (outcome.given_code_failed) {
    print_given_code_failure("The milestone's program files", outcome.build_log, describe_compiler(toolchain),
                             switch_compiler_command(toolchain, session.installation.source_dir), kMaxBuildLogLines);
    return;
  }
  std::cout << out.fail_mark() << " " << out.red("The milestone program did not compile against your code.")
            << " Compiler errors (your files first):\n\n";
  std::istringstream ordered(order_build_log(outcome.build_log, session.ws().modules_dir().string()));
  std::size_t shown = 0;
  for (std::string line; std::getline(ordered, line) && shown < kMaxBuildLogLines; ++shown) std::cout << "  " << line << "\n";
  if (shown == kMaxBuildLogLines) std::cout << out.dim("  ... (more errors follow; fix these first)") << "\n";
}

std::vector<std::string> files_written_since(const fs::path& dir, fs::file_time_type since) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    std::error_code ignored;
    if (entry.is_regular_file(ignored) && entry.last_write_time(ignored) >= since) names.push_back(entry.path().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// ", about 8 minutes" for a part that takes minutes; "" for a quick one.
std::string describe_duration(const MilestonePart& part) {
  if (part.expected_minutes < 1) return "";
  return fmt::format(" (about {:.0f} minute{})", part.expected_minutes, part.expected_minutes < 1.5 ? "" : "s");
}

struct PartRun {
  PartRecord record;
  bool interrupted = false;
};

PartRun run_part(const Session& session, const Toolchain& toolchain, const Milestone& milestone, const MilestonePart& part,
                 const RunOptions& options, const CodeInBuild& code) {
  const Terminal& out = terminal();
  const fs::path output_dir = session.ws().root() / "milestones" / milestone.output_folder();
  fs::create_directories(output_dir);

  ProgramRequest request = milestone_part_request(session.installation, toolchain, milestone, part, output_dir,
                                                  session.ws().tito_dir() / "build" / ("milestone-" + milestone.id));
  request.learner_dirs = learner_dirs_for(session, options.reference);
  request.learner_objects_dir = session.ws().learner_objects_dir();
  request.args = options.program_args;
  if (!options.data_dir.empty()) request.env["TITO_DATA_DIR"] = fs::absolute(options.data_dir).string();
  if (!options.profile.empty()) {
    // milestone_support.h starts torch::autograd::profiler::RecordProfile on this path before main.
    request.env["TINYTORCH_PROFILE"] = (output_dir / fmt::format("part{}-{}", part.number, options.profile)).string();
  }
  fs::create_directories(request.build_dir);

  std::cout << "\n" << out.bold(fmt::format("Part {}: {}", part.number, part.title))
            << out.dim(fmt::format("   (gate: {}; time limit {} s)", part.describe_gates(), part.time_limit_s)) << "\n";
  if (!part.required && part.expected_minutes >= 1)
    std::cout << "  " << out.yellow(fmt::format("Optional, and long: about {:.0f} minutes on a 2-core laptop.",
                                                part.expected_minutes))
              << " Ctrl-C stops it and records nothing; `tito milestone run " << milestone.id
              << "` leaves the optional parts out.\n"
              << std::flush;
  else if (part.expected_minutes >= 1)
    std::cout << "  " << out.dim(fmt::format("Takes about {:.0f} minutes on a 2-core laptop with loops like module 01's "
                                             "(less once module 17 is done).",
                                             part.expected_minutes))
              << "\n"
              << std::flush;
  std::vector<ResultLine> results;
  auto progress = [&out](const std::string& line) { std::cout << "  " << out.dim(line) << "\n" << std::flush; };
  bool announced_run = false;
  std::string printed_output;  // to name only the files the program did not name itself
  auto output = [&](const std::string& line) {
    if (!announced_run) {
      std::cout << out.dim("  running...") << "\n";
      announced_run = true;
    }
    try {
      if (auto result = parse_result_line(line)) {
        results.push_back(*result);
        const std::string said = result->skipped
                                     ? fmt::format("skipped: part {} ({})", result->part, result->reason)
                                     : fmt::format("measured: part {} {} = {}", result->part, result->metric,
                                                               format_measured(result->value));
        std::cout << "  " << out.cyan(said) << "\n" << std::flush;
        return;
      }
    } catch (const std::invalid_argument& error) {
      std::cout << "  " << out.yellow(fmt::format("unreadable result line ({}): {}", error.what(), line)) << "\n";
      return;
    }
    std::cout << "  " << out.dim("|") << " " << line << "\n" << std::flush;
    printed_output += line + "\n";
  };

  const auto started = fs::file_time_type::clock::now();
  spdlog::info("milestone {} part {}: building{}", milestone.id, part.number, options.reference ? " (reference)" : "");
  ProgramOutcome outcome = run_program(toolchain, request, progress, output, [] { return interrupt_requested(); });

  PartRun run;
  // Ctrl-C during the build reaches ninja too (same process group): that is no compile error.
  run.interrupted = outcome.stopped || interrupt_requested();
  if (run.interrupted) return run;
  if (!outcome.build_ok) print_build_failure(outcome, session, toolchain);
  const PartVerdict verdict = judge_part(part, results, outcome.failure());
  run.record.passed = verdict.passed;
  run.record.skipped = verdict.skipped;
  run.record.value = verdict.value;
  run.record.metric = part.gate.metric;
  run.record.gate = part.describe_gates();
  run.record.seconds = outcome.build_seconds + outcome.run_seconds;
  run.record.message = verdict.message;
  run.record.learner_modules = code.learner;
  run.record.reference_modules = code.reference;
  spdlog::info("milestone {} part {}: {} {}", milestone.id, part.number,
               verdict.passed ? "passed" : verdict.skipped ? "skipped" : "failed", verdict.message);

  for (const auto& file : files_written_since(output_dir, started))
    if (printed_output.find(file) == std::string::npos) std::cout << "  wrote " << file << "\n";
  if (verdict.passed) {
    std::cout << out.ok_mark() << " " << out.green(fmt::format("Part {} passed", part.number))
              << fmt::format(": {} {} {} (build {:.1f} s, run {:.1f} s)\n", verdict.measured,
                             part.further_gates.empty() ? "meets the gate" : "meet the gates", part.describe_gates(),
                             outcome.build_seconds, outcome.run_seconds);
  } else if (verdict.skipped) {
    std::cout << out.yellow(fmt::format("Part {} skipped", part.number)) << " (optional; it does not count against the "
              << "milestone): " << verdict.message << "\n";
  } else {
    std::cout << out.fail_mark() << " " << out.red(fmt::format("Part {} failed", part.number)) << ": " << verdict.message
              << "\n";
    if (outcome.build_ok && outcome.started)
      std::cout << out.dim("  its full output is in " + outcome.output_file.string()) << "\n";
  }
  return run;
}


// The learning journal keeps every attempt (milestones.json keeps only the latest and the first pass).
void record_part_in_journal(const Session& session, const Milestone& milestone, int part, const PartRecord& record) {
  try {
    session.progress->record_milestone_run(milestone.id, {{"part", part},
                                                          {"passed", record.passed},
                                                          {"skipped", record.skipped},
                                                          {"value", record.value ? nlohmann::json(*record.value) : nlohmann::json(nullptr)},
                                                          {"metric", record.metric},
                                                          {"gate", record.gate},
                                                          {"seconds", std::round(record.seconds * 10) / 10}});
  } catch (const std::exception& error) {
    spdlog::warn("could not add the milestone run to the learning journal: {}", error.what());
  }
}

int run_milestone(const GlobalOptions& global, const RunOptions& options) {
  set_cooperative_interrupts(true);  // Ctrl-C stops the program, then tito reports and exits 130
  Session session = open_session(global, true);
  const Terminal& out = terminal();
  const auto milestones = load_milestones(session.installation.source_dir);
  const Milestone& milestone = resolve_milestone(milestones, options.id);
  if (!options.reference) refuse_if_locked(session, milestone);  // first: the learner's next step is a module
  if (!milestone.implemented())
    throw UserError(fmt::format("milestone {} is not available yet: its programs have not been written", milestone.label()),
                    "tito milestone list   (to see the milestones you can run)");

  std::vector<const MilestonePart*> parts, optional_left_out;
  for (const auto& part : milestone.parts) {
    if (options.part != 0 && part.number != options.part) continue;
    if (options.part == 0 && !options.all && !part.required) optional_left_out.push_back(&part);
    else parts.push_back(&part);
  }
  if (parts.empty() && optional_left_out.empty())
    throw UserError(fmt::format("milestone {} has no part {}", milestone.id, options.part),
                    "tito milestone info " + milestone.id + "   (lists its parts)", kExitUsage);
  if (!options.program_args.empty() && options.part == 0)
    throw UserError(fmt::format("the arguments after -- ({}) go to one part's program: say which part",
                                fmt::join(options.program_args, " ")),
                    fmt::format("tito milestone run {} --part N -- {}", milestone.id, fmt::join(options.program_args, " ")),
                    kExitUsage);

  if (!options.program_args.empty()) check_program_arguments(milestone, *parts.front(), options.program_args);

  if (!options.data_dir.empty() && !fs::is_directory(options.data_dir))
    throw UserError(fmt::format("--data-dir {}: there is no such folder", options.data_dir),
                    "name the folder that holds the dataset's files, e.g. --data-dir ~/data/cifar-10-batches-bin",
                    kExitUsage);

  MilestoneStore store(session.ws().tito_dir());
  const std::string notice = store.load();
  if (!notice.empty()) out.warning(notice);
  const Toolchain toolchain = load_checked_toolchain(session.installation);

  std::cout << out.bold(fmt::format("Milestone {}", milestone.label())) << (milestone.summary.empty() ? "" : " - " + milestone.summary)
            << "\n";
  const CodeInBuild code = code_in_build(session, learner_dirs_for(session, options.reference));
  if (options.reference)
    std::cout << out.yellow("Reference mode: built on the reference solutions, not your code; nothing is recorded.") << "\n";
  else
    print_code_header(code);
  if (!options.reference) warn_about_changed_modules(session, milestone);

  if (!optional_left_out.empty()) {
    std::vector<std::string> left_out;
    for (const MilestonePart* part : optional_left_out)
      left_out.push_back(fmt::format("part {}{}", part->number, describe_duration(*part)));
    std::cout << out.dim(fmt::format("Optional, not run: {}. Run one with --part N, or every part with --all.",
                                     fmt::join(left_out, ", ")))
              << "\n";
  }

  bool all_passed = true;
  bool newly_achieved = false;
  for (const MilestonePart* part : parts) {
    PartRun run = run_part(session, toolchain, milestone, *part, options, code);
    if (run.interrupted) {
      std::cout << "\nInterrupted: part " << part->number << " was not recorded.\n";
      return kExitInterrupted;
    }
    all_passed = all_passed && (run.record.passed || run.record.skipped);
    if (!options.reference) {
      newly_achieved = store.record_part(milestone, part->number, run.record) || newly_achieved;
      record_part_in_journal(session, milestone, part->number, run.record);
    }
  }

  std::cout << "\n";
  if (options.reference) {
    std::cout << (all_passed ? "The reference code passes" : "The reference code does NOT pass")
              << " this milestone. Nothing was recorded.\n";
    return all_passed ? 0 : 1;
  }
  if (newly_achieved) {
    std::cout << out.ok_mark() << " " << out.green(fmt::format("Milestone {} achieved", milestone.label()))
              << " - " << code_summary(code.learner, code.reference) << ". Recorded in " << store.path().string() << "\n";
  } else if (is_achieved(milestone, store.find(milestone.id))) {
    std::cout << fmt::format("Milestone {} stays achieved (results recorded).\n", milestone.label());
  } else {
    std::cout << fmt::format("Milestone {} is not achieved yet; the result was recorded.\n", milestone.label());
  }
  if (!all_passed) {
    out.next_step("tito milestone run " + milestone.id);
    return 1;
  }
  out.next_step("tito milestone status");
  return 0;
}

}  // namespace

void register_milestone_run_command(CLI::App& group, CommandRegistry& registry) {
  const GlobalOptions* options = &registry.options;
  auto* run = group.add_subcommand("run", "Build a milestone on your completed modules, run it and record whether it passed");
  auto run_options = std::make_shared<RunOptions>();
  run->add_option("NN", run_options->id, "Milestone number or name (perceptron, xor, mlp, cnn, transformer, mlperf)")
      ->required();
  run->add_flag("--reference", run_options->reference,
                "Build on the reference solutions instead of your code (a demo: records nothing)");
  run->add_option("--part", run_options->part, "Run only this part (optional ones too)");
  run->add_flag("--all", run_options->all,
                "Run the optional parts as well (they take minutes or a dataset); without it only the required parts run");
  run->add_option("--data-dir", run_options->data_dir,
                  "A folder holding a dataset an optional part reads (milestone 04 part 3: CIFAR-10's binary batches)");
  run->add_option("--profile", run_options->profile,
                  "Record every op of each part as a Chrome trace (open it in ui.perfetto.dev): a file name, "
                  "written to the milestone's output folder as partN-NAME")
      ->check([](const std::string& name) {
        return fs::path(name).has_parent_path() || name.empty() || name[0] == '.'
                   ? std::string("give a file name such as trace.json, without a folder: the trace goes to the "
                                 "milestone's output folder")
                   : std::string();
      });
  run->add_option("program_args", run_options->program_args,
                  "After --: arguments for the part's program, e.g. tito milestone run 05 --part 3 -- --steps 3000");
  on_chosen(run, registry, [options, run_options] { return run_milestone(*options, *run_options); });
}

}  // namespace tito
