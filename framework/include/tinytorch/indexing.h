#pragma once
// Python-style indexing, LibTorch's spelling: x.index({Slice(0, 2), 1, None, Ellipsis}) is x[0:2, 1, None, ...].
#include <cstdint>
#include <optional>
#include <utility>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace indexing {

struct NoneType {};
struct EllipsisType {};
constexpr NoneType None{};          // inserts a new dimension of size 1
constexpr EllipsisType Ellipsis{};  // stands for as many full slices as needed

// start:stop:step with Python's defaults; missing ends mean "from the start"/"to the end".
class Slice {
 public:
  Slice(std::optional<int64_t> start = std::nullopt, std::optional<int64_t> stop = std::nullopt,
        std::optional<int64_t> step = std::nullopt)
      : start_(start), stop_(stop), step_(step.value_or(1)) {}
  // So that Slice(None, 2) reads like Python's [:2].
  Slice(NoneType, std::optional<int64_t> stop = std::nullopt, std::optional<int64_t> step = std::nullopt)
      : Slice(std::optional<int64_t>(), stop, step) {}
  Slice(std::optional<int64_t> start, NoneType, std::optional<int64_t> step = std::nullopt)
      : Slice(start, std::optional<int64_t>(), step) {}
  Slice(NoneType, NoneType, std::optional<int64_t> step = std::nullopt)
      : Slice(std::optional<int64_t>(), std::optional<int64_t>(), step) {}

  std::optional<int64_t> start() const { return start_; }
  std::optional<int64_t> stop() const { return stop_; }
  int64_t step() const { return step_; }

 private:
  std::optional<int64_t> start_;
  std::optional<int64_t> stop_;
  int64_t step_;
};

// One entry of an index list: an integer, a Slice, None, Ellipsis or a tensor (mask or positions).
class TensorIndex {
 public:
  enum class Kind { Integer, Slice, None, Ellipsis, Tensor };
  TensorIndex(int64_t integer) : kind_(Kind::Integer), integer_(integer) {}  // NOLINT: implicit
  TensorIndex(int integer) : TensorIndex(static_cast<int64_t>(integer)) {}    // NOLINT
  TensorIndex(Slice slice) : kind_(Kind::Slice), slice_(slice) {}             // NOLINT
  TensorIndex(NoneType) : kind_(Kind::None) {}                                // NOLINT
  TensorIndex(EllipsisType) : kind_(Kind::Ellipsis) {}                        // NOLINT
  // A kBool mask over as many dims as it has, or a Long tensor of positions in one dim.
  TensorIndex(Tensor tensor) : kind_(Kind::Tensor), tensor_(std::move(tensor)) {}  // NOLINT

  Kind kind() const { return kind_; }
  int64_t integer() const { return integer_; }
  const Slice& slice() const { return slice_; }
  const Tensor& tensor() const { return tensor_; }

 private:
  Kind kind_;
  int64_t integer_ = 0;
  Slice slice_;
  Tensor tensor_;
};

}  // namespace indexing
}  // namespace tinytorch
