#pragma once
// tito speaks the learner's language: every message a person reads is English source text passed
// through GNU gettext's catalogs (po/LANG.po, compiled to <build>/locale/LANG/LC_MESSAGES/tito.mo).
// A string no catalog translates comes back in English, never empty.
//
//   std::cout << tr("Created your TinyTorch workspace in {}\n")           // plain
//   std::cout << trf("{} is already a TinyTorch workspace.\n", dir);     // tr + fmt::format
//   trn("{} test passed", "{} tests passed", n)                          // plural forms
//   trc("milestone", "passed")                                           // one word, two contexts
//   trb("time limit of {} s", 10)  // {english, shown}: English for records, translated for people
//
// xgettext finds the strings by these names (scripts/update-translations), so the English text must
// be a string literal at the call.
//
// The curriculum's own text (module titles and subtitles, milestone titles, summaries and part titles,
// hints) is a second domain, "tinytorch-curriculum" (po/curriculum/LANG.po, extracted from the JSON by
// scripts/update-translations): print it through tr_curriculum(module.title).
//
// init_i18n (first thing in run_tito) binds the domains and chooses the language: the workspace's
// `tito config language` setting, else LANGUAGE / LC_ALL / LC_MESSAGES / LANG.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <libintl.h>

namespace tito {

constexpr const char* kTextDomain = "tito";
constexpr const char* kCurriculumTextDomain = "tinytorch-curriculum";

inline const char* tr(const char* english) { return ::dgettext(kTextDomain, english); }

inline const char* trn(const char* singular, const char* plural, unsigned long n) {
  return ::dngettext(kTextDomain, singular, plural, n);
}

// tr, then fmt::format with the translation as the format string. A translation keeps the English
// text's {} fields (a test checks every catalog), so formatting cannot fail on a translated string.
template <typename... Args>
std::string trf(const char* english, Args&&... args) {
  return fmt::format(fmt::runtime(tr(english)), std::forward<Args>(args)...);
}

template <typename... Args>
std::string trnf(const char* singular, const char* plural, unsigned long n, Args&&... args) {
  return fmt::format(fmt::runtime(trn(singular, plural, n)), std::forward<Args>(args)...);
}

// A word whose translation depends on what it is said of: "passed" of a test case (una prueba:
// "superada") and of a milestone (un hito: "superado"). `context` becomes the catalog's msgctxt.
// gettext's pgettext, as gettext.h writes it (glibc has no such function): the catalog is asked for
// "context\004english", and a lookup that finds nothing (it returns the key itself) gives `english`.
inline const char* trc(const char* context, const char* english) {
  const std::string key = std::string(context) + '\004' + english;
  const char* found = ::dgettext(kTextDomain, key.c_str());
  return found == key.c_str() ? english : found;
}

// Words for two readers at once: `english` for what tito keeps or reads back (--json, grades,
// milestones.json, logs, text it parses) and `shown`, the same in the message language, for the person
// at the terminal. Made by trb; `+` joins two of them, or appends text that reads the same in both (a
// name, a path, a number).
struct Bilingual {
  std::string english;
  std::string shown;
  static Bilingual same(std::string text) { return {text, text}; }
  bool empty() const { return english.empty(); }
};
inline Bilingual operator+(Bilingual left, const Bilingual& right) {
  left.english += right.english;
  left.shown += right.shown;
  return left;
}
inline Bilingual operator+(Bilingual left, const std::string& right) {
  left.english += right;
  left.shown += right;
  return left;
}

namespace i18n_detail {
template <typename T>
const T& english_of(const T& value) { return value; }
inline const std::string& english_of(const Bilingual& value) { return value.english; }
template <typename T>
const T& shown_of(const T& value) { return value; }
inline const std::string& shown_of(const Bilingual& value) { return value.shown; }
}  // namespace i18n_detail

// fmt::format with `english`, and trf with it: both at once. A Bilingual argument gives its English to
// the one and its shown text to the other. xgettext finds the strings by this name too.
template <typename... Args>
Bilingual trb(const char* english, const Args&... args) {
  return {fmt::format(fmt::runtime(english), i18n_detail::english_of(args)...),
          fmt::format(fmt::runtime(tr(english)), i18n_detail::shown_of(args)...)};
}

// The curriculum's text in the learner's language: the catalog's translation, or `english` itself
// (never empty unless `english` is). The pointer lives as long as `english` or the catalog: print it
// or copy it into a std::string, never keep it past a temporary argument.
inline const char* tr_curriculum(const std::string& english) {
  if (english.empty()) return "";  // dgettext("") would return the catalog's header
  return ::dgettext(kCurriculumTextDomain, english.c_str());
}

// ---- choosing the language (i18n.cpp) ----

// The languages tito knows, in the order tito names them: "en" (the source), "es", "zh".
const std::vector<std::string>& supported_languages();
// "es", "es_ES.UTF-8", "es-ES", "ES" -> "es"; "C", "POSIX", "C.UTF-8" -> "en"; nullopt for a language
// tito does not know ("fr_FR.UTF-8") or an empty value.
std::optional<std::string> normalise_language(const std::string& value);

// Sets the process locale from the environment (C.UTF-8 when the environment's is not installed),
// binds both text domains to locale_dir() and chooses the message language: `tito config language`
// of the workspace (--workspace DIR or --workspace=DIR in argv, else TITO_WORKSPACE, else the nearest
// workspace above the current folder), else the environment. Never fails: a language tito does not
// speak gives English and a one-line notice on stderr. Call before any tr() whose result is kept
// (CLI11's help strings).
void init_i18n(int argc, char** argv);

// The learner's language: "en", "es" or "zh" (even where tito has no catalog for it, as for "zh":
// the messages then fall back to English, but lessons and datasets still follow it).
std::string message_language();
// A language's name in the message language: "English", "Spanish" ("español" when speaking Spanish).
std::string language_name(const std::string& code);
// Where message_language() came from, for `tito system doctor` and `tito config language`:
// "tito config", "LANGUAGE=es", "LANG=es_ES.UTF-8", "default".
std::string language_setting_source();

// Makes `code` (one of supported_languages()) the message language from now on, e.g. after
// `tito config language es`; `source` is what language_setting_source() then says.
void set_message_language(const std::string& code, const std::string& source);
// Forgets any choice and chooses again from the environment alone (after `tito config language auto`).
void use_environment_language();

// Where the compiled catalogs are: TITO_LOCALE_DIR, else <dir of the tito binary>/../locale (the build
// tree), else <prefix>/share/locale when tito is installed as <prefix>/bin/tito, else
// $TITO_BUILD_DIR/locale, else the build folder CMake compiled in.
std::filesystem::path locale_dir();

// For a write meant for a learner whose language differs from this process's (grading: feedback in
// the learner's language, reports in the instructor's). While it lives, tr() and tr_curriculum() speak
// `code`; "" or a code tito does not know changes nothing. Not thread-safe (it sets LANGUAGE).
class ScopedMessageLanguage {
 public:
  explicit ScopedMessageLanguage(const std::string& code);
  ~ScopedMessageLanguage();
  ScopedMessageLanguage(const ScopedMessageLanguage&) = delete;
  ScopedMessageLanguage& operator=(const ScopedMessageLanguage&) = delete;

