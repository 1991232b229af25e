#include "core/grading_reports.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/clock.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/i18n.h"
#include "core/report_format.h"
#include "core/sha256.h"

namespace tito {
namespace fs = std::filesystem;
using nlohmann::json;
namespace {

// A learner's page: the id with anything but letters, digits, '-', '_' and '.' replaced, and then a
// short hash of the real id, so that "vic~tim" and "vic_tim" never share (and overwrite) a page.
std::string page_name(const std::string& id) {
  std::string safe;
  for (char c : id) safe += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ? c : '_';
  if (safe.empty() || safe[0] == '.') safe = "_" + safe;
  if (safe != id) safe += "-" + sha256_hex(id).substr(0, 8);
  return safe + ".html";
}

// Every learner's page name, in run order; a name that is taken already (an id chosen to match
// another's hashed name) gets a number.
std::vector<std::string> page_names(const GradingRun& run) {
  std::vector<std::string> names;
  std::set<std::string> taken;
  for (const auto& learner : run.learners) {
    std::string name = page_name(learner.id);
    const std::string stem = name.substr(0, name.size() - 5);  // without ".html"
    for (int n = 2; taken.count(name); ++n) name = stem + "-" + std::to_string(n) + ".html";
    taken.insert(name);
    names.push_back(name);
  }
  return names;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string status_text(const LearnerGrade& learner) {
  if (!learner.graded) return "not graded: " + learner.reason;
  return learner.flags.empty() ? "graded" : fmt::format("graded ({} flag{})", learner.flags.size(), learner.flags.size() == 1 ? "" : "s");
}

// A bar chart of the score distribution: 10 bins of 10% each.
std::string histogram_svg(const ModuleStatistics& module) {
  std::vector<ChartBar> bars;
  for (std::size_t bin = 0; bin < module.histogram.size(); ++bin) {
    const int count = module.histogram[bin];
    bars.push_back({std::to_string(bin * 10), static_cast<double>(count),
                    fmt::format("{}-{}%: {} learner{}", bin * 10, bin == 9 ? 100 : bin * 10 + 9, count, count == 1 ? "" : "s"),
                    count > 0 ? std::to_string(count) : ""});
  }
  return bar_chart_svg(bars, "score distribution of module " + module.number, "% of points");
}

// Every report is written from a copy whose learner-made text is valid UTF-8 (\xFF escapes): a
// run may come from elsewhere than grade_submissions, and one bad byte must not cost the class its report.
GradingRun reportable(GradingRun run) {
  for (auto& learner : run.learners) make_reportable(learner);
  return run;
}

json case_json(const CaseGrade& c) {
  return {{"name", c.name}, {"points", c.points}, {"earned", c.earned}, {"status", c.status}, {"message", c.message},
          {"duration_ms", c.duration_ms}};
}

}  // namespace

void write_grades_csv(const GradingRun& raw, const fs::path& file) {
  const GradingRun run = reportable(raw);
  std::ostringstream out;
  out << "learner";
  for (const auto& module : run.modules) out << "," << csv_field(module.number + "_" + module.title);
  out << ",total,max,status\n";
  for (const auto& learner : run.learners) {
    out << csv_field(learner.id);
    for (const auto& module : learner.modules) out << "," << module.earned;
    out << "," << learner.earned() << "," << learner.possible() << "," << csv_field(status_text(learner)) << "\n";
  }
  write_file_atomically(file, out.str());
}

void write_grades_json(const GradingRun& raw, const fs::path& file) {
  const GradingRun run = reportable(raw);
  json modules = json::array();
  for (const auto& module : run.modules)
    modules.push_back({{"number", module.number}, {"title", module.title}, {"points", module.points}});
  json learners = json::array();
  for (const auto& learner : run.learners) {
    json graded_modules = json::array();
    for (const auto& module : learner.modules) {
      json cases = json::array();
      for (const auto& c : module.cases) cases.push_back(case_json(c));
      graded_modules.push_back({{"number", module.number}, {"status", module.status}, {"note", module.note},
                                {"earned", module.earned}, {"possible", module.possible}, {"cached", module.cached},
                                {"seconds", module.seconds}, {"cases", cases}});
    }
    learners.push_back({{"id", learner.id}, {"submission", learner.submission}, {"graded", learner.graded},
                        {"reason", learner.reason}, {"flags", learner.flags}, {"earned", learner.earned()},
                        {"possible", learner.possible()}, {"modules", graded_modules}});
  }
  json document = {{"format", "tito-grades-1"}, {"generated_at", iso8601_now()}, {"mode", run.mode},
                   {"seconds", run.seconds}, {"writes_confined", run.writes_confined},
                   {"modules", modules}, {"learners", learners}};
  write_file_atomically(file, document.dump(1) + "\n");
}

GradingRun read_grades_json(const fs::path& file) {
  GradingRun run;
  try {
    const json document = json::parse(read_file(file));
    run.mode = document.value("mode", "");
    run.seconds = document.value("seconds", 0.0);
    run.writes_confined = document.value("writes_confined", false);
    for (const auto& module : document.at("modules"))
      run.modules.push_back({module.at("number").get<std::string>(), module.value("title", ""), module.value("points", 0)});
    for (const auto& entry : document.at("learners")) {
      LearnerGrade learner;
      learner.id = entry.at("id").get<std::string>();
      learner.submission = entry.value("submission", "");
      learner.graded = entry.value("graded", false);
      learner.reason = entry.value("reason", "");
      learner.flags = entry.value("flags", std::vector<std::string>{});
      for (const auto& data : entry.at("modules")) {
        ModuleGrade module;
        module.number = data.at("number").get<std::string>();
        module.status = data.value("status", "");
        module.note = data.value("note", "");
        module.earned = data.value("earned", 0);
        module.possible = data.value("possible", 0);
        module.cached = data.value("cached", false);
        module.seconds = data.value("seconds", 0.0);
        for (const auto& c : data.at("cases"))
          module.cases.push_back({c.value("name", ""), c.value("points", 0), c.value("earned", 0), c.value("status", ""),
                                  c.value("message", ""), c.value("duration_ms", 0.0)});
        learner.modules.push_back(std::move(module));
      }
      run.learners.push_back(std::move(learner));
    }
  } catch (const json::exception& error) {
    throw UserError(fmt::format("{} is not a grades.json written by `tito grade` ({})", file.string(), error.what()),
                    "tito grade SUBMISSIONS_DIR --out DIR   (then tito instructor report DIR)");
  } catch (const std::runtime_error& error) {
    throw UserError(fmt::format("cannot read {}: {}", file.string(), error.what()),
                    "tito grade SUBMISSIONS_DIR --out DIR   (then tito instructor report DIR)");
  }
  return run;
}

std::vector<ModuleStatistics> class_statistics(const GradingRun& run, std::size_t top_failures) {
  std::vector<ModuleStatistics> all;
  for (std::size_t m = 0; m < run.modules.size(); ++m) {
    ModuleStatistics stats;
    stats.number = run.modules[m].number;
    stats.title = run.modules[m].title;
    stats.points = run.modules[m].points;
    stats.histogram.assign(10, 0);
    std::vector<int> scores;
    std::map<std::string, std::size_t> case_index;
    std::map<std::string, std::set<std::string>> failures;  // message -> learners
    for (const auto& learner : run.learners) {
      if (!learner.graded) continue;
      auto module = std::find_if(learner.modules.begin(), learner.modules.end(),
                                 [&](const ModuleGrade& g) { return g.number == stats.number; });
      if (module == learner.modules.end()) continue;
      scores.push_back(module->earned);
      const int bin = stats.points > 0 ? std::min(9, module->earned * 10 / stats.points) : 0;
      ++stats.histogram[bin];
      for (const auto& c : module->cases) {
        auto [at, inserted] = case_index.emplace(c.name, stats.cases.size());
        if (inserted) stats.cases.push_back({c.name, c.points, 0, 0});
        CaseStatistics& cs = stats.cases[at->second];
        ++cs.attempts;
        if (c.earned == c.points && c.status == "passed") {
          ++cs.passed;
        } else {
          failures[c.name + ": " + (c.message.empty() ? c.status : first_line(c.message))].insert(learner.id);
        }
      }
    }
    stats.learners = static_cast<int>(scores.size());
    if (!scores.empty()) {
      std::sort(scores.begin(), scores.end());
      double sum = 0;
      for (int s : scores) sum += s;
      stats.mean = sum / scores.size();
      const std::size_t mid = scores.size() / 2;
      stats.median = scores.size() % 2 ? scores[mid] : (scores[mid - 1] + scores[mid]) / 2.0;
      stats.min = scores.front();
      stats.max = scores.back();
    }
    for (const auto& [message, learners] : failures) stats.common_failures.emplace_back(message, static_cast<int>(learners.size()));
    std::stable_sort(stats.common_failures.begin(), stats.common_failures.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    if (stats.common_failures.size() > top_failures) stats.common_failures.resize(top_failures);
    all.push_back(std::move(stats));
  }
  return all;
}

void write_html_report(const GradingRun& raw, const fs::path& dir) {
  const GradingRun run = reportable(raw);
  fs::create_directories(dir / "learners");
  const auto stats = class_statistics(run);
  std::ostringstream index;
  int graded = 0;
  for (const auto& learner : run.learners) graded += learner.graded ? 1 : 0;
  index << "<!doctype html><html><head><meta charset=\"utf-8\"><title>Grades</title>" << kReportStyle << "</head><body>\n"
        << "<h1>Class overview</h1>\n"
        << fmt::format("<p>{} submissions, {} graded; prerequisites graded with {}; generated {}.</p>\n", run.learners.size(),
                       graded, run.mode == "cumulative" ? "the learner's own code" : "the reference code", html_escape(iso8601_now()));
  index << "<h2>Score distribution per module</h2><div class=\"charts\">\n";
  for (const auto& module : stats) {
    index << "<div class=\"chart\"><b>" << html_escape(module.number + " " + module.title) << "</b><br>"
          << fmt::format("mean {:.1f}, median {:.1f} of {} ({} learners)<br>", module.mean, module.median, module.points,
                         module.learners)
          << histogram_svg(module) << "</div>\n";
  }
  index << "</div>\n<h2>Learners</h2>\n<table><tr><th>learner</th>";
  for (const auto& module : run.modules) index << "<th>" << html_escape(module.number) << "</th>";
  index << "<th>total</th><th>status</th></tr>\n";
  const std::vector<std::string> pages = page_names(run);
  for (std::size_t i = 0; i < run.learners.size(); ++i) {
    const LearnerGrade& learner = run.learners[i];
    index << "<tr><td><a href=\"learners/" << html_escape(pages[i]) << "\">" << html_escape(learner.id) << "</a></td>";
    for (const auto& module : learner.modules)
      index << "<td" << (module.earned < module.possible ? " class=\"bad\"" : "") << ">" << module.earned << "</td>";
    index << fmt::format("<td>{}/{}</td><td>{}</td></tr>\n", learner.earned(), learner.possible(), html_escape(status_text(learner)));
  }
  index << "</table>\n<h2>Test cases</h2>\n";
  for (const auto& module : stats) {
    index << "<h3>" << html_escape(module.number + " " + module.title) << "</h3><table><tr><th>case</th><th>points</th><th>pass rate</th></tr>\n";
    for (const auto& c : module.cases)
      index << fmt::format("<tr><td>{}</td><td>{}</td><td>{:.0f}% ({}/{})</td></tr>\n", html_escape(c.name), c.points, 100 * c.pass_rate(),
                           c.passed, c.attempts);
    index << "</table>\n";
    if (!module.common_failures.empty()) {
      index << "<p>Most common failures:</p><ul>";
      for (const auto& [message, count] : module.common_failures) index << "<li>" << html_escape(message) << fmt::format(" ({} learners)</li>", count);
      index << "</ul>\n";
    }
  }
  index << "</body></html>\n";
  write_file_atomically(dir / "index.html", index.str());

  for (std::size_t i = 0; i < run.learners.size(); ++i) {
    const LearnerGrade& learner = run.learners[i];
    std::ostringstream page;
    page << "<!doctype html><html><head><meta charset=\"utf-8\"><title>" << html_escape(learner.id) << "</title>" << kReportStyle
         << "</head><body>\n<p><a href=\"../index.html\">class overview</a></p><h1>" << html_escape(learner.id) << "</h1>\n"
         << fmt::format("<p>Submission <code>{}</code>: {}/{} points. {}</p>\n", html_escape(learner.submission), learner.earned(),
                        learner.possible(), html_escape(status_text(learner)));
    if (!learner.flags.empty()) {
      page << "<h2>Flags</h2><ul>";
      for (const auto& flag : learner.flags) page << "<li>" << html_escape(flag) << "</li>";
      page << "</ul>\n";
    }
    page << "<table><tr><th>module</th><th>score</th><th>status</th></tr>\n";
    for (const auto& module : learner.modules)
      page << fmt::format("<tr><td>{}</td><td>{}/{}</td><td>{}</td></tr>\n", html_escape(module.number), module.earned, module.possible,
                          html_escape(module.status));
    page << "</table>\n";
    for (const auto& module : learner.modules) {
      if (module.earned == module.possible || !learner.graded) continue;
      page << "<h2>Module " << html_escape(module.number) << ": " << html_escape(module.status) << "</h2>\n";
      if (!module.note.empty()) page << "<pre>" << html_escape(module.note) << "</pre>\n";
      page << "<table><tr><th>failing test</th><th>points</th><th>status</th><th>message</th></tr>\n";
      for (const auto& c : module.cases)
        if (c.earned < c.points || c.status != "passed")
          page << fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td><pre>{}</pre></td></tr>\n", html_escape(c.name), c.points,
                              html_escape(c.status), html_escape(c.message));
      page << "</table>\n";
    }
    page << "</body></html>\n";
    write_file_atomically(dir / "learners" / pages[i], page.str());
  }
}

namespace {

// A module's or a case's grading state as the learner reads it (grades.json keeps the English word).
std::string status_for_learner(const std::string& status) {
  // TRANSLATORS: the state of a graded module or test case, in the feedback a learner reads on Gradescope.
  if (status == "passed") return tr("passed");
  if (status == "failed") return tr("failed");
  if (status == "graded") return tr("graded");
  if (status == "not graded") return tr("not graded");
  if (status == "not submitted") return tr("not submitted");
  if (status == "not implemented") return tr("not implemented");
  if (status == "build failed") return tr("build failed");
  if (status == "refused") return tr("refused");
  if (status == "error") return tr("error");
  if (status == "crashed") return tr("crashed");
  if (status == "timed out") return tr("timed out");
  if (status == "out of memory") return tr("out of memory");
  if (status == "not run") return tr("not run");
  if (status == "not verified") return tr("not verified");
  return status;
}

// A module's note as the learner reads it: grading's fixed notes translated, anything else (a compiler's
// complaint, a reason naming files) as it is.
std::string note_for_learner(const std::string& note) {
  if (note == "no files for this module") return tr("no files for this module");
  if (note == "the starter files are unchanged") return tr("the starter files are unchanged");
  if (note == "the code did not compile") return tr("the code did not compile");
  return note;
}

}  // namespace

void write_gradescope_results(const GradingRun& raw, const fs::path& file) {
  const GradingRun run = reportable(raw);
  json results;
  json tests = json::array();
  if (run.learners.empty()) throw UserError("there is no submission to report to Gradescope", "tito grade SUBMISSION --gradescope FILE");
  const LearnerGrade& learner = run.learners.front();
  // Gradescope shows this file to the learner: it speaks the learner's language (their workspace's
  // `tito config language`), whatever the instructor's. Machine fields ("status") stay as they are.
  const ScopedMessageLanguage learners_language(learner.language);
  std::string output;
  if (!learner.graded) output = trf("Your submission could not be graded: {}", learner.reason) + "\n";
  for (const auto& flag : learner.flags) output += trf("Note: {}", flag) + "\n";
  for (const auto& module : learner.modules) {
    std::string title = module.number;
    for (const auto& info : run.modules)
      if (info.number == module.number) title += " " + std::string(tr_curriculum(info.title));
    output += trf("Module {}: {}/{} ({})", title, module.earned, module.possible, status_for_learner(module.status)) + "\n";
    if (!module.note.empty()) output += note_for_learner(module.note) + "\n";
    if (!learner.graded) continue;
    int index = 0;
    for (const auto& c : module.cases) {
      ++index;
      tests.push_back({{"name", title + ": " + c.name}, {"number", fmt::format("{}.{}", module.number, index)},
                       {"score", c.earned}, {"max_score", c.points}, {"status", c.earned == c.points && c.status == "passed" ? "passed" : "failed"},
                       {"output", c.status == "passed" ? std::string()
                                                       : status_for_learner(c.status) + (c.message.empty() ? "" : ": " + c.message)},
                       {"visibility", "visible"}});
    }
  }
  results["score"] = learner.earned();
  results["max_score"] = learner.possible();
  results["execution_time"] = static_cast<int>(std::lround(run.seconds));
  results["output"] = output;
  results["visibility"] = "visible";
  results["stdout_visibility"] = "visible";
  results["tests"] = tests;
  if (file.has_parent_path()) fs::create_directories(file.parent_path());
  write_file_atomically(file, results.dump(1) + "\n");
}

}  // namespace tito
