// The OpenCL runtime of device tensors (tinytorch/opencl.h): devices, one context and in-order queue
// each, the program cache, kernel launches and device storages. Given code; module 22's learner writes
// the caching allocator's methods (22_gpu_kernels/device_allocator.cpp) and the kernels.
#include "tinytorch/opencl.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "tinytorch/errors.h"
#include "tinytorch/tensor_impl.h"

namespace tinytorch {
namespace opencl {
namespace {

struct DeviceState {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  DeviceInfo info;
};

std::string device_string(cl_device_id device, cl_device_info what) {
  size_t size = 0;
  check(clGetDeviceInfo(device, what, 0, nullptr, &size), "clGetDeviceInfo");
  std::string text(size, '\0');
  check(clGetDeviceInfo(device, what, size, text.data(), nullptr), "clGetDeviceInfo");
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

template <typename T>
T device_value(cl_device_id device, cl_device_info what) {
  T value{};
  check(clGetDeviceInfo(device, what, sizeof(T), &value, nullptr), "clGetDeviceInfo");
  return value;
}

DeviceInfo read_info(cl_platform_id platform, cl_device_id device) {
  DeviceInfo info;
  info.name = device_string(device, CL_DEVICE_NAME);
  info.vendor = device_string(device, CL_DEVICE_VENDOR);
  info.driver_version = device_string(device, CL_DRIVER_VERSION);
  size_t size = 0;
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, nullptr, &size);
  info.platform.assign(size, '\0');
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, size, info.platform.data(), nullptr);
  while (!info.platform.empty() && info.platform.back() == '\0') info.platform.pop_back();
  info.compute_units = device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  info.max_work_group_size = static_cast<int64_t>(device_value<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  const auto dims = device_value<cl_uint>(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  std::vector<size_t> item_sizes(dims);
  check(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(size_t), item_sizes.data(), nullptr),
        "clGetDeviceInfo");
  for (size_t s : item_sizes) info.max_work_item_sizes.push_back(static_cast<int64_t>(s));
  info.local_memory_bytes = static_cast<int64_t>(device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE));
  info.global_memory_bytes = static_cast<int64_t>(device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE));
  info.max_allocation_bytes = static_cast<int64_t>(device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE));
  info.is_cpu = (device_value<cl_device_type>(device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
  info.preferred_vector_width =
      std::max<int64_t>(1, device_value<cl_uint>(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT));
  // The preferred multiple is a kernel's property; a trivial kernel tells it for the device.
  info.preferred_work_group_multiple = 1;
  return info;
}

// Every device of every platform, in platform order; TINYTORCH_OPENCL_DEVICE=P:D keeps only that one.
std::vector<std::pair<cl_platform_id, cl_device_id>> find_devices() {
  std::vector<std::pair<cl_platform_id, cl_device_id>> found;
  cl_uint platform_count = 0;
  if (clGetPlatformIDs(0, nullptr, &platform_count) != CL_SUCCESS || platform_count == 0) return found;
  std::vector<cl_platform_id> platforms(platform_count);
  if (clGetPlatformIDs(platform_count, platforms.data(), nullptr) != CL_SUCCESS) return found;
  const char* chosen = std::getenv("TINYTORCH_OPENCL_DEVICE");
  int want_platform = -1, want_device = -1;
  if (chosen != nullptr && *chosen != '\0') {
    TT_CHECK(std::sscanf(chosen, "%d:%d", &want_platform, &want_device) == 2 && want_platform >= 0 && want_device >= 0,
             "TINYTORCH_OPENCL_DEVICE must be PLATFORM:DEVICE (two indices, as `clinfo -l` numbers them), got '",
             chosen, "'");
  }
  for (cl_uint p = 0; p < platform_count; ++p) {
    cl_uint count = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS || count == 0) continue;
    std::vector<cl_device_id> devices(count);
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr) != CL_SUCCESS) continue;
    for (cl_uint d = 0; d < count; ++d) {
      if (want_platform >= 0 && (static_cast<int>(p) != want_platform || static_cast<int>(d) != want_device)) continue;
      found.emplace_back(platforms[p], devices[d]);
    }
  }
  return found;
}

struct Runtime {
  std::mutex mutex;  // guards kernels (arguments are set then enqueued under it) and the caches
  std::mutex setup_mutex;  // guards `states`: devices are set up on first use, from any thread
  std::vector<std::pair<cl_platform_id, cl_device_id>> devices = find_devices();
  std::vector<std::unique_ptr<DeviceState>> states{devices.size()};
  std::unordered_map<std::string, cl_program> programs;
  std::unordered_map<std::string, cl_kernel> kernels;
  int64_t compiled = 0;
};

