#pragma once
// Where this tito finds the TinyTorch sources (curriculum, framework reference code) and the build
// outputs (toolchain.json, framework libraries). Env TITO_HOME / TITO_BUILD_DIR override the
// locations compiled in by CMake, so a moved checkout or a second build still works.
#include <filesystem>

namespace tito {

struct Installation {
  std::filesystem::path source_dir;
  std::filesystem::path build_dir;

  // Throws UserError (with the fix) when the source folder holds no curriculum.
  static Installation locate();
};

}  // namespace tito
