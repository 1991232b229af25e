// Random factories. TinyTorch has its own generator (std::mt19937_64): manual_seed() makes runs
// reproducible, but the numbers differ from LibTorch's for the same seed (its streams come from a
// Philox/MT19937 implementation we do not replicate).
#include <random>

#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

std::mt19937_64& generator() {
  static std::mt19937_64 engine(5489u);  // a fixed default seed: runs are reproducible by default
  return engine;
}

template <typename Distribution>
Tensor sample(IntArrayRef size, TensorOptions options, Distribution distribution) {
  Tensor t = empty(size, options.requires_grad(false));
  TT_DISPATCH_ALL_TYPES(t.scalar_type(), "random", [&] {
    scalar_t* data = static_cast<scalar_t*>(t.data_ptr());
    for (int64_t i = 0; i < t.numel(); ++i) data[i] = static_cast<scalar_t>(distribution(generator()));
  });
  if (options.requires_grad()) t.requires_grad_(true);
  return t;
}

}  // namespace

void manual_seed(uint64_t seed) { generator().seed(seed); }

Tensor rand(IntArrayRef size, TensorOptions options) {
  TT_CHECK(isFloatingType(options.dtype().toScalarType()), "\"check_uniform_bounds\" not implemented for '",
           toString(options.dtype().toScalarType()), "'");
  // 24 random bits scaled to [0, 1): exactly representable in float, so a value never rounds up to 1.
  return sample(size, options, [](std::mt19937_64& g) { return static_cast<double>(g() >> 40) * 0x1.0p-24; });
}

Tensor randn(IntArrayRef size, TensorOptions options) {
  TT_CHECK(isFloatingType(options.dtype().toScalarType()), "\"normal_kernel_cpu\" not implemented for '",
           toString(options.dtype().toScalarType()), "'");
  return sample(size, options, std::normal_distribution<double>(0.0, 1.0));
}

Tensor randint(int64_t high, IntArrayRef size, TensorOptions options) { return randint(0, high, size, options); }

Tensor randint(int64_t low, int64_t high, IntArrayRef size, TensorOptions options) {
  TT_CHECK(low < high, "random_ expects 'from' to be less than 'to', but got from=", low, " >= to=", high);
  return sample(size, options, std::uniform_int_distribution<int64_t>(low, high - 1));
}

Tensor rand_like(const Tensor& self, TensorOptions options) {
  return rand(self.sizes(), options.dtype(options.dtype_opt().value_or(self.scalar_type())));
}

Tensor randn_like(const Tensor& self, TensorOptions options) {
  return randn(self.sizes(), options.dtype(options.dtype_opt().value_or(self.scalar_type())));
}

}  // namespace tinytorch
