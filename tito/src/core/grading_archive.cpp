#include "core/grading_archive.h"

#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "build/captured_command.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<std::string> tar_lines(const std::vector<std::string>& argv, const fs::path& archive) {
  std::vector<std::string> lines;
  CommandOutcome outcome = run_captured(argv, {}, [&](const std::string& line) { lines.push_back(line); });
  if (outcome.exit_code != 0) {
    std::string said = lines.empty() ? outcome.error : lines.back();
    throw ArchiveRejected(fmt::format("{} is not a readable tar archive ({})", archive.filename().string(), said));
  }
  return lines;
}

bool leaves_the_archive(const fs::path& path) {
  if (path.is_absolute()) return true;
  const fs::path normal = path.lexically_normal();
  return !normal.empty() && *normal.begin() == "..";
}

bool has_dot_dot(const std::string& name) {
  for (const auto& part : fs::path(name))
    if (part == "..") return true;
  return false;
}

}  // namespace

bool is_archive_name(const std::string& name) {
  return ends_with(name, ".tar") || ends_with(name, ".tar.gz") || ends_with(name, ".tgz");
}

std::string archive_stem(const std::string& name) {
  for (const char* suffix : {".tar.gz", ".tgz", ".tar"})
    if (ends_with(name, suffix)) return name.substr(0, name.size() - std::string(suffix).size());
  return name;
}

void extract_archive_safely(const fs::path& archive, const fs::path& dest, std::uintmax_t max_bytes) {
  const std::string tar = find_executable("tar");
  if (tar.empty()) throw std::runtime_error("tar is not installed (sudo apt-get install tar)");
  const std::string file = fs::absolute(archive).string();
  // Names and details in two listings, line for line: names may hold spaces, details never do
  // before the name.
  const auto names = tar_lines({tar, "--list", "--absolute-names", "--file", file}, archive);
  const auto details = tar_lines({tar, "--list", "--verbose", "--absolute-names", "--numeric-owner", "--file", file}, archive);
  if (names.size() != details.size())
    throw ArchiveRejected(fmt::format("{} could not be listed consistently (unusual entry names)", archive.filename().string()));

  std::uintmax_t total = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    const std::string& line = details[i];
    const std::string where = fmt::format("{}: entry '{}'", archive.filename().string(), name);
    if (!name.empty() && name[0] == '/') throw ArchiveRejected(where + " has an absolute path");
    if (has_dot_dot(name)) throw ArchiveRejected(where + " has a '..' component");
    const char type = line.empty() ? '?' : line[0];
    if (type == 'c' || type == 'b' || type == 'p' || type == 's')
      throw ArchiveRejected(where + " is a device, fifo or socket");
    std::istringstream fields(line);
    std::string permissions, owner, size;
    fields >> permissions >> owner >> size;
    total += std::strtoull(size.c_str(), nullptr, 10);
    // Any link, even one that stays inside: a chain of harmless-looking links can still lead out, and a
    // workspace never needs one.
    if (type == 'l') {
      const auto arrow = line.rfind(" -> ");
      const std::string target = arrow == std::string::npos ? "?" : line.substr(arrow + 4);
      throw ArchiveRejected(fmt::format("{} is a symbolic link (to {}); links are not accepted in a submission{}", where, target,
                                        leaves_the_archive(fs::path(name).parent_path() / target) ? ", and this one leads outside the archive" : ""));
    } else if (type == 'h') {
      const auto link = line.rfind(" link to ");
      const std::string target = link == std::string::npos ? "?" : line.substr(link + 9);
      throw ArchiveRejected(fmt::format("{} is a hard link (to {}); links are not accepted in a submission", where, target));
    } else if (type != '-' && type != 'd') {
      throw ArchiveRejected(fmt::format("{} has an unsupported type '{}'", where, std::string(1, type)));
    }
  }
  if (total > max_bytes)
    throw ArchiveRejected(fmt::format("{} would unpack to {} MB, more than the {} MB allowed", archive.filename().string(),
                                      total >> 20, max_bytes >> 20));

  std::error_code ignored;
  fs::remove_all(dest, ignored);
  fs::create_directories(dest);
  std::vector<std::string> output;
  CommandOutcome outcome = run_captured({tar, "--extract", "--file", file, "--directory", dest.string(), "--no-same-owner",
                                         "--no-same-permissions", "--no-overwrite-dir"},
                                        {}, [&](const std::string& line) { output.push_back(line); });
  if (outcome.exit_code != 0)
    throw ArchiveRejected(fmt::format("{} could not be unpacked: {}", archive.filename().string(),
                                      output.empty() ? outcome.error : output.back()));
  // What tar wrote must be what the listing promised: folders and regular files only.
  for (fs::recursive_directory_iterator it(dest, ignored), end; !ignored && it != end; it.increment(ignored)) {
    const auto status = it->symlink_status();
    if (fs::is_directory(status) || fs::is_regular_file(status)) continue;
    const std::string entry = it->path().lexically_relative(dest).generic_string();
    fs::remove_all(dest, ignored);
    throw ArchiveRejected(fmt::format("{}: entry '{}' unpacked as a link or special file; not accepted in a submission",
                                      archive.filename().string(), entry));
  }
}

}  // namespace tito
