#pragma once
// Milestone 07 part 2's speed report, never gated (a device's speed says nothing about your code's
// correctness, and pocl on a laptop's CPU is not a GPU): how close your kernels come to what the device
// gives without them.
//   - bandwidth: your element-wise kernel adding two 32 MiB tensors (reads 2, writes 1) against the
//     device copying 32 MiB with clEnqueueCopyBuffer (reads 1, writes 1), both in bytes moved per second;
//     an element-wise op can go no faster than the device's memory;
//   - GEMM: your register-tiled kernel at 1024^3 against CLBlast's SGEMM (tuned per device) on the same
//     device and queue, when libclblast is installed (sudo apt-get install libclblast-dev). The milestone
//     build links only what every tinytorch program links (OpenCL), so CLBlast is opened at run time;
//     without it, build-bench/bench/bench_opencl --quick measures it (bench/README.md, "The OpenCL baseline").
#include <tinytorch/torch.h>
#include <tinytorch/device_kernels.h>
#include <tinytorch/opencl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#if defined(__has_include)
#if __has_include(<clblast_c.h>) && __has_include(<dlfcn.h>) && \
    (!defined(__GLIBC__) || __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
// glibc 2.34 and later keep dlopen in libc itself: no -ldl on the link line.
#include <clblast_c.h>
#include <dlfcn.h>
#define MILESTONE_07_OPENS_CLBLAST 1
#endif
#endif

namespace milestone::device {

// The median wall time of `runs` calls of fn, each waited for (torch::opencl::synchronize), after a warm-up.
inline double device_seconds(const std::function<void()>& fn, int runs) {
  fn();
  torch::opencl::synchronize();
  std::vector<double> seconds;
  for (int i = 0; i < runs; ++i) {
    const auto started = std::chrono::steady_clock::now();
    fn();
    torch::opencl::synchronize();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  }
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

// CLBlast's SGEMM, row-major C = A B, on the device's queue; seconds per call, or < 0 with `why` set.
inline double clblast_sgemm_seconds(const torch::Tensor& a, const torch::Tensor& b, const torch::Tensor& c,
                                    std::string& why) {
#ifdef MILESTONE_07_OPENS_CLBLAST
  void* library = dlopen("libclblast.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) library = dlopen("libclblast.so", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    why = "libclblast is not installed";
    return -1;
  }
  auto* sgemm = reinterpret_cast<decltype(&CLBlastSgemm)>(dlsym(library, "CLBlastSgemm"));
  if (sgemm == nullptr) {
    why = "libclblast has no CLBlastSgemm";
    return -1;
  }
  const size_t m = static_cast<size_t>(a.size(0)), k = static_cast<size_t>(a.size(1));
  const size_t n = static_cast<size_t>(b.size(1));
  cl_command_queue queue = torch::opencl::queue();
  CLBlastStatusCode status = CLBlastSuccess;
  const double seconds = device_seconds(
      [&] {
        cl_event event = nullptr;
        status = sgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, n, k, 1.0f,
                       torch::opencl::block_of(a).buffer, static_cast<size_t>(torch::opencl::element_offset_of(a)), k,
                       torch::opencl::block_of(b).buffer, static_cast<size_t>(torch::opencl::element_offset_of(b)), n,
                       0.0f, torch::opencl::block_of(c).buffer,
                       static_cast<size_t>(torch::opencl::element_offset_of(c)), n, &queue, &event);
        if (event != nullptr) clReleaseEvent(event);
      },
      3);
  if (status != CLBlastSuccess) {
    why = "CLBlastSgemm returned status " + std::to_string(static_cast<int>(status));
    return -1;
  }
  return seconds;
#else
  (void)a, (void)b, (void)c;
  why = "this build cannot open libclblast at run time (no clblast_c.h, or a glibc older than 2.34)";
  return -1;
#endif
}

struct Speed {
  double elementwise_gb_per_s = 0, copy_buffer_gb_per_s = 0, copy_kernel_gb_per_s = 0, gemm_gflops = 0;
  double clblast_gflops = 0;  // 0 where CLBlast could not be opened
};

inline Speed report_speed(const torch::Device& device) {
  Speed speed;
  const auto options = torch::TensorOptions().device(device);
  std::cout << "Speed on this device (reported, not gated):\n";
  {
    constexpr int64_t n = int64_t{8} << 20;  // 8 Mi floats: 32 MiB a tensor
    const torch::Tensor a = torch::rand({n}).to(device), b = torch::rand({n}).to(device);
    torch::Tensor out = torch::empty({n}, options), copy = torch::empty({n}, options);
    const double add_seconds =
        device_seconds([&] { torch::opencl::native::launch_elementwise("a + alpha * b", a, b, out); }, 5);
    const size_t bytes = static_cast<size_t>(n) * sizeof(float);
    const double copy_seconds = device_seconds(
        [&] {
          cl_event event = nullptr;
          torch::opencl::DeviceBlock &from = torch::opencl::block_of(a), &to = torch::opencl::block_of(copy);
          torch::opencl::check(clEnqueueCopyBuffer(torch::opencl::queue(), from.buffer, to.buffer, from.offset,
                                                   to.offset, bytes, 0, nullptr, &event),
                               "clEnqueueCopyBuffer");
          torch::opencl::record_use(from, event);
          torch::opencl::record_use(to, event);
          clReleaseEvent(event);
        },
        5);
    // The driver's copy is not always the device's best (pocl's is a memcpy on one core): a kernel copying a
    // float4 a work-item is the other yardstick, and the report compares with the faster of the two.
    cl_kernel copy_kernel = torch::opencl::kernel(
        "__kernel void copy_float4(__global float* to, long to_offset, __global const float* from, long from_offset) {"
        "  const size_t i = get_global_id(0); vstore4(vload4(i, from + from_offset), i, to + to_offset); }",
        "copy_float4");
    const double kernel_seconds =
        device_seconds([&] { torch::opencl::KernelLaunch(copy_kernel).arg(copy).arg(a).run({static_cast<size_t>(n / 4)}, {256}); }, 5);
    const double add_bandwidth = 3.0 * bytes / add_seconds / 1e9, copy_bandwidth = 2.0 * bytes / copy_seconds / 1e9;
    const double kernel_bandwidth = 2.0 * bytes / kernel_seconds / 1e9;
    speed.elementwise_gb_per_s = add_bandwidth, speed.copy_buffer_gb_per_s = copy_bandwidth;
    speed.copy_kernel_gb_per_s = kernel_bandwidth;
    const double best_copy = std::max(copy_bandwidth, kernel_bandwidth);
    std::printf("  bandwidth: your element-wise add of two 32 MiB tensors %.1f GB/s; the device's copy %.1f GB/s "
                "(clEnqueueCopyBuffer %.1f, a float4 copy kernel %.1f): %.0f%% of the faster\n",
                add_bandwidth, best_copy, copy_bandwidth, kernel_bandwidth, 100 * add_bandwidth / best_copy);
  }
  // The four 32 MiB tensors above sit in the caching allocator; hand them back to the driver before
  // CLBlast builds its SGEMM (LLVM inside pocl: some 200 MB more address space at the program's peak). The
  // part runs under an address-space limit (milestone.json), and pocl segfaults instead of failing cleanly
  // when an allocation is refused: this peak was 995 MB with pocl's kernel cache warm, 1024 MB with it cold.
  torch::opencl::empty_cache();
  {
    constexpr int64_t size = 1024;
    const torch::Tensor a = torch::randn({size, size}).to(device), b = torch::randn({size, size}).to(device);
    torch::Tensor c = torch::empty({size, size}, options);
    const double flops = 2.0 * size * size * size;
    const double yours = device_seconds(
        [&] { torch::opencl::native::gemm(a, b, c, torch::opencl::native::GemmKernel::RegisterTiled); }, 3);
    std::string why;
    const double theirs = clblast_sgemm_seconds(a, b, c, why);
    speed.gemm_gflops = flops / yours / 1e9;
    speed.clblast_gflops = theirs > 0 ? flops / theirs / 1e9 : 0;
    std::printf("  GEMM 1024^3: your register-tiled kernel %.1f GFLOP/s", speed.gemm_gflops);
    if (theirs > 0)
      std::printf("; CLBlast's SGEMM %.1f GFLOP/s (yours is %.0f%% of it)\n", speed.clblast_gflops,
                  100 * theirs / yours);
    else
      std::printf("; CLBlast: %s (bench_opencl --quick measures it: bench/README.md)\n", why.c_str());
  }
  return speed;
}

}  // namespace milestone::device
