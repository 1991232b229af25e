#pragma once
// Lessons in other languages: curriculum/NN_slug/lesson.LANG.md beside lesson.md (lesson.es.md), and
// the check that keeps a translation in step with the English lesson it was made from.
//
// A translation starts with the English sections it translates, one fingerprint per section (the
// text before the first "## " heading, then each "## " section with its subsections):
//
//   <!-- translation-of: lesson.md sections: 3f9a0c12 77b1e0d4 ... -->
//
// When the English lesson changes, the sections whose fingerprint no longer matches are the ones to
// translate again; `tito instructor translations --stamp NN LANG` records the current fingerprints once
// the translation has caught up. Headings (level, section number and code), fenced code blocks and
// `lesson=` anchors must match the English one exactly: they are what tests, hints and links point at.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/curriculum.h"

namespace tito {

// The lesson a learner reads in `language`: lesson.LANG.md where it exists, else the English lesson.
struct LessonChoice {
  std::filesystem::path file;
  std::string language;  // of `file`: "en" when it fell back
  bool fell_back = false;  // a language other than English was asked for and has no translation
};
LessonChoice choose_lesson(const ModuleInfo& module, const std::string& language);

// The language to show lessons in: `asked` (a --lang value) when given, else the learner's
// (message_language()). A language tito does not know is a usage error naming the ones it does.
std::string lesson_language(const std::string& asked);

// The languages module's lesson is translated into (lesson.LANG.md files), sorted.
std::vector<std::string> lesson_translations(const ModuleInfo& module);
std::filesystem::path translated_lesson_path(const ModuleInfo& module, const std::string& language);

// Each heading of the module's English lesson (markdown_headings) with the one that stands at the same
// place in the lesson a learner reads in `language` (translations keep the headings in the same order):
// {"4. Element-wise arithmetic and broadcasting", "4. Aritmética elemento a elemento y broadcasting"}.
// Empty when that lesson is the English one, or the two do not have as many headings (a translation
// out of step: its headings cannot be trusted to match).
std::map<std::string, std::string> translated_headings(const ModuleInfo& module, const std::string& language);

// What is out of step between `english` and its `translation` (both Markdown): a missing or malformed
// header, headings, code blocks or anchors that differ, and every English section changed since the
// fingerprints were recorded ("section 4 '4. Element-wise arithmetic and broadcasting' changed in
// lesson.md since it was translated"). `where` names the translation in each message. Empty: in step.
std::vector<std::string> translation_drift(const std::string& english, const std::string& translation,
                                           const std::string& where);

// The header line for a translation of `english` as it is now.
std::string translation_header(const std::string& english);

// `translation` with its header replaced by (or, without one, starting with) translation_header(english).
std::string stamp_translation(const std::string& english, const std::string& translation);

}  // namespace tito
