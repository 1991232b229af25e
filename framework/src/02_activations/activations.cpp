// Module 02 (Activations): the kernels you write. The given code (activation_ops.cpp) checks dtypes
// and dims, hands you a contiguous input, and records the op for autograd (module 06); tanh and
// GELU are given there as worked examples of the same shape.
//
// Every kernel here allocates its output with empty(self.sizes(), self.options()) and writes it
// through raw pointers inside a dtype dispatch:
//   TT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "sigmoid", [&] {
//     const scalar_t* in = static_cast<const scalar_t*>(self.data_ptr());
//     scalar_t* out_data = static_cast<scalar_t*>(out.data_ptr());
//     ...
//   });
#include <algorithm>
#include <cmath>
#include <limits>

#include "tinytorch/activations.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace native {

// TODO: relu(self) -> max(x, 0) for every element, same shape and dtype as self (Long, Float or
//   Double: relu of int64 is int64), like LibTorch's (lesson section 2): relu(NaN) is NaN. self is
//   contiguous (the given torch::relu made it so). TT_DISPATCH_NUMERIC_TYPES gives you scalar_t.
//   Throws nothing (the given code refused bool).
//   Example: [-2, -0.5, 0, 3] -> [0, 0, 0, 3];  [NaN, -1] -> [NaN, 0].
Tensor relu(const Tensor& self) {
  // BEGIN SOLUTION name="tinytorch::native::relu" lesson="2. ReLU"
  Tensor out = empty(self.sizes(), self.options());
  TT_DISPATCH_NUMERIC_TYPES(self.scalar_type(), "relu", [&] {
    const scalar_t* in = static_cast<const scalar_t*>(self.data_ptr());
    scalar_t* out_data = static_cast<scalar_t*>(out.data_ptr());
    const int64_t n = self.numel();  // read once: numel() is a call into the library
    for (int64_t i = 0; i < n; ++i) {
      out_data[i] = in[i] < 0 ? static_cast<scalar_t>(0) : in[i];  // NaN < 0 is false: NaN stays
    }
  });
  return out;
  // END SOLUTION
}

// TODO: sigmoid(self) -> 1 / (1 + exp(-x)) for every element, same shape and dtype as self (Float or
//   Double; the given code converted integers), without ever overflowing exp() or producing NaN
//   for a finite input (lesson section 3 shows why the naive formula does). TT_DISPATCH_FLOATING_TYPES
//   gives you scalar_t. Throws nothing.
//   Example: [-1000, 0, 1000] -> [0, 0.5, 1]; sigmoid(1) = 0.7310586.
Tensor sigmoid(const Tensor& self) {
  // BEGIN SOLUTION name="tinytorch::native::sigmoid" lesson="3. Sigmoid"
  Tensor out = empty(self.sizes(), self.options());
  TT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "sigmoid", [&] {
    const scalar_t* in = static_cast<const scalar_t*>(self.data_ptr());
    scalar_t* out_data = static_cast<scalar_t*>(out.data_ptr());
    const scalar_t one = 1;
    const int64_t n = self.numel();
    for (int64_t i = 0; i < n; ++i) {
      const scalar_t x = in[i];
      if (x >= 0) {
        out_data[i] = one / (one + std::exp(-x));
      } else {
        const scalar_t z = std::exp(x);
        out_data[i] = z / (one + z);  // also the NaN path: NaN >= 0 is false, exp(NaN) is NaN
      }
    }
  });
  return out;
  // END SOLUTION
}

// TODO: softmax(self, dim) -> exp(x) / sum(exp(x)) along `dim` (wrapped, 0 <= dim < self.dim(), or
//   0 for a 0-dim tensor), same shape and floating dtype as self, computed without overflow for any
//   finite logits (lesson section 5). self is contiguous. A row of all -inf gives NaN, as LibTorch.
//   Throws nothing (the given torch::softmax checked the arguments).
//   Example: [1, 2, 3] -> [0.0900306, 0.2447285, 0.6652410]; [1000, 1001] -> [0.2689414, 0.7310586];
//   on a (2, 3) tensor, dim 1 normalises each row and dim 0 each column.
Tensor softmax(const Tensor& self, int64_t dim) {
  // BEGIN SOLUTION name="tinytorch::native::softmax" lesson="5. Softmax"
  Tensor out = empty(self.sizes(), self.options());
  const int64_t n = self.size(dim);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= self.size(d);
  for (int64_t d = dim + 1; d < self.dim(); ++d) inner *= self.size(d);
  TT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "softmax", [&] {
    const scalar_t* in = static_cast<const scalar_t*>(self.data_ptr());
    scalar_t* out_data = static_cast<scalar_t*>(out.data_ptr());
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t base = o * n * inner + i;  // element j of this row is at base + j * inner
        scalar_t m = -std::numeric_limits<scalar_t>::infinity();
        for (int64_t j = 0; j < n; ++j) m = std::max(m, in[base + j * inner]);
        scalar_t total = 0;
        for (int64_t j = 0; j < n; ++j) {
          out_data[base + j * inner] = std::exp(in[base + j * inner] - m);
          total += out_data[base + j * inner];
        }
        for (int64_t j = 0; j < n; ++j) out_data[base + j * inner] /= total;
      }
    }
  });
  return out;
  // END SOLUTION
}

// TODO: log_softmax(self, dim) -> log(softmax(x)) along `dim`, same arguments as softmax, computed
//   without taking softmax first: finite wherever the result is finite, even where softmax
//   underflows to 0 (lesson section 6). Throws nothing.
//   Example: [1, 2, 3] -> [-2.4076059, -1.4076059, -0.4076059]; in float32 [0, -200] -> [0, -200],
//   not [0, -inf].
Tensor log_softmax(const Tensor& self, int64_t dim) {
  // BEGIN SOLUTION name="tinytorch::native::log_softmax" lesson="6. Log-softmax"
  Tensor out = empty(self.sizes(), self.options());
  const int64_t n = self.size(dim);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= self.size(d);
  for (int64_t d = dim + 1; d < self.dim(); ++d) inner *= self.size(d);
  TT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "log_softmax", [&] {
    const scalar_t* in = static_cast<const scalar_t*>(self.data_ptr());
    scalar_t* out_data = static_cast<scalar_t*>(out.data_ptr());
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t base = o * n * inner + i;
        scalar_t m = -std::numeric_limits<scalar_t>::infinity();
        for (int64_t j = 0; j < n; ++j) m = std::max(m, in[base + j * inner]);
        scalar_t total = 0;
        for (int64_t j = 0; j < n; ++j) total += std::exp(in[base + j * inner] - m);
        const scalar_t log_total = std::log(total);
        for (int64_t j = 0; j < n; ++j) out_data[base + j * inner] = in[base + j * inner] - m - log_total;
      }
    }
  });
  return out;
  // END SOLUTION
}

}  // namespace native
}  // namespace tinytorch
