#pragma once
// Small helpers shared by the framework tests: read a tensor's values back as doubles.
#include <cstdint>
#include <sstream>
#include <string>
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

}  // namespace test_helpers
