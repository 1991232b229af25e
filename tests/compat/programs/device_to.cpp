// torch::Device in the places LibTorch programs pass one, on a CPU-only build.
#include <iostream>

#include "compat.h"

namespace device_to_program {

COMPAT_PROGRAM(device_to) {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) device = torch::Device(torch::kCUDA);
  std::cout << "cuda available " << torch::cuda::is_available() << " devices " << torch::cuda::device_count() << "\n";
  std::cout << "device " << device << " type " << device.type() << " is_cpu " << device.is_cpu() << " is_cuda "
            << device.is_cuda() << " has_index " << device.has_index() << "\n";
  torch::Device parsed("cpu");
  std::cout << "parsed " << parsed << " equal " << (parsed == device) << "\n";
  torch::DeviceType type = torch::kCPU;
  std::cout << "DeviceType " << type << "\n";

  auto x = torch::arange(4, torch::kFloat).to(device);
  std::cout << "x.device() " << x.device() << " is_cuda " << x.is_cuda() << "\n";
  auto y = torch::ones({2}, torch::TensorOptions().dtype(torch::kDouble).device(device));
  std::cout << "y " << y.device() << " " << y.dtype() << "\n";
  auto z = torch::zeros({2}, torch::device(torch::kCPU).dtype(torch::kLong));
  std::cout << "z " << z.dtype() << " " << z.device() << "\n";
  auto w = x.to(device, torch::kDouble);
  std::cout << "w " << w.dtype() << " " << w.device() << "\n";
  std::cout << "x.cpu() same data " << torch::equal(x.cpu(), x) << "\n";

  torch::nn::Linear linear(3, 2);
  linear->to(device);
  linear->to(torch::kDouble);
  std::cout << "module weight " << linear->weight.dtype() << " " << linear->weight.device() << "\n";

  try {
    x.to(torch::Device(torch::kCUDA));
    std::cout << "unexpected: CUDA tensor created\n";
  } catch (const c10::Error& e) {
    std::string message = e.what();
    std::cout << "CUDA request: " << message.substr(0, message.find('\n')) << "\n";
  }
  return 0;
}

}  // namespace device_to_program
