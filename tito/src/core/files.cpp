#include "core/files.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include <fmt/format.h>

namespace tito {
namespace {

[[noreturn]] void fail_io(const char* action, const fs::path& path) {
  throw std::runtime_error(fmt::format("could not {} {}: {}", action, path.string(), std::strerror(errno)));
}

void write_all(int fd, const std::string& content, const fs::path& path) {
  std::size_t written = 0;
  while (written < content.size()) {
    ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_io("write", path);
    }
    written += static_cast<std::size_t>(n);
  }
}

void fsync_directory(const fs::path& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;  // best effort: some filesystems do not allow opening folders
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_io("read", path);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

void write_file_atomically(const fs::path& path, const std::string& content) {
  fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::string temp_template = (dir / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
  int fd = ::mkstemp(temp_template.data());
  if (fd < 0) fail_io("create a temporary file in", dir);
  fs::path temp = temp_template;
  try {
    write_all(fd, content, temp);
    if (::fsync(fd) != 0) fail_io("flush", temp);
    ::fchmod(fd, 0644);
    ::close(fd);
    fd = -1;
    if (::rename(temp.c_str(), path.c_str()) != 0) fail_io("replace", path);
  } catch (...) {
    if (fd >= 0) ::close(fd);
    std::error_code ignored;
    fs::remove(temp, ignored);
    throw;
  }
  fsync_directory(dir);
}

void append_line_durably(const fs::path& path, const std::string& line) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) fail_io("open", path);
  try {
    write_all(fd, line + "\n", path);
    ::fsync(fd);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

fs::path unique_path(const fs::path& base) {
  if (!fs::exists(base)) return base;
  for (int n = 2;; ++n) {
    fs::path candidate = base.string() + "-" + std::to_string(n);
    if (!fs::exists(candidate)) return candidate;
  }
}

}  // namespace tito
