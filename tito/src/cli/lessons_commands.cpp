// `tito lessons build`: every lesson as a folder of HTML pages to read in a browser (core/lesson_pages.h).
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/lesson_pages.h"
#include "core/terminal.h"

namespace tito {
namespace {

namespace fs = std::filesystem;

int run_build(const GlobalOptions& options, const std::string& out) {
  const Session session = open_session(options, false);  // no workspace needed
  const fs::path dir = out.empty() ? default_lessons_dir(options.workspace, fs::current_path()) : fs::absolute(out);
  if (fs::exists(dir) && !fs::is_directory(dir)) {
    throw UserError(fmt::format("{} is a file, and the lessons are a folder of pages", dir.string()),
                    fmt::format("tito lessons build --out {}", unique_path(dir).string()), kExitUsage);
  }
  const LessonSite site = build_lesson_site(session.curriculum, dir);
  for (const auto& problem : site.problems) terminal().warning(problem);
  std::cout << fmt::format("Wrote {} lesson pages and their index to {}\n", site.lessons, dir.string());
  std::cout << "Open it in a browser: " << file_url(site.index) << "\n";
  return 0;
}

}  // namespace

void register_lessons_commands(CommandRegistry& registry) {
  const GlobalOptions* options = &registry.options;
  CLI::App* group = registry.app.add_subcommand("lessons", "Every lesson as HTML pages, to read in a browser");
  group->require_subcommand(0, 1);
  group->fallthrough();

  auto out = std::make_shared<std::string>();
  auto* build = group->add_subcommand(
      "build", "Write index.html (every module by tier) and each written lesson's page, NN_slug/lesson.html, into a folder "
               "that opens from file:// or any static web server");
  build->add_option("--out", *out,
                    "The folder to write (pages tito wrote before are replaced, nothing else is): by default "
                    "<workspace>/lessons in a workspace, else ./tinytorch-lessons");
  on_chosen(build, registry, [options, out] { return run_build(*options, *out); });

  require_subcommand_or_help(*group, registry.selected);
}

}  // namespace tito
