#include "core/logging.h"

#include <memory>

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace tito {

void setup_logging(bool verbose) {
  auto logger = std::make_shared<spdlog::logger>("tito");
  if (verbose) {
    auto echo = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    echo->set_pattern("[%H:%M:%S %l] %v");
    logger->sinks().push_back(echo);
  }
  logger->set_level(spdlog::level::debug);
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
}

void attach_workspace_log(const std::filesystem::path& logs_dir) {
  constexpr std::size_t kMaxBytes = 256 * 1024;  // small: a log is for "what just happened", not an archive
  constexpr std::size_t kKeptFiles = 2;
  try {
    std::filesystem::create_directories(logs_dir);
    auto file = std::make_shared<spdlog::sinks::rotating_file_sink_mt>((logs_dir / "tito.log").string(), kMaxBytes, kKeptFiles);
    file->set_pattern("%Y-%m-%dT%H:%M:%S %l %v");
    spdlog::default_logger()->sinks().push_back(file);
  } catch (const std::exception& error) {
    spdlog::warn("cannot write the log in {}: {}", logs_dir.string(), error.what());
  }
}

}  // namespace tito
