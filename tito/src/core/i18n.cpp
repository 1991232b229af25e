// Binding the catalogs, choosing the learner's language, and numbers in that language's convention.
#include "core/i18n.h"

#include <unistd.h>

#include <array>
#include <clocale>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "core/text.h"
#include "core/workspace.h"

// glibc's counter of loaded catalogs: gettext caches what it found per language, and a bump makes it
// look again after LANGUAGE changed (the documented way, see the gettext manual, "Being a gettext
// grok": "++_nl_msg_cat_cntr").
extern "C" int _nl_msg_cat_cntr;

namespace tito {
namespace fs = std::filesystem;
namespace {

struct LanguageChoice {
  std::string code = "en";
  std::string source = "default";
};

LanguageChoice& current_choice() {
  static LanguageChoice choice;
  return choice;
}

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// LANGUAGE as the learner's environment had it, and the value tito put there itself (tito sets it to
// make gettext speak the chosen language; choosing again must read the learner's, not tito's own).
struct LanguageVariable {
  std::optional<std::string> original;
  std::optional<std::string> ours;
};

LanguageVariable& language_variable() {
  static LanguageVariable variable;
  return variable;
}

// Takes LANGUAGE as the environment's own, unless it still holds what tito set.
void remember_environment_language() {
  LanguageVariable& variable = language_variable();
  const char* now = std::getenv("LANGUAGE");
  if (variable.ours && now != nullptr && *variable.ours == now) return;
  variable.original = now ? std::optional<std::string>(now) : std::nullopt;
  variable.ours.reset();
}

std::string environment_language_list() { return language_variable().original.value_or(""); }

bool is_plain_c_locale(const std::string& name) { return name == "C" || name == "POSIX"; }

// The value gettext's message category comes from: LC_ALL, else LC_MESSAGES, else LANG, with its name.
std::pair<std::string, std::string> effective_locale_variable() {
  for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
    const std::string value = env(name);
    if (!value.empty()) return {name, value};
  }
  return {"", ""};
}

// The language the environment asks for, and a one-line notice when it asks for one tito does not speak.
LanguageChoice choice_from_environment(std::string& notice) {
  const auto [variable, value] = effective_locale_variable();
  // gettext reads LANGUAGE (a list, "fr:es:en") first, except where the locale is explicitly C/POSIX.
  const std::string language_list = environment_language_list();
  if (!language_list.empty() && !is_plain_c_locale(value)) {
    std::size_t start = 0;
    while (start <= language_list.size()) {
      const std::size_t end = std::min(language_list.find(':', start), language_list.size());
      if (auto code = normalise_language(language_list.substr(start, end - start)))
        return {*code, "LANGUAGE=" + language_list};
      start = end + 1;
    }
  }
  if (value.empty()) return {"en", "default"};
  if (auto code = normalise_language(value)) return {*code, variable + "=" + value};
  notice = fmt::format(
      "note: {}={} asks for a language tito does not speak yet (it speaks {}); it speaks English. "
      "To choose: tito config language en",
      variable, value, fmt::join(supported_languages(), ", "));
  return {"en", variable + "=" + value};
}

// Makes gettext speak `code` whatever the installed locales: LANGUAGE=code (glibc honours it unless the
// message locale is plain C, so C.UTF-8 then), and a fresh look-up of the catalogs.
void apply_language(const LanguageChoice& choice) {
  current_choice() = choice;
  const std::string language_list = environment_language_list();
  const std::string effective = effective_locale_variable().second;
  const auto from_locale = normalise_language(effective);
  bool list_names_another = false;  // a language other than English that tito knows
  for (std::size_t start = 0; start <= language_list.size();) {
    const std::size_t end = std::min(language_list.find(':', start), language_list.size());
    const auto code = normalise_language(language_list.substr(start, end - start));
    if (code && *code != "en") list_names_another = true;
    start = end + 1;
  }
  // Leave the environment alone where gettext gives English anyway (the programs tito runs inherit it).
  const bool english_anyway = choice.code == "en" && !list_names_another &&
                              (!language_list.empty() || !from_locale || *from_locale == "en");
  LanguageVariable& variable = language_variable();
  if (english_anyway) {  // the environment's own LANGUAGE, as it was
    if (variable.original) ::setenv("LANGUAGE", variable.original->c_str(), 1);
    else ::unsetenv("LANGUAGE");
    variable.ours.reset();
  } else {
    ::setenv("LANGUAGE", choice.code.c_str(), 1);
    variable.ours = choice.code;
  }
  if (choice.code != "en") {
    const char* messages = std::setlocale(LC_MESSAGES, nullptr);
    if (messages == nullptr || is_plain_c_locale(messages)) {
      if (std::setlocale(LC_MESSAGES, "C.UTF-8") == nullptr) std::setlocale(LC_MESSAGES, "C.utf8");
    }
  }
  ++_nl_msg_cat_cntr;
}

bool readable_catalog_dir(const fs::path& dir) {
  std::error_code error;
  return fs::is_directory(dir, error);
}

fs::path this_executable() {
  std::array<char, 4096> buffer{};
  const ssize_t length = ::readlink("/proc/self/exe", buffer.data(), buffer.size() - 1);
  return length > 0 ? fs::path(std::string(buffer.data(), static_cast<std::size_t>(length))) : fs::path();
}

// --workspace DIR / --workspace=DIR before a "--" (after it come a milestone program's own arguments).
std::string workspace_in_arguments(int argc, char** argv) {
  std::string found;
  for (int i = 1; i < argc && argv[i] != nullptr; ++i) {
    const std::string argument = argv[i];
    if (argument == "--") break;
    if (argument == "--workspace" && i + 1 < argc && argv[i + 1] != nullptr) found = argv[++i];
    else if (argument.rfind("--workspace=", 0) == 0) found = argument.substr(std::strlen("--workspace="));
  }
  return found;
}

// The workspace the command will use, as Workspace::locate finds it; none when there is none (the
// command itself then says so).
std::optional<fs::path> workspace_for(int argc, char** argv) {
  std::string chosen = workspace_in_arguments(argc, argv);
  if (chosen.empty()) chosen = env("TITO_WORKSPACE");
  std::error_code error;
  if (!chosen.empty()) {
    const fs::path dir = fs::absolute(chosen, error).lexically_normal();
    if (!error && Workspace::is_workspace(dir)) return dir;
    return std::nullopt;
  }
  const fs::path here = fs::current_path(error);
  if (error) return std::nullopt;
  return Workspace::discover(here);
}

// 12345 -> "12,345" with `separator`; four digits or fewer stay whole.
std::string group_thousands(const std::string& digits, char separator) {
  if (digits.size() < 5) return digits;
  std::string grouped;
  const std::size_t lead = digits.size() % 3 == 0 ? 3 : digits.size() % 3;
  grouped += digits.substr(0, lead);
  for (std::size_t at = lead; at < digits.size(); at += 3) {
    grouped += separator;
    grouped += digits.substr(at, 3);
  }
  return grouped;
}

// "-12345.678" in fmt's spelling -> the message language's.
std::string localise_number_text(const std::string& text) {
  const bool spanish = message_language() == "es";
  const char thousands = spanish ? '.' : ',';
  const char decimal = spanish ? ',' : '.';
  std::size_t start = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  std::size_t end = start;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
  if (end == start) return text;  // nan, inf
  std::string result = text.substr(0, start) + group_thousands(text.substr(start, end - start), thousands);
  if (end < text.size() && text[end] == '.') {
    result += decimal;
    result += text.substr(end + 1);
  } else {
    result += text.substr(end);
  }
  return result;
}

}  // namespace

