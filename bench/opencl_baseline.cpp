// The OpenCL baseline: what one OpenCL device gives, measured with the plain OpenCL 1.2 C API and
// CLBlast's SGEMM, as a yardstick for a device backend (on a machine without a GPU, pocl's CPU device).
//
//   bench_opencl            a table: the device, copy and transfer bandwidths, latencies, SGEMM GFLOP/s
//   bench_opencl --json     the same as one JSON object (keys: bench/README.md, "The OpenCL baseline")
//   bench_opencl --quick    few repetitions: checks that everything runs (under 10 s on pocl)
//
// The device is the first one found, or TINYTORCH_OPENCL_DEVICE=P:D (platform P, device D, as `clinfo -l`
// numbers them). Every figure is host wall time around the enqueue and the clFinish (or a blocking call),
// so it includes the launch cost a framework would pay; each operation runs once to warm up (kernel
// compilation, first touch of pages, CLBlast's choice of kernel), then repeatedly for the median.
// A result that fails says why in its row ("unavailable") and the others still run.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <clblast.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "harness.h"  // bench::Timing and bench::Fields, the shape of bench_openblas's result lines

namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kMiB = size_t{1} << 20;

// ---- OpenCL handles and errors -------------------------------------------------------------------

template <typename Handle, cl_int (*Release)(Handle)>
struct ReleaseWith {
  void operator()(Handle handle) const { Release(handle); }
};
template <typename Handle, cl_int (*Release)(Handle)>
using Owned = std::unique_ptr<std::remove_pointer_t<Handle>, ReleaseWith<Handle, Release>>;
using Context = Owned<cl_context, clReleaseContext>;
using Queue = Owned<cl_command_queue, clReleaseCommandQueue>;
using Buffer = Owned<cl_mem, clReleaseMemObject>;
using Program = Owned<cl_program, clReleaseProgram>;
using Kernel = Owned<cl_kernel, clReleaseKernel>;

std::string cl_error_name(cl_int status) {
  switch (status) {
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
    case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_MAP_FAILURE: return "CL_MAP_FAILURE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_PLATFORM_NOT_FOUND_KHR: return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL driver installed)";
    default: return "OpenCL error " + std::to_string(status);
  }
}

void check(cl_int status, const char* what) {
  if (status != CL_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + cl_error_name(status));
}

std::string device_string(cl_device_id device, cl_device_info what) {
  size_t size = 0;
  check(clGetDeviceInfo(device, what, 0, nullptr, &size), "clGetDeviceInfo");
  std::string text(size, '\0');
  check(clGetDeviceInfo(device, what, size, text.data(), nullptr), "clGetDeviceInfo");
  return text.c_str();  // drops the terminating NUL the size counts
}

template <typename T>
T device_value(cl_device_id device, cl_device_info what) {
  T value{};
  check(clGetDeviceInfo(device, what, sizeof(value), &value, nullptr), "clGetDeviceInfo");
  return value;
}

std::string platform_string(cl_platform_id platform, cl_platform_info what) {
  size_t size = 0;
  check(clGetPlatformInfo(platform, what, 0, nullptr, &size), "clGetPlatformInfo");
  std::string text(size, '\0');
  check(clGetPlatformInfo(platform, what, size, text.data(), nullptr), "clGetPlatformInfo");
  return text.c_str();
}

// ---- Choosing the device -------------------------------------------------------------------------

struct ChosenDevice {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  unsigned platform_index = 0, device_index = 0;
  std::string chosen_by;  // "first device" or "TINYTORCH_OPENCL_DEVICE"
};

std::vector<cl_device_id> devices_of(cl_platform_id platform) {
  cl_uint count = 0;
  const cl_int status = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (status == CL_DEVICE_NOT_FOUND) return {};
  check(status, "clGetDeviceIDs");
  std::vector<cl_device_id> devices(count);
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr), "clGetDeviceIDs");
  return devices;
}

