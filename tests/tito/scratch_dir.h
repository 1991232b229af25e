#pragma once
// What tito's test files share: a scratch folder of their own that is removed, with everything in
// it, when the test case ends.
#include <filesystem>
#include <random>
#include <string>
#include <system_error>

namespace tito_test {

// <temp>/<prefix><random number>, created empty (a name already taken is never reused).
struct ScratchDir {
  std::filesystem::path root;
  explicit ScratchDir(const std::string& prefix = "tito_test_") {
    std::random_device random;
    do root = std::filesystem::temp_directory_path() / (prefix + std::to_string(random()));
    while (!std::filesystem::create_directory(root));
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(root, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

}  // namespace tito_test
