// Random factories. TinyTorch has its own generator (std::mt19937_64): manual_seed() makes runs
// reproducible, but the numbers differ from LibTorch's for the same seed (its streams come from a
// Philox/MT19937 implementation we do not replicate).
#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <random>
#include <vector>

#include "internal.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/kernels.h"
#include "tinytorch/tensor_factories.h"

namespace tinytorch {
namespace {

std::mt19937_64& shared_generator() {
  static std::mt19937_64 engine(5489u);  // a fixed default seed: runs are reproducible by default
  return engine;
}

// Set on a DataLoader worker thread (detail::seed_this_thread): its draws come from here, never from
// the shared engine, so they depend on the job's seed alone and take no lock.
thread_local std::optional<std::mt19937_64> t_thread_generator;

std::mt19937_64& generator() { return t_thread_generator ? *t_thread_generator : shared_generator(); }

// LibTorch's default CPU generator is shared by every thread, and each random kernel holds the
// generator's lock while it draws (ATen's note "Acquire lock when using random generators"): two
// threads may call torch::rand at once. The same here: code that draws from the shared engine holds
// this lock for its whole loop (one lock a kernel, not one a number). A thread with an engine of its
// own (a DataLoader worker) takes no lock. Recursive, so that a kernel may call another that locks.
std::recursive_mutex& shared_generator_mutex() {
  static auto* mutex = new std::recursive_mutex();  // never destroyed: threads may draw during exit
  return *mutex;
}
// Made before main and before any thread, like the caching allocator (see caching_allocator.cpp).
[[maybe_unused]] const bool generator_mutex_made_before_main = (shared_generator_mutex(), shared_generator(), true);

class GeneratorLock {
 public:
  GeneratorLock() {
    if (!t_thread_generator) lock_ = std::unique_lock<std::recursive_mutex>(shared_generator_mutex());
  }

