#pragma once
// How one milestone part's program is built and run: the request `tito milestone run` hands to
// run_program, shared with the knockout study (milestone_knockout.h), so that the study runs the
// very program a learner runs, with the same environment and limits.
#include <filesystem>

#include "core/installation.h"
#include "core/milestone.h"
#include "run/module_test_runner.h"

namespace tito {

// The part's program sources, its environment (TITO_OUTPUT_DIR, TITO_MILESTONE_PART, TITO_MILESTONE_DIR,
// TITO_SOURCE_DIR, TITO_CXX), its time and memory limits, built in `build_dir` as part-N. The caller
// adds the learner's folders, arguments, a data folder or a profile.
ProgramRequest milestone_part_request(const Installation& installation, const Toolchain& toolchain,
                                      const Milestone& milestone, const MilestonePart& part,
                                      const std::filesystem::path& output_dir, const std::filesystem::path& build_dir);

}  // namespace tito
