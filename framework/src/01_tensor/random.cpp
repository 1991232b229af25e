// Random factories. TinyTorch has its own generator (std::mt19937_64): manual_seed() makes runs
// reproducible, but the numbers differ from LibTorch's for the same seed (its streams come from a
// Philox/MT19937 implementation we do not replicate).
#include <cmath>
#include <random>
#include <vector>

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

namespace tinytorch {

// Inverse-CDF sampling per row, in double: draw u in [0, total), take the first category whose
// running sum exceeds u. Without replacement a drawn category's weight is set to zero for the
// rest of the row, as LibTorch's sampling without replacement does.
Tensor Tensor::multinomial(int64_t num_samples, bool replacement) const {
  TT_CHECK(dim() == 1 || dim() == 2, "prob_dist must be 1 or 2 dim");
  TT_CHECK(is_floating_point(), "multinomial only supports floating-point dtypes for input, got: ",
           ::tinytorch::toString(scalar_type()));
  TT_CHECK(num_samples > 0, "cannot sample n_sample <= 0 samples");
  const int64_t categories = size(-1);
  TT_CHECK(replacement || num_samples <= categories,
           "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  TT_CHECK(categories <= (int64_t{1} << 24), "number of categories cannot exceed 2^24");
  const int64_t rows = dim() == 1 ? 1 : size(0);
  const Tensor probs = to(kDouble).contiguous();
  const double* p = probs.data_ptr<double>();
  Tensor result = dim() == 1 ? empty({num_samples}, kLong) : empty({rows, num_samples}, kLong);
  int64_t* out = result.data_ptr<int64_t>();
  std::vector<double> weights(static_cast<size_t>(categories));
  for (int64_t r = 0; r < rows; ++r) {
    double total = 0;
    int64_t positive = 0;
    for (int64_t c = 0; c < categories; ++c) {
      const double w = p[r * categories + c];
      TT_CHECK(std::isfinite(w) && w >= 0, "probability tensor contains either `inf`, `nan` or element < 0");
      weights[c] = w;
      total += w;
      positive += w > 0;
    }
    TT_CHECK(total > 0, "invalid multinomial distribution (sum of probabilities <= 0)");
    TT_CHECK(replacement || positive >= num_samples,
             "invalid multinomial distribution (with replacement=False, not enough non-negative category to sample)");
    for (int64_t s = 0; s < num_samples; ++s) {
      const double u = static_cast<double>(generator()() >> 11) * 0x1.0p-53 * total;
      double running = 0;
      int64_t chosen = -1;
      for (int64_t c = 0; c < categories; ++c) {
        if (weights[c] <= 0) continue;
        chosen = c;  // the last positive category catches u lost to rounding at the top
        running += weights[c];
        if (u < running) break;
      }
      out[r * num_samples + s] = chosen;
      if (!replacement) {
        total -= weights[chosen];
        weights[chosen] = 0;
      }
    }
  }
  return result;
}

}  // namespace tinytorch
