// tito speaks the learner's language: the catalogs keep every fmt field of the English, the learner's
// commands are translated completely into Spanish, the language comes from the environment or the
// workspace's setting, untranslated text falls back to English, and numbers follow the language.
#include <catch2/catch.hpp>

#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "core/files.h"
#include "core/grading_reports.h"
#include "core/i18n.h"
#include "core/milestone.h"
#include "core/workspace.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;

namespace {

const fs::path kPoDir = fs::path(TITO_SOURCE_DIR) / "po";

// ---- a small reader of PO files: what the checks below need ----

struct PoEntry {
  std::string msgid, msgid_plural;
  std::vector<std::string> msgstr;      // msgstr, or msgstr[0], msgstr[1], ...
  std::vector<std::string> references;  // the files of the "#:" lines
  bool fuzzy = false;
  bool obsolete = false;
  int line = 0;
};

std::string unquote(const std::string& quoted) {
  std::string text;
  const std::size_t begin = quoted.find('"'), end = quoted.rfind('"');
  for (std::size_t i = begin + 1; i < end; ++i) {
    if (quoted[i] != '\\' || i + 1 >= end) {
      text += quoted[i];
      continue;
    }
    const char escaped = quoted[++i];
    text += escaped == 'n' ? '\n' : escaped == 't' ? '\t' : escaped == 'r' ? '\r' : escaped;
  }
  return text;
}

std::vector<PoEntry> read_po(const fs::path& file) {
  std::vector<PoEntry> entries;
  std::ifstream in(file);
  PoEntry entry;
  std::string* field = nullptr;
  bool started = false;
  int number = 0;
  auto finish = [&] {
    if (started) entries.push_back(entry);
    entry = PoEntry{};
    field = nullptr;
    started = false;
  };
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty()) {
      finish();
      continue;
    }
    if (!started) entry.line = number;
    started = true;
    if (line.rfind("#~", 0) == 0) {
      entry.obsolete = true;
    } else if (line.rfind("#:", 0) == 0) {
      std::istringstream words(line.substr(2));
      for (std::string word; words >> word;) entry.references.push_back(word.substr(0, word.find(':')));
    } else if (line.rfind("#,", 0) == 0) {
      if (line.find("fuzzy") != std::string::npos) entry.fuzzy = true;
    } else if (line.rfind('#', 0) == 0) {
      continue;
    } else if (line.rfind("msgid_plural ", 0) == 0) {
      entry.msgid_plural = unquote(line);
      field = &entry.msgid_plural;
    } else if (line.rfind("msgid ", 0) == 0) {
      entry.msgid = unquote(line);
      field = &entry.msgid;
    } else if (line.rfind("msgstr", 0) == 0) {
      entry.msgstr.push_back(unquote(line));
      field = &entry.msgstr.back();
    } else if (line.rfind('"', 0) == 0 && field != nullptr) {
      *field += unquote(line);
    } else if (line.rfind("msgctxt ", 0) == 0) {
      field = nullptr;
    }
  }
  finish();
  return entries;
}

// The fmt replacement fields of a format string, in order: "{}", "{:>3}", "{:<{}}" ({{ and }} are text).
std::vector<std::string> fmt_fields(const std::string& text) {
  std::vector<std::string> fields;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{' && i + 1 < text.size() && text[i + 1] == '{') {
      ++i;
      continue;
    }
    if (text[i] == '}' && i + 1 < text.size() && text[i + 1] == '}') {
      ++i;
      continue;
    }
    if (text[i] != '{') continue;
    int depth = 0;
    std::size_t end = i;
    for (; end < text.size(); ++end) {
      if (text[end] == '{') ++depth;
      if (text[end] == '}' && --depth == 0) break;
    }
    fields.push_back(text.substr(i, end - i + 1));
    i = end;
  }
  return fields;
}

std::vector<fs::path> every_po_file() {
  std::vector<fs::path> files;
  for (const fs::path& dir : {kPoDir, kPoDir / "curriculum"})
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.path().extension() == ".po") files.push_back(entry.path());
  return files;
}

