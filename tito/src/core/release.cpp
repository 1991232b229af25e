#include "core/release.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "build/captured_command.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/learner_files.h"
#include "core/starter_generator.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

constexpr std::uintmax_t kMaxScannedBytes = 4u << 20;

std::string trim(const std::string& line) {
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const auto last = line.find_last_not_of(" \t\r");
  return line.substr(first, last - first + 1);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool looks_binary(const std::string& content) {
  return content.find('\0', 0) < std::min<std::size_t>(content.size(), 8192);
}

}  // namespace

// Build folders and the history stay behind.
std::vector<std::string> repository_files(const fs::path& source_dir) {
  std::vector<std::string> files;
  const std::string git = find_executable("git");
  if (!git.empty() && fs::exists(source_dir / ".git")) {
    CommandOutcome outcome = run_captured(
        {git, "-C", source_dir.string(), "-c", "core.quotePath=false", "ls-files", "--cached", "--others", "--exclude-standard"},
        {}, [&](const std::string& line) { files.push_back(line); });
    if (outcome.exit_code == 0) {
      std::sort(files.begin(), files.end());
      files.erase(std::unique(files.begin(), files.end()), files.end());
      return files;
    }
    files.clear();
  }
  std::error_code error;
  fs::recursive_directory_iterator it(source_dir, error), end;
  for (; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(error) && (name == ".git" || name == ".tito" || name.rfind("build", 0) == 0)) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(error)) files.push_back(it->path().lexically_relative(source_dir).string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

namespace {

// The reference text of a learner file with its solution regions cut out (what may legitimately
// appear elsewhere).
std::string without_regions(const std::string& source, const std::vector<SolutionRegion>& regions) {
  const auto lines = lines_of(source);
  std::string kept;
  std::size_t next = 0;
  for (int number = 1; number <= static_cast<int>(lines.size()); ++number) {
    if (next < regions.size() && number >= regions[next].begin_line) {
      if (number == regions[next].end_line) ++next;
      continue;
    }
    kept += lines[number - 1] + "\n";
  }
  return kept;
}

std::string region_text(const std::string& source, const std::vector<SolutionRegion>& regions) {
  const auto lines = lines_of(source);
  std::string text;
  for (const auto& region : regions)
    for (int number = region.begin_line + 1; number < region.end_line; ++number) text += lines[number - 1] + "\n";
  return text;
}

// curriculum.json's "instructor_only" paths: reference code no learner writes or links (module 17's
// instructor extra: SIMD kernels) and what only builds with it. A path ending in '/' is a folder.
std::vector<std::string> instructor_only_paths(const fs::path& source_dir) {
  std::vector<std::string> paths;
  const fs::path file = source_dir / "curriculum" / "curriculum.json";
  try {
    const auto document = nlohmann::json::parse(read_file(file));
    if (document.contains("instructor_only"))
      for (const auto& path : document["instructor_only"].at("paths")) paths.push_back(path.get<std::string>());
  } catch (const std::exception& error) {
    throw UserError(fmt::format("cannot release: {} has an unreadable \"instructor_only\" entry ({})", file.string(),
                                error.what()),
                    "make it {\"paths\": [\"dir/\", \"file\"]} in curriculum/curriculum.json");
  }
  return paths;
}

bool is_instructor_only(const std::string& relative, const std::vector<std::string>& paths) {
  return std::any_of(paths.begin(), paths.end(), [&](const std::string& path) {
    return relative == path || (!path.empty() && path.back() == '/' && relative.rfind(path, 0) == 0);
  });
}

bool is_code(const std::string& relative) {
  const std::string extension = fs::path(relative).extension().string();
  return extension == ".cpp" || extension == ".h" || extension == ".hpp" || extension == ".cc" || extension == ".c";
}

bool has_marker_line(const std::string& line) {
  const std::string trimmed = trim(line);
  if (trimmed.rfind("//", 0) != 0) return false;
  const std::string rest = trim(trimmed.substr(2));
  return rest.rfind("BEGIN SOLUTION", 0) == 0 || rest.rfind("END SOLUTION", 0) == 0;
}

}  // namespace

std::vector<std::string> distinctive_solution_lines(const std::vector<std::string>& learner_sources,
                                                    const std::vector<std::string>& other_sources, std::size_t min_chars) {
  std::unordered_set<std::string> elsewhere;
  for (const auto& source : other_sources)
    for (const auto& line : lines_of(source)) elsewhere.insert(trim(line));
  std::set<std::string> distinctive;
  for (const auto& source : learner_sources)
    for (const auto& line : lines_of(source)) {
      const std::string trimmed = trim(line);
      if (trimmed.size() >= min_chars && !elsewhere.count(trimmed) && trimmed.rfind("//", 0) != 0) distinctive.insert(trimmed);
    }
  return {distinctive.begin(), distinctive.end()};
}

ReleaseResult write_release(const Installation& installation, const Curriculum& curriculum, const Toolchain& toolchain,
                            const ReleaseOptions& options, const std::function<void(const std::string&)>& progress) {
  auto say = [&](const std::string& text) {
    if (progress) progress(text);
  };
  const fs::path source_dir = installation.source_dir;
  const fs::path out = fs::absolute(options.out_dir).lexically_normal();
  std::error_code error;
  if (fs::exists(out, error) && !(fs::is_directory(out, error) && fs::is_empty(out, error)))
    throw UserError(fmt::format("{} already exists and is not empty", out.string()),
                    "choose a new folder: tito instructor release NEW_DIR");
  const auto relative_out = out.lexically_relative(source_dir);
  if (!relative_out.empty() && *relative_out.begin() != "..")
    throw UserError(fmt::format("{} lies inside the repository {}", out.string(), source_dir.string()),
                    "choose a folder outside the repository, e.g. tito instructor release ../tinytorch-student");

  // Every learner file of every module, with its starter.
  std::map<std::string, std::string> starters;  // relative path -> starter text
  std::vector<std::string> solution_texts;
  ReleaseResult result;
  for (const auto& module : curriculum.modules()) {
    for (const auto& relative : module.learner_files) {
      const fs::path file = source_dir / relative;
      if (!fs::is_regular_file(file)) continue;
      const std::string source = read_file(file);
      try {
        const auto regions = scan_solution_regions(source, relative);
        result.regions_stripped += static_cast<int>(regions.size());
        solution_texts.push_back(region_text(source, regions));
      } catch (const MarkerError& marker) {
        throw UserError(fmt::format("cannot release: {}", marker.what()), "tito instructor validate   (and fix the markers)");
      }
    }
    if (module.learner_files.empty()) continue;
    bool all_present = std::all_of(module.learner_files.begin(), module.learner_files.end(),
                                   [&](const std::string& relative) { return fs::is_regular_file(source_dir / relative); });
    if (all_present) {
      const auto files = generate_module_files(installation, module, FileFlavour::Starter);
      for (std::size_t i = 0; i < files.size(); ++i) starters[module.learner_files[i]] = files[i].content;
    } else {
      for (const auto& relative : module.learner_files)
        if (fs::is_regular_file(source_dir / relative))
          starters[relative] = make_starter(read_file(source_dir / relative), relative, module.folder(), "");
    }
  }

  say("listing the repository's files");
  // The paths curriculum.json marks instructor-only, and the known-wrong variants (they quote the
  // solutions they alter): both stay with the instructor.
  auto instructor_only = instructor_only_paths(source_dir);
  for (const auto& module : curriculum.modules())
    instructor_only.push_back(module.variants.lexically_relative(source_dir).generic_string());
  std::vector<std::string> files;
  std::vector<std::string> other_texts, withheld_texts;
  for (const auto& relative : repository_files(source_dir)) {
    if (!is_instructor_only(relative, instructor_only)) {
      files.push_back(relative);
      continue;
    }
    // Withheld, and secret like a solution: a released file must not repeat its distinctive lines.
    result.withheld.push_back(relative);
    const fs::path file = source_dir / relative;
    if (is_code(relative) && fs::is_regular_file(fs::symlink_status(file, error)) &&
        fs::file_size(file, error) <= kMaxScannedBytes)
      withheld_texts.push_back(read_file(file));
  }
  for (const auto& relative : files) {
    const fs::path file = source_dir / relative;
    if (!fs::is_regular_file(fs::symlink_status(file, error)) || fs::file_size(file, error) > kMaxScannedBytes) continue;
    auto starter = starters.find(relative);
    if (starter != starters.end()) {
      const std::string source = read_file(file);
      other_texts.push_back(without_regions(source, scan_solution_regions(source, relative)));
    } else if (is_code(relative)) {
      // Code only: a line the given code also has is no secret, but a lesson or hint that quotes a
      // solution line gives it away.
      std::string content = read_file(file);
      if (!looks_binary(content)) other_texts.push_back(std::move(content));
    }
  }
  const auto distinctive = distinctive_solution_lines(solution_texts, other_texts);
  std::unordered_set<std::string> distinctive_set(distinctive.begin(), distinctive.end());
  // Kernel code is full of short loop headers any test may share; only its longer lines are telling.
  constexpr std::size_t kWithheldMinChars = 48;
  for (const auto& line : distinctive_solution_lines(withheld_texts, other_texts, kWithheldMinChars))
    distinctive_set.insert(line);

  say(fmt::format("writing {} files to {}", files.size(), out.string()));
  fs::create_directories(out);
  for (const auto& relative : files) {
    const fs::path from = source_dir / relative;
    const fs::path to = out / relative;
    const auto status = fs::symlink_status(from, error);
    if (error || !fs::exists(status)) continue;  // deleted in the working tree
    fs::create_directories(to.parent_path());
    auto starter = starters.find(relative);
    if (starter != starters.end()) {
      write_file_atomically(to, starter->second);
      ++result.starters_written;
    } else if (fs::is_symlink(status)) {
      fs::copy_symlink(from, to);
    } else if (fs::is_regular_file(status)) {
      fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    } else {
      continue;
    }
    ++result.files_written;
  }

  say("scanning the release for solution text");
  for (const auto& relative : files) {
    const fs::path file = out / relative;
    if (!fs::is_regular_file(fs::symlink_status(file, error)) || fs::file_size(file, error) > kMaxScannedBytes) continue;
    const std::string content = read_file(file);
    if (looks_binary(content)) continue;
    // The project's own tests hold marker fixtures for the starter generator; those are not solutions.
    const bool marker_fixture = relative.rfind("tests/", 0) == 0;
    int number = 0;
    for (const auto& line : lines_of(content)) {
      ++number;
      if (!marker_fixture && has_marker_line(line)) result.leftover_markers.push_back(fmt::format("{}:{}", relative, number));
      if (distinctive_set.count(trim(line))) result.leaks.push_back(fmt::format("{}:{}: {}", relative, number, trim(line)));
    }
  }

  if (options.compile_check && result.leaks.empty() && result.leftover_markers.empty()) {
    say(fmt::format("compiling the {} released learner files", starters.size()));
    std::vector<std::string> flags = toolchain.cxx_flags;
    for (const auto& dir : toolchain.include_dirs) {
      const auto inside = dir.lexically_relative(source_dir);
      const bool ours = !inside.empty() && *inside.begin() != "..";
      flags.push_back("-I" + (ours ? (out / inside).string() : dir.string()));  // the release's own headers
    }
    for (const auto& [relative, text] : starters) {
      std::vector<std::string> argv = {toolchain.cxx};
      argv.insert(argv.end(), flags.begin(), flags.end());
      argv.insert(argv.end(), {"-fsyntax-only", (out / relative).string()});
      std::string log;
      CommandOutcome outcome = run_captured(argv, {}, [&](const std::string& line) { log += line + "\n"; });
      if (outcome.exit_code != 0) result.build_log += fmt::format("{} does not compile:\n{}{}\n", relative, log, outcome.error);
    }
    result.compiled = result.build_log.empty();
  }

  if (options.full_build && result.ok()) {
    const fs::path build = out.parent_path() / (out.filename().string() + ".build-check");
    say(fmt::format("configuring and building the release's framework in {}", build.string()));
    std::string log;
    auto collect = [&](const std::string& line) { log += line + "\n"; };
    const std::string cmake = find_executable("cmake");
    CommandOutcome configured = run_captured({cmake, "-S", out.string(), "-B", build.string(), "-G", "Ninja",
                                              "-DCMAKE_BUILD_TYPE=Release"}, {}, collect);
    CommandOutcome built = configured.exit_code == 0
                               ? run_captured({cmake, "--build", build.string(), "-j", std::to_string(options.jobs), "--target",
                                               "tinytorch", "tito"}, {}, collect)
                               : configured;
    if (built.exit_code != 0) result.build_log += "the released tree does not build:\n" + log;
    fs::remove_all(build, error);
  }
  return result;
}

}  // namespace tito
