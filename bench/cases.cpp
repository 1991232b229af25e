// The benchmark cases, written once with LibTorch's C++ frontend and compiled twice: against
// tinytorch (bench_tinytorch) and, where libtorch-dev is installed, against LibTorch (bench_libtorch,
// -DBENCH_WITH_LIBTORCH). Only the include line differs, so both sides run the very same code.
// Each result is one JSON line (bench/harness.h); scripts/bench runs the programs and compares.
#include <cstdio>
#include <exception>
#include <functional>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <string>
#include <thread>
#include <vector>

#include "harness.h"

#ifdef BENCH_WITH_LIBTORCH
#include <dlfcn.h>
#include <torch/torch.h>
#define BENCH_IMPL "libtorch"
// Debian's LibTorch multiplies matrices with OpenBLAS, whose threads torch::set_num_threads does not
// set: without this a "1 thread" LibTorch matmul runs on every core. Looked up at run time, so the
// program needs no OpenBLAS headers and still runs on a LibTorch built with another BLAS.
static void set_blas_threads(int threads) {
  using SetThreads = void (*)(int);
  if (auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) set(threads);
}
#define BENCH_HAS_AUTOGRAD 1
#define BENCH_HAS_OPTIM 1
#define BENCH_HAS_CONV 1
#define BENCH_HAS_POOLING 1
#else
#include <tinytorch/torch.h>
// Module 17's GEMM: its micro-kernel's name, and module 01's loops (acceleration::naive_mm) for
// comparison. A framework without module 17's headers leaves those two things out.
#if __has_include(<tinytorch/acceleration_kernels.h>) && __has_include(<tinytorch/acceleration.h>)
#include <tinytorch/acceleration.h>
#include <tinytorch/acceleration_kernels.h>
#define BENCH_HAS_INTERNAL_GEMM 1
#endif
#define BENCH_IMPL "tinytorch"
// Modules arrive one by one: a case whose module is missing reports itself unavailable.
#if __has_include(<tinytorch/autograd.h>)
#include <tinytorch/autograd.h>
#define BENCH_HAS_AUTOGRAD 1
#endif
#if __has_include(<tinytorch/optim.h>)
#include <tinytorch/optim.h>
#define BENCH_HAS_OPTIM 1
#endif
#if __has_include(<tinytorch/nn/modules/conv.h>)
#include <tinytorch/nn/modules/conv.h>
#define BENCH_HAS_CONV 1
#endif
#if __has_include(<tinytorch/nn/modules/pooling.h>)
#include <tinytorch/nn/modules/pooling.h>
#define BENCH_HAS_POOLING 1
#endif
#if __has_include(<tinytorch/nn/modules/quantized_linear.h>)
#include <tinytorch/nn/modules/quantized_linear.h>
#define BENCH_HAS_QUANTIZED_LINEAR 1
#if __has_include("17_acceleration/extra/extras.h")  // module 17's instructor extra: reference only
#include "17_acceleration/extra/extras.h"
#define BENCH_HAS_INT8_KERNEL_NAME 1
#endif
#endif
#if __has_include(<tinytorch/models/kv_cache.h>)
#define BENCH_HAS_KV_CACHE 1
#endif
#if __has_include(<tinytorch/nn/modules/embedding.h>) && __has_include(<tinytorch/nn/modules/attention.h>) && \
    __has_include(<tinytorch/nn/modules/normalization.h>)
#define BENCH_HAS_TRANSFORMER 1
#endif
#endif
#ifdef BENCH_WITH_LIBTORCH
#define BENCH_HAS_TRANSFORMER 1
#endif
// Module 22: device tensors on OpenCL (LibTorch has no OpenCL backend, so bench_libtorch has no device cases).
#if !defined(BENCH_WITH_LIBTORCH) && __has_include(<tinytorch/device_kernels.h>)
#include <tinytorch/device_kernels.h>
#define BENCH_HAS_DEVICE 1
#endif

