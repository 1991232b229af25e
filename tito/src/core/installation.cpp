#include "core/installation.h"

#include <cstdlib>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/i18n.h"

namespace tito {

Installation Installation::locate() {
  Installation found;
  const char* home = std::getenv("TITO_HOME");
  const char* build = std::getenv("TITO_BUILD_DIR");
  found.source_dir = (home && *home) ? std::filesystem::path(home) : std::filesystem::path(TITO_SOURCE_DIR);
  found.build_dir = (build && *build) ? std::filesystem::path(build) : std::filesystem::path(TITO_BUILD_DIR);
  found.source_dir = std::filesystem::absolute(found.source_dir).lexically_normal();
  found.build_dir = std::filesystem::absolute(found.build_dir).lexically_normal();
  if (!std::filesystem::exists(found.source_dir / "curriculum" / "curriculum.json")) {
    throw UserError(trf("no TinyTorch sources at {} (curriculum/curriculum.json is missing)", found.source_dir.string()),
                    "export TITO_HOME=/path/to/your/tinytorch/checkout");
  }
  return found;
}

}  // namespace tito
