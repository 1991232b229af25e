#pragma once
// The umbrella header: everything TinyTorch has, under LibTorch's names. A LibTorch program that
// uses only what exists here compiles with `#include <torch/torch.h>` replaced by this include:
// `torch::`, `at::` and `c10::Error` all resolve to tinytorch.
// What LibTorch's torch/torch.h brings in with it, so programs that rely on it (std::isnan, std::cout,
// std::function...) compile unchanged.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tinytorch/acceleration.h"
#include "tinytorch/activations.h"
#include "tinytorch/allocator.h"
#include "tinytorch/attention.h"
#include "tinytorch/autograd.h"
#include "tinytorch/autograd/profiler.h"
#include "tinytorch/compression.h"
#include "tinytorch/convolution.h"
#include "tinytorch/data/data.h"
#include "tinytorch/device.h"
#include "tinytorch/device_fallback.h"
#include "tinytorch/embedding.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/from_blob.h"
#include "tinytorch/functions.h"
#include "tinytorch/functions_more.h"
#include "tinytorch/indexing.h"
#include "tinytorch/int_array_ref.h"
#include "tinytorch/linalg.h"
#include "tinytorch/out_variants.h"
#include "tinytorch/special.h"
#include "tinytorch/losses.h"
#include "tinytorch/normalization.h"
#include "tinytorch/nn.h"
#include "tinytorch/nn/functional/activation.h"
#include "tinytorch/nn/functional/attention.h"
#include "tinytorch/nn/functional/batchnorm.h"
#include "tinytorch/nn/functional/conv.h"
#include "tinytorch/nn/functional/dropout.h"
#include "tinytorch/nn/functional/embedding.h"
#include "tinytorch/nn/functional/fold.h"
#include "tinytorch/nn/functional/loss.h"
#include "tinytorch/nn/functional/normalization.h"
#include "tinytorch/nn/functional/pooling.h"
#include "tinytorch/nn/modules/activation.h"
#include "tinytorch/nn/modules/loss.h"
#include "tinytorch/nn/utils/rnn.h"
// After nn.h: nn/functional/embedding.h's functional::detail would hide nn::detail from conv.h.
#include "tinytorch/models/gpt.h"
#include "tinytorch/nn/utils/prune.h"
#include "tinytorch/optim.h"
#include "tinytorch/parallel.h"
#include "tinytorch/pointwise_binary.h"
#include "tinytorch/pointwise_unary.h"
#include "tinytorch/pooling.h"
#include "tinytorch/profiling.h"
#include "tinytorch/quantization.h"
#include "tinytorch/reductions_scans.h"
#include "tinytorch/scalar.h"
#include "tinytorch/scalar_type.h"
#include "tinytorch/shape_layout.h"
#include "tinytorch/tensor.h"
#include "tinytorch/tensor_factories.h"
#include "tinytorch/tensor_options.h"
#include "tinytorch/tokenization.h"
#include "tinytorch/training.h"
#include "tinytorch/utils/benchmark.h"

namespace tinytorch {
// LibTorch programs spell std::optional as torch::optional / c10::optional (Dataset::size()).
template <typename T>
using optional = std::optional<T>;
}  // namespace tinytorch

namespace torch = ::tinytorch;
namespace at = ::tinytorch;
namespace c10 {
using Error = ::tinytorch::Error;
using IValue = ::tinytorch::IValue;
using Scalar = ::tinytorch::Scalar;
using ScalarType = ::tinytorch::ScalarType;
using IntArrayRef = ::tinytorch::IntArrayRef;
template <typename T>
using ArrayRef = ::tinytorch::ArrayRef<T>;
using ::tinytorch::kBool;
using ::tinytorch::kDouble;
using ::tinytorch::kFloat;
using ::tinytorch::kLong;
using ::tinytorch::kByte;
using ::tinytorch::kChar;
using ::tinytorch::kInt;
using ::tinytorch::kShort;
using ::tinytorch::kHalf;
using ::tinytorch::kBFloat16;
using Half = ::tinytorch::Half;
using BFloat16 = ::tinytorch::BFloat16;
using ::tinytorch::elementSize;
using ::tinytorch::isFloatingType;
using ::tinytorch::isIntegralType;
using ::tinytorch::isComplexType;
using ::tinytorch::isReducedFloatingType;
using ::tinytorch::promoteTypes;
using ::tinytorch::canCast;
using ::tinytorch::TypeMeta;
using ::tinytorch::kQInt8;
using ::tinytorch::kQUInt8;
using ::tinytorch::kQInt32;
using QScheme = ::tinytorch::QScheme;
using ::tinytorch::kPerTensorAffine;
using ::tinytorch::kPerChannelAffine;
using ::tinytorch::kPerTensorSymmetric;
using ::tinytorch::kPerChannelSymmetric;
using ::tinytorch::toString;
using Device = ::tinytorch::Device;
using DeviceType = ::tinytorch::DeviceType;
using ::tinytorch::DeviceTypeName;
using ::tinytorch::kCPU;
using ::tinytorch::kCUDA;
template <typename T>
using optional = std::optional<T>;
using std::make_optional;
using std::nullopt;
}  // namespace c10
