#pragma once
// Names and text that come from learners (file and folder names, compiler messages, test output)
// reach every report; they are made safe here, once, rather than by each writer.
#include <filesystem>
#include <optional>
#include <string>

namespace tito {

// `text` with every byte that is not part of valid UTF-8 written as \xFF (upper-case hex), so that
// JSON writers never throw and a reader sees which bytes were there. Valid UTF-8 is unchanged.
std::string escape_invalid_utf8(const std::string& text);

// The first of `relative`'s leading paths under `root` ("modules", "modules/01_tensor", ...,
// `relative` itself) that is a symbolic link, or nullopt. `root` itself is not examined.
std::optional<std::filesystem::path> first_symlink_in(const std::filesystem::path& root, const std::filesystem::path& relative);

}  // namespace tito
