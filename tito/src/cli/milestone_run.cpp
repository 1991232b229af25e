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
#include "core/i18n.h"
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
  std::string language;  // --lang: the dataset's language for parts written in several; "" = the learner's
};


// "01 (Perceptron, 1958)": Milestone::label() with the title in the learner's language.
std::string milestone_label(const Milestone& milestone) {
  return fmt::format("{} ({}, {})", milestone.id, tr_curriculum(milestone.title), milestone.year);
}

// What a passed part measured, gate by gate, as people read it: PartVerdict::measured with the learner's
// decimal mark ("accuracy = 0,97, forward_max_error = 6.4e-08"). The last result line for a metric counts.
std::string measured_for_people(const MilestonePart& part, const std::vector<ResultLine>& results) {
  std::vector<std::string> measured;
  std::vector<const MilestoneGate*> gates{&part.gate};
  for (const auto& gate : part.further_gates) gates.push_back(&gate);
  for (const MilestoneGate* gate : gates) {
    std::optional<double> value;
    for (const auto& result : results)
      if (result.part == part.number && !result.skipped && result.metric == gate->metric) value = result.value;
    if (value) measured.push_back(fmt::format("{} = {}", gate->metric, format_measured_for_people(*value)));
  }
  return fmt::format("{}", fmt::join(measured, ", "));
}

