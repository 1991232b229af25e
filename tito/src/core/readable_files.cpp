#include "core/readable_files.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"
#include "core/starter_generator.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

bool is_source(const fs::path& path) {
  const std::string extension = path.extension().string();
  return extension == ".cpp" || extension == ".h" || extension == ".hpp" || extension == ".cc";
}

bool holds_solution(const std::string& text, const std::string& label) {
  try {
    return !scan_solution_regions(text, label).empty();
  } catch (const MarkerError&) {
    return true;  // a broken marker still marks solution text
  }
}

fs::path include_dir(const Installation& installation) { return installation.source_dir / "framework" / "include"; }

std::vector<ReadableFile> public_headers(const Installation& installation) {
  std::vector<ReadableFile> headers;
  const fs::path root = include_dir(installation);
  std::error_code error;
  for (fs::recursive_directory_iterator it(root, error), end; !error && it != end; it.increment(error)) {
    if (it->is_regular_file(error) && is_source(it->path()))
      headers.push_back({it->path().lexically_relative(root).generic_string(), it->path()});
  }
  std::sort(headers.begin(), headers.end(), [](const ReadableFile& a, const ReadableFile& b) { return a.name < b.name; });
  return headers;
}

std::string readable_list(const std::vector<ReadableFile>& given) {
  std::vector<std::string> names;
  for (const auto& file : given) names.push_back(file.name);
  return names.empty() ? "no given source files" : fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

std::vector<ReadableFile> given_sources(const Installation& installation, const ModuleInfo& module) {
  std::vector<fs::path> folders, learner;
  for (const auto& relative : module.learner_files) {
    const fs::path file = (installation.source_dir / relative).lexically_normal();
    learner.push_back(file);
    if (std::find(folders.begin(), folders.end(), file.parent_path()) == folders.end()) folders.push_back(file.parent_path());
  }
  std::vector<ReadableFile> given;
  for (const auto& folder : folders) {
    std::error_code error;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
      const fs::path path = it->path().lexically_normal();
      if (!it->is_regular_file(error) || !is_source(path)) continue;
      if (std::find(learner.begin(), learner.end(), path) != learner.end()) continue;
      if (holds_solution(read_file(path), path.filename().string())) continue;
      given.push_back({path.filename().string(), path});
    }
  }
  std::sort(given.begin(), given.end(), [](const ReadableFile& a, const ReadableFile& b) { return a.name < b.name; });
  return given;
}

ReadableFile find_readable_file(const Installation& installation, const ModuleInfo& module, const std::string& name) {
  const std::string wanted = fs::path(name).lexically_normal().generic_string();
  const std::string list_command = "tito module view " + module.number + " --files";
  for (const auto& relative : module.learner_files) {
    if (fs::path(relative).filename().string() == wanted) {
      throw UserError(fmt::format("{} is yours to write: open modules/{}/{} in your workspace", wanted, module.folder(), wanted),
                      list_command + "   (to see the given files you can read)");
    }
  }
  const auto given = given_sources(installation, module);
  for (const auto& file : given)
    if (file.name == wanted) return file;
  const auto headers = public_headers(installation);
  std::vector<ReadableFile> by_file_name;
  for (const auto& header : headers) {
    if (header.name == wanted || "include/" + header.name == wanted) return header;
    if (header.path.filename().string() == wanted) by_file_name.push_back(header);
  }
  if (by_file_name.size() == 1) return by_file_name.front();
  if (by_file_name.size() > 1) {
    std::vector<std::string> names;
    for (const auto& header : by_file_name) names.push_back(header.name);
    throw UserError(fmt::format("several headers are called {}: {}", wanted, fmt::join(names, ", ")),
                    fmt::format("tito module view {} --file {}", module.number, names.front()), kExitUsage);
  }
  throw UserError(fmt::format("module {} has no readable file '{}' (its given files: {}; or any public header, "
                              "e.g. tinytorch/tensor.h)", module.number, name, readable_list(given)),
                  list_command, kExitUsage);
}

std::string read_readable_file(const ReadableFile& file) {
  const std::string text = read_file(file.path);
  if (holds_solution(text, file.name)) {
    throw UserError(fmt::format("{} holds solution text, so tito will not show it", file.name),
                    "ask your instructor: a given file should not carry solution markers");
  }
  return text;
}

}  // namespace tito
