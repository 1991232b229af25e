#pragma once
// Small file helpers shared by the services. Every write of tito's own state goes through write_file_atomically.
#include <filesystem>
#include <string>

namespace tito {

namespace fs = std::filesystem;

// Throws std::runtime_error naming the path when the file cannot be read.
std::string read_file(const fs::path& path);

// Temp file in the same folder, fsync, rename over the target, fsync the folder: a crash leaves
// either the old content or the new, never a torn file and never a stray temp file.
void write_file_atomically(const fs::path& path, const std::string& content);

// Appends one line and fsyncs, for append-only journals.
void append_line_durably(const fs::path& path, const std::string& line);

// Returns `base`, or `base-2`, `base-3`... whichever does not exist yet.
fs::path unique_path(const fs::path& base);

}  // namespace tito