namespace {

struct Case {
  std::string name;
  std::string what;  // one line for --list and the table
  // Runs the measurement and prints its JSON line(s).
  std::function<void(const bench::Options&)> run;
};

// What tinytorch adds to each result: the caching allocator's view of the measured code.
bench::Fields allocator_report() {
#ifdef BENCH_WITH_LIBTORCH
  return bench::Fields::object();
#else
  const auto stats = torch::memory::allocator_stats();
  return {{"alloc_hit_rate", stats.hit_rate()},
          {"alloc_peak_bytes", stats.peak_allocated_bytes},
          {"alloc_cached_bytes", stats.cached_bytes},
          {"alloc_caching", stats.caching_enabled}};
#endif
}

void reset_allocator_counts() {
#ifndef BENCH_WITH_LIBTORCH
  torch::memory::reset_peak_stats();
#endif
}

template <typename Body>
void run_and_print(const std::string& name, const bench::Options& options, double flops, Body&& body,
                   bench::Fields extra = bench::Fields::object(),
                   const std::function<bench::Fields(const bench::Timing&)>& from_timing = nullptr) {
  reset_allocator_counts();
  const bench::Timing timing = bench::measure(body, options.budget());
  extra.update(allocator_report());
  if (from_timing) extra.update(from_timing(timing));  // figures derived from the time, e.g. examples/s
  bench::print_result(name, BENCH_IMPL, options.threads, timing, flops, extra);
}

// ---- 1. fp32 matmul ----

void matmul_case(int64_t n, const bench::Options& options) {
  const std::string name = "matmul_" + std::to_string(n);
  torch::manual_seed(0);
  const auto a = torch::randn({n, n});
  const auto b = torch::randn({n, n});
  bench::Fields extra = bench::Fields::object();
#ifdef BENCH_HAS_INTERNAL_GEMM
  extra["kernel"] = torch::cpublas::float_kernel();
#endif
  run_and_print(name, options, 2.0 * n * n * n, [&] { torch::mm(a, b); }, extra);
}

#ifdef BENCH_HAS_INTERNAL_GEMM
// Module 01's loops (torch::acceleration::naive_mm, the learner's mm without module 17), for
// comparison: always one thread.
void naive_matmul_case(int64_t n, const bench::Options& options) {
  const auto a = torch::randn({n, n});
  const auto b = torch::randn({n, n});
  bench::Budget budget = options.budget();
  // One call of 1024 takes seconds (minutes on a loaded machine): one sample is measurement enough,
  // and the warm-up call is the only other one.
  budget.min_samples = n >= 1024 ? 1 : 3;
  budget.warmup_seconds = 0;
  budget.target_seconds = options.quick ? 0 : 2.0;
  const bench::Timing timing = bench::measure(
      [&] { torch::acceleration::naive_mm(a, b); },
      budget);
  bench::print_result("matmul_naive_" + std::to_string(n), BENCH_IMPL, 1, timing, 2.0 * n * n * n,
                      {{"kernel", "module 01 loops"}});
}
#elif !defined(BENCH_WITH_LIBTORCH)
void naive_matmul_case(int64_t n, const bench::Options& options) {
  bench::print_unavailable("matmul_naive_" + std::to_string(n), BENCH_IMPL, options.threads,
                           "not available: needs module 17's tinytorch/acceleration.h");
}
#endif

// ---- 2, 3. One training step of an MLP: forward, cross-entropy, backward, SGD step ----

void mlp_case(const std::string& name, int64_t in, int64_t hidden, int64_t out, int64_t batch,
              const bench::Options& options) {
#if defined(BENCH_HAS_AUTOGRAD) && defined(BENCH_HAS_OPTIM)
  torch::manual_seed(0);
  torch::nn::Sequential model(torch::nn::Linear(in, hidden), torch::nn::ReLU(), torch::nn::Linear(hidden, out));
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  const auto x = torch::randn({batch, in});
  const auto y = torch::randint(0, out, {batch}, torch::kLong);
  // Forward + backward + update: 3 matmuls' worth of FLOPs per layer (one forward, two backward).
  const double flops = 3.0 * 2.0 * batch * (in * hidden + hidden * out);
  run_and_print(name, options, flops, [&] {
    optimizer.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(model->forward(x), y);
    loss.backward();
    optimizer.step();
  });
#else
  (void)in, (void)hidden, (void)out, (void)batch;
  bench::print_unavailable(name, BENCH_IMPL, options.threads, "not available: needs modules 06 (autograd) and 07 (optimizers)");
#endif
}

// ---- 3b. Module 15: the int8 Linear against the fp32 Linear, both measured in this run ----

// Forward only (inference), same layer and batch: the fp32 Linear (blocked fp32 GEMM) and the
// QuantizedLinear made from it (quantize the input, int8 GEMM with int32 sums, dequantize). The int8
// line carries the speed-up over the fp32 line just measured, and the largest output difference.
void quantized_linear_case(int64_t features, int64_t batch, const bench::Options& options) {
  const std::string suffix = std::to_string(features) + "_b" + std::to_string(batch);
#ifdef BENCH_HAS_QUANTIZED_LINEAR
  torch::manual_seed(0);
  torch::NoGradGuard no_grad;
  torch::nn::Linear fc(features, features);
  const auto x = torch::randn({batch, features});
  auto qfc = torch::nn::QuantizedLinear::from_float(*fc, {x});
  const double flops = 2.0 * batch * features * features;
  reset_allocator_counts();
  const bench::Timing fp32 = bench::measure([&] { fc->forward(x); }, options.budget());
  bench::print_result("linear_fp32_" + suffix, BENCH_IMPL, options.threads, fp32, flops, allocator_report());
  reset_allocator_counts();
  const bench::Timing int8 = bench::measure([&] { qfc->forward(x); }, options.budget());
  const double max_error = (qfc->forward(x) - fc->forward(x)).abs().max().item<double>();
  bench::Fields extra = {{"speedup_vs_fp32", fp32.median_us / int8.median_us}, {"max_abs_error", max_error}};
#ifdef BENCH_HAS_INT8_KERNEL_NAME
  extra["kernel"] = torch::native::int8_gemm_kernel();
#endif
  extra.update(allocator_report());
  bench::print_result("linear_int8_" + suffix, BENCH_IMPL, options.threads, int8, flops, extra);
#else
  (void)features, (void)batch;
  bench::print_unavailable("linear_int8_" + suffix, BENCH_IMPL, options.threads,
                           "not available: LibTorch's C++ frontend has no quantized Linear (module 15)");
#endif
}

// ---- 4. Conv2d forward + backward ----

void conv_case(const std::string& name, int64_t batch, int64_t in_channels, int64_t out_channels, int64_t size,
               const bench::Options& options) {
#ifdef BENCH_HAS_CONV
  torch::manual_seed(0);
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(in_channels, out_channels, 3).padding(1));
  const auto x = torch::randn({batch, in_channels, size, size});
  const double flops = 3.0 * 2.0 * batch * out_channels * size * size * in_channels * 9;
  run_and_print(name, options, flops, [&] {
    conv->zero_grad();
    conv->forward(x).sum().backward();
  });
#else
  (void)batch, (void)in_channels, (void)out_channels, (void)size;
  bench::print_unavailable(name, BENCH_IMPL, options.threads, "not available: needs module 09 (Conv2d)");
#endif
}