ChosenDevice choose_device() {
  cl_uint platform_count = 0;
  const cl_int status = clGetPlatformIDs(0, nullptr, &platform_count);
  if (status == CL_PLATFORM_NOT_FOUND_KHR || platform_count == 0)
    throw std::runtime_error("no OpenCL platform (install a driver, e.g. apt-get install pocl-opencl-icd)");
  check(status, "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(platform_count);
  check(clGetPlatformIDs(platform_count, platforms.data(), nullptr), "clGetPlatformIDs");

  ChosenDevice chosen;
  if (const char* wanted = std::getenv("TINYTORCH_OPENCL_DEVICE"); wanted && *wanted) {
    unsigned p = 0, d = 0;
    char end = 0;
    if (std::sscanf(wanted, "%u:%u%c", &p, &d, &end) != 2)
      throw std::runtime_error(std::string("TINYTORCH_OPENCL_DEVICE='") + wanted +
                               "' is not PLATFORM:DEVICE (e.g. 0:1; clinfo -l lists them)");
    if (p >= platforms.size()) throw std::runtime_error("TINYTORCH_OPENCL_DEVICE: no platform " + std::to_string(p));
    const std::vector<cl_device_id> devices = devices_of(platforms[p]);
    if (d >= devices.size())
      throw std::runtime_error("TINYTORCH_OPENCL_DEVICE: platform " + std::to_string(p) + " has no device " +
                               std::to_string(d));
    return {platforms[p], devices[d], p, d, "TINYTORCH_OPENCL_DEVICE"};
  }
  for (unsigned p = 0; p < platforms.size(); ++p) {
    const std::vector<cl_device_id> devices = devices_of(platforms[p]);
    if (!devices.empty()) return {platforms[p], devices[0], p, 0, "first device"};
  }
  throw std::runtime_error("no OpenCL device on any of the " + std::to_string(platforms.size()) + " platform(s)");
}

bench::Fields describe_device(const ChosenDevice& chosen) {
  const cl_device_id device = chosen.device;
  const auto type = device_value<cl_device_type>(device, CL_DEVICE_TYPE);
  const char* type_name = (type & CL_DEVICE_TYPE_GPU)           ? "gpu"
                          : (type & CL_DEVICE_TYPE_CPU)         ? "cpu"
                          : (type & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator"
                                                                : "other";
  return {{"selected", std::to_string(chosen.platform_index) + ":" + std::to_string(chosen.device_index)},
          {"selected_by", chosen.chosen_by},
          {"platform", platform_string(chosen.platform, CL_PLATFORM_NAME)},
          {"platform_version", platform_string(chosen.platform, CL_PLATFORM_VERSION)},
          {"name", device_string(device, CL_DEVICE_NAME)},
          {"vendor", device_string(device, CL_DEVICE_VENDOR)},
          {"driver_version", device_string(device, CL_DRIVER_VERSION)},
          {"device_version", device_string(device, CL_DEVICE_VERSION)},
          {"type", type_name},
          {"compute_units", device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS)},
          {"max_clock_mhz", device_value<cl_uint>(device, CL_DEVICE_MAX_CLOCK_FREQUENCY)},
          {"max_work_group_size", device_value<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE)},
          {"local_mem_bytes", device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE)},
          {"global_mem_bytes", device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE)},
          {"max_mem_alloc_bytes", device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE)}};
}

// ---- Timing --------------------------------------------------------------------------------------

// How many times to repeat: at least `min`, then until `seconds` have passed, never more than `max`.
struct Repeats {
  int min, max;
  double seconds;
};

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// One warm-up call, then one sample per call. `call` must wait for the device (clFinish or a
// blocking transfer), so that a sample is the whole cost of the operation.
struct Timing : bench::Timing {
  double first_call_us = 0;  // the warm-up: includes compiling the kernels it needs
};

template <typename Call>
Timing time_calls(Call&& call, const Repeats& repeats) {
  const Clock::time_point first_start = Clock::now();
  call();
  const double first_call_us = seconds_since(first_start) * 1e6;
  std::vector<double> sample_us;
  const Clock::time_point start = Clock::now();
  while (static_cast<int>(sample_us.size()) < repeats.max &&
         (static_cast<int>(sample_us.size()) < repeats.min || seconds_since(start) < repeats.seconds)) {
    const Clock::time_point call_start = Clock::now();
    call();
    sample_us.push_back(seconds_since(call_start) * 1e6);
  }
  std::sort(sample_us.begin(), sample_us.end());
  Timing timing;
  timing.first_call_us = first_call_us;
  timing.samples = static_cast<int>(sample_us.size());
  timing.inner = 1;
  timing.min_us = sample_us.front();
  timing.max_us = sample_us.back();
  const size_t mid = sample_us.size() / 2;
  timing.median_us = sample_us.size() % 2 ? sample_us[mid] : (sample_us[mid - 1] + sample_us[mid]) / 2;
  return timing;
}

