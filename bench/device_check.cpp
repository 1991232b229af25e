// scripts/device-check's measuring program: what module 22's device tensors achieve on the OpenCL device
// present, each figure next to what the device itself allows, and every device result checked against
// the CPU. scripts/device-check builds it, runs bench_opencl (CLBlast's SGEMM) beside it, prints the
// table and judges the goals; run by hand it prints one JSON object:
//
//   device_check            the measurements and the checks, as JSON on stdout
//   device_check --quick    a few samples each: checks that everything runs and is right
//
// The device is Device("opencl"): the first one found, or TINYTORCH_OPENCL_DEVICE=P:D. Every time is host
// wall time up to torch::opencl::synchronize() (what a program waits for), median of several samples
// (bench/harness.h). Exit status: 0 all checks passed; 1 a device result was wrong (or an op failed);
// 2 a bad option or a TINYTORCH_OPENCL_DEVICE that names no device; 77 no OpenCL device (skipped).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include <tinytorch/device_kernels.h>
#include <tinytorch/opencl.h>
#include <tinytorch/torch.h>

#include "harness.h"

namespace {

namespace native = tinytorch::opencl::native;
using bench::Fields;

constexpr int64_t kElementwiseNumel = int64_t{16} << 20;  // 16M floats: 64 MiB a tensor
const torch::Device kDevice("opencl");

// How long to measure: --quick takes a few samples and leaves out the 1024^3 products (seconds each on a
// CPU device); its checks are the same otherwise.
struct Settings {
  bench::Budget budget;
  bool quick = false;
};

// The results and the checks, collected into the JSON object main() prints.
struct Report {
  Fields results = Fields::array();
  Fields checks = Fields::array();
  bool all_passed = true;

