#pragma once
// tito's log: <ws>/.tito/logs/tito.log (small, rotating) once a workspace is known; --verbose also
// echoes it to stderr. Services log through spdlog's default logger.
#include <filesystem>

namespace tito {

void setup_logging(bool verbose);
void attach_workspace_log(const std::filesystem::path& logs_dir);

}  // namespace tito
