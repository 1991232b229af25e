// `tito config language [LANG]`: the language tito speaks in this workspace, stored in .tito/config.json.
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cli/commands.h"
#include "core/errors.h"
#include "core/i18n.h"
#include "core/terminal.h"
#include "core/text.h"
#include "core/workspace.h"

namespace tito {
namespace {

namespace fs = std::filesystem;

// Where the setting came from, in words.
std::string describe_source(const std::string& source) {
  if (source == "tito config") return tr("set for this workspace with tito config language");
  if (source == "default") return tr("no language set: English");
  if (source == "submission") return tr("the learner's workspace");
  return trf("from the environment: {}", source);
}

Workspace workspace_or_explain(const GlobalOptions& options) {
  try {
    return Workspace::locate(options.workspace, fs::current_path());
  } catch (const UserError& error) {
    // A language is a setting of one workspace: say so, with the two ways to name one.
    throw UserError(trf("{}; tito config language stores the language in a workspace", error.problem()),
                    tr("tito init   (to make one here), or: tito --workspace DIR config language ..."));
  }
}

void print_current() {
  const Terminal& out = terminal();
  const std::string code = message_language();
  std::cout << trf("Language: {} ({})", out.bold(code), language_name(code)) << "\n";
  std::cout << "  " << describe_source(language_setting_source()) << "\n";
  if (code == "zh")
    std::cout << "  " << tr("tito's own messages have no Chinese translation yet and appear in English; "
                            "lessons and datasets follow the language where they have it.")
              << "\n";
  std::cout << "\n" << trf("Languages: {} (auto: follow LANG again)", fmt::join(supported_languages(), ", ")) << "\n";
}

int run_language(const GlobalOptions& options, const std::string& requested) {
  const Terminal& out = terminal();
  if (requested.empty()) {
    print_current();
    return kExitOk;
  }
  const std::string wanted = lowercase(trimmed(requested));
  const auto code = normalise_language(wanted);  // "es", also "es_ES.UTF-8"
  if (wanted != "auto" && (!code || wanted == "c" || wanted == "posix" || wanted.rfind("c.", 0) == 0)) {
    throw UserError(trf("'{}' is not a language tito speaks; choose one of: {}, or auto", requested,
                        fmt::join(supported_languages(), ", ")),
                    "tito config language es", kExitUsage);
  }
  const Workspace workspace = workspace_or_explain(options);
  if (wanted == "auto") {
    store_configured_language(workspace.root(), "");
    use_environment_language();
    spdlog::info("language setting removed");
    std::cout << out.ok_mark() << " "
              << trf("This workspace follows the environment again: {} ({}).", message_language(),
                     language_name(message_language()))
              << "\n";
    return kExitOk;
  }
  store_configured_language(workspace.root(), *code);
  set_message_language(*code, "tito config");  // so that the confirmation is already in that language
  spdlog::info("language set to {}", *code);
  std::cout << out.ok_mark() << " " << trf("tito now speaks {} in this workspace.", language_name(*code)) << "\n";
  std::cout << "  " << trf("(stored in {}; tito config language auto follows LANG again)",
                           workspace_config_file(workspace.root()).string())
            << "\n";
  if (*code == "zh")
    std::cout << "  " << tr("tito's own messages have no Chinese translation yet and appear in English; "
                            "lessons and datasets follow the language where they have it.")
              << "\n";
  return kExitOk;
}

}  // namespace

void register_config_commands(CommandRegistry& registry) {
  CLI::App* group = registry.app.add_subcommand("config", tr("Your settings for this workspace (the language tito speaks)"));
  group->require_subcommand(0, 1);
  auto* language = group->add_subcommand(
      "language", tr("Show the language tito speaks, or choose it for this workspace: en, es, zh or auto (follow LANG)"));
  auto requested = std::make_shared<std::string>();
  language->add_option("LANG", *requested, tr("en, es, zh, or auto to follow the environment (LANG) again"));
  const GlobalOptions* options = &registry.options;
  on_chosen(language, registry, [options, requested] { return run_language(*options, *requested); });
  require_subcommand_or_help(*group, registry.selected);
}

}  // namespace tito
