// `tito lessons build`: every lesson as a folder of HTML pages to read in a browser (core/lesson_pages.h).
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/i18n.h"
#include "core/lesson_pages.h"
#include "core/lesson_translation.h"
#include "core/terminal.h"

namespace tito {
namespace {

namespace fs = std::filesystem;

int run_build(const GlobalOptions& options, const std::string& out, const std::string& lang) {
  const Session session = open_session(options, false);  // no workspace needed
  const fs::path dir = out.empty() ? default_lessons_dir(options.workspace, fs::current_path()) : fs::absolute(out);
  if (fs::exists(dir) && !fs::is_directory(dir)) {
    // TRANSLATORS: {} is the path given with --out
    throw UserError(trf("{} is a file, and the lessons are a folder of pages", dir.string()),
                    fmt::format("tito lessons build --out {}", unique_path(dir).string()), kExitUsage);
  }
  const std::string language = lesson_language(lang);
  const LessonSite site = build_lesson_site(session.curriculum, dir, language);
  for (const auto& problem : site.problems) terminal().warning(problem);
  // TRANSLATORS: how many lesson pages, then the folder
  std::cout << trnf("Wrote {} lesson page and its index to {}", "Wrote {} lesson pages and their index to {}",
                    static_cast<unsigned long>(site.lessons), site.lessons, dir.string())
            << "\n";
  if (language != "en")
    // TRANSLATORS: how many of the pages are translated, then the language's code (es)
    std::cout << trnf("{} of them in '{}', the others in English (not translated yet).",
                      "{} of them in '{}', the others in English (not translated yet).",
                      static_cast<unsigned long>(site.translated), site.translated, language)
              << "\n";
  std::cout << trf("Open it in a browser: {}", file_url(site.index)) << "\n";
  return 0;
}

}  // namespace

void register_lessons_commands(CommandRegistry& registry) {
  const GlobalOptions* options = &registry.options;
  CLI::App* group = registry.app.add_subcommand("lessons", tr("Every lesson as HTML pages, to read in a browser"));
  group->require_subcommand(0, 1);
  group->fallthrough();

  auto out = std::make_shared<std::string>();
  auto language = std::make_shared<std::string>();
  auto* build = group->add_subcommand(
      "build", tr("Write index.html (every module by tier) and each written lesson's page, NN_slug/lesson.html, into a "
                  "folder that opens from file:// or any static web server"));
  build->add_option("--out", *out,
                    tr("The folder to write (pages tito wrote before are replaced, nothing else is): by default "
                       "<workspace>/lessons in a workspace, else ./tinytorch-lessons"));
  build->add_option("--lang", *language,
                    tr("The lessons' language (en, es, zh) where they are translated; default: yours (tito config "
                       "language, or LANG)"));
  on_chosen(build, registry, [options, out, language] { return run_build(*options, *out, *language); });

  require_subcommand_or_help(*group, registry.selected);
}

}  // namespace tito