const std::vector<std::string>& supported_languages() {
  static const std::vector<std::string> languages = {"en", "es", "zh"};
  return languages;
}

std::optional<std::string> normalise_language(const std::string& value) {
  const std::string text = lowercase(trimmed(value));
  if (text.empty()) return std::nullopt;
  if (text == "c" || text == "posix" || text.rfind("c.", 0) == 0) return std::string("en");
  const std::string code = text.substr(0, text.find_first_of("_-.@"));
  for (const auto& known : supported_languages())
    if (code == known) return known;
  return std::nullopt;
}

fs::path locale_dir() {
  const std::string chosen = env("TITO_LOCALE_DIR");
  if (!chosen.empty()) return chosen;
  const fs::path executable = this_executable();
  if (!executable.empty()) {
    const fs::path prefix = executable.parent_path().parent_path();
    // The build tree: <build>/bin/tito beside <build>/locale (what CMake compiles the catalogs into).
    if (readable_catalog_dir(prefix / "locale")) return prefix / "locale";
    // An installed layout: <prefix>/bin/tito with <prefix>/share/locale/LANG/LC_MESSAGES/tito.mo.
    std::error_code error;
    if (fs::is_regular_file(prefix / "share" / "locale" / "es" / "LC_MESSAGES" / "tito.mo", error))
      return prefix / "share" / "locale";
  }
  const std::string build = env("TITO_BUILD_DIR");
  if (!build.empty()) return fs::path(build) / "locale";
  return fs::path(TITO_BUILD_DIR) / "locale";
}

