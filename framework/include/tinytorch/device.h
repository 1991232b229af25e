#pragma once
// torch::Device / DeviceType / kCPU / kCUDA and torch::cuda::is_available(): TinyTorch is CPU-only, so
// a LibTorch program that asks "is CUDA there?" gets LibTorch's answer for a CPU-only build (false,
// 0 devices), passes Device(kCPU) wherever LibTorch takes a device, and a CUDA request fails with the
// message a CPU-only LibTorch gives.
#include <cstdint>
#include <iosfwd>
#include <string>

namespace tinytorch {

enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;

using DeviceIndex = int8_t;

class Device {
 public:
  /* implicit */ Device(DeviceType type, DeviceIndex index = -1);
  // "cpu", "cuda", "cuda:1" (LibTorch's device strings).
  /* implicit */ Device(const std::string& device_string);
  /* implicit */ Device(const char* device_string) : Device(std::string(device_string)) {}

  DeviceType type() const noexcept { return type_; }
  DeviceIndex index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ != -1; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  std::string str() const;  // what operator<< prints: "cpu", "cuda:0"

  bool operator==(const Device& other) const noexcept { return type_ == other.type_ && index_ == other.index_; }
  bool operator!=(const Device& other) const noexcept { return !(*this == other); }

 private:
  DeviceType type_;
  DeviceIndex index_;
};

std::ostream& operator<<(std::ostream& stream, DeviceType type);
std::ostream& operator<<(std::ostream& stream, const Device& device);

// Throws LibTorch's CPU-only-build error when `device` is not the CPU; `operation` names what asked.
void check_device_is_cpu(const Device& device);

namespace cuda {
// LibTorch's torch::cuda queries, answered for a build without CUDA.
inline bool is_available() { return false; }
inline int64_t device_count() { return 0; }
inline bool cudnn_is_available() { return false; }
void manual_seed(uint64_t seed);      // no-op without CUDA, as in LibTorch
void manual_seed_all(uint64_t seed);  // no-op without CUDA, as in LibTorch
void synchronize(int64_t device_index = -1);
}  // namespace cuda

}  // namespace tinytorch
