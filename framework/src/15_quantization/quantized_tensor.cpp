// Module 15 (Quantization), given code: quantized tensors in LibTorch's spelling. A quantized
// tensor is an ordinary TensorImpl whose storage holds the integer codes and whose quantizer
// (tinytorch/tensor_impl.h) says what they mean. This file checks arguments with LibTorch's
// messages, allocates, and calls the learner's loops (quantize_loops.cpp).
#include <cmath>
#include <limits>
#include <string>

#include "01_tensor/internal.h"
#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/quantization.h"
#include "tinytorch/quantized_kernels.h"
#include "tinytorch/tensor_impl.h"

namespace tinytorch {

std::string toString(QScheme qscheme) {
  switch (qscheme) {
    case kPerTensorAffine: return "per_tensor_affine";
    case kPerChannelAffine: return "per_channel_affine";
    case kPerTensorSymmetric: return "per_tensor_symmetric";
    case kPerChannelSymmetric: return "per_channel_symmetric";
    case kPerChannelAffineFloatQParams: return "per_channel_affine_float_qparams";
  }
  throw Error(detail::str("Unrecognized qscheme: ", static_cast<int>(qscheme)));
}

namespace quantization {
std::tuple<int64_t, int64_t> quant_range(ScalarType dtype, bool reduce_range) {
  int64_t low = 0, high = 0;
  switch (dtype) {
    case kQInt8: low = -128; high = 127; break;
    case kQUInt8: low = 0; high = 255; break;
    case kQInt32: low = std::numeric_limits<int32_t>::min(); high = std::numeric_limits<int32_t>::max(); break;
    default:
      throw Error(detail::str("quantization: dtype must be kQInt8, kQUInt8 or kQInt32, got ", toString(dtype)));
  }
  if (reduce_range && dtype != kQInt32) {
    low /= 2;
    high /= 2;
  }
  return {low, high};
}
}  // namespace quantization

namespace {

const Quantizer& quantizer_of(const Tensor& t, const char* op) {
  const auto& quantizer = t.unsafeGetTensorImpl()->quantizer();
  TT_CHECK(quantizer != nullptr, op, " expects a quantized Tensor (made by torch::quantize_per_tensor or "
           "torch::quantize_per_channel), got a ", t.toString());
  return *quantizer;
}

void check_quantize_arguments(const char* fn_name, const Tensor& self, ScalarType dtype) {
  TT_CHECK(self.defined(), fn_name, ": the input tensor is undefined");
  TT_CHECK(self.scalar_type() == kFloat, "Quantize only works on Float Tensor, got ", toString(self.scalar_type()));
  TT_CHECK(isQIntType(dtype), "ScalarType ", toString(dtype), " is not supported in new_qtensor.");
}

void check_zero_point(const char* fn_name, int64_t zero_point, ScalarType dtype) {
  const auto [low, high] = quantization::quant_range(dtype);
  TT_CHECK(zero_point <= high, fn_name, " zero_point ", zero_point, " is above upper bound.");
  TT_CHECK(zero_point >= low, fn_name, " zero_point ", zero_point, " is below lower bound.");
}

// A fresh contiguous quantized tensor of `sizes` and the plain tensor that aliases its codes, so the
// learner's loops can write them with an ordinary dtype.
std::tuple<Tensor, Tensor> empty_quantized(IntArrayRef sizes, std::shared_ptr<const Quantizer> quantizer) {
  Tensor codes = empty(sizes, TensorOptions(toUnderlying(quantizer->dtype)));
  auto impl = std::make_shared<TensorImpl>(codes.storage(), quantizer->dtype, sizes.vec(), contiguous_strides(sizes), 0);
  impl->set_quantizer(std::move(quantizer));
  return {Tensor(std::move(impl)), codes};
}

// The codes of a quantized tensor as a contiguous plain tensor (a copy only when not contiguous).
Tensor codes_of(const Tensor& q) {
  auto impl = std::make_shared<TensorImpl>(q.storage(), toUnderlying(q.scalar_type()), q.sizes().vec(),
                                           q.strides().vec(), q.storage_offset());
  return Tensor(std::move(impl)).contiguous();
}

// Printing (module 01's given code) names Tensor::dequantize, so this file is linked into every build,
// also those before module 15. Its references to the module's loops (the learner's quantize_loops.cpp)
// are weak so that such a build links; the module's builds keep the loops by a linker -u entry
// (framework/CMakeLists.txt, TINYTORCH_MODULE_KEEP_SYMBOLS "15=...").
void require_quantization_loops(const char* op) {
  TT_CHECK(&native::quantize_per_tensor_loop != nullptr && &native::dequantize_per_tensor_loop != nullptr &&
               &native::quantize_per_channel_loop != nullptr && &native::dequantize_per_channel_loop != nullptr,
           op, ": quantization is module 15's code, and this build does not include module 15. ",
           "Fix: start module 15 (tito module start 15) or build against the reference framework");
}

}  // namespace
}  // namespace tinytorch

namespace tinytorch::native {
__attribute__((weak)) void quantize_per_tensor_loop(const Tensor& input, const Tensor& codes, double scale,
                                                    int64_t zero_point, int64_t quant_min, int64_t quant_max);
__attribute__((weak)) void dequantize_per_tensor_loop(const Tensor& codes, const Tensor& output, double scale,
                                                      int64_t zero_point);
__attribute__((weak)) void quantize_per_channel_loop(const Tensor& input, const Tensor& codes, const Tensor& scales,
                                                     const Tensor& zero_points, int64_t axis, int64_t quant_min,
                                                     int64_t quant_max);
__attribute__((weak)) void dequantize_per_channel_loop(const Tensor& codes, const Tensor& output,
                                                       const Tensor& scales, const Tensor& zero_points, int64_t axis);
}  // namespace tinytorch::native

