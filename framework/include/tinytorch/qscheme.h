#pragma once
// How a quantized tensor's integer codes map back to real numbers (LibTorch's c10::QScheme).
//   per tensor:  real = (code - zero_point) * scale, one scale and zero point for every element;
//   per channel: each index c along `axis` has its own scales[c] and zero_points[c].
// "Symmetric" schemes are affine ones whose zero point is fixed (0 for signed codes); LibTorch
// stores them as affine tensors too, so only the two affine schemes ever appear on a tensor.
#include <cstdint>
#include <string>

namespace tinytorch {

enum class QScheme : uint8_t {
  PER_TENSOR_AFFINE = 0,
  PER_CHANNEL_AFFINE = 1,
  PER_TENSOR_SYMMETRIC = 2,
  PER_CHANNEL_SYMMETRIC = 3,
  PER_CHANNEL_AFFINE_FLOAT_QPARAMS = 4,
};
constexpr auto kPerTensorAffine = QScheme::PER_TENSOR_AFFINE;
constexpr auto kPerChannelAffine = QScheme::PER_CHANNEL_AFFINE;
constexpr auto kPerTensorSymmetric = QScheme::PER_TENSOR_SYMMETRIC;
constexpr auto kPerChannelSymmetric = QScheme::PER_CHANNEL_SYMMETRIC;
constexpr auto kPerChannelAffineFloatQParams = QScheme::PER_CHANNEL_AFFINE_FLOAT_QPARAMS;

// LibTorch's names: toString(kPerTensorAffine) == "per_tensor_affine". (LibTorch streams no QScheme.)
std::string toString(QScheme qscheme);

}  // namespace tinytorch
