// torch::Device and the device queries as a program without a GPU sees them: device strings of every kind
// LibTorch parses (OpenCL's included, the backend module 22 adds), their types and printed names, a CPU
// tensor's device and get_device(), TensorOptions' device, and the errors for a malformed device string.
// What differs on purpose: tinytorch can put a tensor on an OpenCL device, LibTorch cannot; that is not
// exercised here (tests/framework/test_device_tensors.cpp covers it).
#include <iostream>
#include <string>

#include "compat.h"

namespace devices_program {

std::string first_line(const c10::Error& e) {
  std::string message = e.what();
  return message.substr(0, message.find('\n'));
}

COMPAT_PROGRAM(devices) {
  for (const char* text : {"cpu", "cuda", "cuda:1", "opencl", "opencl:0", "xla", "mps", "meta"}) {
    const torch::Device device(text);
    std::cout << text << " -> " << device << " type " << static_cast<int>(device.type()) << " index "
              << static_cast<int>(device.index()) << " has_index " << device.has_index() << " cpu "
              << device.is_cpu() << " cuda " << device.is_cuda() << "\n";
  }
  std::cout << "names " << c10::DeviceTypeName(torch::DeviceType::OPENCL) << " "
            << c10::DeviceTypeName(torch::DeviceType::OPENCL, true) << " " << c10::DeviceTypeName(torch::kXLA) << " "
            << c10::DeviceTypeName(torch::kCUDA, true) << "\n";
  std::cout << "equal " << (torch::Device("opencl:0") == torch::Device(torch::DeviceType::OPENCL, 0)) << " "
            << (torch::Device("opencl") == torch::Device("opencl:0")) << "\n";

  const torch::Tensor x = torch::arange(6).reshape({2, 3});
  std::cout << "tensor " << x.device() << " cpu " << x.is_cpu() << " cuda " << x.is_cuda() << " get_device "
            << x.get_device() << " options " << x.options().device() << " pinned " << x.is_pinned() << "\n";
  std::cout << "options " << torch::TensorOptions().device(torch::kCPU).device() << " "
            << torch::zeros({2}, torch::device(torch::kCPU)).device() << "\n";
  std::cout << "cuda available " << torch::cuda::is_available() << " count " << torch::cuda::device_count() << "\n";

  for (const char* text : {"gpu", "cuda:x", "cpu:1"}) {
    try {
      const torch::Device device(text);
      std::cout << text << " accepted\n";
    } catch (const c10::Error& e) {
      std::cout << text << " error: " << first_line(e) << "\n";
    }
  }
  return 0;
}

}  // namespace devices_program
