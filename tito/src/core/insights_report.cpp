// The insights report (insights.h) in the instructor's formats. The content is laid out once, as
// sections of paragraphs, tables and charts, and then written as Markdown and as HTML from that
// layout, so the two always say the same; the CSV files hold the numbers behind them.
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "core/clock.h"
#include "core/files.h"
#include "core/insights.h"
#include "core/report_format.h"

namespace tito {
namespace fs = std::filesystem;

namespace {

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

struct Chart {
  std::string title;
  std::string svg;
};

struct Section {
  std::string title;
  std::vector<std::string> paragraphs;
  std::vector<Table> tables;
  std::vector<Chart> charts;  // HTML only; the Markdown has the numbers in its tables
};

std::string number(double value, int decimals = 1) {
  if (!std::isfinite(value)) return value > 0 ? "inf" : value < 0 ? "-inf" : "n/a";
  return fmt::format("{:.{}f}", value, decimals);
}

std::string percent(double fraction) { return fmt::format("{:.0f}%", 100 * fraction); }

std::string median_iqr(const Distribution& distribution, int decimals = 0) {
  if (distribution.values.empty()) return "-";
  return fmt::format("{} ({} to {})", number(distribution.median(), decimals), number(distribution.quantile(0.25), decimals),
                     number(distribution.quantile(0.75), decimals));
}

std::string p_value_text(double p) { return p < 0.001 ? "< 0.001" : number(p, 3); }

std::string paired_text(const PairedTest& test) {
  if (test.n == 0) return "-";
  if (!test.computed()) return fmt::format("n = 1: {} to {}", percent(test.mean_pre), percent(test.mean_post));
  return fmt::format("n = {}: {} to {}, gain {:+.0f} points (95% CI {:+.0f} to {:+.0f}), p {}", test.n, percent(test.mean_pre),
                     percent(test.mean_post), 100 * test.mean_gain, 100 * test.ci_low, 100 * test.ci_high,
                     p_value_text(test.p_value));
}

std::string describe_minutes(double minutes) {
  return minutes < 90 ? fmt::format("{:.0f} min", minutes) : fmt::format("{:.1f} h", minutes / 60);
}

// Counts per bin; the last bin is open-ended.
Chart histogram(const std::string& title, const Distribution& distribution, const std::vector<double>& edges,
                const std::vector<std::string>& labels, const std::string& axis) {
  std::vector<ChartBar> bars;
  for (std::size_t bin = 0; bin < labels.size(); ++bin) {
    const double low = edges[bin], high = bin + 1 < edges.size() ? edges[bin + 1] : INFINITY;
    int count = 0;
    for (double value : distribution.values) count += value >= low && value < high ? 1 : 0;
    bars.push_back({labels[bin], static_cast<double>(count),
                    fmt::format("{} {}: {} learner{}", labels[bin], axis, count, count == 1 ? "" : "s"),
                    count ? std::to_string(count) : ""});
  }
  return {title, bar_chart_svg(bars, title, axis)};
}

std::vector<Section> layout(const ClassInsights& insights) {
  std::vector<Section> sections;

  Section overview{"Overview", {}, {}, {}};
  overview.paragraphs.push_back(fmt::format(
      "{} submission{} in {}, {} with a learning journal. Generated {}.", insights.learners, insights.learners == 1 ? "" : "s",
      insights.class_dir, insights.with_journal, insights.generated_at));
  overview.paragraphs.push_back(
      "Read these numbers as a description of this class, not as evidence that the course works: there is no control "
      "group, learners chose when to take the checks and how to work, and time on task only counts the time between "
      "tito commands (pauses over 30 minutes left out), so it is a lower bound. INSTRUCTOR.md (\"Learning insights\") "
      "says more.");
  overview.paragraphs.push_back(
      "Minutes, test runs and hours to the first full pass leave out learners who completed the module on the reference "
      "solution (tito module start NN --reference): their pass says nothing about how long the module takes to learn.");
  Table modules{{"Module", "Started", "Full pass", "Completed (own / reference)", "Active minutes to pass, median (IQR)",
                 "Test runs to pass, median (IQR)", "Hours from start to pass, median", "Used hints"},
                {}};
  for (const auto& module : insights.modules)
    modules.rows.push_back({module.number + " " + module.title, std::to_string(module.started), std::to_string(module.passed),
                            fmt::format("{} / {}", module.completed_own, module.completed_reference),
                            median_iqr(module.active_minutes_to_pass, 1), median_iqr(module.runs_to_pass),
                            module.hours_to_pass.values.empty() ? "-" : number(module.hours_to_pass.median()),
                            std::to_string(module.hint_users)});
  overview.tables.push_back(modules);
  for (const auto& module : insights.modules) {
    if (module.active_minutes_to_pass.values.empty()) continue;
    overview.charts.push_back(histogram(fmt::format("{} {}: active minutes to the first full pass", module.number, module.title),
                                        module.active_minutes_to_pass, {0, 15, 30, 60, 120, 240},
                                        {"<15", "15-30", "30-60", "1-2h", "2-4h", "4h+"}, "minutes"));
    overview.charts.push_back(histogram(fmt::format("{} {}: test runs to the first full pass", module.number, module.title),
                                        module.runs_to_pass, {1, 2, 4, 8, 16, 32}, {"1", "2-3", "4-7", "8-15", "16-31", "32+"},
                                        "test runs"));
  }
  sections.push_back(overview);

  Section checks{"Concept checks before and after each module", {}, {}, {}};
  checks.paragraphs.push_back(
      "Learners who took a module's check before it (pre) and after completing it (post): the fraction right, and the "
      "paired t-test of post minus pre (two-sided, 95% confidence interval of the mean gain in percentage points). The "
      "pre-check's answers are not explained, so the post-check does not repeat a lesson the pre-check gave.");
  checks.paragraphs.push_back("Across modules (each learner's mean gain counted once): " + paired_text(insights.overall_checks));
  Table per_module{{"Module", "Pre to post"}, {}};
  for (const auto& module : insights.modules)
    if (module.concept_checks.n > 0) per_module.rows.push_back({module.number + " " + module.title, paired_text(module.concept_checks)});
  checks.tables.push_back(per_module);
  Table questions{{"Module", "Question", "Concept", "Missed after the module", "Lesson section"}, {}};
  for (const auto& module : insights.modules)
    for (std::size_t i = 0; i < module.missed_questions.size() && i < 3; ++i) {
      const auto& question = module.missed_questions[i];
      questions.rows.push_back({module.number, question.id, question.concept, fmt::format("{} of {}", question.missed, question.asked),
                                question.lesson});
    }
  if (!questions.rows.empty()) checks.tables.push_back(questions);
  sections.push_back(checks);

  Section misconceptions{"Misconceptions: the cases that fail first", {}, {}, {}};
  misconceptions.paragraphs.push_back(
      "For each learner and module, the cases that gave a wrong answer (not \"not implemented\") in the first test run "
      "that had any: where the learner's idea of the task first met the tests. The lesson section is the one that "
      "teaches what the case checks.");
  Table cases{{"Module", "Case", "Learners", "Lesson section"}, {}};
  for (const auto& module : insights.modules)
    for (std::size_t i = 0; i < module.first_failures.size() && i < 5; ++i) {
      const auto& entry = module.first_failures[i];
      cases.rows.push_back({module.number, entry.name,
                            fmt::format("{} of {}", entry.learners, module.started), entry.lesson.empty() ? "-" : entry.lesson});
    }
  misconceptions.tables.push_back(cases);
  sections.push_back(misconceptions);

  Section hints{"Hint use by level", {}, {}, {}};
  hints.paragraphs.push_back("Learners by the deepest hint level they revealed on any case of the module (level 1 is a "
                             "nudge; the last level of a case is the most detailed).");
  Table levels{{"Module", "Used hints", "Deepest level 1", "2", "3", "4 or more"}, {}};
  for (const auto& module : insights.modules) {
    if (module.hint_users == 0) continue;
    auto at = [&](int level) {
      auto found = module.learners_by_deepest_hint.find(level);
      return found == module.learners_by_deepest_hint.end() ? 0 : found->second;
    };
    int deeper = 0;
    for (const auto& [level, count] : module.learners_by_deepest_hint) deeper += level >= 4 ? count : 0;
    levels.rows.push_back({module.number + " " + module.title, std::to_string(module.hint_users), std::to_string(at(1)),
                           std::to_string(at(2)), std::to_string(at(3)), std::to_string(deeper)});
  }
  hints.tables.push_back(levels);
  sections.push_back(hints);

  Section milestones{"Milestones", {}, {}, {}};
  Table outcomes{{"Milestone", "Learners who ran it", "Part", "Passed by", "Best value measured, median (IQR)"}, {}};
  for (const auto& milestone : insights.milestones)
    for (const auto& [part, values] : milestone.best_values) {
      auto passed = milestone.passed_part.find(part);
      auto metric = milestone.metric.find(part);
      outcomes.rows.push_back({milestone.id, std::to_string(milestone.attempted), std::to_string(part),
                               std::to_string(passed == milestone.passed_part.end() ? 0 : passed->second),
                               median_iqr(values, 3) + (metric == milestone.metric.end() ? "" : " " + metric->second)});
    }
  milestones.tables.push_back(outcomes);
  sections.push_back(milestones);

  Section stuck{"Learners who look stuck", {}, {}, {}};
  stuck.paragraphs.push_back("Started, no full pass yet, and many test runs or hours on the module: worth a conversation.");
  Table rows{{"Learner", "Module", "Test runs", "Time on task", "Last activity (UTC)", "First wrong answers"}, {}};
  for (const auto& entry : insights.stuck) {
    std::string failures;
    for (const auto& name : entry.first_failures) failures += (failures.empty() ? "" : "; ") + name;
    rows.rows.push_back({entry.learner, entry.module, std::to_string(entry.test_runs), describe_minutes(entry.active_seconds / 60),
                         entry.last_activity ? format_local_time(*entry.last_activity) : "-", failures.empty() ? "-" : failures});
  }
  stuck.tables.push_back(rows);
  sections.push_back(stuck);

  Section problems{"Journals that could not be read in full", {}, {}, {}};
  Table list{{"Learner", "Problem"}, {}};
  for (const auto& [learner, problem] : insights.journal_problems) list.rows.push_back({learner, problem});
  problems.tables.push_back(list);
  sections.push_back(problems);
  return sections;
}

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else if (c == '<') out += "&lt;";
    else out += c;
  }
  return out;
}

