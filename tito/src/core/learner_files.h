#pragma once
// The learner's files of one module in a workspace: creating them (starter or reference), backing
// them up before anything replaces them, fingerprinting them, and checking that they are all there.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/curriculum.h"
#include "core/installation.h"
#include "core/progress_store.h"
#include "core/starter_generator.h"
#include "core/workspace.h"

namespace tito {

struct GeneratedFile {
  std::string name;  // file name inside <ws>/modules/NN_slug, e.g. "matmul.cpp"
  std::string content;
};

enum class FileFlavour { Starter, Reference };

// Everything is generated in memory first; a marker error (UserError naming file:line) means nothing is written.
std::vector<GeneratedFile> generate_module_files(const Installation& installation, const ModuleInfo& module,
                                                 FileFlavour flavour);

// Writes the files into <ws>/modules/NN_slug. Existing files must have been backed up by the caller.
void write_module_files(const std::filesystem::path& module_dir, const std::vector<GeneratedFile>& files);

std::vector<std::filesystem::path> learner_file_paths(const Workspace& workspace, const ModuleInfo& module);
std::vector<std::string> missing_learner_files(const Workspace& workspace, const ModuleInfo& module);
bool any_learner_file_exists(const Workspace& workspace, const ModuleInfo& module);

// Copies the module folder to <ws>/.tito/backups/NN_slug-<timestamp>/; nullopt when there was nothing to save.
std::optional<std::filesystem::path> back_up_module(const Workspace& workspace, const ModuleInfo& module);

// sha256 over the learner files' names and contents, in learner_files order.
std::string fingerprint_learner_files(const Workspace& workspace, const ModuleInfo& module);
// The same over the reference solution's files, as `tito module start NN --reference` writes them.
std::string reference_fingerprint(const Installation& installation, const ModuleInfo& module);
// "reference" when `fingerprint` is the reference solution's, else "learner".
std::string origin_of_files(const Installation& installation, const ModuleInfo& module, const std::string& fingerprint);
// Whose code a completed module is: the recorded origin, or, for records older than progress format 2,
// told from the recorded fingerprint.
std::string module_origin(const Installation& installation, const ModuleInfo& module, const ModuleProgress& progress);

// Where each stubbed function lives: (name, file name, lesson), from the reference markers.
struct StubLocation {
  std::string name;
  std::string file;
  std::string lesson;
};
std::vector<StubLocation> stub_locations(const Installation& installation, const ModuleInfo& module);

}  // namespace tito
