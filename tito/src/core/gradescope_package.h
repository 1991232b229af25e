#pragma once
// `tito instructor gradescope --out autograder.zip`: Gradescope's autograder, ready to upload. The zip
// holds, at its root, `setup.sh` (Gradescope runs it once as root: Debian packages through
// scripts/setup, a Release build of tito, an unprivileged grading user) and `run_autograder` (run per
// submission: `tito grade /autograder/submission --gradescope /autograder/results/results.json` as
// that user), and the instructor's repository under `tinytorch/` (the files a release is made from,
// solutions included: the grader builds the reference for the modules a learner is not graded on).
// Zipped with Debian's `zip`.
#include <filesystem>
#include <string>
#include <vector>

#include "core/installation.h"

namespace tito {

struct GradescopeOptions {
  std::filesystem::path out_zip;
  std::string modules;       // passed to `tito grade --modules` ("" = every available module)
  bool cumulative = false;   // `tito grade --cumulative`
  double time_limit_s = 0;   // `tito grade --time-limit` when > 0
};

struct GradescopePackage {
  std::filesystem::path zip;
  int repository_files = 0;
};

// The two scripts, as written into the zip (exposed for tests and for instructors who read them).
std::string gradescope_setup_script();
std::string gradescope_run_script(const GradescopeOptions& options);

// Throws UserError when `zip` is missing or the output cannot be written.
GradescopePackage write_gradescope_package(const Installation& installation, const GradescopeOptions& options);

}  // namespace tito
