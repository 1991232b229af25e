#pragma once
// Small helpers shared by the framework tests: read a tensor's values back as doubles, a scratch folder.
#include <catch2/catch.hpp>
#include <stdlib.h>  // mkdtemp

#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "tinytorch/torch.h"

namespace test_helpers {

// What `out << value` prints (a tensor, a module, a dtype), for comparing with LibTorch's text.
template <typename T>
std::string printed(const T& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// Every element in row-major order, converted to double (works for any dtype and any strides).
inline std::vector<double> values(const torch::Tensor& t) {
  const torch::Tensor flat = t.to(torch::kDouble).contiguous();
  const double* data = flat.data_ptr<double>();
  return std::vector<double>(data, data + flat.numel());
}

inline std::vector<int64_t> shape(const torch::Tensor& t) { return t.sizes().vec(); }

// A fresh folder under the system temp dir (named prefix-XXXXXX), removed with everything in it at the
// end of the test.
struct ScratchDir {
  explicit ScratchDir(const std::string& prefix) {
    std::string name = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    REQUIRE(mkdtemp(name.data()) != nullptr);
    path = name;
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string file(const std::string& name) const { return (path / name).string(); }
  std::filesystem::path path;
};

}  // namespace test_helpers