void refuse_if_locked(const Session& session, const Milestone& milestone) {
  const auto missing = missing_modules(milestone, session.state());
  if (missing.empty()) return;
  const std::string& first = missing.front();
  const std::string fix = session.state().is_started(first) ? "tito module complete " + first
                                                            : "tito module start " + first;
  // TRANSLATORS: the milestone, e.g. "01 (Perceptron, 1958)", then the modules, e.g. "02 Activations and 03 Layers"
  throw UserError(trnf("milestone {} is locked: it runs on your code for module {}, which you have not completed yet",
                       "milestone {} is locked: it runs on your code for modules {}, which you have not completed yet",
                       missing.size(), milestone_label(milestone), module_names(session, missing)),
                  fix + "   " + trf("(or try it on the reference code: tito milestone run {} --reference)", milestone.id));
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
  terminal().warning(trnf(
      "your files of module {} changed since you completed it: this run builds on the changed code, which the "
      "module tests have not passed, and records its result. To test them again first: tito module complete {}",
      "your files of modules {} changed since you completed them: this run builds on the changed code, which the "
      "module tests have not passed, and records its result. To test them again first: tito module complete {}",
      changed.size(), module_names(session, changed), changed.front()));
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

// How many characters a terminal shows for UTF-8 text: its code points (translations have accents).
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// A label and a space, padded to `width` shown characters so that the values after it line up.
std::string label(const std::string& text, std::size_t width) {
  const std::size_t shown = display_width(text);
  return text + std::string(shown < width ? width - shown : 1, ' ');
}

void print_code_header(const CodeInBuild& code) {
  const Terminal& out = terminal();
  if (code.reference.empty()) {
    std::cout << out.dim(trnf("Built on your code for module {}.", "Built on your code for modules {}.",
                              code.learner.size(), fmt::join(code.learner, ", ")))
              << "\n";
    return;
  }
  // TRANSLATORS: two lines, "Your code:" and "Reference solution:", whose values line up after the labels
  const std::string yours = tr("Your code:"), reference = tr("Reference solution:");
  const std::size_t width = std::max(display_width(yours), display_width(reference)) + 1;
  std::cout << label(yours, width)
            << (code.learner.empty() ? std::string(tr("none"))
                                     : trnf("module {}", "modules {}", code.learner.size(), fmt::join(code.learner, ", ")))
            << "\n";
  std::cout << label(reference, width)
            << out.yellow(trnf("module {}", "modules {}", code.reference.size(), fmt::join(code.reference, ", ")));
  std::vector<std::string> why;
  if (!code.reference_copies.empty())
    // TRANSLATORS: {} lists module numbers, e.g. "01, 02"
    why.push_back(trf("{}: your files are the copy `tito module start NN --reference` wrote",
                      fmt::join(code.reference_copies, ", ")));
  if (!code.not_completed.empty())
    // TRANSLATORS: {} lists module numbers, e.g. "04, 05"
    why.push_back(trf("{}: not completed by you", fmt::join(code.not_completed, ", ")));
  if (!why.empty()) std::cout << out.dim(fmt::format(" ({})", fmt::join(why, "; ")));
  std::cout << "\n";
}

void print_build_failure(const ProgramOutcome& outcome, const Session& session, const Toolchain& toolchain) {
  const Terminal& out = terminal();
  if (outcome.given_code_failed) {
    print_given_code_failure(tr("The milestone's program files fail to build without any of your code, so the problem "
                                "is not in your files."),
                             outcome.build_log, describe_compiler(toolchain),
                             switch_compiler_command(toolchain, session.installation.source_dir), kMaxBuildLogLines);
    return;
  }
  const std::string did_not_compile = out.red(tr("The milestone program did not compile against your code."));
  // TRANSLATORS: {} is "The milestone program did not compile against your code." (in red)
  std::cout << out.fail_mark() << " " << trf("{} Compiler errors (your files first):", did_not_compile) << "\n\n";
  std::istringstream ordered(order_build_log(outcome.build_log, session.ws().modules_dir().string()));
  std::size_t shown = 0;
  for (std::string line; std::getline(ordered, line) && shown < kMaxBuildLogLines; ++shown) std::cout << "  " << line << "\n";
  if (shown == kMaxBuildLogLines) std::cout << "  " << out.dim(tr("... (more errors follow; fix these first)")) << "\n";
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

// "part 3 (about 8 minutes)" for a part that takes minutes; "part 3" for a quick one.
std::string describe_part_duration(const MilestonePart& part) {
  if (part.expected_minutes < 1) return trf("part {}", part.number);
  const long minutes = std::lround(part.expected_minutes);
  return trnf("part {} (about {} minute)", "part {} (about {} minutes)", static_cast<unsigned long>(minutes), part.number,
              format_number(part.expected_minutes, 0));
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
  if (!part.languages.empty()) {
    request.args.push_back("--lang");
    request.args.push_back(options.language);
  }
  if (!options.data_dir.empty()) request.env["TITO_DATA_DIR"] = fs::absolute(options.data_dir).string();
  if (!options.profile.empty()) {
    // milestone_support.h starts torch::autograd::profiler::RecordProfile on this path before main.
    request.env["TINYTORCH_PROFILE"] = (output_dir / fmt::format("part{}-{}", part.number, options.profile)).string();
  }
  fs::create_directories(request.build_dir);

  if (!options.language.empty())
    std::cout << "\n" << out.dim(trf("Part {} runs in language '{}' (it is written in {}: choose with --lang).",
                                     part.number, options.language, fmt::join(part.languages, ", ")));
  // TRANSLATORS: a milestone part's number and title
  std::cout << "\n" << out.bold(trf("Part {}: {}", part.number, tr_curriculum(part.title))) << "   ";
  // TRANSLATORS: the part's gate (e.g. "accuracy >= 0.95") and its time limit in seconds
  std::cout << out.dim(trf("(gate: {}; time limit {} s)", part.gates_for_people(), format_number(part.time_limit_s, 0))) << "\n";
  const std::string minutes = format_number(part.expected_minutes, 0);
  const auto plural_minutes = static_cast<unsigned long>(std::lround(part.expected_minutes));
  if (!part.required && part.expected_minutes >= 1) {
    const std::string long_part = out.yellow(trnf("Optional, and long: about {} minute on a 2-core laptop.",
                                                  "Optional, and long: about {} minutes on a 2-core laptop.", plural_minutes,
                                                  minutes));
    // TRANSLATORS: the first {} is "Optional, and long: about 8 minutes on a 2-core laptop." (in yellow)
    std::cout << "  " << trf("{} Ctrl-C stops it and records nothing; `tito milestone run {}` leaves the optional parts out.",
                             long_part, milestone.id)
              << "\n"
              << std::flush;
  } else if (part.expected_minutes >= 1) {
    std::cout << "  "
              << out.dim(trnf("Takes about {} minute on a 2-core laptop with loops like module 01's (less once module 17 "
                              "is done).",
                              "Takes about {} minutes on a 2-core laptop with loops like module 01's (less once module 17 "
                              "is done).",
                              plural_minutes, minutes))
              << "\n"
              << std::flush;
  }
  std::vector<ResultLine> results;
  auto progress = [&out](const std::string& line) { std::cout << "  " << out.dim(line) << "\n" << std::flush; };
  bool announced_run = false;
  std::string printed_output;  // to name only the files the program did not name itself
  auto output = [&](const std::string& line) {
    if (!announced_run) {
      std::cout << "  " << out.dim(tr("running...")) << "\n";
      announced_run = true;
    }
    try {
      if (auto result = parse_result_line(line)) {
        results.push_back(*result);
        // TRANSLATORS: what a milestone program reported: the part skipped and why, or the part, metric and value
        const std::string said = result->skipped
                                     ? trf("skipped: part {} ({})", result->part, result->reason)
                                     : trf("measured: part {} {} = {}", result->part, result->metric,
                                           format_measured_for_people(result->value));
        std::cout << "  " << out.cyan(said) << "\n" << std::flush;
        return;
      }
    } catch (const std::invalid_argument& error) {
      // TRANSLATORS: a line the milestone program printed that looks like a result but cannot be read: why, the line
      std::cout << "  " << out.yellow(trf("unreadable result line ({}): {}", error.what(), line)) << "\n";
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
  const PartVerdict verdict = judge_part(part, results, outcome.failure(), outcome.failure_shown());
  run.record.passed = verdict.passed;
  run.record.skipped = verdict.skipped;
  run.record.value = verdict.value;
  run.record.metric = part.gate.metric;
  run.record.gate = part.describe_gates();
  if (!options.language.empty()) run.record.gate += fmt::format(" ({})", options.language);
  run.record.seconds = outcome.build_seconds + outcome.run_seconds;
  run.record.message = verdict.message;
  run.record.learner_modules = code.learner;
  run.record.reference_modules = code.reference;
  spdlog::info("milestone {} part {}: {} {}", milestone.id, part.number,
               verdict.passed ? "passed" : verdict.skipped ? "skipped" : "failed", verdict.message);

  for (const auto& file : files_written_since(output_dir, started))
    // TRANSLATORS: a file the milestone program wrote
    if (printed_output.find(file) == std::string::npos) std::cout << "  " << trf("wrote {}", file) << "\n";
  if (verdict.passed) {
    const std::string passed = out.green(trf("Part {} passed", part.number));
    std::cout << out.ok_mark() << " "
              // TRANSLATORS: the first {} is "Part 1 passed" (in green), then what it measured (e.g. "accuracy = 0.97"),
              // the gate or gates (e.g. "accuracy >= 0.95") and the seconds it took to build and to run
              << trnf("{}: {} meets the gate {} (build {} s, run {} s)", "{}: {} meet the gates {} (build {} s, run {} s)",
                      1 + part.further_gates.size(), passed, measured_for_people(part, results), part.gates_for_people(),
                      format_number(outcome.build_seconds, 1), format_number(outcome.run_seconds, 1))
              << "\n";
  } else if (verdict.skipped) {
    const std::string skipped = out.yellow(trf("Part {} skipped", part.number));
    // TRANSLATORS: the first {} is "Part 3 skipped" (in yellow), the second why
    std::cout << trf("{} (optional; it does not count against the milestone): {}", skipped, verdict.shown_message) << "\n";
  } else {
    std::cout << out.fail_mark() << " " << out.red(trf("Part {} failed", part.number)) << ": " << verdict.shown_message << "\n";
    if (outcome.build_ok && outcome.started)
      std::cout << "  " << out.dim(trf("its full output is in {}", outcome.output_file.string())) << "\n";
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
    throw UserError(trf("milestone {} is not available yet: its programs have not been written", milestone_label(milestone)),
                    std::string("tito milestone list   ") + tr("(to see the milestones you can run)"));

  std::vector<const MilestonePart*> parts, optional_left_out;
  for (const auto& part : milestone.parts) {
    if (options.part != 0 && part.number != options.part) continue;
    if (options.part == 0 && !options.all && !part.required) optional_left_out.push_back(&part);
    else parts.push_back(&part);
  }
  if (parts.empty() && optional_left_out.empty())
    throw UserError(trf("milestone {} has no part {}", milestone.id, options.part),
                    "tito milestone info " + milestone.id + "   " + tr("(lists its parts)"), kExitUsage);
  if (!options.program_args.empty() && options.part == 0)
    throw UserError(trf("the arguments after -- ({}) go to one part's program: say which part",
                        fmt::join(options.program_args, " ")),
                    fmt::format("tito milestone run {} --part N -- {}", milestone.id, fmt::join(options.program_args, " ")),
                    kExitUsage);

  if (!options.program_args.empty()) check_program_arguments(milestone, *parts.front(), options.program_args);
  // Parts written in several languages run in the learner's (tito config language, or LANG) unless
  // --lang says otherwise; their gates are that language's. The others run as they are.
  // A language the learner chose that a part is not written in falls back to English; one asked for
  // with --lang must exist (in_language refuses it, naming the ones that do).
  const bool asked_for_language = !options.language.empty();
  const std::string wanted = asked_for_language ? options.language : message_language();
  std::vector<std::pair<MilestonePart, std::string>> parts_in_language;  // each part with its language
  bool any_speaks = false;
  for (const MilestonePart* part : parts) {
    if (part->languages.empty()) {
      parts_in_language.push_back({*part, ""});
      continue;
    }
    any_speaks = true;
    const std::string language = asked_for_language || part->speaks(wanted) ? wanted : "en";
    parts_in_language.push_back({part->in_language(language), language});
  }
  if (asked_for_language && !any_speaks)
    throw UserError(trf("milestone {} runs in English only: no part of it is written in other languages",
                        milestone_label(milestone)),
                    tr("leave out --lang"), kExitUsage);

  if (!options.data_dir.empty() && !fs::is_directory(options.data_dir))
    throw UserError(trf("--data-dir {}: there is no such folder", options.data_dir),
                    tr("name the folder that holds the dataset's files, e.g. --data-dir ~/data/cifar-10-batches-bin"),
                    kExitUsage);

  MilestoneStore store(session.ws().tito_dir());
  const std::string notice = store.load();
  if (!notice.empty()) out.warning(notice);
  const Toolchain toolchain = load_checked_toolchain(session.installation);

  // TRANSLATORS: the milestone, e.g. "01 (Perceptron, 1958)"; after it, its summary
  std::cout << out.bold(trf("Milestone {}", milestone_label(milestone)))
            << (milestone.summary.empty() ? std::string() : std::string(" - ") + tr_curriculum(milestone.summary)) << "\n";
  const CodeInBuild code = code_in_build(session, learner_dirs_for(session, options.reference));
  if (options.reference)
    std::cout << out.yellow(tr("Reference mode: built on the reference solutions, not your code; nothing is recorded.")) << "\n";
  else
    print_code_header(code);
  if (!options.reference) warn_about_changed_modules(session, milestone);

  if (!optional_left_out.empty()) {
    std::vector<std::string> left_out;
    for (const MilestonePart* part : optional_left_out)
      left_out.push_back(describe_part_duration(*part));
    std::cout << out.dim(trf("Optional, not run: {}. Run one with --part N, or every part with --all.",
                             fmt::join(left_out, ", ")))
              << "\n";
  }

  bool all_passed = true;
  bool newly_achieved = false;
  for (const auto& [part_in_language, language] : parts_in_language) {
    const MilestonePart* part = &part_in_language;
    RunOptions part_options = options;
    part_options.language = language;
    PartRun run = run_part(session, toolchain, milestone, *part, part_options, code);
    if (run.interrupted) {
      std::cout << "\n" << trf("Interrupted: part {} was not recorded.", part->number) << "\n";
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
    std::cout << (all_passed ? tr("The reference code passes this milestone. Nothing was recorded.")
                             : tr("The reference code does NOT pass this milestone. Nothing was recorded."))
              << "\n";
    return all_passed ? 0 : 1;
  }
  if (newly_achieved) {
    const std::string achieved = out.green(trf("Milestone {} achieved", milestone_label(milestone)));
    std::cout << out.ok_mark() << " "
              // TRANSLATORS: the first {} is "Milestone 01 (Perceptron, 1958) achieved" (in green), the second whose code
              // it ran on (e.g. "on code you wrote yourself (modules 01, 02, 03)"), the third the file that records it
              << trf("{} - {}. Recorded in {}", achieved, code_summary(code.learner, code.reference), store.path().string())
              << "\n";
  } else if (is_achieved(milestone, store.find(milestone.id))) {
    std::cout << trf("Milestone {} stays achieved (results recorded).", milestone_label(milestone)) << "\n";
  } else {
    std::cout << trf("Milestone {} is not achieved yet; the result was recorded.", milestone_label(milestone)) << "\n";
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
  auto* run = group.add_subcommand("run", tr("Build a milestone on your completed modules, run it and record whether it passed"));
  auto run_options = std::make_shared<RunOptions>();
  run->add_option("NN", run_options->id, tr("Milestone number or name (perceptron, xor, mlp, cnn, transformer, mlperf)"))
      ->required();
  run->add_flag("--reference", run_options->reference,
                tr("Build on the reference solutions instead of your code (a demo: records nothing)"));
  run->add_option("--part", run_options->part, tr("Run only this part (optional ones too)"));
  run->add_flag("--all", run_options->all,
                tr("Run the optional parts as well (they take minutes or a dataset); without it only the required parts run"));
  run->add_option("--data-dir", run_options->data_dir,
                  tr("A folder holding a dataset an optional part reads (milestone 04 part 3: CIFAR-10's binary batches)"));
  run->add_option("--profile", run_options->profile,
                  tr("Record every op of each part as a Chrome trace (open it in ui.perfetto.dev): a file name, "
                     "written to the milestone's output folder as partN-NAME"))
      ->check([](const std::string& name) {
        return fs::path(name).has_parent_path() || name.empty() || name[0] == '.'
                   ? std::string(tr("give a file name such as trace.json, without a folder: the trace goes to the "
                                    "milestone's output folder"))
                   : std::string();
      });
  run->add_option("--lang", run_options->language,
                  tr("The language of a part written in several (milestone 05 part 2: en, es, zh; default: your "
                     "language, from tito config language or LANG)"));
  run->add_option("program_args", run_options->program_args,
                  tr("After --: arguments for the part's program, e.g. tito milestone run 05 --part 3 -- --steps 3000"));
  on_chosen(run, registry, [options, run_options] { return run_milestone(*options, *run_options); });
}

}  // namespace tito
