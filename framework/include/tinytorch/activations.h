#pragma once
// Module 02 (Activations): LibTorch's element-wise nonlinearities and softmax as free functions,
// torch::relu(x), torch::sigmoid(x), torch::tanh(x), torch::gelu(x, "tanh"), torch::softmax(x, 1),
// torch::log_softmax(x, 1), and the kernels behind them.
//
// Learner files include this header, so it stays as light as tensor.h.
#include <cstdint>
#include <optional>
#include <string>

#include "tinytorch/scalar.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

// max(x, 0) element-wise; keeps the dtype (int64 in, int64 out). Bool is refused, as in LibTorch.
Tensor relu(const Tensor& self);
// 1 / (1 + exp(-x)), computed so that no exp() overflows; integer inputs give the default float dtype.
Tensor sigmoid(const Tensor& self);
// (exp(x) - exp(-x)) / (exp(x) + exp(-x)); integer inputs give the default float dtype.
Tensor tanh(const Tensor& self);
// x * Phi(x), Phi the standard normal CDF: approximate "none" uses erf exactly, "tanh" the
// tanh approximation 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). Floating inputs only.
Tensor gelu(const Tensor& self, const std::string& approximate = "none");
Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope = 0.01);
// exp(x) / sum(exp(x)) along `dim`, computed as exp(x - max) / sum(exp(x - max)). With `dtype`
// the input is converted first (as LibTorch); integer inputs need it.
Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
// log(softmax(x)) along `dim`, computed as (x - max) - log(sum(exp(x - max))).
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);

namespace native {
// ---------------------------------------------------------------------------------------------
// Module 02: the kernels. The public functions above check dtypes and dims, make the input
// contiguous, call these, and record the op (tinytorch/dispatch.h). Every kernel returns a new
// contiguous tensor with self's sizes.
// ---------------------------------------------------------------------------------------------

// activations.cpp (learner) -- lesson section "2. ReLU". self: any of Long, Float, Double.
Tensor relu(const Tensor& self);
// activations.cpp (learner) -- lesson section "3. Sigmoid". self: contiguous Float or Double.
Tensor sigmoid(const Tensor& self);
// activations.cpp (learner) -- lesson section "5. Softmax". self: contiguous Float or Double with
// at least one dim; dim already wrapped to 0..self.dim()-1.
Tensor softmax(const Tensor& self, int64_t dim);
// activations.cpp (learner) -- lesson section "6. Log-softmax". Same contract as softmax.
Tensor log_softmax(const Tensor& self, int64_t dim);

// activation_ops.cpp (given) -- lesson section "4. Tanh and GELU". self: contiguous Float or Double.
Tensor tanh(const Tensor& self);
Tensor gelu(const Tensor& self, bool tanh_approximation);
}  // namespace native

}  // namespace tinytorch
