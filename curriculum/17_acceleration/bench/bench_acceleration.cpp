// Module 17 (Acceleration): the timing program `tito module bench 17` builds against your code and runs.
// It measures module 14's roofs with your peak loop, then times your kernels against module 01's and
// module 09's loops (your versions where you wrote them) on the shapes the lesson discusses, and prints
// the machine, the build and the load it ran under, so a number can be compared with another only when
// those match.
//
//   tito module bench 17                          every table, default sizes
//   tito module bench 17 -- --sizes 256,1024      the matmul table at these sizes
//   tito module bench 17 -- --repeats 9 --threads 1,2,4
//   tito module bench 17 --program my_timing.cpp  your own program instead of this one
//
// Each figure is the fastest of `repeats` runs after one warm-up run (the median is printed beside it:
// when the two differ much, the machine was busy). A size above --naive-max skips the slow loops.
#include <tinytorch/acceleration_kernels.h>
#include <tinytorch/profiling.h>
#include <tinytorch/torch.h>
#include <tinytorch/utils/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace native = tinytorch::native;

namespace {

struct Options {
  std::vector<int64_t> sizes = {128, 256, 512, 1024};
  std::vector<int64_t> threads = {1, 2};
  int repeats = 5;
  int64_t naive_max = 512;  // module 01's loops take about a second at 1024 on a laptop
};

std::vector<int64_t> parse_list(const std::string& flag, const std::string& text) {
  std::vector<int64_t> values;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    char* end = nullptr;
    const long long value = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || value <= 0)
      throw std::invalid_argument(flag + " takes positive whole numbers separated by commas, e.g. " + flag +
                                  " 256,512; got '" + text + "'");
    values.push_back(value);
  }
  return values;
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::printf("options: --sizes N,N,..  --threads T,T,..  --repeats R  --naive-max N\n");
      std::exit(0);
    }
    if (i + 1 >= argc)
      throw std::invalid_argument("unknown option or missing value: '" + flag +
                                  "' (options: --sizes N,N,..  --threads T,T,..  --repeats R  --naive-max N)");
    const std::string value = argv[++i];
    if (flag == "--sizes") {
      options.sizes = parse_list(flag, value);
    } else if (flag == "--threads") {
      options.threads = parse_list(flag, value);
    } else if (flag == "--repeats") {
      options.repeats = static_cast<int>(parse_list(flag, value).front());
    } else if (flag == "--naive-max") {
      options.naive_max = parse_list(flag, value).front();
    } else {
      throw std::invalid_argument("unknown option '" + flag +
                                  "' (options: --sizes N,N,..  --threads T,T,..  --repeats R  --naive-max N)");
    }
  }
  return options;
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");  // Linux; elsewhere unknown
  std::string one, five;
  return in >> one >> five ? one + " (1 min), " + five + " (5 min)" : "unknown";
}

// The fastest and the median of `repeats` timed runs, in milliseconds, after one untimed warm-up.
struct Timing {
  double best_ms = 0, median_ms = 0;
};
Timing time_it(int repeats, const std::function<void()>& body) {
  body();
  std::vector<double> ms;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    body();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2]};
}

void print_header(const Options& options) {
  const auto system = torch::utils::benchmark::SystemInfo::current();
  std::printf("machine:  %s, %lld hardware threads; %s\n", system.cpu.c_str(),
              static_cast<long long>(system.cpu_count), system.os.c_str());
  std::printf("build:    %s, %s; float micro-kernel %s; fast kernels %s\n", system.compiler.c_str(),
#ifdef __OPTIMIZE__
              "optimised",
#else
              "NOT optimised (timings mean little)",
#endif
              torch::acceleration::fast_kernels_available() ? torch::cpublas::float_kernel().c_str() : "-",
              torch::acceleration::fast_kernels_available() ? "linked (your module 17)" : "absent");
  std::printf("load:     %s at the start; best and median of %d runs after a warm-up\n", load_average().c_str(),
              options.repeats);
}

// Module 14's roofs (your measure_peak_flops), one per instruction set and thread count: the GEMM's
// GFLOP/s mean something only against the roof of the instructions it runs on as many threads.
std::vector<torch::profiling::PeakFlopsMeasurement> print_roofs(const Options& options) {
  const int64_t most_threads = *std::max_element(options.threads.begin(), options.threads.end());
  const auto roofs = torch::profiling::measure_peak_roofs(1'000'000, 3, most_threads);
  std::printf("\nthe roofs (module 14's measure_peak_roofs, your loop):\n%s",
              torch::profiling::format_peak_roofs(roofs).c_str());
  return roofs;
}

