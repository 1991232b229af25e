#pragma once
// torch::nn::functional::pad with its option builder (LibTorch's torch/nn/options/padding.h):
//
//   namespace F = torch::nn::functional;
//   F::pad(x, F::PadFuncOptions({1, 2}).mode(torch::kReflect));
//
// `pad` holds (before, after) pairs starting from the last dim. kConstant (the default) pads any
// number of dims with `value` (torch::constant_pad_nd); kReflect, kReplicate and kCircular pad the
// last 1, 2 or 3 dims of a batched or unbatched input, as LibTorch 1.13's _pad_enum. Gradients:
// ConstantPadNdBackward0 for kConstant; the others are made of index_select (IndexSelectBackward0
// where LibTorch shows ReflectionPad1DBackward0 and friends).
#include <cstdint>
#include <variant>
#include <vector>

#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/functional/conv.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

namespace enumtype {
struct kConstant {};
}  // namespace enumtype
inline constexpr enumtype::kConstant kConstant{};

namespace nn {
namespace functional {

struct PadFuncOptions {
  using mode_t = std::variant<enumtype::kConstant, enumtype::kReflect, enumtype::kReplicate, enumtype::kCircular>;
  PadFuncOptions(std::vector<int64_t> pad) : pad_(std::move(pad)) {}  // NOLINT: implicit, as LibTorch's
  TORCH_ARG(std::vector<int64_t>, pad);
  TORCH_ARG(mode_t, mode) = enumtype::kConstant();
  TORCH_ARG(double, value) = 0;
};

Tensor pad(const Tensor& input, const PadFuncOptions& options);

}  // namespace functional
}  // namespace nn
}  // namespace tinytorch
