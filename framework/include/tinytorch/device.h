#pragma once
// torch::Device / DeviceType and the device queries. Tensors live on the CPU or, from module 22 (GPU
// kernels), on an OpenCL device: torch::Device("opencl") or torch::Device(torch::DeviceType::OPENCL, 0), as
// LibTorch spells them (c10::DeviceType::OPENCL = 4, device string "opencl"). CUDA is not part of this
// build: a LibTorch program that asks "is CUDA there?" gets LibTorch's answer for a build without CUDA
// (false, 0 devices), and a CUDA tensor fails with the message such a LibTorch gives. The other device
// types LibTorch names exist so that programs compile; using one fails with the same message.
#include <cstdint>
#include <iosfwd>
#include <string>

namespace tinytorch {

// LibTorch's numbering (c10/core/DeviceType.h), so that a stored device type means the same in both.
enum class DeviceType : int8_t {
  CPU = 0,
  CUDA = 1,
  MKLDNN = 2,
  OPENGL = 3,
  OPENCL = 4,
  IDEEP = 5,
  HIP = 6,
  FPGA = 7,
  ORT = 8,
  XLA = 9,
  Vulkan = 10,
  Metal = 11,
  XPU = 12,
  MPS = 13,
  Meta = 14,
  HPU = 15,
  VE = 16,
  Lazy = 17,
  IPU = 18,
  PrivateUse1 = 19,
  COMPILE_TIME_MAX_DEVICE_TYPES = 20,
};
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kHIP = DeviceType::HIP;
constexpr DeviceType kFPGA = DeviceType::FPGA;
constexpr DeviceType kORT = DeviceType::ORT;
constexpr DeviceType kXLA = DeviceType::XLA;
constexpr DeviceType kMPS = DeviceType::MPS;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr DeviceType kVulkan = DeviceType::Vulkan;
constexpr DeviceType kMetal = DeviceType::Metal;
constexpr DeviceType kXPU = DeviceType::XPU;
constexpr DeviceType kHPU = DeviceType::HPU;
constexpr DeviceType kVE = DeviceType::VE;
constexpr DeviceType kLazy = DeviceType::Lazy;
constexpr DeviceType kIPU = DeviceType::IPU;
constexpr DeviceType kPrivateUse1 = DeviceType::PrivateUse1;

// LibTorch's name of a device type: "CPU", "OPENCL" (lower_case: "cpu", "opencl").
std::string DeviceTypeName(DeviceType type, bool lower_case = false);

using DeviceIndex = int8_t;

class Device {
 public:
  /* implicit */ Device(DeviceType type, DeviceIndex index = -1);
  // "cpu", "cuda:1", "opencl", "opencl:0" (LibTorch's device strings).
  /* implicit */ Device(const std::string& device_string);
  /* implicit */ Device(const char* device_string) : Device(std::string(device_string)) {}

  DeviceType type() const noexcept { return type_; }
  DeviceIndex index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ != -1; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  bool is_hip() const noexcept { return type_ == DeviceType::HIP; }
  bool is_xpu() const noexcept { return type_ == DeviceType::XPU; }
  bool is_mps() const noexcept { return type_ == DeviceType::MPS; }
  bool is_meta() const noexcept { return type_ == DeviceType::Meta; }
  // Not in LibTorch, which has no OpenCL backend of its own: the query its pattern gives (is_cuda, is_xpu).
  bool is_opencl() const noexcept { return type_ == DeviceType::OPENCL; }
  std::string str() const;  // what operator<< prints: "cpu", "cuda:0", "opencl:0"

  bool operator==(const Device& other) const noexcept { return type_ == other.type_ && index_ == other.index_; }
  bool operator!=(const Device& other) const noexcept { return !(*this == other); }

 private:
  DeviceType type_;
  DeviceIndex index_;
};

std::ostream& operator<<(std::ostream& stream, DeviceType type);
std::ostream& operator<<(std::ostream& stream, const Device& device);

// Throws unless tensors can live on `device` in this build: the CPU always; an OpenCL device when one is
// present (torch::opencl::is_available()) and its index exists; CUDA and the rest fail with the message a
// LibTorch built without them gives.
void check_device_available(const Device& device);
// The device with its index filled in: Device("opencl") is opencl:0, as LibTorch's current device.
Device resolve_device(const Device& device);

namespace cuda {
// LibTorch's torch::cuda queries, answered for a build without CUDA.
inline bool is_available() { return false; }
inline int64_t device_count() { return 0; }
inline bool cudnn_is_available() { return false; }
void manual_seed(uint64_t seed);      // no-op without CUDA, as in LibTorch
void manual_seed_all(uint64_t seed);  // no-op without CUDA, as in LibTorch
void synchronize(int64_t device_index = -1);
}  // namespace cuda

namespace opencl {
// Whether an OpenCL device is present (the ICD loader found a platform with a device) and how many.
// TINYTORCH_OPENCL_DEVICE=P:D picks device D of platform P; otherwise devices are numbered in platform order.
bool is_available();
int64_t device_count();
// Whether this process has set a device up (a tensor was moved to it, or its queue or limits were asked for),
// as torch.cuda.is_initialized(). Never sets one up itself: a program that only uses the CPU keeps it false.
bool is_initialized();
// Waits for every command queued on the device (LibTorch's torch::cuda::synchronize for OpenCL).
void synchronize(int64_t device_index = -1);

// The device caching allocator's counters (module 22), as torch.cuda.memory_stats() names them.
struct DeviceMemoryStats {
  int64_t allocated_bytes = 0;       // bytes in blocks owned by storages (rounded sizes)
  int64_t reserved_bytes = 0;        // bytes in segments obtained from the driver (allocated + cached)
  int64_t peak_allocated_bytes = 0;  // most allocated_bytes since the last reset
  int64_t peak_reserved_bytes = 0;
  int64_t allocations = 0;           // allocate() calls served
  int64_t cache_hits = 0;            // served from a cached block (no clCreateBuffer)
  int64_t segments = 0;              // clCreateBuffer calls live now
  int64_t splits = 0;                // blocks split since the last reset
  int64_t waiting_blocks = 0;        // freed blocks whose last command has not finished yet
};
DeviceMemoryStats memory_stats(int64_t device_index = 0);
// Gives every wholly free cached segment back to the driver (torch.cuda.empty_cache()).
void empty_cache(int64_t device_index = 0);
void reset_peak_memory_stats(int64_t device_index = 0);
}  // namespace opencl

}  // namespace tinytorch