std::string to_markdown(const std::vector<Section>& sections) {
  std::ostringstream out;
  out << "# Learning insights\n";
  for (const auto& section : sections) {
    out << "\n## " << section.title << "\n";
    for (const auto& paragraph : section.paragraphs) out << "\n" << markdown_cell(paragraph) << "\n";
    for (const auto& table : section.tables) {
      out << "\n";
      if (table.rows.empty()) {
        out << "(none)\n";
        continue;
      }
      out << "|";
      for (const auto& cell : table.header) out << " " << markdown_cell(cell) << " |";
      out << "\n|";
      for (std::size_t i = 0; i < table.header.size(); ++i) out << "---|";
      out << "\n";
      for (const auto& row : table.rows) {
        out << "|";
        for (const auto& cell : row) out << " " << markdown_cell(cell) << " |";
        out << "\n";
      }
    }
  }
  return out.str();
}

std::string to_html(const std::vector<Section>& sections) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Learning insights</title>" << kReportStyle
      << "</head><body>\n<h1>Learning insights</h1>\n";
  for (const auto& section : sections) {
    out << "<h2>" << html_escape(section.title) << "</h2>\n";
    for (const auto& paragraph : section.paragraphs) out << "<p class=\"note\">" << html_escape(paragraph) << "</p>\n";
    for (const auto& table : section.tables) {
      if (table.rows.empty()) {
        out << "<p>(none)</p>\n";
        continue;
      }
      out << "<table><thead><tr>";
      for (const auto& cell : table.header) out << "<th>" << html_escape(cell) << "</th>";
      out << "</tr></thead><tbody>\n";
      for (const auto& row : table.rows) {
        out << "<tr>";
        for (const auto& cell : row) out << "<td>" << html_escape(cell) << "</td>";
        out << "</tr>\n";
      }
      out << "</tbody></table>\n";
    }
    if (!section.charts.empty()) {
      out << "<div class=\"charts\">\n";
      for (const auto& chart : section.charts)
        out << "<div class=\"chart\"><b>" << html_escape(chart.title) << "</b><br>" << chart.svg << "</div>\n";
      out << "</div>\n";
    }
  }
  out << "</body></html>\n";
  return out.str();
}

