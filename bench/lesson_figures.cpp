// lesson_figures NN [files...]: the measured figures lesson NN quotes, measured now on this machine with the
// reference library. scripts/lesson-figures builds this (Release) and prints the header (build, compiler,
// CPU, threads, load average at start and end) around it; run that, not this.
//
// "Loops" rows are what a learner's build runs before module 17 (the loops of modules 01 and 09): the
// program empties the fast-kernel table for them. "Module 17" rows run the reference kernels; where a
// lesson speaks of the learner's portable micro-kernel, the GEMM is forced to it ("generic").
#include <tinytorch/torch.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "runtime/fast_kernels.h"
#include "tinytorch/acceleration_kernels.h"

namespace {

namespace P = torch::profiling;
namespace native = tinytorch::native;

// The fastest of `repeats` calls, in milliseconds: on a shared machine the fastest call is the one
// least disturbed by other programs.
double best_ms(int repeats, const std::function<void()>& body) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    body();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

class ThreadCount {
 public:
  explicit ThreadCount(int n) : saved_(torch::get_num_threads()) { torch::set_num_threads(n); }
  ~ThreadCount() { torch::set_num_threads(saved_); }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int saved_;
};

int all_threads() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "error: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// ---- Lesson 14 (and 17): the roofs ----

// Fastest of 20 runs of a few milliseconds each: on a loaded machine the runs on all threads need
// several tries before every thread gets a core for the whole run.
std::vector<P::PeakFlopsMeasurement> print_roofs() {
  const std::vector<P::PeakFlopsMeasurement> roofs = P::measure_peak_roofs(2'000'000, 20, all_threads());
  std::printf("compute roofs (measure_peak_roofs: 12 registers of chains, 2M steps, fastest of 20):\n%s",
              P::format_peak_roofs(roofs).c_str());
  return roofs;
}

const P::PeakFlopsMeasurement& roof_for(const std::vector<P::PeakFlopsMeasurement>& roofs, P::PeakIsa isa,
                                        int64_t threads) {
  for (const auto& roof : roofs)
    if (roof.isa == isa && roof.threads == threads) return roof;
  return roofs.back();
}

// The L3 of this core as Linux reports it (sysfs); glibc's sysconf(_SC_LEVEL3_CACHE_SIZE) reads CPUID,
// which in a virtual machine can describe the host's caches (384 MiB on the course's machine, whose
// guest has 32 MiB). 0 when unknown.
int64_t last_level_cache_bytes() {
  std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index3/size");
  int64_t size = 0;
  std::string unit;
  if (!(in >> size)) return 0;
  std::getline(in, unit);
  if (!unit.empty() && unit[0] == 'K') size <<= 10;
  if (!unit.empty() && unit[0] == 'M') size <<= 20;
  return size;
}

P::BandwidthMeasurement print_triad() {
  // STREAM's rule: each array at least 4 times the last-level cache (4 x L3 bytes / 4 bytes a float).
  const int64_t l3 = last_level_cache_bytes();
  const int64_t elements = std::max<int64_t>(16 << 20, l3);
  const P::BandwidthMeasurement triad = P::measure_triad_bandwidth(elements, 5);
  std::printf("triad: %lld M floats an array (L3 %.0f MiB), %.2f GB/s (fastest of 5)\n",
              static_cast<long long>(elements >> 20), l3 / 1048576.0, triad.gb_per_s());
  return triad;
}

void print_ridges(const std::vector<P::PeakFlopsMeasurement>& roofs, double bandwidth) {
  std::printf("ridge points (peak / triad bandwidth):");
  for (const auto& roof : roofs)
    std::printf("  %s x%lld %.1f FLOP/B", P::peak_isa_name(roof.isa).c_str(), static_cast<long long>(roof.threads),
                roof.gflops() / bandwidth);
  std::printf("\n");
}

void print_points(const char* title, const std::vector<P::RooflinePoint>& points, double peak, double bandwidth) {
  std::printf("%s (roof: %.1f GFLOP/s, %.2f GB/s):\n", title, peak, bandwidth);
  for (const auto& p : points) {
    const double roof = P::roofline_attainable(p.intensity, peak, bandwidth);
    if (p.gflops <= roof)
      std::printf("  %-14s %7.3f FLOP/B  %8.3f GFLOP/s  roof %7.2f  %6.1fx under it\n", p.label.c_str(), p.intensity,
                  p.gflops, roof, roof / p.gflops);
    else  // the operands fit in a cache, whose bandwidth is higher than the memory's
      std::printf("  %-14s %7.3f FLOP/B  %8.3f GFLOP/s  roof %7.2f  above the memory roof: served from a cache\n",
                  p.label.c_str(), p.intensity, p.gflops, roof);
  }
}

void lesson_14() {
  std::printf("== Lesson 14, section 4: this machine's peak ==\n");
  const auto roofs = print_roofs();
  const auto triad = print_triad();
  print_ridges(roofs, triad.gb_per_s());
  const P::PeakFlopsMeasurement& sse = roofs.front();
  std::printf("\n== Lesson 14, section 5: the kernels under the roof ==\n");
  {
    tinytorch::detail::WithoutFastKernels loops;
    print_points("loops of modules 01 and 09 (a learner's build before module 17), 1 thread, SSE roof",
                 P::measure_kernel_points(), sse.gflops(), triad.gb_per_s());
  }
  print_points("module 17 kernels (reference library), widest roof on all threads", P::measure_kernel_points(),
               roofs.back().gflops(), triad.gb_per_s());

  std::printf("\n== Lesson 14, section 6: LeNet-5, batch 32, layer by layer ==\n");
  namespace nn = torch::nn;
  torch::manual_seed(0);
  nn::Sequential lenet(nn::Conv2d(nn::Conv2dOptions(1, 6, 5).padding(2)), nn::ReLU(), nn::MaxPool2d(2),
                       nn::Conv2d(6, 16, 5), nn::ReLU(), nn::MaxPool2d(2), nn::Flatten(), nn::Linear(16 * 5 * 5, 120),
                       nn::ReLU(), nn::Linear(120, 84), nn::ReLU(), nn::Linear(84, 10));
  const torch::Tensor input = torch::rand({32, 1, 28, 28});
  {
    tinytorch::detail::WithoutFastKernels loops;
    std::printf("loops of modules 01 and 09:\n%s", P::format_profile(P::profile_layers(*lenet, input)).c_str());
  }
  std::printf("module 17 kernels:\n%s", P::format_profile(P::profile_layers(*lenet, input)).c_str());
}

// ---- Lesson 17 ----

void lesson_17() {
  std::printf("== Lesson 17, section 1: the roofs ==\n");
  const auto roofs = print_roofs();
  const auto triad = print_triad();
  print_ridges(roofs, triad.gb_per_s());

  std::printf("\n== Lesson 17, section 10: 512 x 512, fastest of several calls ==\n");
  const int64_t n = 512;
  torch::manual_seed(0);
  const torch::Tensor a = torch::randn({n, n}), b = torch::randn({n, n});
  const double flops = 2.0 * n * n * n;
  const auto row = [&](const char* label, double ms) {
    std::printf("  %-52s %8.2f ms  %7.2f GFLOP/s\n", label, ms, flops / ms / 1e6);
  };
  const double textbook = best_ms(2, [&] { torch::acceleration::textbook_mm(a, b); });
  const double loops = best_ms(3, [&] { torch::acceleration::naive_mm(a, b); });
  row("the textbook i-j-k loop", textbook);
  row("module 01 loops (naive_mm)", loops);
  const std::string best_kernel = torch::cpublas::float_kernel();
  std::vector<std::string> kernels{"generic"};
  if (best_kernel != "generic") kernels.push_back(best_kernel);
  for (const std::string& kernel : kernels) {
    torch::cpublas::set_float_kernel(kernel);
    for (const int threads : {1, all_threads()}) {
      ThreadCount count(threads);
      const double ms = best_ms(10, [&] { torch::acceleration::fast_mm(a, b); });
      char label[96];
      std::snprintf(label, sizeof label, "module 17 GEMM, %s micro-kernel, %d thread%s", kernel.c_str(), threads,
                    threads == 1 ? "" : "s");
      row(label, ms);
      const P::PeakFlopsMeasurement& widest = roof_for(roofs, roofs.back().isa, threads);
      std::printf("      %.0fx the textbook loop, %.1fx module 01; %.0f%% of the %s roof on %d thread%s (%.1f GFLOP/s)\n",
                  textbook / ms, loops / ms, 100 * flops / ms / 1e6 / widest.gflops(),
                  P::peak_isa_name(widest.isa).c_str(), threads, threads == 1 ? "" : "s", widest.gflops());
      if (threads == all_threads()) break;
    }
  }
  torch::cpublas::set_float_kernel("");

  std::printf("\n== Lesson 17, section 7: convolutions, module 09 loops against im2col + GEMM (1 thread) ==\n");
  ThreadCount one(1);
  struct ConvCase {
    const char* label;
    int64_t batch, in, out, size;
  };
  for (const ConvCase& c : {ConvCase{"TinyDigits batch: 32 x 1 x 8 x 8, 8 filters 3x3", 32, 1, 8, 8},
                            ConvCase{"32 channels: 8 x 32 x 16 x 16, 32 filters 3x3", 8, 32, 32, 16}}) {
    const torch::Tensor x = torch::randn({c.batch, c.in, c.size, c.size}), w = torch::randn({c.out, c.in, 3, 3}),
                        bias = torch::randn({c.out});
    native::Conv2dParams p;
    p.padding[0] = p.padding[1] = 1;
    const int repeats = c.in == 1 ? 50 : 5;
    const double loops_ms = best_ms(repeats, [&] { native::conv2d_reference(x, w, bias, p); });
    const double im2col_ms = best_ms(repeats, [&] { native::conv2d_im2col(x, w, bias, p); });
    std::printf("  %-48s loops %8.3f ms  im2col %8.3f ms  %5.1fx\n", c.label, loops_ms, im2col_ms,
                loops_ms / im2col_ms);
  }
}

// ---- Lesson 12: the S^2 wall ----

void lesson_12() {
  std::printf("== Lesson 12, section 8: FLOPs are not time (E 128, 4 heads, batch 16, causal, forward; module 17) ==\n");
  for (const int64_t S : {64, 256, 1024}) {
    torch::NoGradGuard no_grad;
    const int64_t E = 128, H = 4, N = 16;
    const torch::Tensor x = torch::randn({N * S, E}), w = torch::randn({E, E});
    const torch::Tensor q = torch::randn({N, H, S, E / H}), k = torch::randn({N, H, S, E / H}),
                        v = torch::randn({N, H, S, E / H});
    const double projection_ms = best_ms(3, [&] {
      for (int i = 0; i < 4; ++i) x.matmul(w.t());
    });
    const double attention_ms =
        best_ms(3, [&] { torch::scaled_dot_product_attention(q, k, v, {}, 0.0, /*is_causal=*/true); });
    std::printf("  S %5lld: projections %6.0f MFLOP in %8.2f ms;  attention %6.0f MFLOP in %8.2f ms\n",
                static_cast<long long>(S), 8.0 * N * S * E * E / 1e6, projection_ms, 4.0 * N * S * S * E / 1e6,
                attention_ms);
  }

  std::printf("\n== Lesson 12, section 8: one causal head (N 1, E 64), fastest of 3 ==\n");
  std::printf("  %5s %10s %12s %14s | %12s %12s | %12s %12s\n", "S", "scores MiB", "peak fwd MiB", "peak f+b MiB",
              "loops fwd", "loops f+b", "m17 fwd", "m17 f+b");
  const double loops_limit_ms = 3000;  // the loops' rows stop once one call takes longer than this
  bool loops_too_slow = false;
  for (const int64_t S : {64, 128, 256, 512, 1024, 2048}) {
    const torch::Tensor q = torch::randn({1, S, 64}), k = torch::randn({1, S, 64}), v = torch::randn({1, S, 64});
    const auto forward = [&] {
      torch::NoGradGuard guard;
      torch::scaled_dot_product_attention(q, k, v, {}, 0.0, true);
    };
    const auto both = [&] {
      auto qg = q.detach().requires_grad_(), kg = k.detach().requires_grad_(), vg = v.detach().requires_grad_();
      torch::scaled_dot_product_attention(qg, kg, vg, {}, 0.0, true).sum().backward();
    };
    const auto peak_mib = [&](const std::function<void()>& fn) {
      torch::memory::reset_peak_stats();
      const int64_t before = torch::memory::allocator_stats().allocated_bytes;
      fn();
      return (torch::memory::allocator_stats().peak_allocated_bytes - before) / 1048576.0;
    };
    const double peak_forward = peak_mib(forward), peak_both = peak_mib(both);
    char loops_forward[32] = "(not run)", loops_both[32] = "(not run)";
    if (!loops_too_slow) {
      tinytorch::detail::WithoutFastKernels loops;
      const double f = best_ms(S >= 512 ? 1 : 3, forward), fb = best_ms(S >= 512 ? 1 : 3, both);
      std::snprintf(loops_forward, sizeof loops_forward, "%.2f ms", f);
      std::snprintf(loops_both, sizeof loops_both, "%.2f ms", fb);
      loops_too_slow = fb > loops_limit_ms;
    }
    std::printf("  %5lld %10.2f %12.2f %14.2f | %12s %12s | %9.2f ms %9.2f ms\n", static_cast<long long>(S),
                4.0 * S * S / 1048576, peak_forward, peak_both, loops_forward, loops_both, best_ms(3, forward),
                best_ms(3, both));
  }
}

// ---- Lesson 18: generating with and without the KV cache ----

void lesson_18() {
  // Module 18's measuring case's model and loop (tests/test_memoization.cpp), default initialisation, seed 0.
  std::printf("== Lesson 18, section 6: GPT d 64, 2 layers, 4 heads, mlp_ratio 2, 320 positions, V 64; greedy from 8 "
              "tokens, fastest of 3, %d thread(s) ==\n", torch::get_num_threads());
  torch::manual_seed(0);
  torch::NoGradGuard no_grad;
  torch::models::GPT gpt(torch::models::GPTOptions(64, 320).embed_dim(64).num_layers(2).num_heads(4).mlp_ratio(2).dropout(0.0));
  gpt->eval();
  const torch::Tensor prompt = torch::randint(0, 64, {1, 8}, torch::kLong);
  std::printf("  %10s %16s %16s %9s\n", "new tokens", "recompute (ms)", "with cache (ms)", "speed-up");
  for (const int64_t new_tokens : {64, 128, 256}) {
    const double recompute = best_ms(3, [&] { gpt->generate(prompt, new_tokens, 0.0); });
    const double cached = best_ms(3, [&] { gpt->generate(prompt, new_tokens, 0.0, 0, /*use_kv_cache=*/true); });
    std::printf("  %10lld %16.1f %16.1f %8.1fx\n", static_cast<long long>(new_tokens), recompute, cached,
                recompute / cached);
  }
}

// ---- Lesson 11: a lookup and its gradient ----

void lesson_11() {
  std::printf("== Lesson 11, section 7: nn::Embedding, 16 x 64 = 1,024 ids, fastest of 10 ==\n");
  std::printf("  %-14s %10s %12s %12s %22s\n", "V x d", "table", "lookup", "backward", "of which zeros({V, d})");
  for (const auto& sizes : std::vector<std::pair<int64_t, int64_t>>{{65, 128}, {10000, 256}, {50257, 768}}) {
    const int64_t V = sizes.first, d = sizes.second;  // C++17 lambdas cannot capture structured bindings
    torch::nn::Embedding embed(V, d);
    const torch::Tensor ids = torch::randint(0, V, {16, 64});
    const torch::Tensor grad = torch::ones({16, 64, d});
    const double lookup = best_ms(10, [&] {
      torch::NoGradGuard guard;
      embed(ids);
    });
    const double backward = best_ms(10, [&] {
      embed->weight.mutable_grad() = torch::Tensor();
      embed(ids).backward(grad);
    });
    const double zeros = best_ms(10, [&] { torch::zeros({V, d}); });
    std::printf("  %6lld x %-5lld %8.3f MB %9.3f ms %9.3f ms %19.3f ms\n", static_cast<long long>(V),
                static_cast<long long>(d), 4.0 * V * d / 1e6, lookup, backward, zeros);
  }
}

// ---- Lesson 10: vocabulary size against sequence length ----

void lesson_10(const std::vector<std::string>& files) {
  if (files.size() < 2) {
    std::fprintf(stderr, "error: lesson 10 needs training files and a held-out file (scripts/lesson-figures passes "
                         "lessons 01-08 and 09)\n");
    std::exit(2);
  }
  std::string train;
  for (size_t i = 0; i + 1 < files.size(); ++i) train += read_file(files[i]);
  const std::string held_out = read_file(files.back());
  std::printf("== Lesson 10, section 8: BPE trained on lessons 01-08 (%zu bytes), measured on lesson 09 (%zu bytes) ==\n",
              train.size(), held_out.size());
  torch::text::CharTokenizer chars;
  chars.build_vocab({train});
  const auto c = torch::text::analyze_tokenization({held_out}, chars);
  std::printf("  characters: V %lld, %.2f bytes per token\n", static_cast<long long>(c.vocab_size), c.bytes_per_token);
  for (const int64_t vocab : {256, 512, 1024, 2048, 4096, 8192}) {
    torch::text::BPETokenizer bpe;
    const std::clock_t start = std::clock();  // CPU time: other programs' turns are not counted
    bpe.train(train, vocab);
    const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    const auto s = torch::text::analyze_tokenization({held_out}, bpe);
    const int64_t window = static_cast<int64_t>(4096 / s.bytes_per_token);
    std::printf("  BPE: V %5lld, %.2f bytes per token, S %5lld for 4 KB, S x S %5.1f MiB, trained in %5.1f s of CPU\n",
                static_cast<long long>(bpe.vocab_size()), s.bytes_per_token, static_cast<long long>(window),
                window * window * 4.0 / (1 << 20), seconds);
    if (vocab == 512) {
      std::printf("  first merges:");
      for (int64_t r = 0; r < 10 && r < static_cast<int64_t>(bpe.merges().size()); ++r)
        std::printf(" '%s'", bpe.decode({256 + r}).c_str());
      std::printf("\n");
    }
  }
}

int run_lesson(const std::string& lesson, const std::vector<std::string>& files, const std::string& usage) {
  if (lesson == "10") {
    lesson_10(files);
  } else if (lesson == "11") {
    lesson_11();
  } else if (lesson == "12") {
    lesson_12();
  } else if (lesson == "14") {
    lesson_14();
  } else if (lesson == "17") {
    lesson_17();
  } else if (lesson == "18") {
    lesson_18();
  } else {
    std::fprintf(stderr, "error: no figures for lesson '%s'\n%s\n", lesson.c_str(), usage.c_str());
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string usage = "usage: lesson_figures NN [files...] (NN: 10, 11, 12, 14, 17 or 18)";
  if (argc < 2) {
    std::fprintf(stderr, "%s\n", usage.c_str());
    return 2;
  }
  const std::string lesson = argv[1];
  const std::vector<std::string> files(argv + 2, argv + argc);
  try {
    return run_lesson(lesson, files, usage);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: lesson %s's figures failed: %s\n", lesson.c_str(), error.what());
    return 1;
  }
}
