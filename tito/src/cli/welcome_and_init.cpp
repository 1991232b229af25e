// `tito` alone (the welcome) and `tito init [DIR]`.
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cli/commands.h"
#include "core/i18n.h"
#include "core/logging.h"
#include "core/terminal.h"
#include "core/workspace.h"

namespace tito {
namespace {

int run_init(const std::string& dir) {
  const Terminal& out = terminal();
  const std::filesystem::path target = std::filesystem::absolute(dir).lexically_normal();
  const Workspace::InitOutcome outcome = Workspace::init(target);
  attach_workspace_log(Workspace(target).logs_dir());
  if (outcome == Workspace::InitOutcome::AlreadyThere) {
    std::cout << trf("{} is already a TinyTorch workspace; nothing to do.", target.string()) << "\n";
  } else {
    spdlog::info("created workspace {}", target.string());
    std::cout << out.ok_mark() << " " << trf("Created your TinyTorch workspace in {}", target.string()) << "\n";
    std::cout << "  modules/   " << tr("your code, one folder per module") << "\n"
              << "  README.md  " << tr("what this folder is") << "\n"
              << "  .tito/     " << tr("tito's bookkeeping (progress, builds, backups, logs)") << "\n";
    if (message_language() != "en")
      std::cout << "  " << trf("tito speaks {} here ({}); tito config language en switches to English.",
                               language_name(message_language()), language_setting_source())
                << "\n";
  }
  const bool here = std::filesystem::equivalent(target, std::filesystem::current_path());
  std::cout << "\n";
  terminal().next_step(here ? "tito module start 01" : fmt::format("cd {} && tito module start 01", dir));
  return 0;
}

}  // namespace

int print_welcome() {
  const Terminal& out = terminal();
  // One line of the command table: the command (never translated), then what it does.
  auto row = [&out](const std::string& command, const std::string& what) {
    const std::size_t width = 26;
    return "  " + out.command(command) + std::string(command.size() < width ? width - command.size() : 1, ' ') + what + "\n";
  };
  std::cout << trf("{} - build a deep-learning framework in C++, one module at a time.", out.bold("TinyTorch C++")) << "\n\n"
            << tr("Twenty modules take you from a Tensor with strides and broadcasting to autograd, optimisers,\n"
                  "CNNs and a small transformer. You write the code; tito hands out the starter files, builds\n"
                  "your code against the tests, and keeps track of your progress.")
            << "\n\n"
            << out.bold(tr("Get going")) << "\n"
            << row("tito init", tr("create a workspace (./workspace)"))
            << row("tito module start 01", tr("get the first module's starter files")) << "\n"
            << out.bold(tr("Every day")) << "\n"
            << row("tito module list", tr("all modules and what you can start"))
            << row("tito module view 01", tr("read a lesson (--html: in your browser)"))
            << row("tito module test 01", tr("build and check your code"))
            << row("tito module complete 01", tr("record a module once every test passes"))
            << row("tito module quiz 01", tr("a few concept checks, before and after a module"))
            << row("tito module status", tr("your progress (--journal: how you worked)"))
            << row("tito system doctor", tr("check compiler, libraries and workspace"))
            << row("tito config language", tr("the language tito speaks (en, es, zh)")) << "\n"
            << trf("More: {}, {}", out.command("tito --help"), out.command("tito module --help")) << "\n";
  return 0;
}

void register_init_command(CommandRegistry& registry) {
  auto* command = registry.app.add_subcommand("init", tr("Create a workspace for your code and progress"));
  auto dir = std::make_shared<std::string>("workspace");
  command->add_option("DIR", *dir, tr("Folder to create (default: ./workspace)"));
  on_chosen(command, registry, [dir] { return run_init(*dir); });
}

}  // namespace tito