std::string csv_line(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + csv_field(cells[i]);
  return line + "\n";
}

std::string optional_number(const std::optional<double>& value, int decimals = 1) {
  return value ? number(*value, decimals) : "";
}

std::string modules_csv(const ClassInsights& insights) {
  std::string out = csv_line({"module", "title", "started", "full_pass", "completed_own", "completed_reference",
                              "active_minutes_to_pass_median", "test_runs_to_pass_median", "hours_to_pass_median",
                              "hint_users", "checks_n", "checks_pre", "checks_post", "checks_gain", "checks_ci_low",
                              "checks_ci_high", "checks_p"});
  for (const auto& module : insights.modules) {
    auto median = [](const Distribution& d) { return d.values.empty() ? std::optional<double>() : d.median(); };
    const PairedTest& test = module.concept_checks;
    const bool tested = test.computed();
    out += csv_line({module.number, module.title, std::to_string(module.started), std::to_string(module.passed),
                     std::to_string(module.completed_own), std::to_string(module.completed_reference),
                     optional_number(median(module.active_minutes_to_pass)), optional_number(median(module.runs_to_pass)),
                     optional_number(median(module.hours_to_pass), 2), std::to_string(module.hint_users), std::to_string(test.n),
                     test.n ? number(test.mean_pre, 3) : "", test.n ? number(test.mean_post, 3) : "",
                     test.n ? number(test.mean_gain, 3) : "", tested ? number(test.ci_low, 3) : "",
                     tested ? number(test.ci_high, 3) : "", tested ? number(test.p_value, 4) : ""});
  }
  return out;
}