// Set once a device has been set up; read without the runtime (is_initialized must not create it).
std::atomic<bool> any_device_set_up{false};

Runtime& runtime() {
  static Runtime* instance = new Runtime();  // never destroyed: tensors may outlive static destructors
  return *instance;
}

DeviceState& state(int64_t index) {
  Runtime& rt = runtime();
  // Devices are set up on first use, possibly by two threads at once (a DataLoader worker and the loop).
  std::lock_guard<std::mutex> setup_guard(rt.setup_mutex);
  TT_CHECK(!rt.devices.empty(),
           "no OpenCL device: install an OpenCL driver (on Debian: pocl-opencl-icd, which runs kernels on the CPU, "
           "or your GPU vendor's) and check with `clinfo -l`");
  TT_CHECK(index >= 0 && index < static_cast<int64_t>(rt.devices.size()), "OpenCL device index ", index,
           " is out of range: this machine has ", rt.devices.size(), " OpenCL device(s)");
  std::unique_ptr<DeviceState>& slot = rt.states[static_cast<size_t>(index)];
  if (!slot) {
    auto made = std::make_unique<DeviceState>();
    made->platform = rt.devices[static_cast<size_t>(index)].first;
    made->device = rt.devices[static_cast<size_t>(index)].second;
    made->info = read_info(made->platform, made->device);
    cl_int status = CL_SUCCESS;
    made->context = clCreateContext(nullptr, 1, &made->device, nullptr, nullptr, &status);
    check(status, "clCreateContext");
    made->queue = clCreateCommandQueue(made->context, made->device, CL_QUEUE_PROFILING_ENABLE, &status);
    check(status, "clCreateCommandQueue");
    // The preferred work-group multiple is a kernel's property (the SIMD width it was compiled for): ask a
    // trivial kernel, as CUDA programs take the warp size.
    const char* probe = "__kernel void probe(__global float* x) { x[get_global_id(0)] += 1.0f; }";
    cl_program program = clCreateProgramWithSource(made->context, 1, &probe, nullptr, &status);
    if (status == CL_SUCCESS && clBuildProgram(program, 1, &made->device, "", nullptr, nullptr) == CL_SUCCESS) {
      cl_kernel k = clCreateKernel(program, "probe", &status);
      size_t multiple = 1;
      if (status == CL_SUCCESS &&
          clGetKernelWorkGroupInfo(k, made->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(multiple),
                                   &multiple, nullptr) == CL_SUCCESS) {
        made->info.preferred_work_group_multiple = static_cast<int64_t>(multiple);
      }
      if (status == CL_SUCCESS) clReleaseKernel(k);
    }
    if (program != nullptr) clReleaseProgram(program);
    slot = std::move(made);
    any_device_set_up.store(true, std::memory_order_release);
  }
  return *slot;
}

}  // namespace

