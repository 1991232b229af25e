#pragma once
// LibTorch's other activation functions as torch:: functions (ATen's spellings and defaults), with
// their in-place `_` and out= forms where ATen has them: silu, mish, softplus, hardtanh, relu6, elu,
// selu, celu, hardsigmoid, hardswish, hardshrink, softshrink, threshold, log_sigmoid. Floating inputs
// only, except hardtanh, relu6 and threshold, which also take integers. F:: and nn:: spellings are in
// tinytorch/nn/functional/activation.h and nn/modules/activation.h. src/02_activations/more_activations.cpp.
#include "tinytorch/scalar.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

// x * sigmoid(x) (SiLU, "swish").
Tensor silu(const Tensor& self);
Tensor& silu_(Tensor& self);
Tensor& silu_out(Tensor& out, const Tensor& self);
inline Tensor& silu_outf(const Tensor& self, Tensor& out) { return silu_out(out, self); }

// x * tanh(softplus(x)).
Tensor mish(const Tensor& self);
Tensor& mish_(Tensor& self);
Tensor& mish_out(Tensor& out, const Tensor& self);
inline Tensor& mish_outf(const Tensor& self, Tensor& out) { return mish_out(out, self); }

// log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (where exp would overflow).
Tensor softplus(const Tensor& self, const Scalar& beta = 1, const Scalar& threshold = 20);
Tensor& softplus_out(Tensor& out, const Tensor& self, const Scalar& beta = 1, const Scalar& threshold = 20);
inline Tensor& softplus_outf(const Tensor& self, const Scalar& beta, const Scalar& threshold, Tensor& out) {
  return softplus_out(out, self, beta, threshold);
}

// x clamped to [min_val, max_val]; relu6 is hardtanh(x, 0, 6).
Tensor hardtanh(const Tensor& self, const Scalar& min_val = -1, const Scalar& max_val = 1);
Tensor& hardtanh_(Tensor& self, const Scalar& min_val = -1, const Scalar& max_val = 1);
Tensor& hardtanh_out(Tensor& out, const Tensor& self, const Scalar& min_val = -1, const Scalar& max_val = 1);
inline Tensor& hardtanh_outf(const Tensor& self, const Scalar& min_val, const Scalar& max_val, Tensor& out) {
  return hardtanh_out(out, self, min_val, max_val);
}
inline Tensor relu6(const Tensor& self) { return hardtanh(self, 0, 6); }
inline Tensor& relu6_(Tensor& self) { return hardtanh_(self, 0, 6); }

// scale * x for x > 0, scale * alpha * (exp(input_scale * x) - 1) otherwise.
Tensor elu(const Tensor& self, const Scalar& alpha = 1, const Scalar& scale = 1, const Scalar& input_scale = 1);
Tensor& elu_(Tensor& self, const Scalar& alpha = 1, const Scalar& scale = 1, const Scalar& input_scale = 1);
Tensor& elu_out(Tensor& out, const Tensor& self, const Scalar& alpha = 1, const Scalar& scale = 1,
                const Scalar& input_scale = 1);
inline Tensor& elu_outf(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale,
                        Tensor& out) {
  return elu_out(out, self, alpha, scale, input_scale);
}
// elu with SELU's fixed alpha and scale (self-normalising networks).
Tensor selu(const Tensor& self);
Tensor& selu_(Tensor& self);
// elu(x, alpha, 1, 1 / alpha): continuously differentiable at 0.
Tensor celu(const Tensor& self, const Scalar& alpha = 1.0);
Tensor& celu_(Tensor& self, const Scalar& alpha = 1.0);
Tensor& celu_out(Tensor& out, const Tensor& self, const Scalar& alpha = 1.0);
inline Tensor& celu_outf(const Tensor& self, const Scalar& alpha, Tensor& out) { return celu_out(out, self, alpha); }

// min(max(x + 3, 0), 6) / 6, and x times it.
Tensor hardsigmoid(const Tensor& self);
Tensor& hardsigmoid_(Tensor& self);
Tensor& hardsigmoid_out(Tensor& out, const Tensor& self);
inline Tensor& hardsigmoid_outf(const Tensor& self, Tensor& out) { return hardsigmoid_out(out, self); }
Tensor hardswish(const Tensor& self);
Tensor& hardswish_(Tensor& self);
Tensor& hardswish_out(Tensor& out, const Tensor& self);
inline Tensor& hardswish_outf(const Tensor& self, Tensor& out) { return hardswish_out(out, self); }

// 0 inside [-lambd, lambd]; hardshrink keeps x outside, softshrink moves it lambd towards 0.
inline Tensor hardshrink(const Tensor& self, const Scalar& lambd = 0.5) { return self.hardshrink(lambd); }
Tensor& hardshrink_out(Tensor& out, const Tensor& self, const Scalar& lambd = 0.5);
inline Tensor& hardshrink_outf(const Tensor& self, const Scalar& lambd, Tensor& out) {
  return hardshrink_out(out, self, lambd);
}
Tensor softshrink(const Tensor& self, const Scalar& lambd = 0.5);
Tensor& softshrink_out(Tensor& out, const Tensor& self, const Scalar& lambd = 0.5);
inline Tensor& softshrink_outf(const Tensor& self, const Scalar& lambd, Tensor& out) {
  return softshrink_out(out, self, lambd);
}

// x where x > threshold, else value.
Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value);
Tensor& threshold_(Tensor& self, const Scalar& threshold, const Scalar& value);
Tensor& threshold_out(Tensor& out, const Tensor& self, const Scalar& threshold, const Scalar& value);
inline Tensor& threshold_outf(const Tensor& self, const Scalar& threshold, const Scalar& value, Tensor& out) {
  return threshold_out(out, self, threshold, value);
}

// log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|)), which never overflows.
Tensor log_sigmoid(const Tensor& self);
Tensor& log_sigmoid_out(Tensor& out, const Tensor& self);
inline Tensor& log_sigmoid_outf(const Tensor& self, Tensor& out) { return log_sigmoid_out(out, self); }

}  // namespace tinytorch