std::string learners_csv(const std::vector<LearnerJournal>& journals) {
  std::string out = csv_line({"learner", "module", "started", "first_full_pass", "completed", "origin", "test_runs",
                              "test_runs_to_pass", "active_minutes", "active_minutes_to_pass", "hint_cases",
                              "deepest_hint", "pre_score", "pre_total", "post_score", "post_total", "journal_problem"});
  for (const auto& journal : journals) {
    if (!journal.problem.empty()) {
      out += csv_line({journal.id, "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", journal.problem});
      continue;
    }
    for (const auto& [number_text, record] : journal.summary.modules) {
      auto when = [](const std::optional<TimePoint>& at) { return at ? format_local_time(*at) : ""; };
      int deepest = 0;
      for (const auto& entry : record.hint_levels) deepest = std::max(deepest, entry.second);
      out += csv_line({journal.id, number_text, when(record.started), when(record.first_pass), when(record.completed), record.origin,
                       std::to_string(record.test_runs), record.first_pass ? std::to_string(record.test_runs_to_pass) : "",
                       number(record.active_seconds / 60), record.first_pass ? number(record.active_seconds_to_pass / 60) : "",
                       std::to_string(record.hint_levels.size()), std::to_string(deepest),
                       record.pre ? std::to_string(record.pre->score) : "", record.pre ? std::to_string(record.pre->total) : "",
                       record.post ? std::to_string(record.post->score) : "", record.post ? std::to_string(record.post->total) : "",
                       ""});
    }
  }
  return out;
}

}  // namespace

std::vector<fs::path> write_insights(const ClassInsights& insights, const std::vector<LearnerJournal>& journals,
                                     const fs::path& dir) {
  fs::create_directories(dir);
  const auto sections = layout(insights);
  const std::vector<std::pair<fs::path, std::string>> files = {
      {dir / "insights.md", to_markdown(sections)},
      {dir / "insights.html", to_html(sections)},
      {dir / "insights-modules.csv", modules_csv(insights)},
      {dir / "insights-learners.csv", learners_csv(journals)},
  };
  std::vector<fs::path> written;
  for (const auto& [path, content] : files) {
    write_file_atomically(path, content);
    written.push_back(path);
  }
  return written;
}

}  // namespace tito