// ---- 4b. One LeNet-5 training step: convolutions, pooling and dense layers together ----

#if defined(BENCH_HAS_CONV) && defined(BENCH_HAS_POOLING) && defined(BENCH_HAS_AUTOGRAD) && defined(BENCH_HAS_OPTIM)
#define BENCH_HAS_LENET5 1
// LeCun et al. (1998)'s layout on 28x28 images, with ReLU and max pooling: 61,706 parameters.
torch::nn::Sequential lenet5_model() {
  namespace nn = torch::nn;
  return nn::Sequential(nn::Conv2d(nn::Conv2dOptions(1, 6, 5).padding(2)), nn::ReLU(), nn::MaxPool2d(nn::MaxPool2dOptions(2)),
                        nn::Conv2d(nn::Conv2dOptions(6, 16, 5)), nn::ReLU(), nn::MaxPool2d(nn::MaxPool2dOptions(2)),
                        nn::Flatten(), nn::Linear(400, 120), nn::ReLU(), nn::Linear(120, 84), nn::ReLU(), nn::Linear(84, 10));
}
// Multiply-adds of one image's forward; a training step is about 3x (forward, two backward products).
constexpr double kLenet5MacsPerImage = 6.0 * 28 * 28 * 25 + 16.0 * 10 * 10 * 150 + 400 * 120 + 120 * 84 + 84 * 10;
#endif

void lenet5_case(const std::string& name, int64_t batch, const bench::Options& options) {
#ifdef BENCH_HAS_LENET5
  torch::manual_seed(0);
  auto model = lenet5_model();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  const auto x = torch::randn({batch, 1, 28, 28});
  const auto y = torch::randint(0, 10, {batch}, torch::kLong);
  run_and_print(name, options, 3.0 * 2.0 * kLenet5MacsPerImage * batch, [&] {
    optimizer.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(model->forward(x), y);
    loss.backward();
    optimizer.step();
  });
#else
  (void)batch;
  bench::print_unavailable(name, BENCH_IMPL, options.threads,
                           "not available: needs modules 06, 07 and 09 (Conv2d and MaxPool2d)");
#endif
}

// ---- 4c. One GPT training step: embeddings, causal multi-head attention, LayerNorm, GELU MLP ----