// A result, with bench_openblas's keys (less "threads": the device has its own).
bench::Fields result_row(const std::string& case_name, const Timing& t) {
  return {{"case", case_name},          {"impl", "opencl"},     {"median_us", t.median_us},
          {"min_us", t.min_us},         {"max_us", t.max_us},   {"samples", t.samples},
          {"calls_per_sample", t.inner}, {"first_call_us", t.first_call_us}};
}

bench::Fields bandwidth_row(const std::string& case_name, const Timing& t, size_t bytes_moved) {
  bench::Fields row = result_row(case_name, t);
  row["bytes"] = bytes_moved;
  row["gb_per_s"] = static_cast<double>(bytes_moved) / (t.median_us * 1e3);
  return row;
}

bench::Fields unavailable_row(const std::string& case_name, const std::string& reason) {
  return {{"case", case_name}, {"impl", "opencl"}, {"unavailable", reason}};
}

std::string size_label(size_t bytes) { return std::to_string(bytes / kMiB) + "MiB"; }

float pattern_value(size_t i, size_t stride, size_t period) {
  return static_cast<float>((i * stride) % period) / static_cast<float>(period) - 0.5f;
}

std::vector<float> pattern(size_t count, size_t stride, size_t period) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = pattern_value(i, stride, period);
  return values;
}

// ---- The device --------------------------------------------------------------------------------

// Two kernels: one that does nothing (the launch cost) and a float4 copy (bandwidth through a kernel).
const char* const kKernelSource = R"CLC(
__kernel void empty_kernel(void) {}
__kernel void copy_float4(__global const float4* in, __global float4* out) {
  const size_t i = get_global_id(0);
  out[i] = in[i];
}
)CLC";

struct Device {
  cl_device_id id = nullptr;
  Context context;
  Queue queue;
  Program program;

  Buffer buffer(size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE) const {
    cl_int status = CL_SUCCESS;
    Buffer made(clCreateBuffer(context.get(), flags, bytes, nullptr, &status));
    check(status, "clCreateBuffer");
    return made;
  }
  Buffer upload(const std::vector<float>& values) const {
    Buffer made = buffer(values.size() * sizeof(float));
    check(clEnqueueWriteBuffer(queue.get(), made.get(), CL_TRUE, 0, values.size() * sizeof(float), values.data(), 0,
                               nullptr, nullptr),
          "clEnqueueWriteBuffer");
    return made;
  }
  Kernel kernel(const char* name) const {
    cl_int status = CL_SUCCESS;
    Kernel made(clCreateKernel(program.get(), name, &status));
    check(status, "clCreateKernel");
    return made;
  }
  void finish() const { check(clFinish(queue.get()), "clFinish"); }
};

