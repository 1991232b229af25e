#pragma once
// The knockout study (`tito instructor knockout`): do the milestones fail on broken modules? Each
// milestone part is built on the reference code with ONE module replaced by one of its known-wrong
// variants (variants.h, the same ones `tito instructor validate` runs against the module tests), run
// exactly as `tito milestone run` runs it, and judged by its gates. A variant that leaves every gate
// passing is a finding: the milestone would credit that broken module, so its gates need a probe.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/curriculum.h"
#include "core/installation.h"
#include "core/milestone.h"
#include "run/module_test_runner.h"

namespace tito {

struct KnockoutOptions {
  std::vector<std::string> milestones;  // ids; empty: every implemented milestone
  int part = 0;                         // 0: every required part (optional ones need datasets and minutes)
  std::vector<std::string> modules;     // only the variants of these modules; empty: every module a part uses
  std::vector<std::string> variants;    // only variants with these names; empty: all
  int jobs = 1;                         // runs at a time (each is a training run: keep it at the core count)
  // A variant's run is stopped after this multiple of the reference's run time (at least a minute, at
  // most the part's own limit): a mistake that makes training crawl would otherwise hold the study up.
  double slowdown_limit = 5;
  std::filesystem::path scratch_dir;
};

enum class KnockoutOutcome {
  Caught,      // a gate failed, or the program did not finish (crash, error exit): the learner sees a failure
  NotCaught,   // every gate passed, and the measurements differ from the reference's: a finding
  NoEffect,    // every measurement (timings aside) equals the reference's: the part never reaches the mistake
  Slow,        // stopped at slowdown_limit times the reference's time: the verdict is unknown
  NotBuilt,    // the variant did not compile or apply: the variant needs fixing, not the milestone
  Reference,   // the baseline row: the reference itself (it must pass)
};

struct KnockoutRun {
  std::string milestone;  // "04"
  int part = 0;
  std::string module;     // "09"; empty for the reference row
  std::string variant;    // its name; empty for the reference row
  KnockoutOutcome outcome = KnockoutOutcome::NotBuilt;
  PartVerdict verdict;
  std::string problem;    // why it did not build, or did not finish
  std::vector<ResultLine> results;  // what the program reported
  double seconds = 0;     // build + run
};

using KnockoutProgress = std::function<void(const KnockoutRun& finished)>;

// Runs the study. Throws UserError for an unknown milestone, part, module or variant name.
std::vector<KnockoutRun> run_knockout(const Installation& installation, const Curriculum& curriculum,
                                      const Toolchain& toolchain, const std::vector<Milestone>& milestones,
                                      const KnockoutOptions& options, const KnockoutProgress& progress = {});

// Whether a reported metric is a time or derived from times (training_seconds, tokens_per_second,
// kv_cache_speedup, int8_welch_p_value...): it differs between any two runs, so it cannot tell whether a
// variant changed what the part computes.
bool measures_time(const std::string& metric);

// One line per run, grouped by milestone part: "04/1  09 forward-ignores-stride   accuracy, min_conv_weight_change",
// then the counts. `what_failed` is the cell: the gates missed, "crash: ...", "PASSES EVERY GATE", ...
std::string what_failed(const KnockoutRun& run);
std::string knockout_table(const std::vector<KnockoutRun>& runs);

}  // namespace tito
