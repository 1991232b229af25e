#include "core/learner_files.h"

#include <fmt/format.h>

#include "core/clock.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/i18n.h"
#include "core/sha256.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

// Stays in English whatever the learner's language, like the code it heads: grading compares a learner's
// file with the starter to tell an untouched one, and the instructor's process may speak another language.
std::string starter_header(const ModuleInfo& module, const fs::path& lesson) {
  return fmt::format(
      "// TinyTorch C++ - module {} ({}): this file is yours to complete.\n"
      "// Read the lesson with `tito module view {}` ({}).\n"
      "// Each `throw tinytorch::NotImplemented(...)` marks a function for you to write;\n"
      "// `tito module test {}` builds your code and checks it; `tito module hint {}` helps one step\n"
      "// at a time, and `tito module view {} --files` lists the given code you can read.\n\n",
      module.number, module.title, module.number, lesson.filename().string(), module.number, module.number,
      module.number);
}

}  // namespace

std::vector<GeneratedFile> generate_module_files(const Installation& installation, const ModuleInfo& module,
                                                 FileFlavour flavour) {
  if (module.learner_files.empty()) {
    throw UserError(trf("module {} lists no learner_files in curriculum.json", module.number),
                    tr("add \"learner_files\" to the module's entry in curriculum/curriculum.json"));
  }
  std::vector<GeneratedFile> files;
  for (const auto& relative : module.learner_files) {
    const fs::path reference = installation.source_dir / relative;
    if (!fs::is_regular_file(reference)) {
      throw UserError(trf("the reference file {} for module {} is missing", reference.string(), module.number),
                      trf("git -C {} status   (restore the TinyTorch checkout)", installation.source_dir.string()));
    }
    GeneratedFile file{fs::path(relative).filename().string(), read_file(reference)};
    if (flavour == FileFlavour::Starter) {
      try {
        file.content = make_starter(file.content, relative, module.folder(), starter_header(module, module.lesson));
      } catch (const MarkerError& error) {
        throw UserError(trf("cannot make the starter: {}", error.what()),
                        trf("fix the SOLUTION markers in {} (nothing was written)", reference.string()));
      }
    }
    files.push_back(std::move(file));
  }
  return files;
}

void write_module_files(const fs::path& module_dir, const std::vector<GeneratedFile>& files) {
  fs::create_directories(module_dir);
  for (const auto& file : files) write_file_atomically(module_dir / file.name, file.content);
}

std::vector<fs::path> learner_file_paths(const Workspace& workspace, const ModuleInfo& module) {
  std::vector<fs::path> paths;
  for (const auto& relative : module.learner_files) {
    paths.push_back(workspace.module_dir(module) / fs::path(relative).filename());
  }
  return paths;
}

std::vector<std::string> missing_learner_files(const Workspace& workspace, const ModuleInfo& module) {
  std::vector<std::string> missing;
  for (const auto& path : learner_file_paths(workspace, module)) {
    if (!fs::is_regular_file(path)) missing.push_back(path.filename().string());
  }
  return missing;
}

bool any_learner_file_exists(const Workspace& workspace, const ModuleInfo& module) {
  for (const auto& path : learner_file_paths(workspace, module)) {
    if (fs::exists(path)) return true;
  }
  return false;
}

std::optional<fs::path> back_up_module(const Workspace& workspace, const ModuleInfo& module) {
  const fs::path source = workspace.module_dir(module);
  if (!fs::is_directory(source) || fs::is_empty(source)) return std::nullopt;
  fs::create_directories(workspace.backups_dir());
  const fs::path target = unique_path(workspace.backups_dir() / (module.folder() + "-" + filename_stamp_now()));
  fs::copy(source, target, fs::copy_options::recursive);
  return target;
}

namespace {

// Name and size prefix keep file boundaries unambiguous.
void hash_file(Sha256& hash, const std::string& name, const std::string& content) {
  hash.update(fmt::format("{}\n{}\n", name, content.size()));
  hash.update(content);
}

}  // namespace

std::string fingerprint_learner_files(const Workspace& workspace, const ModuleInfo& module) {
  Sha256 hash;
  for (const auto& path : learner_file_paths(workspace, module))
    hash_file(hash, path.filename().string(), fs::is_regular_file(path) ? read_file(path) : std::string());
  return hash.hex_digest();
}

std::string reference_fingerprint(const Installation& installation, const ModuleInfo& module) {
  Sha256 hash;
  for (const auto& file : generate_module_files(installation, module, FileFlavour::Reference))
    hash_file(hash, file.name, file.content);
  return hash.hex_digest();
}

std::string origin_of_files(const Installation& installation, const ModuleInfo& module, const std::string& fingerprint) {
  // The reference as `module start --reference` writes it, or its source files copied as they are.
  Sha256 raw_copy;
  for (const auto& relative : module.learner_files) {
    const fs::path source = installation.source_dir / relative;
    hash_file(raw_copy, source.filename().string(), fs::is_regular_file(source) ? read_file(source) : std::string());
  }
  if (fingerprint == raw_copy.hex_digest()) return "reference";
  try {
    return fingerprint == reference_fingerprint(installation, module) ? "reference" : "learner";
  } catch (const UserError&) {  // the reference cannot be generated (broken markers): it cannot be a copy of it
    return "learner";
  }
}

std::string module_origin(const Installation& installation, const ModuleInfo& module, const ModuleProgress& progress) {
  if (progress.origin) return *progress.origin;
  if (!progress.fingerprint) return "learner";
  return origin_of_files(installation, module, *progress.fingerprint);
}

std::vector<StubLocation> stub_locations(const Installation& installation, const ModuleInfo& module) {
  std::vector<StubLocation> locations;
  for (const auto& relative : module.learner_files) {
    const fs::path reference = installation.source_dir / relative;
    if (!fs::is_regular_file(reference)) continue;
    try {
      for (const auto& region : scan_solution_regions(read_file(reference), relative)) {
        locations.push_back({region.name, fs::path(relative).filename().string(), region.lesson});
      }
    } catch (const MarkerError&) {
      // Only used to enrich messages; `module start` reports marker errors properly.
    }
  }
  return locations;
}

}  // namespace tito