// The sources of the learner's commands: init, module list/start/test/hint/complete/status, milestone
// list/run, system doctor, config language, and the shapes and errors they share.
const std::vector<std::string> kLearnerFacingSources = {
    "tito/src/cli/app.cpp",              "tito/src/cli/welcome_and_init.cpp", "tito/src/cli/module_browse.cpp",
    "tito/src/cli/module_lifecycle.cpp", "tito/src/cli/module_testing.cpp",  "tito/src/cli/module_hint.cpp",
    "tito/src/cli/report_printer.cpp",   "tito/src/cli/milestone_browse.cpp", "tito/src/cli/milestone_run.cpp",
    "tito/src/cli/system_commands.cpp",  "tito/src/cli/session.cpp",         "tito/src/cli/config_commands.cpp",
    "tito/src/core/terminal.cpp",        "tito/src/core/workspace.cpp",       "tito/src/core/progress_store.cpp",
    "tito/src/core/learner_files.cpp",   "tito/src/core/clock.cpp",          "tito/src/core/milestone.cpp",
    "tito/src/cli/module_quiz.cpp",      "tito/src/cli/module_journal.cpp",  "tito/src/cli/lessons_commands.cpp",
    // The test runner's progress lines and the details of a failed case (module test/complete/watch).
    "tito/src/run/module_test_runner.cpp", "tito/src/run/test_session.cpp",  "tito/src/run/sandbox.cpp",
    "tito/src/run/stack_location.cpp"};

bool learner_facing(const PoEntry& entry) {
  for (const auto& reference : entry.references)
    for (const auto& source : kLearnerFacingSources)
      if (reference == source) return true;
  return false;
}