namespace tinytorch {

Tensor quantize_per_tensor(const Tensor& self, double scale, int64_t zero_point, ScalarType dtype) {
  static const char* fn_name = "quantize_tensor_per_tensor_affine";
  require_quantization_loops("quantize_per_tensor");
  check_quantize_arguments(fn_name, self, dtype);
  TT_CHECK(scale > 0 && std::isfinite(scale), fn_name, ": scale must be a positive finite number, got ", scale);
  check_zero_point(fn_name, zero_point, dtype);
  auto quantizer = std::make_shared<Quantizer>();
  quantizer->qscheme = kPerTensorAffine;
  quantizer->dtype = dtype;
  quantizer->scale = scale;
  quantizer->zero_point = zero_point;
  auto [result, codes] = empty_quantized(self.sizes(), std::move(quantizer));
  const auto [low, high] = quantization::quant_range(dtype);
  native::quantize_per_tensor_loop(self.contiguous(), codes, scale, zero_point, low, high);
  return result;
}

Tensor quantize_per_channel(const Tensor& self, const Tensor& scales, const Tensor& zero_points, int64_t axis,
                            ScalarType dtype) {
  static const char* fn_name = "quantize_tensor_per_channel_affine";
  require_quantization_loops("quantize_per_channel");
  check_quantize_arguments(fn_name, self, dtype);
  TT_CHECK(axis >= 0 && axis < self.dim(), "Channel axis out of range in per channel affine quantization. Got: ",
           axis, "Expected: [0, ", self.dim(), ")");
  TT_CHECK(scales.dim() == 1 && scales.numel() == self.size(axis), "length of scales must equal to channel");
  TT_CHECK(zero_points.dim() == 1 && zero_points.numel() == self.size(axis), "length of zero_point must equal to channel");
  auto quantizer = std::make_shared<Quantizer>();
  quantizer->qscheme = kPerChannelAffine;
  quantizer->dtype = dtype;
  quantizer->scales = scales.to(kDouble, false, true).contiguous();
  quantizer->zero_points = zero_points.to(kLong, false, true).contiguous();
  quantizer->axis = axis;
  const double* s = quantizer->scales.data_ptr<double>();
  const int64_t* z = quantizer->zero_points.data_ptr<int64_t>();
  for (int64_t c = 0; c < scales.numel(); ++c) {
    TT_CHECK(s[c] > 0 && std::isfinite(s[c]), fn_name, ": every scale must be a positive finite number, got ", s[c],
             " for channel ", c);
    check_zero_point(fn_name, z[c], dtype);
  }
  const Tensor channel_scales = quantizer->scales, channel_zero_points = quantizer->zero_points;
  auto [result, codes] = empty_quantized(self.sizes(), std::move(quantizer));
  const auto [low, high] = quantization::quant_range(dtype);
  native::quantize_per_channel_loop(self.contiguous(), codes, channel_scales, channel_zero_points, axis, low, high);
  return result;
}

Tensor dequantize(const Tensor& self) { return self.dequantize(); }

bool Tensor::is_quantized() const { return defined() && unsafeGetTensorImpl()->quantizer() != nullptr; }

QScheme Tensor::qscheme() const { return quantizer_of(*this, "qscheme").qscheme; }

double Tensor::q_scale() const {
  const Quantizer& q = quantizer_of(*this, "q_scale");
  TT_CHECK(q.qscheme == kPerTensorAffine, "Expected quantizer->qscheme() == kPerTensorAffine to be true, but got false.  "
           "(Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
  return q.scale;
}

int64_t Tensor::q_zero_point() const {
  const Quantizer& q = quantizer_of(*this, "q_zero_point");
  TT_CHECK(q.qscheme == kPerTensorAffine, "Expected quantizer->qscheme() == kPerTensorAffine to be true, but got false.  "
           "(Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
  return q.zero_point;
}

namespace {
const Quantizer& per_channel_quantizer(const Tensor& t, const char* op) {
  const Quantizer& q = quantizer_of(t, op);
  TT_CHECK(q.qscheme == kPerChannelAffine, "Expected quantizer->qscheme() == kPerChannelAffine || quantizer->qscheme() "
           "== kPerChannelAffineFloatQParams to be true, but got false.  (Could this error message be improved?  If so, "
           "please report an enhancement request to PyTorch.)");
  return q;
}
}  // namespace

Tensor Tensor::q_per_channel_scales() const { return per_channel_quantizer(*this, "q_per_channel_scales").scales.clone(); }
Tensor Tensor::q_per_channel_zero_points() const {
  return per_channel_quantizer(*this, "q_per_channel_zero_points").zero_points.clone();
}
int64_t Tensor::q_per_channel_axis() const { return per_channel_quantizer(*this, "q_per_channel_axis").axis; }

Tensor Tensor::int_repr() const {
  quantizer_of(*this, "int_repr");
  return codes_of(*this).clone();
}

Tensor Tensor::dequantize() const {
  const Quantizer& q = quantizer_of(*this, "dequantize");
  require_quantization_loops("dequantize");
  const Tensor codes = codes_of(*this);
  Tensor output = empty(sizes(), TensorOptions(kFloat));
  if (q.qscheme == kPerTensorAffine) {
    native::dequantize_per_tensor_loop(codes, output, q.scale, q.zero_point);
  } else {
    native::dequantize_per_channel_loop(codes, output, q.scales, q.zero_points, q.axis);
  }
  return output;
}

}  // namespace tinytorch