const char* error_name(cl_int status) {
  switch (status) {
#define TT_CL_ERROR_(name) \
  case name: return #name;
    TT_CL_ERROR_(CL_SUCCESS) TT_CL_ERROR_(CL_DEVICE_NOT_FOUND) TT_CL_ERROR_(CL_DEVICE_NOT_AVAILABLE)
    TT_CL_ERROR_(CL_COMPILER_NOT_AVAILABLE) TT_CL_ERROR_(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    TT_CL_ERROR_(CL_OUT_OF_RESOURCES) TT_CL_ERROR_(CL_OUT_OF_HOST_MEMORY) TT_CL_ERROR_(CL_BUILD_PROGRAM_FAILURE)
    TT_CL_ERROR_(CL_INVALID_VALUE) TT_CL_ERROR_(CL_INVALID_DEVICE) TT_CL_ERROR_(CL_INVALID_CONTEXT)
    TT_CL_ERROR_(CL_INVALID_COMMAND_QUEUE) TT_CL_ERROR_(CL_INVALID_MEM_OBJECT) TT_CL_ERROR_(CL_INVALID_PROGRAM)
    TT_CL_ERROR_(CL_INVALID_KERNEL_NAME) TT_CL_ERROR_(CL_INVALID_KERNEL) TT_CL_ERROR_(CL_INVALID_ARG_INDEX)
    TT_CL_ERROR_(CL_INVALID_ARG_VALUE) TT_CL_ERROR_(CL_INVALID_ARG_SIZE) TT_CL_ERROR_(CL_INVALID_KERNEL_ARGS)
    TT_CL_ERROR_(CL_INVALID_WORK_DIMENSION) TT_CL_ERROR_(CL_INVALID_WORK_GROUP_SIZE)
    TT_CL_ERROR_(CL_INVALID_WORK_ITEM_SIZE) TT_CL_ERROR_(CL_INVALID_GLOBAL_OFFSET) TT_CL_ERROR_(CL_INVALID_EVENT)
    TT_CL_ERROR_(CL_INVALID_BUFFER_SIZE) TT_CL_ERROR_(CL_INVALID_GLOBAL_WORK_SIZE)
    TT_CL_ERROR_(CL_INVALID_BUILD_OPTIONS) TT_CL_ERROR_(CL_MISALIGNED_SUB_BUFFER_OFFSET)
#undef TT_CL_ERROR_
    default: return "an OpenCL error";
  }
}

void check(cl_int status, const char* call) {
  TT_CHECK(status == CL_SUCCESS, "OpenCL error ", error_name(status), " (", status, ") in ", call);
}

const DeviceInfo& device_info(int64_t index) { return state(index).info; }
cl_context context(int64_t index) { return state(index).context; }
cl_device_id device_id(int64_t index) { return state(index).device; }
cl_command_queue queue(int64_t index) { return state(index).queue; }

namespace {
// A starter's kernel source (tito module start) holds, where the learner's kernel body goes, the line
//     throw tinytorch::NotImplemented("name", "22_gpu_kernels", "section");
// which is no OpenCL C: say what a starter's C++ says instead of showing the driver's compile error.
void check_implemented(const std::string& source) {
  const std::string marker = "throw tinytorch::NotImplemented(\"";
  const std::size_t at = source.find(marker);
  if (at == std::string::npos) return;
  std::vector<std::string> fields;
  std::size_t from = at + marker.size() - 1;
  while (fields.size() < 3) {
    const std::size_t open = source.find('"', from);
    const std::size_t close = open == std::string::npos ? open : source.find('"', open + 1);
    if (close == std::string::npos) break;
    fields.push_back(source.substr(open + 1, close - open - 1));
    from = close + 1;
  }
  while (fields.size() < 3) fields.emplace_back("?");
  throw NotImplemented(fields[0], fields[1], fields[2]);
}
}  // namespace

cl_kernel kernel(const std::string& source, const char* name, const std::string& options, int64_t index) {
  check_implemented(source);
  DeviceState& device = state(index);
  Runtime& rt = runtime();
  std::lock_guard<std::mutex> guard(rt.mutex);
  std::string program_key = std::to_string(index) + '\n' + options + '\n' + source;
  std::string kernel_key = program_key + '\n' + name;
  if (auto found = rt.kernels.find(kernel_key); found != rt.kernels.end()) return found->second;
  cl_program& program = rt.programs[program_key];
  if (program == nullptr) {
    const char* text = source.c_str();
    const size_t length = source.size();
    cl_int status = CL_SUCCESS;
    cl_program made = clCreateProgramWithSource(device.context, 1, &text, &length, &status);
    check(status, "clCreateProgramWithSource");
    status = clBuildProgram(made, 1, &device.device, options.c_str(), nullptr, nullptr);
    if (status != CL_SUCCESS) {
      size_t log_size = 0;
      clGetProgramBuildInfo(made, device.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &log_size);
      std::string log(log_size, '\0');
      clGetProgramBuildInfo(made, device.device, CL_PROGRAM_BUILD_LOG, log_size, log.data(), nullptr);
      clReleaseProgram(made);
      rt.programs.erase(program_key);
      TT_CHECK(false, "OpenCL program for kernel '", name, "' did not compile (", error_name(status),
               ") with options '", options, "':\n", log);
    }
    program = made;
    ++rt.compiled;
  }
  cl_int status = CL_SUCCESS;
  cl_kernel made = clCreateKernel(program, name, &status);
  TT_CHECK(status == CL_SUCCESS, "OpenCL program has no kernel named '", name, "' (", error_name(status), ")");
  rt.kernels.emplace(kernel_key, made);
  return made;
}

int64_t programs_compiled() {
  std::lock_guard<std::mutex> guard(runtime().mutex);
  return runtime().compiled;
}

void record_use(DeviceBlock& block, cl_event event) {
  if (event == nullptr) return;
  clRetainEvent(event);
  if (block.last_use != nullptr) clReleaseEvent(block.last_use);
  block.last_use = event;
}

int64_t event_duration_ns(cl_event event) {
  check(clWaitForEvents(1, &event), "clWaitForEvents");
  cl_ulong start = 0, end = 0;
  check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof(start), &start, nullptr),
        "clGetEventProfilingInfo");
  check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof(end), &end, nullptr), "clGetEventProfilingInfo");
  return static_cast<int64_t>(end - start);
}

// ---- Device storages ----

DeviceBlock& block_of(const Tensor& tensor) {
  const StorageImpl* storage = tensor.storage().unsafeGetStorageImpl();
  TT_CHECK(storage != nullptr && storage->device().is_opencl(), "expected a tensor on an OpenCL device, got one on ",
           tensor.defined() ? tensor.device().str() : std::string("no device (undefined)"));
  return *static_cast<DeviceBlock*>(storage->data());
}