  void result(const std::string& name, const std::string& impl, const bench::Timing& t, Fields extra = Fields::object()) {
    Fields row = {{"case", name},      {"impl", impl},           {"median_us", t.median_us},
                  {"min_us", t.min_us}, {"max_us", t.max_us},     {"samples", t.samples},
                  {"calls_per_sample", t.inner}};
    row.update(extra);
    results.push_back(row);
  }
  // A check passes when error <= tolerance (NaN fails).
  void check(const std::string& name, double error, double tolerance, const std::string& measure) {
    const bool passed = error <= tolerance;
    all_passed = all_passed && passed;
    checks.push_back({{"check", name}, {"passed", passed}, {"error", error}, {"tolerance", tolerance}, {"measure", measure}});
  }
  void failed(const std::string& name, const std::string& why) {
    all_passed = false;
    checks.push_back({{"check", name}, {"passed", false}, {"failed", why}});
  }
};

double max_abs_difference(const torch::Tensor& device_result, const torch::Tensor& cpu_result) {
  return (device_result.cpu() - cpu_result).abs().max().item<double>();
}

// max |device - CPU| / max |CPU|: a GEMM's error grows with k and with the values' size, not with where
// the element is, so it is measured against the largest entry.
double relative_error(const torch::Tensor& device_result, const torch::Tensor& cpu_result) {
  return max_abs_difference(device_result, cpu_result) / std::max(1e-30, cpu_result.abs().max().item<double>());
}

// Times a device operation up to the moment its result exists: each call waits for the queue.
template <typename Body>
bench::Timing measure_device(Body&& body, const bench::Budget& budget) {
  return bench::measure(
      [&] {
        body();
        torch::opencl::synchronize();
      },
      budget);
}

Fields bandwidth(double bytes, const bench::Timing& t) {
  return {{"bytes", bytes}, {"gb_per_s", bytes / (t.median_us * 1e3)}};
}

// ---- Element-wise: torch::add of two 16M-float device tensors, against the device's own copy ----

void elementwise(Report& report, const Settings& settings) {
  const bench::Budget& budget = settings.budget;
  torch::manual_seed(0);
  const auto a = torch::rand({kElementwiseNumel});
  const auto b = torch::rand({kElementwiseNumel});
  const auto da = a.to(kDevice), db = b.to(kDevice);
  // Reads a and b, writes the sum: 3 x 4 bytes per element (the result comes from the caching allocator).
  const bench::Timing add = measure_device([&] { auto sum = da + db; }, budget);
  report.result("elementwise_add_16M", "tinytorch", add, bandwidth(3.0 * 4 * kElementwiseNumel, add));
  report.check("elementwise add (16M floats)", max_abs_difference(da + db, a + b), 1e-6, "max |device - CPU|");

  // The yardstick, measured the way bench_opencl's copy_buffer_64MiB is: clEnqueueCopyBuffer of the same
  // 64 MiB on the same queue, read + write bytes.
  const size_t bytes = static_cast<size_t>(kElementwiseNumel) * sizeof(float);
  cl_int status = CL_SUCCESS;
  cl_mem source = clCreateBuffer(tinytorch::opencl::context(), CL_MEM_READ_WRITE, bytes, nullptr, &status);
  tinytorch::opencl::check(status, "clCreateBuffer");
  cl_mem target = clCreateBuffer(tinytorch::opencl::context(), CL_MEM_READ_WRITE, bytes, nullptr, &status);
  if (status != CL_SUCCESS) clReleaseMemObject(source);
  tinytorch::opencl::check(status, "clCreateBuffer");
  try {
    const float zero = 0.0f;
    tinytorch::opencl::check(clEnqueueFillBuffer(tinytorch::opencl::queue(), source, &zero, sizeof(zero), 0, bytes, 0,
                                                 nullptr, nullptr),
                             "clEnqueueFillBuffer");
    const bench::Timing copy = bench::measure(
        [&] {
          tinytorch::opencl::check(clEnqueueCopyBuffer(tinytorch::opencl::queue(), source, target, 0, 0, bytes, 0,
                                                       nullptr, nullptr),
                                   "clEnqueueCopyBuffer");
          tinytorch::opencl::check(clFinish(tinytorch::opencl::queue()), "clFinish");
        },
        budget);
    report.result("copy_buffer_64MiB", "opencl", copy, bandwidth(2.0 * bytes, copy));
    // The driver's copy is not always the device's best: pocl's is a memcpy on one core. A kernel that
    // copies a float4 a work-item (bench_opencl's copy_kernel_float4) uses every compute unit; the goal
    // is judged against the faster of the two.
    cl_kernel copy_kernel = tinytorch::opencl::kernel(
        "__kernel void copy_float4(__global float4* to, __global const float4* from) {"
        "  to[get_global_id(0)] = from[get_global_id(0)]; }",
        "copy_float4");
    tinytorch::opencl::check(clSetKernelArg(copy_kernel, 0, sizeof(cl_mem), &target), "clSetKernelArg");
    tinytorch::opencl::check(clSetKernelArg(copy_kernel, 1, sizeof(cl_mem), &source), "clSetKernelArg");
    const size_t float4s = bytes / (4 * sizeof(float)), local = 256;  // 16 Mi floats: a multiple of 4 x 256
    const bench::Timing kernel_copy = bench::measure(
        [&] {
          tinytorch::opencl::check(clEnqueueNDRangeKernel(tinytorch::opencl::queue(), copy_kernel, 1, nullptr, &float4s,
                                                          &local, 0, nullptr, nullptr),
                                   "clEnqueueNDRangeKernel");
          tinytorch::opencl::check(clFinish(tinytorch::opencl::queue()), "clFinish");
        },
        budget);
    report.result("copy_kernel_64MiB", "opencl", kernel_copy, bandwidth(2.0 * bytes, kernel_copy));
  } catch (...) {
    clReleaseMemObject(source);
    clReleaseMemObject(target);
    throw;
  }
  clReleaseMemObject(source);
  clReleaseMemObject(target);
}

// ---- Matrix products: the learner's kernels (module 22, sections 7 and 8) ----

const char* kernel_name(native::GemmKernel kernel) {
  switch (kernel) {
    case native::GemmKernel::Naive: return "naive";
    case native::GemmKernel::Tiled: return "tiled";
    case native::GemmKernel::RegisterTiled: return "register_tiled";
  }
  return "?";
}

void gemm(Report& report, const Settings& settings) {
  const native::GemmKernel kernels[] = {native::GemmKernel::RegisterTiled, native::GemmKernel::Tiled};
  for (int64_t n : {256, 512, 1024}) {
    if (settings.quick && n > 512) continue;
    torch::manual_seed(n);
    const auto a = torch::randn({n, n}), b = torch::randn({n, n});
    const auto expected = torch::mm(a, b);
    const auto da = a.to(kDevice), db = b.to(kDevice);
    const auto dc = torch::empty({n, n}, torch::TensorOptions().device(kDevice));
    for (native::GemmKernel kernel : kernels) {
      const std::string name = std::string("gemm_") + kernel_name(kernel) + "_" + std::to_string(n);
      native::gemm(da, db, dc, kernel);
      report.check(name, relative_error(dc, expected), 1e-4, "max |device - CPU| / max |CPU|");
      bench::Budget gemm_budget = settings.budget;
      gemm_budget.min_samples = std::min(gemm_budget.min_samples, n >= 1024 ? 3 : 5);
      const bench::Timing t = measure_device([&] { native::gemm(da, db, dc, kernel); }, gemm_budget);
      report.result(name, "tinytorch", t,
                    {{"kernel", kernel_name(kernel)}, {"n", n}, {"gflops", 2.0 * n * n * n / (t.median_us * 1e3)}});
    }
  }
  // Shapes that are no multiple of any tile, and transposed views (read through their strides, no copy).
  torch::manual_seed(1);
  const auto a = torch::randn({67, 129}), b = torch::randn({33, 129});  // a @ b.t(): 67 x 33, k = 129
  const auto expected = torch::mm(a, b.t());
  for (native::GemmKernel kernel : {native::GemmKernel::Naive, native::GemmKernel::Tiled, native::GemmKernel::RegisterTiled}) {
    const auto dc = torch::empty({67, 33}, torch::TensorOptions().device(kDevice));
    native::gemm(a.to(kDevice), b.to(kDevice).t(), dc, kernel);
    report.check(std::string("gemm_") + kernel_name(kernel) + " 67x129 @ (33x129)^T", relative_error(dc, expected), 1e-5,
                 "max |device - CPU| / max |CPU|");
  }
}

// ---- Fixed costs: a round trip through the device, a kernel launch ----

void latencies(Report& report, const Settings& settings) {
  bench::Budget latency_budget = settings.budget;
  latency_budget.min_samples = std::max(latency_budget.min_samples, 11);
  const auto one = torch::full({1}, 3.5f);
  const bench::Timing roundtrip = bench::measure([&] { auto back = one.to(kDevice).cpu(); }, latency_budget);
  report.result("roundtrip_4B", "tinytorch", roundtrip, {{"what", "torch::full({1}).to(opencl).cpu()"}});
  report.check("round trip host -> device -> host", std::abs(one.to(kDevice).cpu().item<double>() - 3.5), 0,
               "|value back - value sent|");

  // One op through the dispatcher: the kernel is compiled and cached already, so this is the launch.
  const auto a = one.to(kDevice), b = one.to(kDevice);
  const bench::Timing add = measure_device([&] { auto c = a + b; }, latency_budget);
  report.result("launch_add_1", "tinytorch", add, {{"what", "a + b on 1-element device tensors, then synchronize"}});

  // The runtime alone: an empty kernel through opencl::kernel and KernelLaunch, one work-item.
  cl_kernel empty = tinytorch::opencl::kernel("__kernel void empty_kernel(void) {}", "empty_kernel");
  const bench::Timing launch = bench::measure(
      [&] {
        tinytorch::opencl::KernelLaunch(empty).run({1}, {1});
        tinytorch::opencl::check(clFinish(tinytorch::opencl::queue()), "clFinish");
      },
      latency_budget);
  report.result("launch_empty_kernel", "tinytorch", launch, {{"what", "KernelLaunch of an empty kernel, then clFinish"}});
}

// ---- A small CNN's training step: LeNet-5 on 1x28x28, batch 64, SGD with momentum, device vs CPU ----

// The bench's lenet5_step model (bench/cases.cpp): 61,706 parameters.
torch::nn::Sequential lenet5() {
  namespace nn = torch::nn;
  return nn::Sequential(nn::Conv2d(nn::Conv2dOptions(1, 6, 5).padding(2)), nn::ReLU(), nn::MaxPool2d(nn::MaxPool2dOptions(2)),
                        nn::Conv2d(nn::Conv2dOptions(6, 16, 5)), nn::ReLU(), nn::MaxPool2d(nn::MaxPool2dOptions(2)),
                        nn::Flatten(), nn::Linear(400, 120), nn::ReLU(), nn::Linear(120, 84), nn::ReLU(), nn::Linear(84, 10));
}

void lenet5_step(Report& report, const Settings& settings) {
  const bench::Budget& budget = settings.budget;
  const int64_t batch = 64;
  torch::manual_seed(0);
  auto cpu_model = lenet5();
  torch::manual_seed(0);
  auto device_model = lenet5();  // the same weights, then moved
  device_model->to(kDevice);
  torch::optim::SGD cpu_optimizer(cpu_model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  torch::optim::SGD device_optimizer(device_model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  const auto x = torch::randn({batch, 1, 28, 28});
  const auto y = torch::randint(0, 10, {batch}, torch::kLong);
  const auto dx = x.to(kDevice), dy = y.to(kDevice);

  auto step = [](torch::nn::Sequential& model, torch::optim::SGD& optimizer, const torch::Tensor& input,
                 const torch::Tensor& labels) {
    optimizer.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(model->forward(input), labels);
    loss.backward();
    return loss;
  };

  // The check: one step from the same weights (the loss, every gradient), then the weights after SGD.
  const auto cpu_loss = step(cpu_model, cpu_optimizer, x, y);
  const auto device_loss = step(device_model, device_optimizer, dx, dy);
  report.check("lenet5 loss", std::abs(device_loss.item<double>() - cpu_loss.item<double>()) / std::abs(cpu_loss.item<double>()),
               1e-4, "|device - CPU| / |CPU|");
  const auto cpu_parameters = cpu_model->named_parameters();
  const auto device_parameters = device_model->named_parameters();
  for (size_t i = 0; i < cpu_parameters.size(); ++i) {
    const auto& name = cpu_parameters[i].key();
    const auto& device_grad = device_parameters[i].value().grad();
    if (!device_grad.defined() || !device_grad.is_opencl()) {
      report.failed("lenet5 gradient " + name, "the device parameter has no gradient on the device");
      continue;
    }
    report.check("lenet5 gradient " + name, relative_error(device_grad, cpu_parameters[i].value().grad()), 1e-3,
                 "max |device - CPU| / max |CPU|");
  }
  // Two SGD steps: the first starts the momentum buffers, the second updates them (mul_, add_ in place).
  cpu_optimizer.step();
  device_optimizer.step();
  step(cpu_model, cpu_optimizer, x, y);
  step(device_model, device_optimizer, dx, dy);
  cpu_optimizer.step();
  device_optimizer.step();
  double weight_error = 0;
  for (size_t i = 0; i < cpu_parameters.size(); ++i)
    weight_error = std::max(weight_error, max_abs_difference(device_parameters[i].value(), cpu_parameters[i].value()));
  report.check("lenet5 weights after two SGD steps with momentum", weight_error, 1e-4,
               "max |device - CPU| over every weight");

  const double macs = 6.0 * 28 * 28 * 25 + 16.0 * 10 * 10 * 150 + 400 * 120 + 120 * 84 + 84 * 10;
  const double flops = 3.0 * 2.0 * macs * batch;
  auto full_step = [&](torch::nn::Sequential& model, torch::optim::SGD& optimizer, const torch::Tensor& input,
                       const torch::Tensor& labels) {
    step(model, optimizer, input, labels);
    optimizer.step();
  };
  const bench::Timing cpu = bench::measure([&] { full_step(cpu_model, cpu_optimizer, x, y); }, budget);
  report.result("lenet5_step_cpu", "tinytorch", cpu,
                {{"threads", torch::get_num_threads()}, {"gflops", flops / (cpu.median_us * 1e3)}});

  // The device's memory during the measured steps (after the check's step, so the cache is warm; what the
  // earlier parts left cached is given back first, so that `reserved` is the step's).
  torch::opencl::synchronize();
  torch::opencl::empty_cache();
  torch::opencl::reset_peak_memory_stats();
  const auto before = torch::opencl::memory_stats();
  const bench::Timing device = measure_device([&] { full_step(device_model, device_optimizer, dx, dy); }, budget);
  const auto after = torch::opencl::memory_stats();
  const int64_t allocations = after.allocations - before.allocations;
  const int64_t hits = after.cache_hits - before.cache_hits;
  report.result("lenet5_step_device", "tinytorch", device,
                {{"gflops", flops / (device.median_us * 1e3)},
                 {"speedup_vs_cpu", cpu.median_us / device.median_us},
                 {"memory",
                  {{"peak_allocated_bytes", after.peak_allocated_bytes},
                   {"reserved_bytes", after.reserved_bytes},
                   {"peak_reserved_bytes", after.peak_reserved_bytes},
                   {"allocations", allocations},
                   {"cache_hits", hits},
                   {"hit_rate", allocations > 0 ? static_cast<double>(hits) / static_cast<double>(allocations) : 0.0},
                   {"segments", after.segments}}}});
}

// Each part in turn; an exception (an op the device lacks, a driver error) fails that part, not the run.
template <typename Part>
void run_part(Report& report, const char* name, Part&& part, const Settings& settings) {
  std::fprintf(stderr, "... %s\n", name);
  try {
    part(report, settings);
  } catch (const std::exception& error) {
    report.failed(name, error.what());
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0) {
      std::printf("usage: %s [--quick]   (JSON on stdout; TINYTORCH_OPENCL_DEVICE=P:D picks the device)\n", argv[0]);
      return 0;
    } else {
      std::fprintf(stderr, "error: unknown option '%s'\nfix: %s [--quick]\n", argv[i], argv[0]);
      return 2;
    }
  }
  Fields out = {{"program", "device_check"}, {"quick", quick}};
  if (!torch::opencl::is_available()) {
    // A selection that names no device is a mistake to fix, not a machine without a device: not skipped.
    if (const char* wanted = std::getenv("TINYTORCH_OPENCL_DEVICE"); wanted && *wanted) {
      std::fprintf(stderr, "error: TINYTORCH_OPENCL_DEVICE=%s selects no OpenCL device here\n"
                           "fix: unset it, or name one that `clinfo -l` lists as PLATFORM:DEVICE\n", wanted);
      return 2;
    }
    out["unavailable"] = "no OpenCL device (install a driver: apt-get install pocl-opencl-icd; clinfo -l lists devices)";
    bench::print_line(out);
    return 77;
  }
  Settings settings;
  settings.quick = quick;
  if (quick) {
    settings.budget.min_samples = 3;
    settings.budget.target_seconds = 0.05;
    settings.budget.warmup_seconds = 0.01;
  }
  Report report;
  try {
    const auto& info = tinytorch::opencl::device_info();
    out["device"] = {{"name", info.name},
                     {"vendor", info.vendor},
                     {"driver_version", info.driver_version},
                     {"platform", info.platform},
                     {"is_cpu", info.is_cpu},
                     {"compute_units", info.compute_units},
                     {"max_work_group_size", info.max_work_group_size},
                     {"local_memory_bytes", info.local_memory_bytes},
                     {"global_memory_bytes", info.global_memory_bytes}};
  } catch (const std::exception& error) {
    out["unavailable"] = std::string("the OpenCL device did not answer: ") + error.what();
    bench::print_line(out);
    return 77;
  }
  run_part(report, "elementwise", elementwise, settings);
  run_part(report, "gemm", gemm, settings);
  run_part(report, "latencies", latencies, settings);
  run_part(report, "lenet5_step", lenet5_step, settings);
  out["results"] = report.results;
  out["checks"] = report.checks;
  out["all_checks_passed"] = report.all_passed;
  out["programs_compiled"] = tinytorch::opencl::programs_compiled();
  bench::print_line(out);
  return report.all_passed ? 0 : 1;
}
