#include "core/lesson_translation.h"

#include <algorithm>
#include <optional>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.h"
#include "core/files.h"
#include "core/i18n.h"
#include "core/markdown.h"
#include "core/sha256.h"

namespace tito {
namespace {

namespace fs = std::filesystem;

constexpr const char* kHeaderStart = "<!-- translation-of: lesson.md";

// What of a lesson must be the same in every language, read line by line outside and inside fences.
struct LessonSkeleton {
  struct Heading {
    int level = 0;
    std::string text;     // as written, without the #s
    std::string key;      // level, section number and code spans: what a translation keeps
  };
  std::vector<Heading> headings;
  std::vector<std::string> code_blocks;  // every fenced block, fences included
  std::vector<std::string> anchors;      // lines holding "lesson=" outside code
  std::vector<std::string> sections;     // the text before the first "## ", then each "## " section
  std::vector<std::string> section_titles;
};

bool is_fence(const std::string& line) {
  const std::size_t start = line.find_first_not_of(' ');
  if (start == std::string::npos || start > 3) return false;
  return line.compare(start, 3, "```") == 0 || line.compare(start, 3, "~~~") == 0;
}

// "2. Memory layout: `storage`" at level 2 -> "2|2.|`storage`": the number and the code stay, the words are translated.
std::string heading_key(int level, const std::string& text) {
  static const std::regex number(R"(^(\d+(\.\d+)*\.?)\s)");
  static const std::regex code("`[^`]*`");
  std::string key = std::to_string(level) + "|";
  std::smatch match;
  if (std::regex_search(text, match, number)) key += match[1].str();
  key += "|";
  for (auto it = std::sregex_iterator(text.begin(), text.end(), code); it != std::sregex_iterator(); ++it)
    key += it->str();
  return key;
}

LessonSkeleton read_skeleton(const std::string& markdown) {
  LessonSkeleton skeleton;
  skeleton.sections.emplace_back();
  skeleton.section_titles.emplace_back("the text before section 1");
  std::istringstream lines(markdown);
  std::string line, block;
  bool in_code = false;
  for (bool first = true; std::getline(lines, line); first = false) {
    if (first && line.rfind(kHeaderStart, 0) == 0) continue;  // a translation's header is not lesson text
    if (is_fence(line)) {
      block += line + "\n";
      if (in_code) {
        skeleton.code_blocks.push_back(block);
        block.clear();
      }
      in_code = !in_code;
    } else if (in_code) {
      block += line + "\n";
    } else if (line.rfind('#', 0) == 0) {
      const std::size_t level = line.find_first_not_of('#');
      if (level != std::string::npos && level <= 6 && line[level] == ' ') {
        const std::string text = line.substr(line.find_first_not_of(' ', level));
        skeleton.headings.push_back({static_cast<int>(level), text, heading_key(static_cast<int>(level), text)});
        if (level == 2) {
          skeleton.sections.emplace_back();
          skeleton.section_titles.push_back(text);
        }
      }
    } else if (line.find("lesson=") != std::string::npos) {
      skeleton.anchors.push_back(line);
    }
    skeleton.sections.back() += line + "\n";
  }
  return skeleton;
}

std::string fingerprint(const std::string& section) { return sha256_hex(section).substr(0, 8); }

// The fingerprints a translation's header records, in order; nullopt-like empty when it has no header.
bool read_header(const std::string& translation, std::vector<std::string>& fingerprints) {
  const std::string first_line = translation.substr(0, translation.find('\n'));
  if (first_line.rfind(kHeaderStart, 0) != 0) return false;
  const std::size_t sections = first_line.find("sections:");
  if (sections == std::string::npos) return true;
  std::istringstream words(first_line.substr(sections + 9));
  for (std::string word; words >> word && word != "-->";) fingerprints.push_back(word);
  return true;
}

// "tito instructor translations --stamp 01 es" for curriculum/01_tensor/lesson.es.md.
std::string stamp_command(const std::string& where) {
  const fs::path file(where);
  const std::string folder = file.parent_path().filename().string();
  const std::string name = file.filename().string();  // lesson.es.md
  const std::size_t first = name.find('.'), last = name.rfind('.');
  if (folder.size() < 2 || first == std::string::npos || last <= first) return "tito instructor translations --stamp NN LANG";
  return fmt::format("tito instructor translations --stamp {} {}", folder.substr(0, 2), name.substr(first + 1, last - first - 1));
}

}  // namespace

fs::path translated_lesson_path(const ModuleInfo& module, const std::string& language) {
  return module.lesson.parent_path() / ("lesson." + language + ".md");
}

LessonChoice choose_lesson(const ModuleInfo& module, const std::string& language) {
  if (language != "en" && fs::is_regular_file(translated_lesson_path(module, language)))
    return {translated_lesson_path(module, language), language, false};
  return {module.lesson, "en", language != "en"};
}

std::map<std::string, std::string> translated_headings(const ModuleInfo& module, const std::string& language) {
  const LessonChoice choice = choose_lesson(module, language);
  if (choice.language == "en") return {};
  std::vector<std::string> english, translated;
  try {
    english = markdown_headings(read_file(module.lesson));
    translated = markdown_headings(read_file(choice.file));
  } catch (const std::exception&) {
    return {};  // only to name a section in the learner's language: English will do
  }
  if (english.size() != translated.size()) return {};
  std::map<std::string, std::string> headings;
  for (std::size_t i = 0; i < english.size(); ++i) headings.emplace(english[i], translated[i]);
  return headings;
}

std::string lesson_language(const std::string& asked) {
  if (asked.empty()) return message_language();
  const std::optional<std::string> language = normalise_language(asked);
  if (!language)
    throw UserError(trf("there are no lessons in '{}'", asked),
                    fmt::format("--lang {}", fmt::join(supported_languages(), "|")), kExitUsage);
  return *language;
}

std::vector<std::string> lesson_translations(const ModuleInfo& module) {
  std::vector<std::string> languages;
  std::error_code error;
  static const std::regex name(R"(lesson\.([a-z]{2,3}(_[A-Z]{2})?)\.md)");
  for (const auto& entry : fs::directory_iterator(module.lesson.parent_path(), error)) {
    std::smatch match;
    const std::string file = entry.path().filename().string();
    if (std::regex_match(file, match, name)) languages.push_back(match[1].str());
  }
  std::sort(languages.begin(), languages.end());
  return languages;
}

std::string translation_header(const std::string& english) {
  std::string header = std::string(kHeaderStart) + " sections:";
  for (const std::string& section : read_skeleton(english).sections) header += " " + fingerprint(section);
  return header + " -->";
}

std::string stamp_translation(const std::string& english, const std::string& translation) {
  const std::string header = translation_header(english);
  if (translation.rfind(kHeaderStart, 0) == 0) {
    const std::size_t end = translation.find('\n');
    return header + (end == std::string::npos ? "\n" : translation.substr(end));
  }
  return header + "\n\n" + translation;
}

std::vector<std::string> translation_drift(const std::string& english, const std::string& translation,
                                           const std::string& where) {
  std::vector<std::string> problems;
  const LessonSkeleton source = read_skeleton(english), translated = read_skeleton(translation);

  const std::size_t headings = std::max(source.headings.size(), translated.headings.size());
  for (std::size_t i = 0; i < headings; ++i) {
    if (i >= translated.headings.size()) {
      problems.push_back(fmt::format("{}: the English heading '{}' has no counterpart (the translation has {} "
                                     "headings, the English {})", where, source.headings[i].text,
                                     translated.headings.size(), source.headings.size()));
      break;
    }
    if (i >= source.headings.size()) {
      problems.push_back(fmt::format("{}: heading '{}' is not in the English lesson", where, translated.headings[i].text));
      break;
    }
    if (source.headings[i].key != translated.headings[i].key) {
      problems.push_back(fmt::format("{}: heading {} '{}' stands where the English has '{}': keep its level, its "
                                     "section number and its code as they are", where, i + 1,
                                     translated.headings[i].text, source.headings[i].text));
      break;  // one shift would report every heading after it
    }
  }
  if (source.code_blocks.size() != translated.code_blocks.size()) {
    problems.push_back(fmt::format("{}: {} code blocks, the English lesson has {}", where,
                                   translated.code_blocks.size(), source.code_blocks.size()));
  } else {
    for (std::size_t i = 0; i < source.code_blocks.size(); ++i)
      if (source.code_blocks[i] != translated.code_blocks[i])
        problems.push_back(fmt::format("{}: code block {} differs from the English one (code is never translated: "
                                       "copy it from lesson.md)", where, i + 1));
  }
  if (source.anchors != translated.anchors)
    problems.push_back(fmt::format("{}: its lesson= anchors differ from the English lesson's ({} against {})", where,
                                   translated.anchors.size(), source.anchors.size()));

  std::vector<std::string> recorded;
  if (!read_header(translation, recorded)) {
    problems.push_back(fmt::format("{}: no '{} sections: ...' header on its first line, so nobody can tell which "
                                   "English text it translates (record it: {})", where, kHeaderStart, stamp_command(where)));
    return problems;
  }
  if (recorded.empty()) {
    problems.push_back(fmt::format("{}: its header records no English sections yet: once it translates lesson.md as "
                                   "it is, record that with {}", where, stamp_command(where)));
    return problems;
  }
  for (std::size_t i = 0; i < source.sections.size(); ++i) {
    const bool unchanged = i < recorded.size() && recorded[i] == fingerprint(source.sections[i]);
    if (!unchanged)
      problems.push_back(fmt::format("{}: section '{}' changed in lesson.md since it was translated: translate the "
                                     "change, then record it with {}", where, source.section_titles[i],
                                     stamp_command(where)));
  }
  if (recorded.size() > source.sections.size())
    problems.push_back(fmt::format("{}: its header records {} sections, the English lesson has {}", where,
                                   recorded.size(), source.sections.size()));
  return problems;
}

}  // namespace tito