int64_t element_offset_of(const Tensor& tensor) {
  const DeviceBlock& block = block_of(tensor);
  return static_cast<int64_t>(block.offset) / tensor.element_size() + tensor.storage_offset();
}

// ---- Launches ----

KernelLaunch::KernelLaunch(cl_kernel kernel, int64_t device_index)
    : kernel_(kernel), device_index_(device_index), lock_(runtime().mutex) {}

KernelLaunch::~KernelLaunch() {
  if (event_ != nullptr) clReleaseEvent(event_);
}

KernelLaunch& KernelLaunch::arg(const Tensor& tensor) {
  DeviceBlock& block = block_of(tensor);
  const cl_long offset = element_offset_of(tensor);
  check(clSetKernelArg(kernel_, next_++, sizeof(cl_mem), &block.buffer), "clSetKernelArg (buffer)");
  check(clSetKernelArg(kernel_, next_++, sizeof(cl_long), &offset), "clSetKernelArg (offset)");
  blocks_.push_back(&block);
  return *this;
}

KernelLaunch& KernelLaunch::arg(int64_t value) {
  const cl_long v = value;
  check(clSetKernelArg(kernel_, next_++, sizeof(cl_long), &v), "clSetKernelArg (long)");
  return *this;
}

KernelLaunch& KernelLaunch::arg(int32_t value) {
  const cl_int v = value;
  check(clSetKernelArg(kernel_, next_++, sizeof(cl_int), &v), "clSetKernelArg (int)");
  return *this;
}

KernelLaunch& KernelLaunch::arg(float value) {
  check(clSetKernelArg(kernel_, next_++, sizeof(float), &value), "clSetKernelArg (float)");
  return *this;
}

KernelLaunch& KernelLaunch::arg(const std::vector<int64_t>& values) {
  TT_CHECK(values.size() <= 8, "a long8 kernel argument holds at most 8 values, got ", values.size());
  cl_long8 packed{};
  for (size_t i = 0; i < values.size(); ++i) packed.s[i] = values[i];
  check(clSetKernelArg(kernel_, next_++, sizeof(cl_long8), &packed), "clSetKernelArg (long8)");
  return *this;
}

KernelLaunch& KernelLaunch::local_memory(size_t bytes) {
  check(clSetKernelArg(kernel_, next_++, bytes, nullptr), "clSetKernelArg (local memory)");
  return *this;
}

cl_event KernelLaunch::run(const std::vector<size_t>& global, const std::vector<size_t>& local) {
  TT_CHECK(!global.empty() && global.size() <= 3, "a launch has 1 to 3 dimensions, got ", global.size());
  TT_CHECK(local.empty() || local.size() == global.size(), "local work sizes (", local.size(),
           " dims) must have the rank of the global ones (", global.size(), ")");
  for (size_t d = 0; d < local.size(); ++d) {
    TT_CHECK(local[d] > 0 && global[d] % local[d] == 0, "global work size ", global[d], " in dimension ", d,
             " is not a multiple of the work-group size ", local[d], " (OpenCL 1.2 requires it)");
  }
  for (size_t g : global) {
    if (g == 0) {  // nothing to do: OpenCL refuses an empty range
      lock_.unlock();
      return nullptr;
    }
  }
  check(clEnqueueNDRangeKernel(queue(device_index_), kernel_, static_cast<cl_uint>(global.size()), nullptr,
                               global.data(), local.empty() ? nullptr : local.data(), 0, nullptr, &event_),
        "clEnqueueNDRangeKernel");
  for (DeviceBlock* block : blocks_) record_use(*block, event_);
  lock_.unlock();
  return event_;
}


bool is_available() { return !runtime().devices.empty(); }
bool is_initialized() { return any_device_set_up.load(std::memory_order_acquire); }
int64_t device_count() { return static_cast<int64_t>(runtime().devices.size()); }

void synchronize(int64_t device_index) {
  if (device_index >= 0) {
    check(clFinish(queue(device_index)), "clFinish");
    release_completed_holds();
    return;
  }
  for (int64_t i = 0; i < device_count(); ++i) {
    bool set_up = false;
    {  // read under the lock another thread may be setting the device up with
      std::lock_guard<std::mutex> setup_guard(runtime().setup_mutex);
      set_up = runtime().states[static_cast<size_t>(i)] != nullptr;
    }
    if (set_up) check(clFinish(queue(i)), "clFinish");
  }
  release_completed_holds();  // every queued copy has run: their sources may go
}

}  // namespace opencl
}  // namespace tinytorch
