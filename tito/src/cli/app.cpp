#include "cli/app.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <iostream>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cli/commands.h"
#include "core/errors.h"
#include "core/i18n.h"
#include "core/logging.h"
#include "core/terminal.h"

namespace tito {
namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<bool> g_cooperative{false};
const char* g_interrupted_message = "\ninterrupted\n";

void on_interrupt(int) {
  g_interrupted = true;
  if (!g_cooperative) {
    // Only async-signal-safe calls here. Our own writes are atomic renames, so stopping is safe.
    // The word was translated before the handler was installed (gettext is not async-signal-safe).
    ssize_t ignored = ::write(STDERR_FILENO, g_interrupted_message, std::strlen(g_interrupted_message));
    (void)ignored;
    ::_exit(kExitInterrupted);
  }
}

// CLI11's own words in the help ("Usage", "Options:", "Subcommands:") in the learner's language.
void translate_help_words(CLI::App& app) {
  for (CLI::Option* option : app.get_options())
    if (option->get_group() == "Options") option->group(tr("Options"));
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    if (sub->get_group() == "Subcommands") sub->group(tr("Subcommands"));
    translate_help_words(*sub);
  }
}

void translate_help_labels(CLI::App& app) {
  auto formatter = app.get_formatter();  // shared by every subcommand
  formatter->label("Usage", tr("Usage"));
  formatter->label("OPTIONS", tr("OPTIONS"));
  formatter->label("SUBCOMMAND", tr("SUBCOMMAND"));
  formatter->label("SUBCOMMANDS", tr("SUBCOMMANDS"));
  formatter->label("REQUIRED", tr("REQUIRED"));
  formatter->label("Positionals", tr("Positionals"));
  formatter->label("Env", tr("Env"));
  translate_help_words(app);
}

}  // namespace

// A group without a subcommand prints its help and succeeds; a wrong one is a usage error.
void require_subcommand_or_help(CLI::App& group, CommandAction& selected) {
  group.callback([&group, &selected] {
    if (group.get_subcommands().empty() && !selected) {
      selected = [&group] {
        std::cout << group.help();
        return int(kExitOk);
      };
    }
  });
}

void install_interrupt_handler() {
  // TRANSLATORS: printed on its own line when the learner presses Ctrl-C.
  g_interrupted_message = tr("\ninterrupted\n");
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
}

void set_cooperative_interrupts(bool cooperative) { g_cooperative = cooperative; }
bool interrupt_requested() { return g_interrupted; }

int run_tito(int argc, char** argv) {
  // First: the language decides every help string built below.
  init_i18n(argc, argv);
  install_interrupt_handler();
  CLI::App app{tr("tito - the TinyTorch C++ course tool: build a deep-learning framework in C++, module by module"), "tito"};
  app.set_version_flag("--version", std::string("tito (TinyTorch C++) ") + TITO_VERSION, tr("Display program version information and exit"));
  app.set_help_flag("-h,--help", tr("Print this help message and exit"));
  GlobalOptions options;
  app.add_flag("--no-color", options.no_color, tr("Plain output without colours (also: env NO_COLOR)"));
  app.add_flag("-v,--verbose", options.verbose, tr("Also print tito's log to stderr"));
  app.add_option("--workspace", options.workspace, tr("Use this workspace instead of searching upward from here (env TITO_WORKSPACE)"));
  app.require_subcommand(0, 1);
  app.fallthrough();

  CommandAction selected;
  CommandRegistry registry{app, options, selected};
  register_init_command(registry);
  CLI::App* module_group = app.add_subcommand("module", tr("Start, read, test and complete the course's modules"));
  module_group->require_subcommand(0, 1);
  module_group->fallthrough();
  register_module_browse_commands(*module_group, registry);
  register_module_lifecycle_commands(*module_group, registry);
  register_module_testing_commands(*module_group, registry);
  register_module_hint_command(*module_group, registry);
  register_module_quiz_command(*module_group, registry);
  require_subcommand_or_help(*module_group, selected);
  CLI::App* milestone_group = app.add_subcommand("milestone", tr("Recreate machine-learning history on the framework you built"));
  milestone_group->require_subcommand(0, 1);
  milestone_group->fallthrough();
  register_milestone_browse_commands(*milestone_group, registry);
  register_milestone_run_command(*milestone_group, registry);
  require_subcommand_or_help(*milestone_group, selected);
  register_olympics_commands(registry);
  register_lessons_commands(registry);
  register_system_commands(registry);
  register_config_commands(registry);
  register_instructor_commands(registry);
  translate_help_labels(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    terminal().configure(options.no_color);
    std::cout << (app.get_subcommands().empty() ? app.help() : app.get_subcommands().back()->help());
    // The deepest chosen subcommand's help is more useful than the top level's.
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    std::cout << app.version() << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& error) {
    terminal().configure(options.no_color);
    std::string where = "tito";
    for (const CLI::App* sub = &app; !sub->get_subcommands().empty();) {
      sub = sub->get_subcommands().front();
      where += " " + sub->get_name();
    }
    terminal().error(error.what(), where + " --help");
    return kExitUsage;
  }

  terminal().configure(options.no_color);
  setup_logging(options.verbose);
  if (!selected) return print_welcome();
  try {
    spdlog::debug("command line: {}", fmt::join(argv, argv + argc, " "));
    return selected();
  } catch (const UserError& error) {
    spdlog::info("error: {} | fix: {}", error.problem(), error.fix());
    terminal().error(error.problem(), error.fix());
    return error.exit_code();
  } catch (const std::exception& error) {
    spdlog::error("unexpected: {}", error.what());
    terminal().error(error.what(), tr("tito --verbose <same command> to see details; tito system doctor to check your set-up"));
    return kExitFailure;
  }
}

}  // namespace tito
