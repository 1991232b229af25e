// Lessons in other languages: the lesson a learner is shown (lesson.LANG.md, else English, saying so),
// and the check that a translation keeps the English lesson's headings, code and anchors and names
// the English sections changed since it was translated. Module 01's Spanish lesson is held to it.
#include <catch2/catch.hpp>

#include <fstream>

#include "core/curriculum.h"
#include "core/files.h"
#include "core/lesson_translation.h"
#include "core/markdown.h"
#include "core/terminal.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using namespace tito;
using Catch::Matchers::Contains;

namespace {

const std::string kEnglish =
    "# Module 99 - Demo\n\nIntro.\n\n## 1. Shapes of `Tensor`\n\nA shape.\n\n```cpp\nauto t = torch::zeros({2});\n```\n\n"
    "### Your turn (section 1) - `Tensor::numel`\n\nWrite it.\n\n## 2. Strides\n\nSteps.\n";

std::string spanish_of(const std::string& english) {
  const std::string body =
      "# Módulo 99 - Demo\n\nIntroducción.\n\n## 1. Formas de `Tensor`\n\nUna forma.\n\n```cpp\nauto t = torch::zeros({2});\n```\n\n"
      "### Tu turno (sección 1) - `Tensor::numel`\n\nEscríbelo.\n\n## 2. Strides\n\nPasos.\n";
  return stamp_translation(english, body);
}

}  // namespace

TEST_CASE("a stamped translation is in step; headings, code and changed English sections are reported", "[translation]") {
  const std::string spanish = spanish_of(kEnglish);
  CHECK(spanish.rfind("<!-- translation-of: lesson.md sections: ", 0) == 0);
  CHECK(translation_drift(kEnglish, spanish, "lesson.es.md").empty());
  // Stamping again replaces the header instead of adding one.
  CHECK(stamp_translation(kEnglish, spanish) == spanish);

  // The English section 2 changes: exactly that section is named, nothing else.
  std::string edited = kEnglish;
  edited.replace(edited.find("Steps."), 6, "Steps, in elements.");
  const auto stale = translation_drift(edited, spanish, "lesson.es.md");
  REQUIRE(stale.size() == 1);
  CHECK_THAT(stale[0], Contains("section '2. Strides' changed in lesson.md since it was translated"));
  CHECK(translation_drift(edited, stamp_translation(edited, spanish), "lesson.es.md").empty());

  // Code is never translated.
  std::string translated_code = spanish;
  translated_code.replace(translated_code.find("zeros({2})"), 10, "ceros({2})");
  CHECK_THAT(translation_drift(kEnglish, translated_code, "lesson.es.md").front(), Contains("code block 1 differs"));

  // A heading's number and code stay; its words are translated.
  std::string renumbered = spanish;
  renumbered.replace(renumbered.find("## 2. Strides"), 13, "## 3. Strides");
  CHECK_THAT(translation_drift(kEnglish, renumbered, "lesson.es.md").front(),
             Contains("heading 4 '3. Strides' stands where the English has '2. Strides'"));
  std::string dropped = spanish;
  dropped.erase(dropped.find("## 2. Strides"));
  CHECK_THAT(translation_drift(kEnglish, dropped, "lesson.es.md").front(), Contains("'2. Strides' has no counterpart"));

  // Without its header nobody can tell what it translates.
  const std::string headerless = spanish.substr(spanish.find('\n') + 1);
  CHECK_THAT(translation_drift(kEnglish, headerless, "lesson.es.md").back(), Contains("no '<!-- translation-of"));
}

TEST_CASE("a translation's header is a comment that neither view shows", "[translation]") {
  const std::string spanish = spanish_of(kEnglish);
  const Terminal plain;  // no colour
  const std::string terminal_view = render_markdown(spanish, plain);
  CHECK(terminal_view.find("translation-of") == std::string::npos);
  CHECK(terminal_view.rfind("Módulo 99 - Demo", 0) == 0);
  const std::string page = render_markdown_html(spanish, HtmlPageOptions{});
  CHECK(page.find("translation-of") == std::string::npos);
  CHECK(page.find("Formas de") != std::string::npos);
  // Other HTML still shows as typed: only a whole comment is hidden.
  CHECK(render_markdown("<div>kept</div>\n", plain).find("kept") != std::string::npos);
}

TEST_CASE("the learner's language chooses lesson.LANG.md, else English, saying it fell back", "[translation]") {
  tito_test::ScratchDir dir;
  ModuleInfo module;
  module.lesson = dir.root / "lesson.md";
  write_file_atomically(module.lesson, kEnglish);
  CHECK(lesson_translations(module).empty());
  LessonChoice choice = choose_lesson(module, "es");
  CHECK(choice.file == module.lesson);
  CHECK(choice.fell_back);
  write_file_atomically(dir.root / "lesson.es.md", spanish_of(kEnglish));
  choice = choose_lesson(module, "es");
  CHECK(choice.file == dir.root / "lesson.es.md");
  CHECK(choice.language == "es");
  CHECK_FALSE(choice.fell_back);
  CHECK(choose_lesson(module, "zh").fell_back);
  CHECK_FALSE(choose_lesson(module, "en").fell_back);
  CHECK(lesson_translations(module) == std::vector<std::string>{"es"});
}

TEST_CASE("module 01's Spanish lesson is in step with the English lesson", "[translation]") {
  const Curriculum curriculum = Curriculum::load(TITO_SOURCE_DIR);
  const ModuleInfo* tensor = curriculum.find("01");
  REQUIRE(tensor != nullptr);
  REQUIRE(lesson_translations(*tensor) == std::vector<std::string>{"es"});
  const auto problems = translation_drift(read_file(tensor->lesson), read_file(translated_lesson_path(*tensor, "es")),
                                          "curriculum/01_tensor/lesson.es.md");
  std::string named;
  for (const auto& problem : problems) named += problem + "\n";
  INFO(named);
  CHECK(problems.empty());
}
