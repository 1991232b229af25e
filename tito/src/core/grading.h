#pragma once
// Grading a class: every learner's workspace (a folder or a tarball of one) is rebuilt module by
// module with the instructor's own tests, run in the sandbox and scored by points. Learners are
// graded in parallel; each (learner, module) result is cached by content hash under the output
// folder, so a rerun only rebuilds what changed. Reports are written by grade_reports.h.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/curriculum.h"
#include "core/installation.h"
#include "run/module_test_runner.h"

namespace tito {

struct CaseGrade {
  std::string name;
  int points = 0;   // what the case is worth
  int earned = 0;   // points, or 0
  std::string status;   // "passed", "failed", "not implemented", "crashed", "timed out", ...
  std::string message;  // why it failed, in a line or a few
  double duration_ms = 0;
};

struct ModuleGrade {
  std::string number;
  std::string status;  // "graded", "not submitted", "build failed", "error"
  std::string note;    // e.g. the start of the compiler's complaint, or which files were missing
  int earned = 0;
  int possible = 0;
  bool cached = false;  // reused from an earlier run
  double seconds = 0;   // build + run
  std::vector<CaseGrade> cases;
  // The learner's flags this module's build and run raised (kept with a cached result, so that a
  // re-grade reports them again).
  std::vector<std::string> flags;
};

struct LearnerGrade {
  std::string id;          // the learner, from the folder or archive name
  std::string submission;  // that folder or archive's name inside the submissions folder
  bool graded = false;     // false: the submission was rejected (reason says why) and scores 0
  std::string reason;
  std::vector<std::string> flags;  // things an instructor should look at (differing tests, extra files, ...)
  std::vector<ModuleGrade> modules;
  // The language the learner chose in the workspace (`tito config language`, .tito/config.json): "en",
  // "es", "zh", or "" when none. Feedback written for the learner (Gradescope's results.json) uses it;
  // the instructor's reports use the instructor's own.
  std::string language;
  int earned() const;
  int possible() const;
};

struct GradedModule {
  std::string number, title;
  int points = 0;
};

struct GradingRun {
  std::string mode;  // "reference-prerequisites" (default) or "cumulative"
  std::vector<GradedModule> modules;
  std::vector<LearnerGrade> learners;  // sorted by id
  double seconds = 0;
  int cached_modules = 0;    // (learner, module) results reused from the cache
  int rebuilt_modules = 0;
  bool writes_confined = false;  // whether the sandbox could make everything but scratch read-only
};

// Learner-made text (ids, names, flags, compiler messages, test output) with invalid UTF-8 escaped
// (escape_invalid_utf8), so that no report can fail on it. grade_submissions applies it to every grade.
void make_reportable(ModuleGrade& grade);
void make_reportable(LearnerGrade& grade);

// One entry of the submissions folder.
struct Submission {
  std::string id;      // learner id
  std::string name;    // file or folder name
  std::filesystem::path path;
  bool archive = false;
};

// Every folder and .tar/.tar.gz/.tgz archive in `dir` (hidden entries skipped); anything else is
// returned too, so that it gets a row saying why it was not graded.
std::vector<Submission> list_submissions(const std::filesystem::path& dir);
// Where a submission's workspace is: the folder itself, or the one folder inside it (or inside a
// folder inside it) that is one; never through a link. `problem` says why when there is none.
struct FoundWorkspace {
  std::optional<std::filesystem::path> root;
  std::string problem;
};
FoundWorkspace find_workspace(const std::filesystem::path& submission);

// The workspace of a submission, as grading and `tito instructor insights` read it: never through a
// link; an archive is unpacked with extract_archive_safely into `unpack_dir` (replaced). `problem` says
// why there is none ("archive rejected: ...", "the submission is a symbolic link; ...").
FoundWorkspace open_submission(const Submission& submission, const std::filesystem::path& unpack_dir);

// A learner's copy of a file: a regular file (never a link) of at most `max_bytes`; nullopt when it
// is absent, or with `problem` set ("is not a regular file ...") when it is refused.
std::optional<std::string> learner_copy(const std::filesystem::path& file, std::string& problem,
                                        std::uintmax_t max_bytes = 1u << 20);

// A single learner's submission (for --gradescope): a workspace folder or an archive.
Submission single_submission(const std::filesystem::path& path);

struct GradingOptions {
  std::filesystem::path out_dir;     // reports, cache and scratch go here
  bool cumulative = false;           // grade module N on the learner's own modules before N
  int jobs = 1;                      // learners graded at once
  std::vector<std::string> modules;  // empty: every available module with learner files and tests
  double time_limit_s = 0;           // > 0: overrides the modules' own limits (per run of a test binary)
  double compile_time_limit_s = 0;   // > 0: overrides kDefaultCompileTimeLimitS (one module's build)
  // Every grading run draws a new secret seed (kept in <out_dir>/cache/grading_seed) and so computes
  // every result again on new inputs; keep_seed reuses the kept one instead (a re-grade that changed
  // nothing then reuses every result).
  bool keep_seed = false;
  // One line per event ("alice: module 03 built"), and how many learners are done out of how many.
  std::function<void(const std::string& learner, const std::string& what, int done, int total)> progress;
};

// The modules `options.modules` names (or every gradable one), in curriculum order. Throws UserError.
std::vector<const ModuleInfo*> modules_to_grade(const Curriculum& curriculum, const std::vector<std::string>& requested);

GradingRun grade_submissions(const Installation& installation, const Curriculum& curriculum, const Toolchain& toolchain,
                             const std::vector<Submission>& submissions, const GradingOptions& options);

}  // namespace tito
