// Quantized tensors: quantize_per_tensor / quantize_per_channel for qint8, quint8 and qint32,
// int_repr, dequantize, the quantizer's accessors, printing, half-to-even rounding and clamping,
// and LibTorch's errors for a double input, a float dtype, and zero points or axes out of range.
// compat-tolerance: 1e-6
#include <iostream>

#include "compat.h"

namespace quantized_tensors_program {

template <typename F>
void expect_error(const char* what, F&& f) {
  try {
    f();
    std::cout << what << ": no error\n";
  } catch (const c10::Error& e) {
    std::cout << what << ": " << e.what_without_backtrace() << "\n";
  }
}

COMPAT_PROGRAM(quantized_tensors) {
  auto x = torch::tensor({{-1.0f, 0.0f, 2.0f}, {0.5f, 1.5f, -0.5f}});
  auto q = torch::quantize_per_tensor(x, 0.0118, -43, torch::kQInt8);
  std::cout << q << "\n" << q.int_repr() << "\n" << q.dequantize() << "\n";
  std::cout << q.q_scale() << " " << q.q_zero_point() << " " << c10::toString(q.qscheme()) << " " << q.is_quantized()
            << " " << x.is_quantized() << " " << q.dtype() << " " << q.scalar_type() << " " << q.toString() << " "
            << q.element_size() << " " << q.nbytes() << "\n";
  auto qu = torch::quantize_per_tensor(x, 0.02, 100, torch::kQUInt8);
  std::cout << qu << "\n" << qu.int_repr() << "\n" << qu.dtype() << "\n";
  auto q32 = torch::quantize_per_tensor(x, 0.001, 5, torch::kQInt32);
  std::cout << q32 << "\n" << q32.int_repr() << "\n" << q32.dtype() << "\n";
  auto qc = torch::quantize_per_channel(x, torch::tensor({0.01, 0.02}), torch::tensor({0, 3}), 0, torch::kQInt8);
  std::cout << qc << "\n" << qc.int_repr() << "\n" << qc.q_per_channel_scales() << "\n"
            << qc.q_per_channel_zero_points() << "\n" << qc.q_per_channel_axis() << " " << c10::toString(qc.qscheme())
            << "\n";
  auto qc1 = torch::quantize_per_channel(x, torch::tensor({0.01, 0.02, 0.03}), torch::tensor({0, 3, 2}), 1,
                                         torch::kQUInt8);
  std::cout << qc1 << "\n" << torch::dequantize(qc1) << "\n";
  // Ties round to even; codes clamp to the dtype's range.
  auto r = torch::quantize_per_tensor(torch::tensor({0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 300.f, -300.f}), 1.0, 0,
                                      torch::kQInt8);
  std::cout << r.int_repr() << "\n" << torch::dequantize(r) << "\n";
  std::cout << q.int_repr().to(torch::kFloat).sum() << "\n";
  std::cout << c10::toString(torch::kPerTensorAffine) << " " << c10::toString(torch::kPerChannelAffine) << " "
            << c10::toString(torch::kPerTensorSymmetric) << " " << c10::toString(torch::kPerChannelSymmetric) << "\n";
  std::cout << torch::kQInt8 << " " << torch::kQUInt8 << " " << torch::kQInt32 << " " << torch::kChar << " "
            << torch::kByte << " " << torch::kInt << "\n";
  std::cout << torch::tensor({1, -2}).to(torch::kChar) << torch::tensor({1, 2}).to(torch::kByte).dtype() << " "
            << torch::tensor({1, 2}).to(torch::kInt).dtype() << "\n";
  std::cout << torch::quantize_per_tensor(torch::tensor(1.5f), 0.1, 0, torch::kQInt8) << "\n";
  std::cout << q.transpose(0, 1) << "\n";
  expect_error("double input", [&] { torch::quantize_per_tensor(x.to(torch::kDouble), 0.1, 0, torch::kQInt8); });
  expect_error("float dtype", [&] { torch::quantize_per_tensor(x, 0.1, 0, torch::kFloat); });
  expect_error("zero point above", [&] { torch::quantize_per_tensor(x, 0.1, 200, torch::kQInt8); });
  expect_error("zero point below", [&] { torch::quantize_per_tensor(x, 0.1, -1, torch::kQUInt8); });
  expect_error("scales length", [&] {
    torch::quantize_per_channel(x, torch::tensor({0.01, 0.02}), torch::tensor({0, 3}), 1, torch::kQInt8);
  });
  expect_error("axis", [&] {
    torch::quantize_per_channel(x, torch::tensor({0.01, 0.02}), torch::tensor({0, 3}), 2, torch::kQInt8);
  });
  expect_error("channel zero point", [&] {
    torch::quantize_per_channel(x, torch::tensor({0.01, 0.02}), torch::tensor({0, 300}), 0, torch::kQInt8);
  });
  expect_error("per-channel scales of a per-tensor tensor", [&] { q.q_per_channel_scales(); });
  expect_error("scale of a per-channel tensor", [&] { qc.q_scale(); });
  return 0;
}

}  // namespace quantized_tensors_program