// The widest instruction set's roof on `threads` threads, in GFLOP/s (0 when it was not measured).
double widest_roof(const std::vector<torch::profiling::PeakFlopsMeasurement>& roofs, int64_t threads) {
  double best = 0;
  for (const auto& roof : roofs)
    if (roof.threads == threads && roof.seconds > 0) best = std::max(best, roof.flops / roof.seconds / 1e9);
  return best;
}

void matmul_table(const Options& options, const std::vector<torch::profiling::PeakFlopsMeasurement>& roofs) {
  std::printf("\nmatmul n x n x n (2 n^3 FLOPs): ms, GFLOP/s\n");
  std::printf("  %6s  %-26s", "n", "module 01 loops");
  for (int64_t t : options.threads) std::printf("  %-34s", ("your GEMM, " + std::to_string(t) + " thread" + (t == 1 ? "" : "s")).c_str());
  std::printf("\n");
  for (int64_t n : options.sizes) {
    const torch::Tensor a = torch::rand({n, n}), b = torch::rand({n, n});
    const double gflop = 2.0 * n * n * n / 1e9;
    std::printf("  %6lld  ", static_cast<long long>(n));
    double naive_best = 0;
    if (n <= options.naive_max) {
      const Timing naive = time_it(std::max(1, options.repeats / 2), [&] { torch::acceleration::naive_mm(a, b); });
      naive_best = naive.best_ms;
      std::printf("%8.2f ms %6.2f GF/s   ", naive.best_ms, gflop / naive.best_ms * 1e3);
    } else {
      std::printf("%-26s", "(skipped: --naive-max)");
    }
    for (int64_t t : options.threads) {
      const int saved = torch::get_num_threads();
      torch::set_num_threads(static_cast<int>(t));
      const Timing fast = time_it(options.repeats, [&] { torch::acceleration::fast_mm(a, b); });
      torch::set_num_threads(saved);
      const double gflops = gflop / fast.best_ms * 1e3, roof = widest_roof(roofs, t);
      std::printf("  %8.2f ms %6.1f GF/s", fast.best_ms, gflops);
      if (naive_best > 0) std::printf(" %4.0fx", naive_best / fast.best_ms);
      else std::printf("      ");
      if (roof > 0) std::printf(" %3.0f%%", 100 * gflops / roof);
    }
    std::printf("\n");
  }
}

void convolution_table(const Options& options) {
  struct Shape {
    const char* name;
    int64_t batch, channels, size, filters, kernel, padding;
  };
  const std::vector<Shape> shapes = {{"TinyDigits conv (32x1x8x8, 8 of 3x3, pad 1)", 32, 1, 8, 8, 3, 1},
                                     {"LeNet-5 C3 (64x6x14x14, 16 of 5x5)", 64, 6, 14, 16, 5, 0},
                                     {"CIFAR conv (64x3x32x32, 16 of 3x3, pad 1)", 64, 3, 32, 16, 3, 1}};
  std::printf("\nconv2d forward, module 09's loops against im2col + your GEMM (1 thread): ms\n");
  const int saved = torch::get_num_threads();
  torch::set_num_threads(1);
  for (const Shape& s : shapes) {
    const torch::Tensor x = torch::rand({s.batch, s.channels, s.size, s.size});
    const torch::Tensor w = torch::rand({s.filters, s.channels, s.kernel, s.kernel}), bias = torch::rand({s.filters});
    native::Conv2dParams p;
    p.padding[0] = p.padding[1] = s.padding;
    const Timing loops = time_it(options.repeats, [&] { native::conv2d_reference(x, w, bias, p); });
    const Timing im2col = time_it(options.repeats, [&] { native::conv2d_im2col(x, w, bias, p); });
    const native::Conv2dGeometry g = native::geometry_of(x, w, p);
    const double gflop = 2.0 * s.batch * s.filters * g.out_h * g.out_w * s.channels * s.kernel * s.kernel / 1e9;
    std::printf("  %-46s loops %8.3f ms (%5.2f GF/s)  im2col %8.3f ms (%5.1f GF/s)  %5.1fx\n", s.name, loops.best_ms,
                gflop / loops.best_ms * 1e3, im2col.best_ms, gflop / im2col.best_ms * 1e3, loops.best_ms / im2col.best_ms);
  }
  torch::set_num_threads(saved);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 2;
  }
  print_header(options);
  if (!torch::acceleration::fast_kernels_available()) {
    std::printf("\nThis build has no module 17 kernels (start module 17 first: tito module start 17).\n");
    return 1;
  }
  const auto roofs = print_roofs(options);
  matmul_table(options, roofs);
  std::printf("  (x: speed-up over module 01's loops; %%: share of the widest roof on as many threads)\n");
  convolution_table(options);
  std::printf("\nload:     %s at the end\n", load_average().c_str());
  return 0;
}
