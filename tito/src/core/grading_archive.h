#pragma once
// Learner archives (.tar, .tar.gz, .tgz) are untrusted: every entry is checked before anything is
// extracted, and extraction goes into a scratch folder only.
#include <filesystem>
#include <stdexcept>
#include <string>

namespace tito {

// Why an archive was refused, in words for the grade report.
class ArchiveRejected : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

bool is_archive_name(const std::string& file_name);       // .tar, .tar.gz, .tgz
std::string archive_stem(const std::string& file_name);   // "alice.tar.gz" -> "alice"

// Lists the archive with tar and refuses it (ArchiveRejected, nothing written) when an entry has an
// absolute path or a ".." component, is a device, fifo or socket, is a symbolic or hard link (wherever
// it points), or when the content would exceed `max_bytes`. Otherwise extracts it into `dest` (created
// afresh, without the archive's owners or permissions) and checks that only folders and regular files
// came out.
void extract_archive_safely(const std::filesystem::path& archive, const std::filesystem::path& dest,
                            std::uintmax_t max_bytes = 256u << 20);

}  // namespace tito
