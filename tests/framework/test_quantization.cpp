// Module 15's given code: quantized tensors (creation, accessors, views, printing, LibTorch's error
// messages), the int8/uint8/int32 storage dtypes, the observers' argument checks, and
// nn::QuantizedLinear's shapes and errors. The learner's arithmetic is graded in
// curriculum/15_quantization; values are diffed against LibTorch in tests/compat (quantized_tensors).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "test_helpers.h"

using test_helpers::printed;

TEST_CASE("quantized tensors report their quantizer as LibTorch does", "[quantization]") {
  const auto x = torch::tensor({{-1.0f, 0.0f, 2.0f}, {0.5f, 1.5f, -0.5f}});
  const auto q = torch::quantize_per_tensor(x, 0.0118, -43, torch::kQInt8);
  CHECK(q.is_quantized());
  CHECK_FALSE(x.is_quantized());
  CHECK(q.qscheme() == torch::kPerTensorAffine);
  CHECK(q.scalar_type() == torch::kQInt8);
  CHECK(q.toString() == "QuantizedCPUQInt8Type");
  CHECK(q.element_size() == 1);
  CHECK(q.nbytes() == 6);
  CHECK(q.int_repr().scalar_type() == torch::kChar);
  CHECK(torch::toString(torch::kPerChannelSymmetric) == "per_channel_symmetric");
  std::ostringstream dtype;
  dtype << q.dtype() << " " << torch::kQUInt8 << " " << torch::tensor({1}).to(torch::kByte).dtype();
  CHECK(dtype.str() == "c10::qint8 QUInt8 unsigned char");
  CHECK(printed(q) ==
        "-1.0030  0.0000  1.9942\n 0.4956  1.4986 -0.4956\n[ QuantizedCPUQInt8Type{2,3}, qscheme: per_tensor_affine, "
        "scale: 0.0118, zero_point: -43 ]");
  // A view shares the codes and the quantizer.
  const auto t = q.transpose(0, 1);
  CHECK(t.is_quantized());
  CHECK(t.q_zero_point() == -43);
  CHECK(t.int_repr()[0][1].item<int64_t>() == -1);
}

TEST_CASE("per-channel quantized tensors keep scales, zero points and axis", "[quantization]") {
  const auto x = torch::tensor({{-1.0f, 0.0f, 2.0f}, {0.5f, 1.5f, -0.5f}});
  const auto q = torch::quantize_per_channel(x, torch::tensor({0.01, 0.02}), torch::tensor({0, 3}), 0, torch::kQInt8);
  CHECK(q.qscheme() == torch::kPerChannelAffine);
  CHECK(q.q_per_channel_axis() == 0);
  CHECK(q.q_per_channel_scales().scalar_type() == torch::kDouble);
  CHECK(q.q_per_channel_zero_points().scalar_type() == torch::kLong);
  CHECK_THROWS_WITH(q.q_scale(), Catch::Contains("kPerTensorAffine"));
  CHECK_THROWS_WITH(q.transpose(0, 1), Catch::Contains("views of per-channel quantized tensors are not supported"));
  CHECK(q.detach().is_quantized());  // an identity view is fine
}

TEST_CASE("quantization refuses bad input with LibTorch's messages", "[quantization]") {
  const auto x = torch::ones({2, 3});
  CHECK_THROWS_WITH(torch::quantize_per_tensor(x.to(torch::kDouble), 0.1, 0, torch::kQInt8),
                    "Quantize only works on Float Tensor, got Double");
  CHECK_THROWS_WITH(torch::quantize_per_tensor(x, 0.1, 0, torch::kFloat),
                    "ScalarType Float is not supported in new_qtensor.");
  CHECK_THROWS_WITH(torch::quantize_per_tensor(x, 0.1, 200, torch::kQInt8),
                    "quantize_tensor_per_tensor_affine zero_point 200 is above upper bound.");
  CHECK_THROWS_WITH(torch::quantize_per_tensor(x, 0.1, -1, torch::kQUInt8),
                    "quantize_tensor_per_tensor_affine zero_point -1 is below lower bound.");
  CHECK_THROWS_WITH(torch::quantize_per_tensor(x, 0.0, 0, torch::kQInt8), Catch::Contains("scale must be a positive"));
  CHECK_THROWS_WITH(torch::quantize_per_channel(x, torch::tensor({0.1}), torch::tensor({0}), 0, torch::kQInt8),
                    "length of scales must equal to channel");
  CHECK_THROWS_WITH(torch::quantize_per_channel(x, torch::tensor({0.1, 0.1}), torch::tensor({0, 0}), 2, torch::kQInt8),
                    "Channel axis out of range in per channel affine quantization. Got: 2Expected: [0, 2)");
  CHECK_THROWS_WITH(x.q_scale(), Catch::Contains("expects a quantized Tensor"));
  CHECK_THROWS_WITH(x.int_repr(), Catch::Contains("expects a quantized Tensor"));
  const auto q = torch::quantize_per_tensor(x, 0.1, 0, torch::kQInt8);
  CHECK_THROWS_WITH(q + q, Catch::Contains("not implemented for 'QInt8'"));
  CHECK_THROWS_WITH(q[0][0].item(), Catch::Contains("dequantize() first"));
  // The plain code dtypes compute like LibTorch (in int64, wrapping back to int8): no longer refused.
  CHECK((torch::tensor({1, 127}).to(torch::kChar) + 1).to(torch::kLong).equal(torch::tensor({2, -128})));
}

TEST_CASE("observers and QuantizedLinear check their arguments", "[quantization]") {
  using namespace torch::quantization;
  CHECK_THROWS_WITH(MinMaxObserver(MinMaxObserverOptions().qscheme(torch::kPerChannelAffine)),
                    Catch::Contains("use PerChannelMinMaxObserver"));
  CHECK_THROWS_WITH(MinMaxObserver(MinMaxObserverOptions().dtype(torch::kFloat)), Catch::Contains("kQInt8, kQUInt8"));
  MinMaxObserver observer;
  CHECK_THROWS_WITH(observer.calculate_qparams(), Catch::Contains("before any forward()"));
  CHECK_THROWS_WITH(observer.forward(torch::tensor({1.0f, INFINITY})), Catch::Contains("inf or NaN"));
  torch::nn::Linear fc(4, 3);
  auto q = torch::nn::QuantizedLinear::from_float(*fc);
  CHECK(q->weight().qscheme() == torch::kPerChannelAffine);  // symmetric schemes are stored as affine
  CHECK(q(torch::ones({2, 5, 4})).sizes() == torch::IntArrayRef({2, 5, 3}));
  CHECK_THROWS_WITH(q(torch::ones({2, 3})), "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x3)");
  std::ostringstream out;
  out << *q;
  CHECK(out.str() == "torch::nn::QuantizedLinear(in_features=4, out_features=3, qscheme=per_channel_symmetric)");
  CHECK(q->memory_bytes() == 12 + 12 + 3 * 20);
}
