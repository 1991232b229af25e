#include "core/gradescope_package.h"

#include <cstdlib>
#include <unistd.h>

#include <fmt/format.h>

#include "build/captured_command.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/release.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

std::string shell_quoted(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,") ==
                           std::string::npos)
    return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// Removes the staging folder however the packaging ends.
struct StagingDir {
  fs::path path;
  explicit StagingDir(const fs::path& near) {
    std::string pattern = (near / ".tito-gradescope-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
      throw UserError("cannot create a staging folder in " + near.string(), "choose an --out in a folder you can write to");
    path = pattern;
  }
  ~StagingDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

constexpr const char* kSetupScript = R"SH(#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image (written by
# `tito instructor gradescope`). It installs the Debian packages TinyTorch needs (scripts/setup skips
# those already installed), builds tito and the framework in Release, and adds the unprivileged user
# that runs learner code. To try the zip outside Gradescope:
#   AUTOGRADER_ROOT=DIR            stands for /autograder
#   TITO_AUTOGRADER_BUILD_DIR=DIR  an existing build of this same tree, used instead of building
#   TITO_AUTOGRADER_USER=          (empty) grade as the calling user instead of tito-grader
set -euo pipefail
root=${AUTOGRADER_ROOT:-/autograder}
source_dir=$root/source/tinytorch
build_dir=${TITO_AUTOGRADER_BUILD_DIR:-$root/source/build}
user=${TITO_AUTOGRADER_USER-tito-grader}

bash "$source_dir/scripts/setup" --packages-only
if [[ -n ${TITO_AUTOGRADER_BUILD_DIR:-} && -x $build_dir/bin/tito && -f $build_dir/tito/toolchain.json ]]; then
  echo "--- using the existing build in $build_dir"
else
  TINYTORCH_BUILD_DIR=$build_dir bash "$source_dir/scripts/setup" --build-only --target tito
fi
if [[ -n $user && $(id -u) == 0 ]]; then
  id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
  chmod -R a+rX "$root/source"  # the grading user reads the tree and the build; it writes nothing there
fi
{
  printf 'TITO_HOME=%q\n' "$source_dir"
  printf 'TITO_BUILD_DIR=%q\n' "$build_dir"
  printf 'TITO_AUTOGRADER_USER=%q\n' "$user"
} > "$root/source/tito-autograder.env"
echo "--- the autograder is ready (learner code will run as ${user:-$(id -un)})"
)SH";

constexpr const char* kRunScript = R"SH(#!/usr/bin/env bash
# Gradescope runs this for each submission (written by `tito instructor gradescope`): tito grades
# /autograder/submission and writes /autograder/results/results.json. Learner code runs as the
# unprivileged user setup.sh made, on a copy of the submission; only results.json comes back.
set -uo pipefail
root=${AUTOGRADER_ROOT:-/autograder}
source "$root/source/tito-autograder.env"
export TITO_HOME TITO_BUILD_DIR CI=1 NO_COLOR=1
mkdir -p "$root/results"
work=$(mktemp -d "${TMPDIR:-/tmp}/tito-autograder-XXXXXX")
cp -R "$root/submission" "$work/submission"  # links stay links: tito refuses them
mkdir -p "$work/results"
as_grader=()
if [[ $(id -u) == 0 && -n $TITO_AUTOGRADER_USER ]]; then
  chown -R "$TITO_AUTOGRADER_USER:" "$work"
  as_grader=(runuser -u "$TITO_AUTOGRADER_USER" --)
fi
status=0
${as_grader[@]+"${as_grader[@]}"} "$TITO_BUILD_DIR/bin/tito" grade "$work/submission" \
  --gradescope "$work/results/results.json" --out "$work/grading" @GRADE_OPTIONS@ || status=$?
if [[ -s $work/results/results.json ]]; then
  cp "$work/results/results.json" "$root/results/results.json"
else
  printf '{"score": 0, "output": "The autograder could not grade this submission (tito exited with %s); please tell your instructor.", "visibility": "visible", "tests": []}\n' \
    "$status" > "$root/results/results.json"
fi
rm -rf "$work"
)SH";

}  // namespace

std::string gradescope_setup_script() { return kSetupScript; }

std::string gradescope_run_script(const GradescopeOptions& options) {
  std::string grade_options;
  if (!options.modules.empty()) grade_options += "--modules " + shell_quoted(options.modules);
  if (options.cumulative) grade_options += std::string(grade_options.empty() ? "" : " ") + "--cumulative";
  if (options.time_limit_s > 0)
    grade_options += std::string(grade_options.empty() ? "" : " ") + fmt::format("--time-limit {}", options.time_limit_s);
  std::string script = kRunScript;
  const std::string placeholder = "@GRADE_OPTIONS@";
  script.replace(script.find(placeholder), placeholder.size(), grade_options);
  return script;
}

GradescopePackage write_gradescope_package(const Installation& installation, const GradescopeOptions& options) {
  const std::string zip = find_executable("zip");
  if (zip.empty())
    throw UserError("Debian's zip is not installed; tito uses it to write the autograder zip",
                    "sudo apt-get install zip   (then run tito instructor gradescope again)");
  const fs::path out = fs::absolute(options.out_zip).lexically_normal();
  if (out.extension() != ".zip")
    throw UserError(fmt::format("{} does not end in .zip; Gradescope takes a zip file", out.string()),
                    "tito instructor gradescope --out autograder.zip");
  const fs::path source_dir = installation.source_dir;
  const auto inside = out.lexically_relative(source_dir);
  if (!inside.empty() && *inside.begin() != "..")
    throw UserError(fmt::format("{} lies inside the repository {}, which the zip copies", out.string(), source_dir.string()),
                    "write it outside the repository, e.g. tito instructor gradescope --out ../autograder.zip");
  fs::create_directories(out.parent_path());
  StagingDir staging(out.parent_path());

  GradescopePackage package;
  package.zip = out;
  std::error_code error;
  for (const auto& relative : repository_files(source_dir)) {
    const fs::path from = source_dir / relative;
    if (!fs::is_regular_file(fs::symlink_status(from, error))) continue;  // links and deleted files stay behind
    const fs::path to = staging.path / "tinytorch" / relative;
    fs::create_directories(to.parent_path());
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);  // keeps the permissions (scripts stay executable)
    ++package.repository_files;
  }
  const auto executable = fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                          fs::perms::others_exec;
  write_file_atomically(staging.path / "setup.sh", gradescope_setup_script());
  write_file_atomically(staging.path / "run_autograder", gradescope_run_script(options));
  fs::permissions(staging.path / "setup.sh", executable);
  fs::permissions(staging.path / "run_autograder", executable);

  fs::remove(out, error);
  std::string log;
  // -X: no extra file attributes (owners, times in UTC fields), so the zip depends on the files only.
  const CommandOutcome outcome = run_captured({zip, "-q", "-r", "-X", out.string(), "setup.sh", "run_autograder", "tinytorch"},
                                              staging.path, [&](const std::string& line) { log += line + "\n"; });
  if (outcome.exit_code != 0)
    throw UserError(fmt::format("zip could not write {}: {}{}", out.string(), log, outcome.error),
                    "check that the folder is writable and has space, then run tito instructor gradescope again");
  return package;
}

}  // namespace tito
