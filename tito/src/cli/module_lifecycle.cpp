// `tito module start` and `tito module reset`: the two commands that write learner files.
// Both go through learner_files (generation, backups); neither overwrites a file without a backup.
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cli/commands.h"
#include "core/errors.h"
#include "core/i18n.h"
#include "core/learner_files.h"
#include "core/learning_path.h"
#include "core/lesson_translation.h"
#include "core/terminal.h"

namespace tito {
namespace {

namespace fs = std::filesystem;

std::string relative_to_cwd(const fs::path& path) {
  std::error_code error;
  fs::path relative = fs::relative(path, fs::current_path(), error);
  if (error || relative.empty() || relative.string().rfind("../..", 0) == 0) return path.string();
  return relative.string();
}

void check_can_start(const Session& session, const ModuleInfo& module) {
  if (!module.available()) {
    throw UserError(trf("module {} ({}) is not yet available: its lesson and tests have not been written yet",
                        module.number, tr_curriculum(module.title)),
                    std::string("tito module list   ") + tr("(to see the modules you can start now)"));
  }
  const auto missing = missing_prerequisites(module, session.state());
  if (!missing.empty()) {
    std::string names;
    for (const auto& number : missing) {
      const ModuleInfo* needed = session.curriculum.find(number);
      names += (names.empty() ? "" : ", ") + number + (needed ? std::string(" ") + tr_curriculum(needed->title) : std::string());
    }
    const std::string first = missing.front();
    const std::string fix = session.state().is_started(first) ? "tito module complete " + first : "tito module start " + first;
    // TRANSLATORS: the second {} lists the modules still to complete, e.g. "01 Tensor, 02 Activations"
    throw UserError(trf("module {} is locked: complete {} first", module.number, names), fix);
  }
}

void print_files_to_edit(const Session& session, const ModuleInfo& module) {
  const Terminal& out = terminal();
  std::cout << tr("Files to edit:") << "\n";
  for (const auto& path : learner_file_paths(session.ws(), module)) {
    std::cout << "  " << out.bullet() << " " << relative_to_cwd(path) << "\n";
  }
  // The lesson in the learner's language where it is translated (lesson.es.md), else the English one.
  std::cout << trf("Lesson: {}", choose_lesson(module, message_language()).file.string()) << "\n\n";
  // TRANSLATORS: two commands to run one after the other; "next:" as in every command's last line
  std::cout << trf("next: {}   then   {}", out.command("tito module view " + module.number),
                   out.command("tito module test " + module.number))
            << "\n";
}

int run_start(const GlobalOptions& options, const std::string& requested, bool reference) {
  Session session = open_session(options, true);
  const ModuleInfo& module = session.curriculum.resolve(requested);
  const Terminal& out = terminal();
  const bool started = session.state().is_started(module.number);

  if (started && !reference) {
    const auto missing = missing_learner_files(session.ws(), module);
    if (!missing.empty()) {
      // TRANSLATORS: the second {} lists file names, the third is the module's folder
      throw UserError(trnf("module {} is started but {} is missing from {}", "module {} is started but {} are missing from {}",
                           missing.size(), module.number, fmt::format("{}", fmt::join(missing, ", ")),
                           session.ws().module_dir(module).string()),
                      "tito module reset " + module.number + "   " + tr("(recreates the starter; what is left is backed up)"));
    }
    std::cout << trf("Module {} ({}) is already started; your files were left as they are.", module.number,
                     tr_curriculum(module.title))
              << "\n";
    std::cout << trf("To start over from the starter files: {}", out.command("tito module reset " + module.number)) << "\n\n";
    print_files_to_edit(session, module);
    return 0;
  }
  if (!started) check_can_start(session, module);

  // Generate everything first: a marker error must leave the workspace untouched.
  const auto files = generate_module_files(session.installation, module, reference ? FileFlavour::Reference : FileFlavour::Starter);
  if (reference) {
    if (auto backup = back_up_module(session.ws(), module)) {
      std::cout << trf("Your files were backed up to {}", backup->string()) << "\n";
    }
    write_module_files(session.ws().module_dir(module), files);
    std::cout << out.ok_mark() << " "
              << trf("Wrote the reference solution of module {} ({}) to {}", module.number, tr_curriculum(module.title),
                     relative_to_cwd(session.ws().module_dir(module)))
              << "\n";
  } else if (any_learner_file_exists(session.ws(), module)) {
    // Files without a "started" record (e.g. copied in by hand): keep them, never overwrite.
    std::vector<GeneratedFile> only_missing;
    for (const auto& file : files) {
      if (!fs::exists(session.ws().module_dir(module) / file.name)) only_missing.push_back(file);
    }
    write_module_files(session.ws().module_dir(module), only_missing);
    std::cout << trnf("Found your existing files for module {} in {}; kept them (added {} missing starter file).",
                      "Found your existing files for module {} in {}; kept them (added {} missing starter files).",
                      only_missing.size(), module.number, relative_to_cwd(session.ws().module_dir(module)),
                      only_missing.size())
              << "\n";
  } else {
    write_module_files(session.ws().module_dir(module), files);
    std::cout << out.ok_mark() << " "
              << (module.subtitle.empty() ? trf("Started module {}: {}", module.number, tr_curriculum(module.title))
                                          : trf("Started module {}: {} - {}", module.number, tr_curriculum(module.title),
                                                tr_curriculum(module.subtitle)))
              << "\n";
  }
  if (!started) session.progress->record_started(module.number);
  spdlog::info("started module {}{}", module.number, reference ? " (reference)" : "");
  std::cout << "\n";
  if (!started && !reference && std::filesystem::exists(module.quiz))
    std::cout << trf("Before the lesson, what do you already know? {} (a few questions, not graded; you take them "
                     "again, explained, after completing the module)",
                     out.command("tito module quiz " + module.number))
              << "\n\n";
  print_files_to_edit(session, module);
  return 0;
}

int run_reset(const GlobalOptions& options, const std::string& requested, bool yes) {
  Session session = open_session(options, true);
  const ModuleInfo& module = session.curriculum.resolve(requested);
  const Terminal& out = terminal();
  if (!session.state().is_started(module.number) && !any_learner_file_exists(session.ws(), module)) {
    throw UserError(trf("module {} has not been started, so there is nothing to reset", module.number),
                    "tito module start " + module.number);
  }
  const auto files = generate_module_files(session.installation, module, FileFlavour::Starter);
  if (!yes && out.interactive()) {
    const bool go = out.confirm(trf("Replace your module {} files with fresh starter files (yours are backed up first)?",
                                    module.number));
    if (!go) {
      std::cout << tr("Nothing changed.") << "\n";
      return 0;
    }
  }
  if (auto backup = back_up_module(session.ws(), module)) {
    std::cout << trf("Backed up your files to {}", backup->string()) << "\n";
  } else {
    std::cout << trf("There were no files to back up in {}", session.ws().module_dir(module).string()) << "\n";
  }
  write_module_files(session.ws().module_dir(module), files);
  if (!session.state().is_started(module.number)) session.progress->record_started(module.number);
  session.progress->clear_completion(module.number);
  spdlog::info("reset module {}", module.number);
  std::cout << out.ok_mark() << " " << trf("Module {} is back to its starter files; its completion was cleared.", module.number)
            << "\n\n";
  print_files_to_edit(session, module);
  return 0;
}

}  // namespace

void register_module_lifecycle_commands(CLI::App& group, CommandRegistry& registry) {
  const GlobalOptions* options = &registry.options;

  auto* start = group.add_subcommand("start", tr("Get a module's starter files (checks its prerequisites first)"));
  auto start_number = std::make_shared<std::string>();
  auto reference = std::make_shared<bool>(false);
  start->add_option("NN", *start_number, tr("Module number or name, e.g. 01 or tensor"))->required();
  start->add_flag("--reference", *reference, tr("Write the reference solution instead (for instructors and demos; backs up your files)"));
  on_chosen(start, registry, [options, start_number, reference] { return run_start(*options, *start_number, *reference); });

  auto* reset = group.add_subcommand("reset", tr("Back up your files and restore the module's starter files"));
  auto reset_number = std::make_shared<std::string>();
  auto yes = std::make_shared<bool>(false);
  reset->add_option("NN", *reset_number, tr("Module number or name"))->required();
  reset->add_flag("-y,--yes", *yes, tr("Do not ask for confirmation"));
  on_chosen(reset, registry, [options, reset_number, yes] { return run_reset(*options, *reset_number, *yes); });
}

}  // namespace tito
