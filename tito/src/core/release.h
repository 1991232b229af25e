#pragma once
// `tito instructor release OUT_DIR`: the student distribution of this repository. Every learner
// file (any module's learner_files in curriculum.json) is replaced by its generated starter; tests,
// lessons, hints and everything else are copied as they are; the git history is not copied. The
// result is then scanned for solution text left behind and its learner files are compiled.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/curriculum.h"
#include "core/installation.h"
#include "run/module_test_runner.h"

namespace tito {

struct ReleaseOptions {
  std::filesystem::path out_dir;  // must not exist or be empty, and must lie outside the repository
  bool compile_check = true;      // compile every released learner file against the released headers
  bool full_build = false;        // also configure and build the released tree's framework with CMake
  int jobs = 2;
};

struct ReleaseResult {
  int files_written = 0;
  int starters_written = 0;
  int regions_stripped = 0;
  std::vector<std::string> withheld;       // instructor-only files left out (curriculum.json "instructor_only")
  std::vector<std::string> leaks;          // "path:line: text" of solution text found in the release
  std::vector<std::string> leftover_markers;  // "path:line" of SOLUTION markers outside tests/
  bool compiled = false;                   // the compile check ran and passed
  std::string build_log;                   // when a check failed
  bool ok() const { return leaks.empty() && leftover_markers.empty() && build_log.empty(); }
};

// The repository's files as a copy of it should hold them (relative paths): tracked and
// untracked-but-not-ignored files in a git checkout, else every file outside build*/, .git and workspaces.
std::vector<std::string> repository_files(const std::filesystem::path& source_dir);

// Lines of solution code that appear in no other source file: what the leak scan looks for (a lesson
// or hint quoting one is a leak; given code sharing a line is not).
// Lines shorter than `min_chars` (after trimming) are too generic to mean anything.
std::vector<std::string> distinctive_solution_lines(const std::vector<std::string>& learner_sources,
                                                    const std::vector<std::string>& other_sources, std::size_t min_chars = 24);

ReleaseResult write_release(const Installation& installation, const Curriculum& curriculum, const Toolchain& toolchain,
                            const ReleaseOptions& options, const std::function<void(const std::string&)>& progress = {});

}  // namespace tito
