// `tito module hint NN [CASE] [--all]`: help for one test case, one level per call (as rustlings'
// `hint`). Each call reveals the next level and remembers it in the workspace's progress, so the
// learner decides how much of the answer to see; --all shows every level at once.
#include <algorithm>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/errors.h"
#include "core/hints.h"
#include "core/i18n.h"
#include "core/terminal.h"

namespace tito {
namespace {

struct HintRequest {
  std::string number;
  std::string test_case;
  bool all = false;
};

std::string hint_command(const ModuleInfo& module, const std::string& test_case) {
  return fmt::format("tito module hint {} \"{}\"", module.number, test_case);
}

int shown_levels(const Session& session, const ModuleInfo& module, const std::string& test_case) {
  if (!session.workspace) return 0;
  auto entry = session.state().modules.find(module.number);
  if (entry == session.state().modules.end()) return 0;
  auto found = entry->second.hints_shown.find(test_case);
  return found == entry->second.hints_shown.end() ? 0 : found->second;
}

int list_cases(const Session& session, const ModuleInfo& module, const std::vector<CaseHints>& hints) {
  const Terminal& out = terminal();
  // TRANSLATORS: each line below is "1/3  test case name": how many of a case's hints were shown, of how many
  std::cout << trf("Hints for module {} ({}), by test case (levels shown / levels):", module.number,
                   tr_curriculum(module.title))
            << "\n";
  const CaseHints* first_unseen = nullptr;
  for (const auto& entry : hints) {
    const int shown = std::min<int>(shown_levels(session, module, entry.key()), static_cast<int>(entry.levels.size()));
    if (!first_unseen && shown < static_cast<int>(entry.levels.size())) first_unseen = &entry;
    std::cout << fmt::format("  {}/{}  {}\n", shown, entry.levels.size(), entry.key());
  }
  std::cout << "\n" << tr("A failing test names its case; ask for one hint at a time (part of a name is enough).") << "\n";
  if (first_unseen) out.next_step(hint_command(module, first_unseen->key()));
  return 0;
}

int run_hint(const GlobalOptions& options, const HintRequest& request) {
  Session session = open_session_if_possible(options);
  const ModuleInfo& module = session.curriculum.resolve(request.number);
  const Terminal& out = terminal();
  const auto hints = load_hint_levels(module.hints);
  if (hints.empty()) {
    throw UserError(trf("module {} ({}) has no hints", module.number, tr_curriculum(module.title)),
                    "tito module view " + module.number + "   " + tr("(the lesson explains each function you write)"));
  }
  if (request.test_case.empty() && !request.all) return list_cases(session, module, hints);

  std::vector<const CaseHints*> chosen;
  if (request.test_case.empty()) {
    for (const auto& entry : hints) chosen.push_back(&entry);
  } else {
    chosen = match_hint_cases(hints, request.test_case);
    if (chosen.empty()) {
      throw UserError(trf("module {} has no test case matching '{}'", module.number, request.test_case),
                      "tito module hint " + module.number + "   " + tr("(lists the cases that have hints)"), kExitUsage);
    }
    if (chosen.size() > 1) {
      std::string names;
      for (const auto* entry : chosen) names += "\n  " + entry->key();
      // TRANSLATORS: what the learner typed, how many cases, the module; the last {} is the list of case names
      throw UserError(trnf("'{}' matches {} test case of module {}:{}", "'{}' matches {} test cases of module {}:{}",
                           chosen.size(), request.test_case, chosen.size(), module.number, names),
                      hint_command(module, chosen.front()->key()), kExitUsage);
    }
  }

  for (const CaseHints* entry : chosen) {
    const int total = static_cast<int>(entry->levels.size());
    const int before = std::min(shown_levels(session, module, entry->key()), total);
    const int now = request.all ? total : std::min(before + 1, total);
    if (chosen.size() > 1) std::cout << "\n";
    // TRANSLATORS: the test case's name, then e.g. "hint 2 of 3"
    std::cout << out.bold(trf("{} - hint {} of {}", entry->key(), now, total)) << "\n";
    for (int level = 1; level <= now; ++level) {
      const std::string text = fmt::format("{}. {}", level, tr_curriculum(entry->levels[level - 1]));
      std::cout << "  " << (level <= before && level < now ? out.dim(text) : text) << "\n";
    }
    if (session.workspace && now > before) session.progress->record_hint_shown(module.number, entry->key(), now);
    if (chosen.size() == 1) {
      std::cout << "\n";
      if (now < total) out.next_step(hint_command(module, entry->key()) + "   " + tr("(the next, more detailed hint)"));
      else if (before == total)
        std::cout << trf("Every hint for this case is shown; the lesson has the rest: {}",
                         out.command("tito module view " + module.number))
                  << "\n";
    }
  }
  if (!session.workspace) {
    std::cout << tr("(no workspace here, so tito cannot remember which hints you have seen)") << "\n";
  }
  return 0;
}

}  // namespace

void register_module_hint_command(CLI::App& group, CommandRegistry& registry) {
  const GlobalOptions* options = &registry.options;
  auto* hint = group.add_subcommand("hint", tr("Help for a test case, one level at a time (each call reveals the next)"));
  auto request = std::make_shared<HintRequest>();
  hint->add_option("NN", request->number, tr("Module number or name, e.g. 01 or tensor"))->required();
  hint->add_option("CASE", request->test_case, tr("The test case (part of its name is enough); without it, lists the cases"));
  hint->add_flag("--all", request->all, tr("Show every level at once (of CASE, or of every case)"));
  on_chosen(hint, registry, [options, request] { return run_hint(*options, *request); });
}

}  // namespace tito
