#include "core/milestone_program.h"

#include <string>

namespace tito {

ProgramRequest milestone_part_request(const Installation& installation, const Toolchain& toolchain,
                                      const Milestone& milestone, const MilestonePart& part,
                                      const std::filesystem::path& output_dir, const std::filesystem::path& build_dir) {
  ProgramRequest request;
  for (const auto& program : part.programs) request.sources.push_back(milestone.dir / program);
  request.build_dir = build_dir;
  request.binary_name = "part-" + std::to_string(part.number);
  request.label_prefix = "milestone " + milestone.id + "/";
  // TITO_SOURCE_DIR: the course's sources (milestone 05's part 3 reads the framework's code);
  // TITO_CXX: the compiler tito builds with (the same part judges C++ with it).
  request.env = {{"TITO_OUTPUT_DIR", output_dir.string()},
                 {"TITO_MILESTONE_PART", std::to_string(part.number)},
                 {"TITO_MILESTONE_DIR", milestone.dir.string()},
                 {"TITO_SOURCE_DIR", installation.source_dir.string()},
                 {"TITO_CXX", toolchain.cxx},
                 {"TINYTORCH_NON_INTERACTIVE", "1"}};
  request.time_limit_s = part.time_limit_s;
  request.memory_limit_mb = part.memory_limit_mb;
  return request;
}

}  // namespace tito