 private:
  bool active_ = false;
  std::string language_, source_;  // the process's choice, back at the end
};

// ---- the workspace's settings: <workspace>/.tito/config.json, {"language": "es"} ----

std::filesystem::path workspace_config_file(const std::filesystem::path& workspace_root);
// The "language" a config.json's text holds, as written ("" when none, or when the text is not a JSON
// object). Never throws: a learner's file may hold anything.
std::string language_in_config_text(const std::string& config_json);
// The workspace's stored language ("" when none or unreadable).
std::string configured_language(const std::filesystem::path& workspace_root);
// Stores `code` as the workspace's language ("" removes the setting), keeping the file's other keys;
// written atomically.
void store_configured_language(const std::filesystem::path& workspace_root, const std::string& code);

// ---- numbers for people (never for CSV or JSON) ----

// `value` with `decimals` decimals in the message language's convention: en and zh 12,345.5 (a point
// for decimals, a comma between thousands), es 12.345,5 (a comma for decimals, a point between
// thousands). Thousands are grouped from five integer digits up, as the RAE recommends (1234.5 and
// 1234,5 stay whole). Done by hand: it must work when the es_ES locale is not installed.
std::string format_number(double value, int decimals);
std::string format_integer(std::int64_t value);
// `value` with `digits` significant digits (fmt's "{:.6g}": 0.953125, 1e-05, 3.70407e-06, 123456) in
// the message language's convention: es 0,953125, 3,70407e-06 (the exponent kept as it is).
std::string format_significant(double value, int digits);
// A percentage (`percent` already times 100): "95%" (en, zh), "95 %" (es).
std::string format_percent(double percent, int decimals);

}  // namespace tito