// Runs a shell command; its exit status and what it printed (stdout and stderr).
std::pair<int, std::string> run_command(const std::string& command) {
  std::string output;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {-1, ""};
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

// ---- the process's language, set for one test and put back ----

// Saves the variables init_i18n reads and the process locale; restores both, and English, at the end.
// It starts as tito does (init_i18n, here with none of those variables set: English): that binds this
// build's catalogs, which set_message_language alone never does, so that each case finds them also when
// it runs alone (tito_tests "[milestone]") rather than only after a case that called init().
struct LanguageEnvironment {
  std::map<std::string, std::optional<std::string>> saved;
  LanguageEnvironment() {
    for (const char* name : {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "TITO_WORKSPACE", "TITO_LOCALE_DIR"}) {
      const char* value = std::getenv(name);
      saved[name] = value ? std::optional<std::string>(value) : std::nullopt;
      ::unsetenv(name);
    }
    // The catalogs this build compiled (tito_tests depends on them).
    ::setenv("TITO_LOCALE_DIR", (fs::path(TITO_BUILD_DIR) / "locale").c_str(), 1);
    init();
  }
  ~LanguageEnvironment() {
    for (const auto& [name, value] : saved) {
      if (value) ::setenv(name.c_str(), value->c_str(), 1);
      else ::unsetenv(name.c_str());
    }
    std::setlocale(LC_ALL, "C");
    tito::set_message_language("en", "default");
  }
  // init_i18n as `tito ARGS...` would call it.
  void init(std::vector<std::string> arguments = {}) {
    arguments.insert(arguments.begin(), "tito");
    std::vector<char*> argv;
    for (auto& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    tito::init_i18n(static_cast<int>(arguments.size()), argv.data());
  }
};

// A workspace (the marker file is all init_i18n looks for) in `dir`.
void make_workspace(const fs::path& dir) {
  fs::create_directories(dir / ".tito");
  tito::write_file_atomically(dir / ".tito" / "workspace.json", "{\"version\": 1}\n");
}

}  // namespace

TEST_CASE("every translation keeps the English text's fmt fields, in order", "[i18n]") {
  int checked = 0;
  for (const fs::path& file : every_po_file()) {
    for (const PoEntry& entry : read_po(file)) {
      if (entry.msgid.empty() || entry.obsolete || entry.fuzzy) continue;  // msgfmt leaves fuzzy ones out
      for (std::size_t form = 0; form < entry.msgstr.size(); ++form) {
        const std::string& translation = entry.msgstr[form];
        if (translation.empty()) continue;  // untranslated: English at run time
        const std::string& english = form == 0 || entry.msgid_plural.empty() ? entry.msgid : entry.msgid_plural;
        INFO(file.filename().string() << ":" << entry.line << " msgid \"" << entry.msgid << "\"\n  msgstr \"" << translation << "\"");
        CHECK(fmt_fields(translation) == fmt_fields(english));
        ++checked;
      }
    }
  }
  CHECK(checked > 100);
}

TEST_CASE("the fmt field reader finds nested and escaped fields", "[i18n]") {
  CHECK(fmt_fields("{} of {:>3} {{literal}} {:<{}} x}}") == std::vector<std::string>{"{}", "{:>3}", "{:<{}}"});
  CHECK(fmt_fields("no fields").empty());
}

TEST_CASE("the learner's commands are completely in Spanish", "[i18n]") {
  std::vector<std::string> missing;
  int translated = 0;
  for (const PoEntry& entry : read_po(kPoDir / "es.po")) {
    if (entry.msgid.empty() || entry.obsolete || !learner_facing(entry)) continue;
    bool complete = !entry.fuzzy && !entry.msgstr.empty();
    for (const auto& translation : entry.msgstr) complete = complete && !translation.empty();
    if (complete) ++translated;
    else missing.push_back((entry.fuzzy ? "fuzzy: " : "untranslated: ") + entry.msgid);
  }
  INFO("po/es.po (scripts/update-translations, then translate):\n" << [&] {
    std::string list;
    for (const auto& m : missing) list += "  " + m + "\n";
    return list;
  }());
  CHECK(missing.empty());
  CHECK(translated > 100);

  // msgfmt's own count over the same entries (msggrep selects them by source file): nothing untranslated or fuzzy.
  std::string select;
  for (const auto& source : kLearnerFacingSources) select += " -N " + source;
  const auto [status, output] =
      run_command("msggrep" + select + " " + (kPoDir / "es.po").string() + " | msgfmt --check --statistics -o /dev/null -");
  INFO(output);
  CHECK(status == 0);
  CHECK(output.find("translated message") != std::string::npos);
  CHECK(output.find("untranslated") == std::string::npos);
  CHECK(output.find("fuzzy") == std::string::npos);
}

TEST_CASE("every catalog compiles with msgfmt --check", "[i18n]") {
  for (const fs::path& file : every_po_file()) {
    const auto [status, output] = run_command("msgfmt --check -o /dev/null " + file.string());
    INFO(file.string() << ":\n" << output);
    CHECK(status == 0);
  }
}

TEST_CASE("language codes are normalised from settings and locale names", "[i18n]") {
  CHECK(tito::normalise_language("es") == "es");
  CHECK(tito::normalise_language("es_ES.UTF-8") == "es");
  CHECK(tito::normalise_language("es-MX") == "es");
  CHECK(tito::normalise_language("zh_CN.UTF-8") == "zh");
  CHECK(tito::normalise_language("en_GB.UTF-8") == "en");
  CHECK(tito::normalise_language("C.UTF-8") == "en");
  CHECK(tito::normalise_language("POSIX") == "en");
  CHECK_FALSE(tito::normalise_language("fr_FR.UTF-8"));
  CHECK_FALSE(tito::normalise_language(""));
}

TEST_CASE("the message language comes from the environment", "[i18n]") {
  LanguageEnvironment environment;
  tito_test::ScratchDir nowhere;  // no workspace here: only the environment counts
  const fs::path before = fs::current_path();
  fs::current_path(nowhere.root);

  SECTION("LANG, even when its locale is not installed") {
    ::setenv("LANG", "es_ES.UTF-8", 1);
    environment.init();
    CHECK(tito::message_language() == "es");
    CHECK(tito::language_setting_source() == "LANG=es_ES.UTF-8");
    CHECK(std::string(tito::tr("next:")) == "siguiente:");
  }
  SECTION("LC_ALL before LANG, LANGUAGE before both") {
    ::setenv("LANG", "en_US.UTF-8", 1);
    ::setenv("LC_ALL", "zh_CN.UTF-8", 1);
    environment.init();
    CHECK(tito::message_language() == "zh");
    CHECK(std::string(tito::tr("next:")) == "next:");  // no Chinese catalog: English
    ::setenv("LANGUAGE", "fr:es", 1);
    environment.init();
    CHECK(tito::message_language() == "es");
    CHECK(tito::language_setting_source() == "LANGUAGE=fr:es");
  }
  SECTION("nothing set, C, or a language tito does not speak: English") {
    environment.init();
    CHECK(tito::message_language() == "en");
    CHECK(tito::language_setting_source() == "default");
    ::setenv("LANG", "C", 1);
    environment.init();
    CHECK(tito::message_language() == "en");
    ::setenv("LANG", "fr_FR.UTF-8", 1);
    environment.init();
    CHECK(tito::message_language() == "en");
    CHECK(std::string(tito::tr("next:")) == "next:");
  }
  fs::current_path(before);
}

TEST_CASE("the workspace's setting wins over the environment", "[i18n]") {
  LanguageEnvironment environment;
  tito_test::ScratchDir scratch;
  const fs::path workspace = scratch.root / "ws";
  make_workspace(workspace);
  ::setenv("LANG", "en_US.UTF-8", 1);

  tito::store_configured_language(workspace, "es");
  CHECK(tito::configured_language(workspace) == "es");
  environment.init({"--workspace", workspace.string(), "module", "list"});
  CHECK(tito::message_language() == "es");
  CHECK(tito::language_setting_source() == "tito config");
  CHECK(std::string(tito::tr("next:")) == "siguiente:");
  CHECK(std::string(tito::tr_curriculum("Activations")) == "Activaciones");

  SECTION("found from a folder inside the workspace, and by --workspace=DIR") {
    const fs::path before = fs::current_path();
    fs::create_directories(workspace / "modules");
    fs::current_path(workspace / "modules");
    environment.init({"module", "list"});
    CHECK(tito::message_language() == "es");
    fs::current_path(before);
    environment.init({"--workspace=" + workspace.string()});
    CHECK(tito::message_language() == "es");
  }
  SECTION("the setting keeps the file's other keys, and removing it follows the environment again") {
    tito::write_file_atomically(tito::workspace_config_file(workspace), "{\"language\": \"es\", \"editor\": \"vim\"}\n");
    tito::store_configured_language(workspace, "");
    const std::string text = tito::read_file(tito::workspace_config_file(workspace));
    CHECK(text.find("editor") != std::string::npos);
    CHECK(text.find("language") == std::string::npos);
    environment.init({"--workspace", workspace.string()});
    CHECK(tito::message_language() == "en");
  }
  SECTION("a setting tito does not know is ignored, never fatal") {
    tito::store_configured_language(workspace, "klingon");
    environment.init({"--workspace", workspace.string()});
    CHECK(tito::message_language() == "en");
  }
  SECTION("config.json that is not an object or not JSON reads as no setting") {
    CHECK(tito::language_in_config_text("[1, 2]").empty());
    CHECK(tito::language_in_config_text("{\"language\": 3}").empty());
    CHECK(tito::language_in_config_text("not json").empty());
    CHECK(tito::language_in_config_text("{\"language\": \"zh\"}") == "zh");
  }
}

TEST_CASE("an untranslated string falls back to English, never to an empty one", "[i18n]") {
  LanguageEnvironment environment;
  tito::set_message_language("es", "test");
  const char* english = "a sentence no catalog has translated";
  CHECK(std::string(tito::tr(english)) == english);
  CHECK(tito::trf("{} and {} stay", 1, 2) == "1 and 2 stay");
  CHECK(std::string(tito::tr_curriculum("a title no catalog has")) == "a title no catalog has");
  CHECK(std::string(tito::tr_curriculum("")).empty());  // not the catalog's header
  CHECK(tito::trnf("{} minute ago", "{} minutes ago", 2, 2) == "hace 2 minutos");
}

TEST_CASE("a scoped language speaks the learner's language and then the process's again", "[i18n]") {
  LanguageEnvironment environment;
  environment.init();
  REQUIRE(tito::message_language() == "en");
  {
    tito::ScopedMessageLanguage learner("es");
    CHECK(tito::message_language() == "es");
    CHECK(std::string(tito::tr("passed")) != "passed");
  }
  CHECK(tito::message_language() == "en");
  CHECK(std::string(tito::tr("passed")) == "passed");
  {
    tito::ScopedMessageLanguage unknown("");  // no setting: nothing changes
    CHECK(tito::message_language() == "en");
  }
}

TEST_CASE("numbers follow the message language's convention", "[i18n]") {
  LanguageEnvironment environment;
  tito::set_message_language("en", "test");
  CHECK(tito::format_number(1234.5, 1) == "1234.5");
  CHECK(tito::format_number(12345.678, 2) == "12,345.68");
  CHECK(tito::format_number(-1234567.0, 0) == "-1,234,567");
  CHECK(tito::format_integer(810) == "810");
  CHECK(tito::format_integer(60000) == "60,000");
  CHECK(tito::format_percent(95, 0) == "95%");
  tito::set_message_language("es", "test");
  CHECK(tito::format_number(1234.5, 1) == "1234,5");
  CHECK(tito::format_number(12345.678, 2) == "12.345,68");
  CHECK(tito::format_number(-1234567.0, 0) == "-1.234.567");
  CHECK(tito::format_number(0.25, 3) == "0,250");
  CHECK(tito::format_integer(60000) == "60.000");
  CHECK(tito::format_integer(-100000) == "-100.000");
  CHECK(tito::format_percent(95.5, 1) == "95,5 %");
  tito::set_message_language("zh", "test");
  CHECK(tito::format_number(12345.5, 1) == "12,345.5");
}

TEST_CASE("a context chooses between translations of one English word", "[i18n]") {
  LanguageEnvironment environment;
  tito::set_message_language("es", "test");
  // un hito (masculine), una prueba and una parte (feminine)
  CHECK(std::string(tito::trc("milestone", "passed")) == "superado");
  CHECK(std::string(tito::trc("test case", "passed")) == "superada");
  CHECK(std::string(tito::trc("milestone part", "not run")) == "no ejecutada");
  CHECK(std::string(tito::tr("passed")) == "superada");  // the entry without a context stays its own
  // No entry for this context: the English, never the "context\004word" key gettext was asked for.
  const char* english = "passed";
  CHECK(tito::trc("no such context", english) == english);
  tito::set_message_language("en", "test");
  CHECK(std::string(tito::trc("milestone", "passed")) == "passed");
}

TEST_CASE("trb gives the English for records and the translation for people at once", "[i18n]") {
  LanguageEnvironment environment;
  tito::set_message_language("es", "test");
  const tito::Bilingual limit = tito::trb("time limit of {} s", 10);
  CHECK(limit.english == "time limit of 10 s");
  CHECK(limit.shown == "límite de tiempo de 10 s");
  // A Bilingual argument gives each side its own text; + appends to both.
  const tito::Bilingual where = tito::trb("it was still running at {}", tito::trb("{} in {}", "matmul.cpp:57", "mm")) + ".";
  CHECK(where.english == "it was still running at matmul.cpp:57 in mm.");
  CHECK(where.shown == "seguía en ejecución en matmul.cpp:57 en mm.");
  tito::set_message_language("en", "test");
  CHECK(tito::trb("time limit of {} s", 10).shown == "time limit of 10 s");
}

TEST_CASE("significant digits follow the language, the exponent kept", "[i18n]") {
  LanguageEnvironment environment;
  tito::set_message_language("es", "test");
  CHECK(tito::format_significant(3.70407e-06, 6) == "3,70407e-06");
  CHECK(tito::format_significant(0.634949, 6) == "0,634949");
  CHECK(tito::format_significant(1e-05, 6) == "1e-05");
  CHECK(tito::format_significant(0.0001, 6) == "0,0001");
  CHECK(tito::format_significant(-2.5e+10, 6) == "-2,5e+10");
  CHECK(tito::format_significant(0.75, 6) == "0,75");
  tito::set_message_language("en", "test");
  CHECK(tito::format_significant(3.70407e-06, 6) == "3.70407e-06");
  CHECK(tito::format_significant(0.953125, 6) == "0.953125");
}

TEST_CASE("a milestone part's verdict is recorded in English and shown in the learner's language", "[i18n][milestone]") {
  LanguageEnvironment environment;
  tito::set_message_language("es", "test");
  tito::MilestonePart part;
  part.number = 2;
  part.gate = {"heldout_margin", ">=", 0.35};
  part.further_gates = {{"gpt_forward_error", "<=", 0.0001}};
  CHECK(part.gates_for_people() == "heldout_margin >= 0,35 y gpt_forward_error <= 0,0001");
  CHECK(part.describe_gates() == "heldout_margin >= 0.35 and gpt_forward_error <= 0.0001");

  const tito::PartVerdict missed = tito::judge_part(part, {{2, "heldout_margin", 0.2}, {2, "gpt_forward_error", 3.70407e-06}}, "");
  CHECK_FALSE(missed.passed);
  CHECK(missed.message == "heldout_margin = 0.2 does not meet the gate heldout_margin >= 0.35 (gpt_forward_error = 3.70407e-06 does)");
  CHECK(missed.shown_message ==
        "heldout_margin = 0,2 no cumple el umbral heldout_margin >= 0,35 (gpt_forward_error = 3,70407e-06 sí lo cumple)");

  const tito::PartVerdict crashed =
      tito::judge_part(part, {{2, "heldout_margin", 0.5}}, "it crashed with SIGSEGV", "abortó con SIGSEGV");
  CHECK(crashed.message == "the program did not finish: it crashed with SIGSEGV (after reporting heldout_margin = 0.5)");
  CHECK(crashed.shown_message == "el programa no terminó: abortó con SIGSEGV (después de informar heldout_margin = 0,5)");
  CHECK(tito::format_measured_for_people(0.634949) == "0,634949");
}

TEST_CASE("grading feedback speaks the learner's language, the instructor's reports their own", "[i18n][grading]") {
  LanguageEnvironment environment;
  environment.init();  // the instructor: English
  tito::GradingRun run;
  run.modules = {{"02", "Activations", 10}};
  tito::LearnerGrade learner;
  learner.id = "ana";
  learner.graded = true;
  learner.language = "es";  // her workspace's `tito config language es`
  tito::ModuleGrade module;
  module.number = "02";
  module.status = "graded";
  module.earned = 7;
  module.possible = 10;
  module.cases = {{"relu keeps positives", 7, 7, "passed", "", 1.0}, {"gelu matches", 3, 0, "failed", "got 5, expected 6", 1.0}};
  learner.modules = {module};
  run.learners = {learner};
  tito_test::ScratchDir scratch;
  tito::write_gradescope_results(run, scratch.root / "results.json");
  const auto results = nlohmann::json::parse(tito::read_file(scratch.root / "results.json"));
  const std::string output = results["output"].get<std::string>();
  CHECK(output.find("Módulo 02 Activaciones: 7/10") != std::string::npos);
  CHECK(results["tests"][1]["output"] == "fallida: got 5, expected 6");
  CHECK(results["tests"][1]["status"] == "failed");  // a field Gradescope reads stays as it is
  CHECK(results["score"] == 7);
  // The instructor's process speaks its own language again.
  CHECK(tito::message_language() == "en");
  CHECK(std::string(tito::tr("passed")) == "passed");

  run.learners[0].language = "";  // no setting: the instructor's language
  tito::write_gradescope_results(run, scratch.root / "results.json");
  const auto english = nlohmann::json::parse(tito::read_file(scratch.root / "results.json"));
  CHECK(english["output"].get<std::string>().find("Module 02 Activations: 7/10") != std::string::npos);
}