Device open_device(cl_device_id id) {
  Device device;
  device.id = id;
  cl_int status = CL_SUCCESS;
  device.context.reset(clCreateContext(nullptr, 1, &id, nullptr, nullptr, &status));
  check(status, "clCreateContext");
  device.queue.reset(clCreateCommandQueue(device.context.get(), id, 0, &status));
  check(status, "clCreateCommandQueue");
  const char* source = kKernelSource;
  device.program.reset(clCreateProgramWithSource(device.context.get(), 1, &source, nullptr, &status));
  check(status, "clCreateProgramWithSource");
  if (clBuildProgram(device.program.get(), 1, &id, "", nullptr, nullptr) != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(device.program.get(), id, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(device.program.get(), id, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    throw std::runtime_error("clBuildProgram failed: " + std::string(log.c_str()));
  }
  return device;
}

// ---- The measurements ----------------------------------------------------------------------------

struct Plan {
  Repeats bandwidth, latency, gemm;
};

// Copies on the device: clEnqueueCopyBuffer and a float4 copy kernel, counting read + write bytes.
void measure_device_copies(const Device& device, const Plan& plan, std::vector<bench::Fields>& rows) {
  const size_t bytes = 64 * kMiB;
  const std::vector<float> host = pattern(bytes / sizeof(float), 37, 101);
  const Buffer source = device.upload(host);
  const Buffer target = device.buffer(bytes);
  cl_mem in = source.get(), out = target.get();

  rows.push_back(bandwidth_row("copy_buffer_" + size_label(bytes),
                               time_calls(
                                   [&] {
                                     check(clEnqueueCopyBuffer(device.queue.get(), in, out, 0, 0, bytes, 0, nullptr,
                                                               nullptr),
                                           "clEnqueueCopyBuffer");
                                     device.finish();
                                   },
                                   plan.bandwidth),
                               2 * bytes));

  const Kernel copy = device.kernel("copy_float4");
  check(clSetKernelArg(copy.get(), 0, sizeof(cl_mem), &in), "clSetKernelArg");
  check(clSetKernelArg(copy.get(), 1, sizeof(cl_mem), &out), "clSetKernelArg");
  const size_t work_items = bytes / (4 * sizeof(float));
  bench::Fields row = bandwidth_row("copy_kernel_float4_" + size_label(bytes),
                                    time_calls(
                                        [&] {
                                          check(clEnqueueNDRangeKernel(device.queue.get(), copy.get(), 1, nullptr,
                                                                       &work_items, nullptr, 0, nullptr, nullptr),
                                                "clEnqueueNDRangeKernel");
                                          device.finish();
                                        },
                                        plan.bandwidth),
                                    2 * bytes);
  // The kernel's last element must be the source's (a wrong copy would be fast for nothing).
  float last = 0;
  check(clEnqueueReadBuffer(device.queue.get(), out, CL_TRUE, bytes - sizeof(float), sizeof(float), &last, 0, nullptr,
                            nullptr),
        "clEnqueueReadBuffer");
  row["correct"] = last == host.back();
  rows.push_back(row);
}

// Host <-> device, from pageable memory (a std::vector) and from pinned memory (a CL_MEM_ALLOC_HOST_PTR
// buffer, mapped once: the driver can DMA from it without staging through its own pinned copy).
void measure_transfers(const Device& device, size_t bytes, const Plan& plan, std::vector<bench::Fields>& rows) {
  const cl_command_queue queue = device.queue.get();
  const Buffer on_device = device.buffer(bytes);
  std::vector<float> pageable = pattern(bytes / sizeof(float), 53, 97);

  const Buffer pinned = device.buffer(bytes, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR);
  cl_int status = CL_SUCCESS;
  void* pinned_host = clEnqueueMapBuffer(queue, pinned.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                         nullptr, nullptr, &status);
  check(status, "clEnqueueMapBuffer");
  std::memcpy(pinned_host, pageable.data(), bytes);

  const std::string size = size_label(bytes);
  auto write_from = [&](const void* host) {
    return [&device, queue, &on_device, bytes, host] {
      check(clEnqueueWriteBuffer(queue, on_device.get(), CL_TRUE, 0, bytes, host, 0, nullptr, nullptr),
            "clEnqueueWriteBuffer");
      device.finish();
    };
  };
  auto read_into = [&](void* host) {
    return [&device, queue, &on_device, bytes, host] {
      check(clEnqueueReadBuffer(queue, on_device.get(), CL_TRUE, 0, bytes, host, 0, nullptr, nullptr),
            "clEnqueueReadBuffer");
      device.finish();
    };
  };
  rows.push_back(bandwidth_row("h2d_pageable_" + size, time_calls(write_from(pageable.data()), plan.bandwidth), bytes));
  rows.push_back(bandwidth_row("d2h_pageable_" + size, time_calls(read_into(pageable.data()), plan.bandwidth), bytes));
  rows.push_back(bandwidth_row("h2d_pinned_" + size, time_calls(write_from(pinned_host), plan.bandwidth), bytes));
  rows.push_back(bandwidth_row("d2h_pinned_" + size, time_calls(read_into(pinned_host), plan.bandwidth), bytes));

  check(clEnqueueUnmapMemObject(queue, pinned.get(), pinned_host, 0, nullptr, nullptr), "clEnqueueUnmapMemObject");
  device.finish();
}

// A 4-byte blocking write and read back (the round trip a scalar .item() pays), and an empty kernel's
// enqueue + clFinish (the floor under every kernel launch).
void measure_latencies(const Device& device, const Plan& plan, std::vector<bench::Fields>& rows) {
  const cl_command_queue queue = device.queue.get();
  const Buffer scalar = device.buffer(sizeof(float));
  float sent = 1.0f, received = 0.0f;
  bench::Fields round_trip = result_row("roundtrip_4B", time_calls(
                                                            [&] {
                                                              sent += 1.0f;
                                                              check(clEnqueueWriteBuffer(queue, scalar.get(), CL_TRUE,
                                                                                         0, sizeof(float), &sent, 0,
                                                                                         nullptr, nullptr),
                                                                    "clEnqueueWriteBuffer");
                                                              check(clEnqueueReadBuffer(queue, scalar.get(), CL_TRUE, 0,
                                                                                        sizeof(float), &received, 0,
                                                                                        nullptr, nullptr),
                                                                    "clEnqueueReadBuffer");
                                                            },
                                                            plan.latency));
  round_trip["correct"] = received == sent;
  rows.push_back(round_trip);

  const Kernel empty = device.kernel("empty_kernel");
  const size_t one = 1;
  rows.push_back(result_row("launch_empty_kernel", time_calls(
                                                       [&] {
                                                         check(clEnqueueNDRangeKernel(queue, empty.get(), 1, nullptr,
                                                                                      &one, nullptr, 0, nullptr,
                                                                                      nullptr),
                                                               "clEnqueueNDRangeKernel");
                                                         device.finish();
                                                       },
                                                       plan.latency)));
}

// ---- SGEMM through CLBlast -----------------------------------------------------------------------

// C[m, n] = op(A)[m, k] op(B)[k, n], row-major; a transposed operand is stored as the transpose
// (A as [k, m], B as [n, k]), the way a Linear layer's x.mm(w.t()) or a gradient's dy.t().mm(x) reads it.
struct Product {
  std::string name;
  bool transpose_a, transpose_b;
  size_t m, n, k;
  double flops() const { return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k); }
};

// The matrix products of one LeNet-5 training step at batch 64 (the lenet5_step case's model; a
// convolution as im2col + GEMM over the whole batch: 28x28 outputs for conv1, 10x10 for conv2).
// The input image needs no gradient, so conv1 has no product for its input's.
std::vector<Product> lenet5_products() {
  const size_t batch = 64, conv1_cols = batch * 28 * 28, conv2_cols = batch * 10 * 10;
  return {
      {"lenet5_conv1_forward", false, false, 6, conv1_cols, 1 * 5 * 5},       // W1[6, 25] cols1[25, B*784]
      {"lenet5_conv2_forward", false, false, 16, conv2_cols, 6 * 5 * 5},      // W2[16, 150] cols2[150, B*100]
      {"lenet5_fc1_forward", false, true, batch, 120, 400},                   // x[B, 400] W^T
      {"lenet5_fc2_forward", false, true, batch, 84, 120},
      {"lenet5_fc3_forward", false, true, batch, 10, 84},
      {"lenet5_fc3_grad_input", false, false, batch, 84, 10},                 // dy[B, 10] W[10, 84]
      {"lenet5_fc3_grad_weight", true, false, 10, 84, batch},                 // dy^T x
      {"lenet5_fc2_grad_input", false, false, batch, 120, 84},
      {"lenet5_fc2_grad_weight", true, false, 84, 120, batch},
      {"lenet5_fc1_grad_input", false, false, batch, 400, 120},
      {"lenet5_fc1_grad_weight", true, false, 120, 400, batch},
      {"lenet5_conv2_grad_input", true, false, 6 * 5 * 5, conv2_cols, 16},    // W2^T dy: the columns, for col2im
      {"lenet5_conv2_grad_weight", false, true, 16, 6 * 5 * 5, conv2_cols},   // dy cols2^T
      {"lenet5_conv1_grad_weight", false, true, 6, 1 * 5 * 5, conv1_cols},
  };
}

struct GemmOperands {
  Product product;
  std::vector<float> a, b;
  Buffer a_buffer, b_buffer, c_buffer;
};

GemmOperands make_operands(const Device& device, const Product& product) {
  GemmOperands operands{product, pattern(product.m * product.k, 37, 101), pattern(product.k * product.n, 53, 97),
                        nullptr, nullptr, nullptr};
  operands.a_buffer = device.upload(operands.a);
  operands.b_buffer = device.upload(operands.b);
  operands.c_buffer = device.buffer(product.m * product.n * sizeof(float));
  return operands;
}

void enqueue_gemm(const Device& device, GemmOperands& operands) {
  const Product& p = operands.product;
  cl_command_queue queue = device.queue.get();
  const clblast::StatusCode status = clblast::Gemm<float>(
      clblast::Layout::kRowMajor, p.transpose_a ? clblast::Transpose::kYes : clblast::Transpose::kNo,
      p.transpose_b ? clblast::Transpose::kYes : clblast::Transpose::kNo, p.m, p.n, p.k, 1.0f,
      operands.a_buffer.get(), 0, p.transpose_a ? p.m : p.k, operands.b_buffer.get(), 0, p.transpose_b ? p.k : p.n,
      0.0f, operands.c_buffer.get(), 0, p.n, &queue, nullptr);
  if (status != clblast::StatusCode::kSuccess)
    throw std::runtime_error("clblast::Gemm failed: status " + std::to_string(static_cast<int>(status)) +
                             " (clblast.h's StatusCode)");
}

// The largest difference between CLBlast's C and a double-precision dot product, over 64 entries
// spread over C (corners included); "correct" allows fp32 rounding that grows with k.
void check_product(const Device& device, const GemmOperands& operands, bench::Fields& row) {
  const Product& p = operands.product;
  std::vector<float> c(p.m * p.n);
  check(clEnqueueReadBuffer(device.queue.get(), operands.c_buffer.get(), CL_TRUE, 0, c.size() * sizeof(float),
                            c.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  double max_error = 0;
  const int checked = 64;
  for (int s = 0; s < checked; ++s) {
    const size_t i = s == 0 ? 0 : s == 1 ? p.m - 1 : (static_cast<size_t>(s) * 7919) % p.m;
    const size_t j = s == 0 ? 0 : s == 1 ? p.n - 1 : (static_cast<size_t>(s) * 104729) % p.n;
    double expected = 0;
    for (size_t q = 0; q < p.k; ++q) {
      const float a = p.transpose_a ? operands.a[q * p.m + i] : operands.a[i * p.k + q];
      const float b = p.transpose_b ? operands.b[j * p.k + q] : operands.b[q * p.n + j];
      expected += static_cast<double>(a) * b;
    }
    max_error = std::max(max_error, std::fabs(expected - c[i * p.n + j]));
  }
  row["max_abs_error"] = max_error;
  row["correct"] = max_error <= 1e-4 + 1e-5 * static_cast<double>(p.k);
}

bench::Fields gemm_row(const Product& p, const Timing& t) {
  bench::Fields row = result_row(p.name, t);
  row["m"] = p.m;
  row["n"] = p.n;
  row["k"] = p.k;
  row["transpose_a"] = p.transpose_a;
  row["transpose_b"] = p.transpose_b;
  row["gflops"] = p.flops() / (t.median_us * 1e3);
  return row;
}

void measure_gemms(const Device& device, const Plan& plan, std::vector<bench::Fields>& rows) {
  auto measure_one = [&](const Product& product) {
    try {
      GemmOperands operands = make_operands(device, product);
      const Timing timing = time_calls(
          [&] {
            enqueue_gemm(device, operands);
            device.finish();
          },
          plan.gemm);
      bench::Fields row = gemm_row(product, timing);
      check_product(device, operands, row);
      rows.push_back(row);
    } catch (const std::exception& error) {
      rows.push_back(unavailable_row(product.name, error.what()));
    }
  };
  for (size_t n : {256, 512, 1024}) measure_one({"sgemm_" + std::to_string(n), false, false, n, n, n});

  const std::vector<Product> step = lenet5_products();
  for (const Product& product : step) measure_one(product);
  // The whole step's products enqueued back to back, one clFinish: what a training step would wait for.
  try {
    std::vector<GemmOperands> all;
    double flops = 0;
    for (const Product& product : step) {
      all.push_back(make_operands(device, product));
      flops += product.flops();
    }
    const Timing timing = time_calls(
        [&] {
          for (GemmOperands& operands : all) enqueue_gemm(device, operands);
          device.finish();
        },
        plan.gemm);
    bench::Fields row = result_row("lenet5_step_gemms", timing);
    row["products"] = all.size();
    row["flops"] = flops;
    row["gflops"] = flops / (timing.median_us * 1e3);
    rows.push_back(row);
  } catch (const std::exception& error) {
    rows.push_back(unavailable_row("lenet5_step_gemms", error.what()));
  }
}

// ---- Output --------------------------------------------------------------------------------------

double load_average_1min() {
  double load[1] = {0};
  return getloadavg(load, 1) == 1 ? load[0] : -1;
}

void print_table(const bench::Fields& report) {
  if (report.contains("device")) {
    const bench::Fields& d = report["device"];
    std::printf("device %s: %s (%s, driver %s), %s, %d compute units, work-group <= %zu, local memory %llu KiB\n",
                d["selected"].get<std::string>().c_str(), d["name"].get<std::string>().c_str(),
                d["vendor"].get<std::string>().c_str(), d["driver_version"].get<std::string>().c_str(),
                d["platform"].get<std::string>().c_str(), d["compute_units"].get<int>(),
                d["max_work_group_size"].get<size_t>(),
                static_cast<unsigned long long>(d["local_mem_bytes"].get<uint64_t>() / 1024));
  }
  std::printf("load average (1 min): %.2f at start, %.2f at end%s\n", report["load_average_1min_at_start"].get<double>(),
              report["load_average_1min_at_end"].get<double>(), report["quick"].get<bool>() ? " (--quick)" : "");
  std::printf("%-28s %12s %12s %8s  %s\n", "case", "median_us", "min_us", "samples", "rate");
  for (const bench::Fields& row : report["results"]) {
    const std::string name = row["case"].get<std::string>();
    if (row.contains("unavailable")) {
      std::printf("%-28s unavailable: %s\n", name.c_str(), row["unavailable"].get<std::string>().c_str());
      continue;
    }
    std::string rate;
    char text[64];
    if (row.contains("gb_per_s")) {
      std::snprintf(text, sizeof(text), "%.2f GB/s", row["gb_per_s"].get<double>());
      rate = text;
    } else if (row.contains("gflops")) {
      std::snprintf(text, sizeof(text), "%.2f GFLOP/s", row["gflops"].get<double>());
      rate = text;
    }
    if (row.contains("correct") && !row["correct"].get<bool>()) rate += "  WRONG RESULT";
    std::printf("%-28s %12.1f %12.1f %8d  %s\n", name.c_str(), row["median_us"].get<double>(),
                row["min_us"].get<double>(), row["samples"].get<int>(), rate.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else if (arg == "--json") {
      json = true;
    } else if (arg == "-h" || arg == "--help") {
      std::printf("usage: %s [--quick] [--json]   (TINYTORCH_OPENCL_DEVICE=P:D picks the device)\n", argv[0]);
      return 0;
    } else {
      std::fprintf(stderr, "error: unknown option '%s'\nfix: %s [--quick] [--json]\n", arg.c_str(), argv[0]);
      return 2;
    }
  }
  const Plan plan = quick ? Plan{{3, 20, 0.02}, {50, 1000, 0.02}, {3, 20, 0.02}}
                          : Plan{{10, 200, 0.5}, {200, 20000, 0.5}, {5, 200, 0.5}};

  bench::Fields report = {{"program", "bench_opencl"},
                          {"impl", "opencl"},
                          {"quick", quick},
                          {"load_average_1min_at_start", load_average_1min()}};
  int exit_code = 0;
  try {
    const ChosenDevice chosen = choose_device();
    report["device"] = describe_device(chosen);
    const Device device = open_device(chosen.device);
    std::vector<bench::Fields> rows;
    auto section = [&rows](const char* name, auto&& run) {
      try {
        run();
      } catch (const std::exception& error) {
        rows.push_back(unavailable_row(name, error.what()));
      }
    };
    section("copy_64MiB", [&] { measure_device_copies(device, plan, rows); });
    section("transfers_1MiB", [&] { measure_transfers(device, 1 * kMiB, plan, rows); });
    section("transfers_64MiB", [&] { measure_transfers(device, 64 * kMiB, plan, rows); });
    section("latencies", [&] { measure_latencies(device, plan, rows); });
    section("sgemm", [&] { measure_gemms(device, plan, rows); });
    report["results"] = rows;
  } catch (const std::exception& error) {
    report["unavailable"] = error.what();
    report["results"] = bench::Fields::array();
    exit_code = 1;
  }
  report["load_average_1min_at_end"] = load_average_1min();

  if (json) {
    bench::print_line(report);
  } else if (report.contains("unavailable")) {
    std::fprintf(stderr, "error: %s\n", report["unavailable"].get<std::string>().c_str());
  } else {
    print_table(report);
  }
  return exit_code;
}
