#pragma once
// The lessons as HTML pages for a browser (`tito module view NN --html`, `tito lessons build`). A lessons
// folder mirrors curriculum/: index.html lists every module by tier and each lesson's page is
// NN_slug/lesson.html, so a lesson's link to ../MM_slug/lesson.md#section becomes
// ../MM_slug/lesson.html#section and works from file:// as from any static server. A lesson's own images
// (figures/x.svg beside it) are put inside the page as data: URIs: a page is then one file that opens
// anywhere, and writing it never touches any other file.
#include <filesystem>
#include <string>
#include <vector>

#include "core/curriculum.h"

namespace tito {

struct LessonPage {
  std::string html;
  // What in the lesson leads nowhere: "curriculum/01_tensor/lesson.md: link to notes.txt: ...".
  std::vector<std::string> problems;
};

// `in_site`: with navigation to index.html and the lessons before and after it (tito lessons build).
// `module.lesson` may be a translation (lesson.es.md), written in `language`.
LessonPage render_lesson_page(const Curriculum& curriculum, const ModuleInfo& module, bool in_site,
                              const std::string& language = "en");

// Where a lesson's page lives inside a lessons folder: "01_tensor/lesson.html".
std::filesystem::path lesson_page_path(const ModuleInfo& module);

// The lessons folder's front page: every module by tier, a link where its lesson is written.
std::string lesson_index_html(const Curriculum& curriculum);

// Writes a page tito made; a file already there is replaced only when tito wrote it, else UserError
// with `fix` (which names another place to write).
void write_page(const std::filesystem::path& file, const std::string& html, const std::string& fix);

struct LessonSite {
  std::filesystem::path index;  // DIR/index.html
  int lessons = 0;
  int translated = 0;  // of them, in the language asked for (not English)
  std::vector<std::string> problems;
};

// DIR/index.html and the page of every lesson written so far.
// Each lesson in `language` where it is translated (lesson.LANG.md), else in English.
LessonSite build_lesson_site(const Curriculum& curriculum, const std::filesystem::path& dir,
                             const std::string& language = "en");

// Where pages go when no --out is given: the workspace's lessons/ folder (--workspace, TITO_WORKSPACE,
// or the one around current_dir), else current_dir/tinytorch-lessons.
std::filesystem::path default_lessons_dir(const std::string& explicit_workspace, const std::filesystem::path& current_dir);

// file:///abs/path with the bytes a URL cannot hold percent-encoded, for the learner to open.
std::string file_url(const std::filesystem::path& path);

}  // namespace tito
