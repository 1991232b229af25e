// Tensor printing and matchers for module tests (include/tinytorch/testing.h).
#include <tinytorch/testing.h>

#include <cmath>
#include <functional>
#include <iomanip>
#include <sstream>
#include <vector>

namespace tinytorch {
namespace testing {
namespace {

// Values read as long double, which holds every int64 and double exactly.
std::vector<long double> read_values(const Tensor& tensor) {
  Tensor dense = tensor.contiguous();
  auto count = static_cast<std::size_t>(dense.numel());
  std::vector<long double> values(count);
  auto copy = [&](const auto* data) {
    for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<long double>(data[i]);
  };
  switch (dense.dtype().toScalarType()) {
    case ScalarType::Bool: copy(dense.data_ptr<bool>()); break;
    case ScalarType::Long: copy(dense.data_ptr<int64_t>()); break;
    case ScalarType::Float: copy(dense.data_ptr<float>()); break;
    case ScalarType::Double: copy(dense.data_ptr<double>()); break;
  }
  return values;
}

const char* dtype_name(ScalarType type) {
  switch (type) {
    case ScalarType::Bool: return "bool";
    case ScalarType::Long: return "long";
    case ScalarType::Float: return "float";
    case ScalarType::Double: return "double";
  }
  return "?";
}

std::string format_value(long double value, ScalarType type) {
  if (type == ScalarType::Bool) return value != 0 ? "true" : "false";
  std::ostringstream out;
  if (type == ScalarType::Long) {
    out << static_cast<long long>(value);
  } else {
    out << std::setprecision(type == ScalarType::Float ? 6 : 10) << static_cast<double>(value);
  }
  return out.str();
}

std::string format_sizes(const std::vector<int64_t>& sizes) {
  std::string text = "[";
  for (std::size_t i = 0; i < sizes.size(); ++i) text += (i ? ", " : "") + std::to_string(sizes[i]);
  return text + "]";
}

// The multi-dimensional index of a position in row-major order, e.g. "[1, 0]".
std::string format_index(std::size_t flat, const std::vector<int64_t>& sizes) {
  std::vector<int64_t> index(sizes.size());
  for (std::size_t d = sizes.size(); d-- > 0;) {
    index[d] = static_cast<int64_t>(flat % static_cast<std::size_t>(sizes[d]));
    flat /= static_cast<std::size_t>(sizes[d]);
  }
  return format_sizes(index);
}

constexpr int64_t kSummarizeAbove = 64;  // elements; beyond this print only the edges
constexpr int64_t kEdgeItems = 3;

std::string tensor_to_string(const Tensor& tensor) {
  if (!tensor.defined()) return "tensor(undefined)";
  std::vector<int64_t> sizes = tensor.sizes().vec();
  ScalarType type = tensor.dtype().toScalarType();
  std::vector<long double> values = read_values(tensor);
  bool summarize = static_cast<int64_t>(values.size()) > kSummarizeAbove;

  std::vector<std::size_t> strides(sizes.size(), 1);  // row-major, of the dense copy
  for (std::size_t d = sizes.size(); d-- > 1;) strides[d - 1] = strides[d] * static_cast<std::size_t>(sizes[d]);

  std::function<std::string(std::size_t, std::size_t)> nested = [&](std::size_t dim, std::size_t offset) {
    if (dim == sizes.size()) return format_value(values[offset], type);
    std::string text = "[";
    for (int64_t i = 0; i < sizes[dim]; ++i) {
      if (summarize && sizes[dim] > 2 * kEdgeItems && i == kEdgeItems) {
        text += ", ...";
        i = sizes[dim] - kEdgeItems;
      }
      text += (i == 0 ? "" : ", ") + nested(dim + 1, offset + static_cast<std::size_t>(i) * strides[dim]);
    }
    return text + "]";
  };

  std::string body = values.empty() ? "[]" : nested(0, 0);
  std::string text = "tensor(" + body;
  if (summarize || values.empty()) text += ", size=" + format_sizes(sizes);
  return text + ", dtype=" + dtype_name(type) + ")";
}

// Compares sizes then values; returns what differed first, or "" when the predicate held everywhere.
template <typename Close>
std::string first_difference(const Tensor& actual, const Tensor& expected, Close close) {
  if (!actual.defined() || !expected.defined()) {
    if (actual.defined() == expected.defined()) return "";
    return actual.defined() ? "expected an undefined tensor" : "got an undefined tensor (default-constructed Tensor())";
  }
  std::vector<int64_t> actual_sizes = actual.sizes().vec(), expected_sizes = expected.sizes().vec();
  if (actual_sizes != expected_sizes)
    return "sizes differ: got " + format_sizes(actual_sizes) + ", expected " + format_sizes(expected_sizes);
  std::vector<long double> a = read_values(actual), e = read_values(expected);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (close(a[i], e[i])) continue;
    return "first mismatch at index " + format_index(i, actual_sizes) + ": got " +
           format_value(a[i], actual.dtype().toScalarType()) + ", expected " +
           format_value(e[i], expected.dtype().toScalarType());
  }
  return "";
}

}  // namespace

bool TensorEqualsMatcher::match(const Tensor& actual) const {
  if (actual.defined() && expected_.defined() && actual.dtype() != expected_.dtype()) {
    ScalarType got = actual.dtype().toScalarType(), want = expected_.dtype().toScalarType();
    difference_ = std::string("dtype differs: got ") + dtype_name(got) + ", expected " + dtype_name(want);
    return false;
  }
  difference_ = first_difference(actual, expected_, [](long double a, long double e) { return a == e; });
  return difference_.empty();
}

std::string TensorEqualsMatcher::describe() const {
  return "\nexpected: " + tensor_to_string(expected_) + (difference_.empty() ? "" : "\n" + difference_);
}

bool TensorAllCloseMatcher::match(const Tensor& actual) const {
  difference_ = first_difference(actual, expected_, [&](long double a, long double e) {
    if (std::isnan(a) || std::isnan(e)) return false;
    if (a == e) return true;  // also equal infinities
    return std::fabs(a - e) <= atol_ + rtol_ * std::fabs(e);
  });
  return difference_.empty();
}

std::string TensorAllCloseMatcher::describe() const {
  std::ostringstream tolerance;
  tolerance << "(rtol=" << rtol_ << ", atol=" << atol_ << ")";
  return "\nexpected: " + tensor_to_string(expected_) + "\nnot close " + tolerance.str() +
         (difference_.empty() ? "" : ": " + difference_);
}

}  // namespace testing
}  // namespace tinytorch

std::string Catch::StringMaker<tinytorch::Tensor>::convert(const tinytorch::Tensor& tensor) {
  return tinytorch::testing::tensor_to_string(tensor);
}

std::string Catch::StringMaker<std::vector<int64_t>>::convert(const std::vector<int64_t>& values) {
  std::ostringstream out;
  out << tinytorch::IntArrayRef(values);
  return out.str();
}