 private:
  std::unique_lock<std::recursive_mutex> lock_;
};

// A fresh tensor of draws. The narrow dtypes draw in their computation type (float for Half and
// BFloat16, int64 for the small integers) and convert.
template <typename Distribution>
Tensor sample(IntArrayRef size, TensorOptions options, Distribution distribution) {
  const ScalarType dtype = options.dtype().toScalarType();
  Tensor t = empty(size, TensorOptions(detail::computation_type(dtype)));
  TT_DISPATCH_ALL_TYPES(t.scalar_type(), "random", [&] {
    scalar_t* data = static_cast<scalar_t*>(t.data_ptr());
    GeneratorLock lock;
    for (int64_t i = 0; i < t.numel(); ++i) data[i] = static_cast<scalar_t>(distribution(generator()));
  });
  t = detail::as_dtype(t, dtype);
  if (options.requires_grad()) t.requires_grad_(true);
  return t;
}

// Uniform on [0, 1) with as many random bits as `dtype` keeps (24 for float and the 16-bit types,
// 53 for double), so that no draw rounds up to 1 when it is stored.
double uniform01(ScalarType dtype) {
  if (dtype == kDouble) return static_cast<double>(generator()() >> 11) * 0x1.0p-53;
  return static_cast<double>(generator()() >> 40) * 0x1.0p-24;
}

double standard_normal() { return std::normal_distribution<double>(0.0, 1.0)(generator()); }

// LibTorch's "\"normal_kernel_cpu\" not implemented for 'Long'" for the floating-only fills.
void check_floating(const Tensor& self, const char* kernel) {
  TT_CHECK(isFloatingType(self.scalar_type()), "\"", kernel, "\" not implemented for '",
           toString(self.scalar_type()), "'");
}

// self[i] = value(i) for every element (any dtype, any strides), as an in-place op recorded as `op`;
// its derivative is zero (the values no longer depend on the old ones).
template <typename Fn>
Tensor& fill_random(const Tensor& self, const OpHandle& op, Fn value) {
  detail::check_no_internal_overlap(self);
  check_in_place(op, {self});
  if (self.numel() > 0) {
    Tensor values = empty(self.sizes(), kDouble);
    double* data = values.data_ptr<double>();
    {
      GeneratorLock lock;
      for (int64_t i = 0; i < values.numel(); ++i) data[i] = value(i);
    }
    detail::copy_into(self, values);
  }
  record_in_place_op(op, {self});
  return const_cast<Tensor&>(self);
}

tensor_list zero_gradient(const BackwardContext& ctx) { return {zeros_like(ctx.grad())}; }

const OpHandle bernoulli_scalar_op("bernoulli_.float");
const OpHandle bernoulli_tensor_op("bernoulli_.Tensor");
const OpHandle random_from_op("random_.from");
const OpHandle random_to_op("random_.to");
const OpHandle random_op("random_");
const OpHandle uniform_op("uniform_");
const OpHandle normal_op("normal_");
const OpHandle cauchy_op("cauchy_");
const OpHandle log_normal_op("log_normal_");
const OpHandle exponential_op("exponential_");
const OpHandle geometric_op("geometric_");

const RegisterDerivative bernoulli_scalar_derivative("bernoulli_.float", {"BernoulliBackward1", nullptr, zero_gradient});
const RegisterDerivative bernoulli_tensor_derivative("bernoulli_.Tensor", {
    "BernoulliBackward2", nullptr,
    [](const BackwardContext& ctx) -> tensor_list { return {zeros_like(ctx.grad()), Tensor()}; }});
const RegisterDerivative random_from_derivative("random_.from", {"RandomBackward0", nullptr, zero_gradient});
const RegisterDerivative random_to_derivative("random_.to", {"RandomBackward1", nullptr, zero_gradient});
const RegisterDerivative random_derivative("random_", {"RandomBackward2", nullptr, zero_gradient});
const RegisterDerivative uniform_derivative("uniform_", {"UniformBackward0", nullptr, zero_gradient});
const RegisterDerivative normal_derivative("normal_", {"NormalBackward0", nullptr, zero_gradient});
const RegisterDerivative cauchy_derivative("cauchy_", {"CauchyBackward0", nullptr, zero_gradient});
const RegisterDerivative log_normal_derivative("log_normal_", {"LogNormalBackward0", nullptr, zero_gradient});
const RegisterDerivative exponential_derivative("exponential_", {"ExponentialBackward0", nullptr, zero_gradient});
const RegisterDerivative geometric_derivative("geometric_", {"GeometricBackward0", nullptr, zero_gradient});

// The largest integer random_ draws for `dtype` when no bound is given: the type's maximum, or for
// floating types the largest integer up to which every integer is exact (2^mantissa digits).
int64_t random_upper_bound(ScalarType dtype) {
  switch (dtype) {
    case kBool: return 1;
    case kByte: return 255;
    case kChar: return 127;
    case kShort: return 32767;
    case kInt: return 2147483647;
    case kHalf: return int64_t{1} << 11;
    case kBFloat16: return int64_t{1} << 8;
    case kFloat: return int64_t{1} << 24;
    case kDouble: return int64_t{1} << 53;
    default: return std::numeric_limits<int64_t>::max();
  }
}

int64_t random_lower_bound(ScalarType dtype) {
  switch (dtype) {
    case kBool: case kByte: return 0;
    case kChar: return -128;
    case kShort: return -32768;
    case kInt: return -2147483647 - 1;
    case kHalf: return -(int64_t{1} << 11);
    case kBFloat16: return -(int64_t{1} << 8);
    case kFloat: return -(int64_t{1} << 24);
    case kDouble: return -(int64_t{1} << 53);
    default: return std::numeric_limits<int64_t>::min();
  }
}

// A uniform integer in [from, to_inclusive].
int64_t random_integer(int64_t from, int64_t to_inclusive) {
  const uint64_t range = static_cast<uint64_t>(to_inclusive) - static_cast<uint64_t>(from);
  if (range == std::numeric_limits<uint64_t>::max()) return static_cast<int64_t>(generator()());
  return static_cast<int64_t>(static_cast<uint64_t>(from) + generator()() % (range + 1));
}

// random_ over [from, to_inclusive] with LibTorch's bound checks for integer dtypes (floating ones
// only warn in LibTorch, beyond their exact integers).
Tensor& random_fill(const Tensor& self, int64_t from, int64_t to_inclusive, const OpHandle& op) {
  const ScalarType dtype = self.scalar_type();
  if (isIntegralType(dtype, true)) {
    const TypeMeta meta(dtype);
    TT_CHECK(from >= random_lower_bound(dtype) && from <= random_upper_bound(dtype), "from is out of bounds for ",
             meta.name());
    TT_CHECK(to_inclusive >= random_lower_bound(dtype) && to_inclusive <= random_upper_bound(dtype),
             "to - 1 is out of bounds for ", meta.name());
  }
  return fill_random(self, op, [&](int64_t) { return static_cast<double>(random_integer(from, to_inclusive)); });
}

}  // namespace

void manual_seed(uint64_t seed) {
  std::lock_guard<std::recursive_mutex> lock(shared_generator_mutex());
  shared_generator().seed(seed);
}

namespace detail {
void seed_this_thread(uint64_t seed) { t_thread_generator.emplace(seed); }
void forget_thread_seed() { t_thread_generator.reset(); }
uint64_t peek_seed() {
  std::unique_lock<std::recursive_mutex> lock(shared_generator_mutex());
  std::mt19937_64 copy = shared_generator();
  lock.unlock();
  return copy();
}
}  // namespace detail

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

Tensor randint_like(const Tensor& self, int64_t high, TensorOptions options) {
  return randint_like(self, 0, high, options);
}

Tensor randint_like(const Tensor& self, int64_t low, int64_t high, TensorOptions options) {
  return randint(low, high, self.sizes(), options.dtype(options.dtype_opt().value_or(self.scalar_type())));
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
  GeneratorLock lock;
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

namespace tinytorch {

// ---- In-place random fills (Tensor methods) ----

Tensor& Tensor::bernoulli_(double p) const {
  TT_CHECK(p >= 0 && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  TT_CHECK(scalar_type() != kHalf, "\"bernoulli_scalar_cpu_\" not implemented for 'Half'");
  return fill_random(*this, bernoulli_scalar_op, [&](int64_t) { return uniform01(kDouble) < p ? 1.0 : 0.0; });
}

Tensor& Tensor::bernoulli_(const Tensor& p) const {
  check_floating(p, "bernoulli_tensor_cpu_p_");
  const Tensor probabilities = detail::as_contiguous(p.expand(sizes()), kDouble);
  const double* chance = probabilities.data_ptr<double>();
  for (int64_t i = 0; i < probabilities.numel(); ++i) {
    TT_CHECK(chance[i] >= 0 && chance[i] <= 1,
             "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  If "
             "so, please report an enhancement request to PyTorch.)");
  }
  detail::check_no_internal_overlap(*this);
  check_in_place(bernoulli_tensor_op, {*this, p});
  if (numel() > 0) {
    Tensor values = empty(sizes(), kDouble);
    double* data = values.data_ptr<double>();
    GeneratorLock lock;
    for (int64_t i = 0; i < values.numel(); ++i) data[i] = uniform01(kDouble) < chance[i] ? 1.0 : 0.0;
    detail::copy_into(*this, values);
  }
  record_in_place_op(bernoulli_tensor_op, {*this, p});
  return const_cast<Tensor&>(*this);
}

Tensor Tensor::bernoulli() const {
  NoGradGuard no_record;  // a sample: no gradient flows back to the probabilities
  Tensor result = empty_like(*this);
  result.bernoulli_(*this);
  return result;
}

Tensor Tensor::bernoulli(double p) const {
  NoGradGuard no_record;
  Tensor result = empty_like(*this);
  result.bernoulli_(p);
  return result;
}

Tensor& Tensor::random_(int64_t from, std::optional<int64_t> to) const {
  if (to) {
    TT_CHECK(from < *to, "random_ expects 'from' to be less than 'to', but got from=", from, " >= to=", *to);
    return random_fill(*this, from, *to - 1, random_from_op);
  }
  return random_fill(*this, from, random_upper_bound(scalar_type()), random_from_op);
}

Tensor& Tensor::random_(int64_t to) const {
  TT_CHECK(0 < to, "random_ expects 'from' to be less than 'to', but got from=0 >= to=", to);
  return random_fill(*this, 0, to - 1, random_to_op);
}

Tensor& Tensor::random_() const { return random_fill(*this, 0, random_upper_bound(scalar_type()), random_op); }

Tensor& Tensor::uniform_(double from, double to) const {
  check_floating(*this, "check_uniform_bounds");
  TT_CHECK(from <= to, "uniform_ expects to return a [from, to) range, but found from=", from, " > to=", to);
  const ScalarType dtype = scalar_type();
  return fill_random(*this, uniform_op, [&](int64_t) { return from + (to - from) * uniform01(dtype); });
}

Tensor& Tensor::normal_(double mean, double std) const {
  TT_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  check_floating(*this, "normal_kernel_cpu");
  return fill_random(*this, normal_op, [&](int64_t) { return mean + std * standard_normal(); });
}

Tensor& Tensor::cauchy_(double median, double sigma) const {
  check_floating(*this, "cauchy_cpu");
  const ScalarType dtype = scalar_type();
  return fill_random(*this, cauchy_op, [&](int64_t) {
    return median + sigma * std::tan(std::acos(-1.0) * (uniform01(dtype) - 0.5));
  });
}

Tensor& Tensor::log_normal_(double mean, double std) const {
  TT_CHECK(std > 0.0, "log_normal_ expects std > 0.0, but found std=", std);
  check_floating(*this, "log_normal_cpu");
  return fill_random(*this, log_normal_op, [&](int64_t) { return std::exp(mean + std * standard_normal()); });
}

Tensor& Tensor::exponential_(double lambd) const {
  TT_CHECK(lambd >= 0.0, "exponential_ expects lambda >= 0.0, but found lambda=", lambd);
  check_floating(*this, "exponential_cpu");
  const ScalarType dtype = scalar_type();
  // -log(1 - u) / lambda with u in [0, 1): 1 - u is in (0, 1], so the log is finite.
  return fill_random(*this, exponential_op, [&](int64_t) { return -std::log1p(-uniform01(dtype)) / lambd; });
}

Tensor& Tensor::geometric_(double p) const {
  TT_CHECK(p > 0 && p < 1, "geometric_ expects p to be in (0, 1), but got p=", p);
  // The number of trials up to the first success: ceil(log(1 - u) / log(1 - p)), at least 1.
  return fill_random(*this, geometric_op, [&](int64_t) {
    return std::max(1.0, std::ceil(std::log1p(-uniform01(kDouble)) / std::log1p(-p)));
  });
}

// ---- Random functions ----

Tensor bernoulli(const Tensor& self) { return self.bernoulli(); }
Tensor bernoulli(const Tensor& self, double p) { return self.bernoulli(p); }

Tensor normal(const Tensor& mean, double std) {
  TT_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  check_floating(mean, "normal_kernel_cpu");
  Tensor noise = empty_like(mean, TensorOptions(mean.scalar_type()));
  noise.normal_(0, std);
  return mean + noise;  // the gradient reaches the mean unchanged
}

Tensor normal(double mean, const Tensor& std) {
  check_floating(std, "normal_kernel_cpu");
  TT_CHECK(std.numel() == 0 || std.min().item<double>() >= 0.0, "normal expects all elements of std >= 0.0");
  Tensor noise = empty_like(std, TensorOptions(std.scalar_type()));
  noise.normal_(0, 1);
  return noise * std + mean;
}

Tensor normal(const Tensor& mean, const Tensor& std) {
  check_floating(mean, "normal_kernel_cpu");
  TT_CHECK(std.numel() == 0 || std.min().item<double>() >= 0.0, "normal expects all elements of std >= 0.0");
  Tensor noise = empty(infer_size(mean.sizes(), std.sizes()), TensorOptions(mean.scalar_type()));
  noise.normal_(0, 1);
  return noise * std + mean;
}

Tensor normal(double mean, double std, IntArrayRef size, TensorOptions options) {
  TT_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  Tensor result = empty(size, options.requires_grad(false));
  result.normal_(mean, std);
  if (options.requires_grad()) result.requires_grad_(true);
  return result;
}

Tensor poisson(const Tensor& self) {
  check_floating(self, "poisson_cpu");
  const Tensor rates = detail::as_contiguous(self, kDouble);
  const double* rate = rates.data_ptr<double>();
  Tensor values = empty(self.sizes(), kDouble);
  double* data = values.data_ptr<double>();
  GeneratorLock lock;
  for (int64_t i = 0; i < values.numel(); ++i) {
    TT_CHECK(rate[i] >= 0, "invalid Poisson rate, expected rate to be non-negative");
    data[i] = rate[i] == 0 ? 0.0 : static_cast<double>(std::poisson_distribution<int64_t>(rate[i])(generator()));
  }
  return detail::as_dtype(values, self.scalar_type());
}

}  // namespace tinytorch
