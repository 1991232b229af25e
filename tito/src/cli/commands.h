#pragma once
// Each command group registers its subcommands on the CLI11 app. A subcommand's callback stores the
// action to run; app.cpp runs it after parsing so that errors and exit codes are handled in one place.
#include <functional>

#include <CLI/CLI.hpp>

#include "cli/session.h"

namespace tito {

using CommandAction = std::function<int()>;  // returns the exit code

struct CommandRegistry {
  CLI::App& app;
  const GlobalOptions& options;
  CommandAction& selected;  // set by the chosen subcommand's callback
};

// Makes `action` the command to run when `command` is the subcommand chosen on the command line.
inline void on_chosen(CLI::App* command, CommandRegistry& registry, CommandAction action) {
  CommandAction* slot = &registry.selected;
  command->callback([slot, action] { *slot = action; });
}

void register_init_command(CommandRegistry& registry);
void register_module_browse_commands(CLI::App& module_group, CommandRegistry& registry);     // list, status, view
void register_module_lifecycle_commands(CLI::App& module_group, CommandRegistry& registry);  // start, reset
void register_module_testing_commands(CLI::App& module_group, CommandRegistry& registry);    // test, complete, watch
void register_module_hint_command(CLI::App& module_group, CommandRegistry& registry);        // hint
void register_module_quiz_command(CLI::App& module_group, CommandRegistry& registry);        // quiz
void register_system_commands(CommandRegistry& registry);                                     // doctor
void register_config_commands(CommandRegistry& registry);                                     // config language
void register_instructor_commands(CommandRegistry& registry);  // instructor validate|release|report, grade
void register_milestone_browse_commands(CLI::App& milestone_group, CommandRegistry& registry);  // list, info, status
void register_milestone_run_command(CLI::App& milestone_group, CommandRegistry& registry);      // run
void register_olympics_commands(CommandRegistry& registry);  // olympics validate|submit|rank (module 20)
void register_lessons_commands(CommandRegistry& registry);    // lessons build (HTML pages)

int print_welcome();

// A command group run without a subcommand (`tito module`) prints its help instead of doing nothing.
void require_subcommand_or_help(CLI::App& group, CommandAction& selected);

// `tito module status --journal [NN]` (module_journal.cpp): the learner's learning journal.
int run_learning_journal(const Session& session, const std::string& module, bool as_json);

// Ctrl-C: by default tito exits at once with 130; a long-running loop (watch) can instead poll.
void install_interrupt_handler();
void set_cooperative_interrupts(bool cooperative);
bool interrupt_requested();

}  // namespace tito