#ifdef BENCH_HAS_TRANSFORMER
// A pre-LN GPT block, (N, L, E) in and out; nn::MultiheadAttention wants (L, N, E).
struct BenchBlockImpl : torch::nn::Module {
  BenchBlockImpl(int64_t embed_dim, int64_t heads)
      : ln1(register_module("ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({embed_dim})))),
        attention(register_module("attention", torch::nn::MultiheadAttention(torch::nn::MultiheadAttentionOptions(embed_dim, heads)))),
        ln2(register_module("ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({embed_dim})))),
        fc1(register_module("fc1", torch::nn::Linear(embed_dim, 4 * embed_dim))),
        fc2(register_module("fc2", torch::nn::Linear(4 * embed_dim, embed_dim))) {}
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask) {
    const auto normed = ln1(x).transpose(0, 1);
    const auto attended = std::get<0>(attention->forward(normed, normed, normed, torch::Tensor(), false, mask));
    const auto h = x + attended.transpose(0, 1);
    return h + fc2(torch::nn::functional::gelu(fc1(ln2(h))));
  }
  torch::nn::LayerNorm ln1;
  torch::nn::MultiheadAttention attention;
  torch::nn::LayerNorm ln2;
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(BenchBlock);
#endif

// Milestone 05's TinyGPT at the size: vocabulary 66 (TinyTalks' characters), d = 128, 4 layers,
// 4 heads, context 64, batch 16; forward, cross-entropy, backward and an Adam step.
void gpt_case(const std::string& name, const bench::Options& options) {
#if defined(BENCH_HAS_TRANSFORMER) && defined(BENCH_HAS_AUTOGRAD) && defined(BENCH_HAS_OPTIM)
  const int64_t vocabulary = 66, embed = 128, layers = 4, heads = 4, context = 64, batch = 16;
  torch::manual_seed(0);
  torch::nn::Embedding tokens(vocabulary, embed), positions(context, embed);
  std::vector<BenchBlock> blocks;
  for (int64_t l = 0; l < layers; ++l) blocks.emplace_back(embed, heads);
  torch::nn::LayerNorm ln_final(torch::nn::LayerNormOptions({embed}));
  torch::nn::Linear head(embed, vocabulary);
  std::vector<torch::Tensor> parameters;
  auto add = [&](const std::vector<torch::Tensor>& p) { parameters.insert(parameters.end(), p.begin(), p.end()); };
  add(tokens->parameters());
  add(positions->parameters());
  for (auto& block : blocks) add(block->parameters());
  add(ln_final->parameters());
  add(head->parameters());
  torch::optim::Adam optimizer(parameters, torch::optim::AdamOptions(1e-3));
  auto mask = torch::zeros({context, context});
  for (int64_t i = 0; i < context; ++i)
    for (int64_t j = i + 1; j < context; ++j) mask[i][j] = -std::numeric_limits<float>::infinity();
  const auto x = torch::randint(0, vocabulary, {batch, context}, torch::kLong);
  const auto y = torch::randint(0, vocabulary, {batch, context}, torch::kLong);
  const auto position_ids = torch::arange(context, torch::kLong);
  // Multiply-adds per token: 12 d^2 per layer (QKV 3d^2, output d^2, MLP 8d^2), 2 L d per layer for
  // the scores and the weighted sum (L / 2 on average under the mask, counted in full as computed),
  // and d V for the head. A training step is about 3x the forward.
  const double macs_per_token = layers * (12.0 * embed * embed + 2.0 * context * embed) + embed * vocabulary;
  run_and_print(name, options, 3.0 * 2.0 * macs_per_token * batch * context, [&] {
    optimizer.zero_grad();
    auto h = tokens(x) + positions(position_ids);
    for (auto& block : blocks) h = block->forward(h, mask);
    auto logits = head(ln_final(h));
    auto loss = torch::nn::functional::cross_entropy(logits.reshape({batch * context, vocabulary}), y.reshape({-1}));
    loss.backward();
    optimizer.step();
  });
#else
  bench::print_unavailable(name, BENCH_IMPL, options.threads,
                           "not available: needs modules 11-13 (Embedding, MultiheadAttention, LayerNorm)");
#endif
}

// ---- 4c. Generation with and without the KV cache (module 18) ----

// models::GPT(d = 128, 4 layers, 4 heads, max_seq_len 320; vocabulary 66, no dropout, eval), an 8-token
// prompt, 256 greedy tokens: module 13's loop (the whole context again each step) and the cached one
// (prefill once, then one position per step), in the same run. The cached line carries the speed-up
// (goal: at least 5x). LibTorch has no GPT class: its program reports the case unavailable.
void kv_cache_generate_case(const std::string& name, int64_t new_tokens, const bench::Options& options) {
#if defined(BENCH_HAS_KV_CACHE) && !defined(BENCH_WITH_LIBTORCH)
  torch::manual_seed(0);
  torch::NoGradGuard no_grad;
  torch::models::GPT gpt(torch::models::GPTOptions(66, 320).embed_dim(128).num_layers(4).num_heads(4).dropout(0.0));
  gpt->eval();
  const auto prompt = torch::randint(0, 66, {1, 8}, torch::kLong);
  bench::Budget budget = options.budget();
  budget.min_samples = std::min(budget.min_samples, 3);  // one uncached sample takes seconds
  budget.warmup_seconds = 0;
  double recompute_flops = 0;  // module 13's count: one forward of every context length
  for (int64_t length = 8; length < 8 + new_tokens; ++length) recompute_flops += gpt->flops_per_forward(1, length);
  reset_allocator_counts();
  const bench::Timing recompute = bench::measure([&] { gpt->generate(prompt, new_tokens, 0.0); }, budget);
  bench::print_result("generate_recompute_" + std::to_string(new_tokens), BENCH_IMPL, options.threads, recompute,
                      recompute_flops, allocator_report());
  reset_allocator_counts();
  const bench::Timing cached =
      bench::measure([&] { gpt->generate(prompt, new_tokens, 0.0, 0, /*use_kv_cache=*/true); }, budget);
  const bool same = gpt->generate(prompt, new_tokens, 0.0).equal(gpt->generate(prompt, new_tokens, 0.0, 0, true));
  bench::Fields extra = {{"speedup_vs_recompute", recompute.median_us / cached.median_us},
                         {"same_tokens", same},
                         {"kv_cache_bytes", gpt->make_kv_cache(1).memory_bytes()}};
  extra.update(allocator_report());
  bench::print_result(name, BENCH_IMPL, options.threads, cached, 0, extra);
#else
  (void)new_tokens;
  bench::print_unavailable(name, BENCH_IMPL, options.threads,
                           "not available: needs models::GPT with a KV cache (modules 13 and 18; LibTorch has no GPT)");
#endif
}

// ---- 4d. Device tensors (module 22, OpenCL) ----

// Each call ends with torch::opencl::synchronize(): the time is what a program waits for its result.
// scripts/bench sets these against bench_opencl's figures for the same device (copy bandwidth, CLBlast's
// SGEMM, an empty kernel's launch) and device_lenet5_step against lenet5_step on the CPU; the
// rows carry the device caching allocator's counters instead of the CPU allocator's.
#ifdef BENCH_HAS_DEVICE
const torch::Device kBenchDevice("opencl");

template <typename Body>
void device_run_and_print(const std::string& name, const bench::Options& options, double flops, Body&& body,
                          bench::Fields extra = bench::Fields::object(),
                          const std::function<bench::Fields(const bench::Timing&)>& from_timing = nullptr) {
  bench::Budget budget = options.budget();
  if (flops > 1e9) budget.min_samples = 3;  // a device GEMM of 1024 can take seconds on a CPU device
  torch::opencl::synchronize();
  torch::opencl::reset_peak_memory_stats();
  const auto before = torch::opencl::memory_stats();
  const bench::Timing timing = bench::measure(
      [&] {
        body();
        torch::opencl::synchronize();
      },
      budget);
  const auto after = torch::opencl::memory_stats();
  const int64_t allocations = after.allocations - before.allocations;
  extra.update({{"device", tinytorch::opencl::device_info().name},
                {"device_alloc_allocations", allocations},
                {"device_alloc_hit_rate",  // null when the measured code allocates nothing
                 allocations > 0 ? bench::Fields(static_cast<double>(after.cache_hits - before.cache_hits) /
                                                 static_cast<double>(allocations))
                                 : bench::Fields(nullptr)},
                {"device_alloc_peak_bytes", after.peak_allocated_bytes},
                {"device_alloc_reserved_bytes", after.reserved_bytes}});
  if (from_timing) extra.update(from_timing(timing));
  bench::print_result(name, BENCH_IMPL, options.threads, timing, flops, extra);
}

bool device_missing(const std::string& name, const bench::Options& options) {
  if (torch::opencl::is_available()) return false;
  bench::print_unavailable(name, BENCH_IMPL, options.threads,
                           "no OpenCL device (apt-get install pocl-opencl-icd; clinfo -l lists devices)");
  return true;
}

// a + b on two 16M-float device tensors: reads 2 x 4 bytes and writes 4 per element.
void device_add_case(const std::string& name, const bench::Options& options) {
  if (device_missing(name, options)) return;
  const int64_t numel = int64_t{16} << 20;
  const auto a = torch::rand({numel}).to(kBenchDevice), b = torch::rand({numel}).to(kBenchDevice);
  const double bytes = 3.0 * 4 * numel;
  device_run_and_print(name, options, 0, [&] { auto c = a + b; }, {{"bytes", bytes}},
                       [bytes](const bench::Timing& t) { return bench::Fields{{"gb_per_s", bytes / (t.median_us * 1e3)}}; });
}

// torch::mm on the device (the reference's register-tiled kernel, module 22 section 8), or the learner's
// tiled kernel (section 7) called directly into a preallocated result.
void device_mm_case(const std::string& name, int64_t n, bool tiled, const bench::Options& options) {
  if (device_missing(name, options)) return;
  torch::manual_seed(0);
  const auto a = torch::randn({n, n}).to(kBenchDevice), b = torch::randn({n, n}).to(kBenchDevice);
  const auto c = torch::empty({n, n}, torch::TensorOptions().device(kBenchDevice));
  namespace native = tinytorch::opencl::native;
  device_run_and_print(name, options, 2.0 * n * n * n, [&] {
    if (tiled) {
      native::gemm(a, b, c, native::GemmKernel::Tiled);
    } else {
      torch::mm(a, b);
    }
  }, {{"kernel", tiled ? "tiled" : "register_tiled"}});
}

// One op on 1-element device tensors: the launch and the framework's fixed cost, as add_1 on the CPU.
void device_launch_case(const std::string& name, const bench::Options& options) {
  if (device_missing(name, options)) return;
  const auto a = torch::ones({1}).to(kBenchDevice), b = torch::ones({1}).to(kBenchDevice);
  device_run_and_print(name, options, 0, [&] { auto c = a + b; });
}

// lenet5_step's model, data and optimizer on the device.
void device_lenet5_case(const std::string& name, int64_t batch, const bench::Options& options) {
#ifdef BENCH_HAS_LENET5
  if (device_missing(name, options)) return;
  torch::manual_seed(0);
  auto model = lenet5_model();
  model->to(kBenchDevice);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  const auto x = torch::randn({batch, 1, 28, 28}).to(kBenchDevice);
  const auto y = torch::randint(0, 10, {batch}, torch::kLong).to(kBenchDevice);
  device_run_and_print(name, options, 3.0 * 2.0 * kLenet5MacsPerImage * batch, [&] {
    optimizer.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(model->forward(x), y);
    loss.backward();
    optimizer.step();
  });
#else
  (void)batch;
  bench::print_unavailable(name, BENCH_IMPL, options.threads, "not available: needs modules 06, 07 and 09");
#endif
}
#endif

// ---- 5. Per-op overhead: what one tiny op costs beyond its arithmetic ----

void add_case(const std::string& name, bool requires_grad, bool backward, const bench::Options& options) {
#ifndef BENCH_HAS_AUTOGRAD
  if (requires_grad) {
    bench::print_unavailable(name, BENCH_IMPL, options.threads, "not available: needs module 06 (autograd)");
    return;
  }
#endif
  try {
    auto a = torch::ones({1});
    auto b = torch::ones({1});
    if (requires_grad) {
      a.requires_grad_(true);
      b.requires_grad_(true);
    }
    if (backward) {
      run_and_print(name, options, 0, [&] {
        auto c = a + b;
        c.backward();
      });
    } else {
      run_and_print(name, options, 0, [&] { auto c = a + b; });
    }
  } catch (const std::exception& error) {
    bench::print_unavailable(name, BENCH_IMPL, options.threads, std::string("failed: ") + error.what());
  }
}

// ---- 6. DataLoader workers: one epoch with a per-example transform, workers(0) against workers(n) ----

// Fashion-MNIST-shaped examples (1x28x28 floats in [0, 1), 10 classes), made up at random: the case
// measures the loader, not the file reader.
class FashionLikeDataset : public torch::data::datasets::Dataset<FashionLikeDataset> {
 public:
  explicit FashionLikeDataset(int64_t count)
      : images_(torch::rand({count, 1, 28, 28})), labels_(torch::randint(10, {count})) {}
  torch::data::Example<> get(size_t index) override {
    return {images_[static_cast<int64_t>(index)], labels_[static_cast<int64_t>(index)]};
  }
  torch::optional<size_t> size() const override { return static_cast<size_t>(labels_.size(0)); }

 private:
  torch::Tensor images_, labels_;
};

// The per-example transform: normalise with Fashion-MNIST's mean/std, then a 3x3 box blur built from
// shifted views (a few dozen small tensor ops per example, like a typical augmentation).
torch::data::Example<> blur_and_normalize(torch::data::Example<> example) {
  auto image = (example.data - 0.2860) / 0.3530;
  auto blurred = torch::zeros({1, 26, 26});
  for (int64_t dy = 0; dy < 3; ++dy)
    for (int64_t dx = 0; dx < 3; ++dx) blurred = blurred + image.narrow(1, dy, 26).narrow(2, dx, 26);
  return {blurred / 9, example.target};
}

void dataloader_case(const std::string& name, size_t workers, const bench::Options& options) {
  try {
    const int64_t examples = 1024;
    auto dataset = FashionLikeDataset(examples)
                       .map(torch::data::transforms::Lambda<torch::data::Example<>>(blur_and_normalize))
                       .map(torch::data::transforms::Stack<>());
    auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        std::move(dataset), torch::data::DataLoaderOptions(64).workers(workers));
    run_and_print(name, options, 0,
                  [&] {
                    int64_t seen = 0;
                    for (auto& batch : *loader) seen += batch.data.size(0);
                    if (seen != examples) throw std::runtime_error("the epoch lost examples");
                  },
                  {{"workers", workers}, {"examples_per_epoch", examples}},
                  // The loader's throughput: what a training step can be fed at most.
                  [examples](const bench::Timing& t) {
                    return bench::Fields{{"examples_per_s", static_cast<double>(examples) / (t.median_us * 1e-6)}};
                  });
  } catch (const std::exception& error) {
    bench::print_unavailable(name, BENCH_IMPL, options.threads, std::string("failed: ") + error.what());
  }
}

// ---- 7. Small ops on two threads at once: does the library scale when two threads allocate? ----

// 784-float tensors, `x * 1.0001 + 0.0001` (two ops, each allocating its output and a 1-element tensor
// for its scalar), first on one thread, then on two threads at once, each doing the same number of ops
// as the one thread did. `scaling` is the two-thread throughput over the one-thread throughput: 2.0 on
// two free cores when nothing is shared; what a DataLoader's workers (module 21) get from their
// transforms' small ops.
void small_ops_two_threads_case(const std::string& name, const bench::Options& options) {
  try {
    const int64_t rounds = 2000;  // 4000 ops a call on each thread
    auto work = [rounds] {
      auto x = torch::rand({1, 28, 28});
      for (int64_t i = 0; i < rounds; ++i) x = x * 1.0001 + 0.0001;
    };
    const bench::Timing one = bench::measure(work, options.budget());
    auto two = [&] {
      std::thread other(work);
      work();
      other.join();
    };
    run_and_print(name, options, 0, two, {{"ops_per_thread", 2 * rounds}, {"one_thread_median_us", one.median_us}},
                  [one](const bench::Timing& t) {
                    return bench::Fields{{"scaling", 2.0 * one.median_us / t.median_us}};
                  });
  } catch (const std::exception& error) {
    bench::print_unavailable(name, BENCH_IMPL, options.threads, std::string("failed: ") + error.what());
  }
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (int64_t n : {64, 256, 512, 1024}) {
    cases.push_back({"matmul_" + std::to_string(n), "fp32 mm of two " + std::to_string(n) + "x" + std::to_string(n) +
                                                        " matrices (GFLOP/s)",
                     [n](const bench::Options& o) { matmul_case(n, o); }});
  }
#ifndef BENCH_WITH_LIBTORCH
  for (int64_t n : {64, 256, 512, 1024}) {
    cases.push_back({"matmul_naive_" + std::to_string(n), "module 01's loops (naive_mm), " + std::to_string(n),
                     [n](const bench::Options& o) { naive_matmul_case(n, o); }});
  }
#endif
  cases.push_back({"mlp_64_32_10", "MLP 64-32-10, batch 32: one SGD training step",
                   [](const bench::Options& o) { mlp_case("mlp_64_32_10", 64, 32, 10, 32, o); }});
  cases.push_back({"mlp_784_128_10", "MLP 784-128-10, batch 64: one SGD training step",
                   [](const bench::Options& o) { mlp_case("mlp_784_128_10", 784, 128, 10, 64, o); }});
  cases.push_back({"linear_int8_1024_b64", "Linear 1024->1024, batch 64, forward: fp32 vs int8 QuantizedLinear (module 15)",
                   [](const bench::Options& o) { quantized_linear_case(1024, 64, o); }});
  cases.push_back({"conv_1_8_8x8", "Conv2d 1->8, 8x8, 3x3, pad 1, batch 32: forward + backward",
                   [](const bench::Options& o) { conv_case("conv_1_8_8x8", 32, 1, 8, 8, o); }});
  cases.push_back({"conv_3_32_32x32", "Conv2d 3->32, 32x32, 3x3, pad 1, batch 32: forward + backward",
                   [](const bench::Options& o) { conv_case("conv_3_32_32x32", 32, 3, 32, 32, o); }});
  cases.push_back({"lenet5_step", "LeNet-5 (conv 6, 16; pool; 120-84-10) on 1x28x28, batch 64: one SGD step",
                   [](const bench::Options& o) { lenet5_case("lenet5_step", 64, o); }});
  cases.push_back({"gpt_step", "GPT d=128, 4 layers, 4 heads, context 64, batch 16: one Adam training step",
                   [](const bench::Options& o) { gpt_case("gpt_step", o); }});
  cases.push_back({"kv_cache_generate_256", "GPT d=128, 4 layers, 320 positions: 256 greedy tokens, recompute vs KV cache",
                   [](const bench::Options& o) { kv_cache_generate_case("kv_cache_generate_256", 256, o); }});
#ifdef BENCH_HAS_DEVICE
  cases.push_back({"device_add_16M", "OpenCL device: a + b on 16M floats (GB/s, against the device's copy)",
                   [](const bench::Options& o) { device_add_case("device_add_16M", o); }});
  for (int64_t n : {256, 512, 1024}) {
    const std::string name = "device_mm_" + std::to_string(n);
    cases.push_back({name, "OpenCL device: torch::mm " + std::to_string(n) + "^3 (register-tiled; against CLBlast)",
                     [name, n](const bench::Options& o) { device_mm_case(name, n, false, o); }});
  }
  cases.push_back({"device_gemm_tiled_1024", "OpenCL device: native::gemm Tiled 1024^3 (the learner's; against CLBlast)",
                   [](const bench::Options& o) { device_mm_case("device_gemm_tiled_1024", 1024, true, o); }});
  cases.push_back({"device_launch_add_1", "OpenCL device: a + b on 1-element tensors (a launch; against an empty kernel)",
                   [](const bench::Options& o) { device_launch_case("device_launch_add_1", o); }});
  cases.push_back({"device_lenet5_step", "OpenCL device: lenet5_step's SGD step (against the CPU's)",
                   [](const bench::Options& o) { device_lenet5_case("device_lenet5_step", 64, o); }});
#endif
  cases.push_back({"add_1", "a + b on 1-element tensors",
                   [](const bench::Options& o) { add_case("add_1", false, false, o); }});
  cases.push_back({"add_1_grad", "a + b, both requiring grad (records the graph)",
                   [](const bench::Options& o) { add_case("add_1_grad", true, false, o); }});
  cases.push_back({"add_1_backward", "(a + b).backward() round trip",
                   [](const bench::Options& o) { add_case("add_1_backward", true, true, o); }});
  cases.push_back({"small_ops_2_threads", "x * 1.0001 + 0.0001 on 784 floats, 4000 ops on each of two threads at once "
                                          "(scaling: throughput against one thread)",
                   [](const bench::Options& o) { small_ops_two_threads_case("small_ops_2_threads", o); }});
  for (size_t workers : {0, 1, 2}) {
    const std::string name = "dataloader_workers_" + std::to_string(workers);
    cases.push_back({name, "one epoch, 1024 Fashion-MNIST-shaped examples, per-example blur + normalise, batch 64, workers(" +
                               std::to_string(workers) + ")",
                     [name, workers](const bench::Options& o) { dataloader_case(name, workers, o); }});
  }
  return cases;
}

}  // namespace

int main(int argc, char** argv) {
  const bench::Options options = bench::parse_options(argc, argv);
  const std::vector<Case> cases = all_cases();
  if (options.list) {
    for (const Case& c : cases) std::printf("%-18s %s\n", c.name.c_str(), c.what.c_str());
    return 0;
  }
  for (const std::string& wanted : options.cases) {
    bool known = false;
    for (const Case& c : cases) known = known || c.name == wanted;
    if (!known) {
      std::fprintf(stderr, "error: no case '%s' in %s\nfix: %s --list shows the cases\n", wanted.c_str(), BENCH_IMPL,
                   argv[0]);
      return 2;
    }
  }
  torch::set_num_threads(options.threads);
#ifdef BENCH_WITH_LIBTORCH
  set_blas_threads(options.threads);
#endif
  for (const Case& c : cases) {
    if (!options.wants(c.name)) continue;
    try {
      c.run(options);
    } catch (const std::exception& error) {
      bench::print_unavailable(c.name, BENCH_IMPL, options.threads, std::string("failed: ") + error.what());
    }
  }
  return 0;
}