void init_i18n(int argc, char** argv) {
  // The environment's locale; when it is not installed (LANG=es_ES.UTF-8 on a machine without it),
  // C.UTF-8, under which glibc still honours LANGUAGE (it ignores it only under plain C).
  if (std::setlocale(LC_ALL, "") == nullptr) {
    if (std::setlocale(LC_ALL, "C.UTF-8") == nullptr) std::setlocale(LC_ALL, "C.utf8");
  }
  // Numbers stay in the C spelling for everything tito parses and writes (strtod, printf, JSON, CSV);
  // numbers for people go through format_number.
  std::setlocale(LC_NUMERIC, "C");
  const std::string dir = locale_dir().string();
  for (const char* domain : {kTextDomain, kCurriculumTextDomain}) {
    ::bindtextdomain(domain, dir.c_str());
    ::bind_textdomain_codeset(domain, "UTF-8");
  }

  remember_environment_language();
  std::string notice;
  LanguageChoice choice = choice_from_environment(notice);
  if (auto workspace = workspace_for(argc, argv)) {
    const std::string stored = configured_language(*workspace);
    if (!stored.empty()) {
      const auto code = normalise_language(stored);
      if (code && *code == lowercase(trimmed(stored))) {
        choice = {*code, "tito config"};
        notice.clear();
      } else {
        notice = fmt::format("note: {} asks for the language '{}', which tito does not speak (it speaks {}); ignored. "
                             "To choose: tito config language en",
                             workspace_config_file(*workspace).string(), stored, fmt::join(supported_languages(), ", "));
      }
    }
  }
  apply_language(choice);
  if (!notice.empty()) std::cerr << notice << "\n";
}

std::string message_language() { return current_choice().code; }

std::string language_setting_source() { return current_choice().source; }

std::string language_name(const std::string& code) {
  if (code == "es") return tr("Spanish");
  if (code == "zh") return tr("Chinese");
  return tr("English");
}

void set_message_language(const std::string& code, const std::string& source) {
  const auto known = normalise_language(code);
  apply_language({known ? *known : "en", source});
}

void use_environment_language() {
  std::string notice;
  apply_language(choice_from_environment(notice));
}

ScopedMessageLanguage::ScopedMessageLanguage(const std::string& code) {
  const auto known = normalise_language(code);
  if (code.empty() || !known || *known == message_language()) return;
  active_ = true;
  language_ = current_choice().code;
  source_ = current_choice().source;
  // The learner's language wins over whatever this process's environment says.
  apply_language({*known, "submission"});
}

ScopedMessageLanguage::~ScopedMessageLanguage() {
  if (active_) apply_language({language_, source_});
}

fs::path workspace_config_file(const fs::path& workspace_root) { return workspace_root / ".tito" / "config.json"; }

std::string language_in_config_text(const std::string& config_json) {
  const nlohmann::json config = nlohmann::json::parse(config_json, nullptr, false);
  if (config.is_discarded() || !config.is_object()) return "";
  auto found = config.find("language");
  if (found == config.end() || !found->is_string()) return "";
  return found->get<std::string>();
}

std::string configured_language(const fs::path& workspace_root) {
  const fs::path file = workspace_config_file(workspace_root);
  std::error_code error;
  if (!fs::is_regular_file(file, error)) return "";
  try {
    return language_in_config_text(read_file(file));
  } catch (const std::exception&) {
    return "";
  }
}

void store_configured_language(const fs::path& workspace_root, const std::string& code) {
  const fs::path file = workspace_config_file(workspace_root);
  nlohmann::json config = nlohmann::json::object();
  std::error_code error;
  if (fs::is_regular_file(file, error)) {
    nlohmann::json existing = nlohmann::json::parse(read_file(file), nullptr, false);
    if (!existing.is_discarded() && existing.is_object()) config = std::move(existing);
  }
  if (code.empty()) config.erase("language");
  else config["language"] = code;
  write_file_atomically(file, config.dump(2) + "\n");
}

std::string format_number(double value, int decimals) {
  if (!std::isfinite(value)) return fmt::format("{}", value);
  return localise_number_text(fmt::format("{:.{}f}", value, std::max(0, decimals)));
}

std::string format_integer(std::int64_t value) { return localise_number_text(fmt::format("{}", value)); }

std::string format_significant(double value, int digits) {
  if (!std::isfinite(value)) return fmt::format("{}", value);
  // The mantissa's integer digits are grouped and its point localised; "e-06" follows as it is.
  return localise_number_text(fmt::format("{:.{}g}", value, std::max(1, digits)));
}

std::string format_percent(double percent, int decimals) {
  const std::string number = format_number(percent, decimals);
  return message_language() == "es" ? number + " %" : number + "%";
}

}  // namespace tito
