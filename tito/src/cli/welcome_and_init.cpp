// `tito` alone (the welcome) and `tito init [DIR]`.
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cli/commands.h"
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
    std::cout << fmt::format("{} is already a TinyTorch workspace; nothing to do.\n", target.string());
  } else {
    spdlog::info("created workspace {}", target.string());
    std::cout << fmt::format("{} Created your TinyTorch workspace in {}\n", out.ok_mark(), target.string());
    std::cout << "  modules/   your code, one folder per module\n"
                 "  README.md  what this folder is\n"
                 "  .tito/     tito's bookkeeping (progress, builds, backups, logs)\n";
  }
  const bool here = std::filesystem::equivalent(target, std::filesystem::current_path());
  std::cout << "\n";
  terminal().next_step(here ? "tito module start 01" : fmt::format("cd {} && tito module start 01", dir));
  return 0;
}

}  // namespace

int print_welcome() {
  const Terminal& out = terminal();
  std::cout << out.bold("TinyTorch C++") << " - build a deep-learning framework in C++, one module at a time.\n\n"
            << "Twenty modules take you from a Tensor with strides and broadcasting to autograd, optimisers,\n"
            << "CNNs and a small transformer. You write the code; tito hands out the starter files, builds\n"
            << "your code against the tests, and keeps track of your progress.\n\n"
            << out.bold("Get going") << "\n"
            << "  " << out.command("tito init") << "                 create a workspace (./workspace)\n"
            << "  " << out.command("tito module start 01") << "      get the first module's starter files\n\n"
            << out.bold("Every day") << "\n"
            << "  " << out.command("tito module list") << "          all modules and what you can start\n"
            << "  " << out.command("tito module view 01") << "       read a lesson (--html: in your browser)\n"
            << "  " << out.command("tito module test 01") << "       build and check your code\n"
            << "  " << out.command("tito module complete 01") << "   record a module once every test passes\n"
            << "  " << out.command("tito module quiz 01") << "       a few concept checks, before and after a module\n"
            << "  " << out.command("tito module status") << "        your progress (--journal: how you worked)\n"
            << "  " << out.command("tito system doctor") << "        check compiler, libraries and workspace\n\n"
            << "More: " << out.command("tito --help") << ", " << out.command("tito module --help") << "\n";
  return 0;
}

void register_init_command(CommandRegistry& registry) {
  auto* command = registry.app.add_subcommand("init", "Create a workspace for your code and progress");
  auto dir = std::make_shared<std::string>("workspace");
  command->add_option("DIR", *dir, "Folder to create (default: ./workspace)");
  on_chosen(command, registry, [dir] { return run_init(*dir); });
}

}  // namespace tito
