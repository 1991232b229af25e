#pragma once
// What a lesson asks the learner to read, reachable from the workspace through
// `tito module view NN --file NAME`: the module's given sources (the code around the learner's files)
// and the framework's public headers. Never a learner file's reference text, never a solution.
#include <filesystem>
#include <string>
#include <vector>

#include "core/curriculum.h"
#include "core/installation.h"

namespace tito {

struct ReadableFile {
  std::string name;  // as the learner types it: "activation_ops.cpp", "tinytorch/tensor.h"
  std::filesystem::path path;
};

// The module's given sources: the files beside its learner files (framework/src/NN_slug/) that are
// not learner files and hold no solution marker, sorted by name.
std::vector<ReadableFile> given_sources(const Installation& installation, const ModuleInfo& module);

// NAME is a given source of the module ("activation_ops.cpp"), or a public header by its include
// path ("tinytorch/nn/linear.h") or, when no other header shares it, its file name ("linear.h").
// Anything else (a learner file, another module's code, a path outside) is a UserError that says
// what can be read.
ReadableFile find_readable_file(const Installation& installation, const ModuleInfo& module, const std::string& name);

// The file's text; a UserError when it holds a solution marker (it would give an answer away).
std::string read_readable_file(const ReadableFile& file);

}  // namespace tito
