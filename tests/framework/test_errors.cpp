// Every error message is LibTorch 1.13's, word for word (collected by running the same calls
// against LibTorch), so learners can search for what they see.
#include <catch2/catch.hpp>

#include "test_helpers.h"

using namespace torch::indexing;

TEST_CASE("shape errors of element-wise ops and copy_", "[errors]") {
  REQUIRE_THROWS_WITH(torch::ones({3}) + torch::ones({4}),
                      "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}) + torch::ones({2, 4}),
                      "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  REQUIRE_THROWS_WITH(torch::ones({2}).pow(torch::ones({3})),
                      "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");
  REQUIRE_THROWS_WITH(torch::ones({2}).copy_(torch::ones({3})),
                      "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");
  REQUIRE_THROWS_WITH(torch::ones({2}).expand({2, 2}).add_(1),
                      "unsupported operation: more than one element of the written-to tensor refers to a single "
                      "memory location. Please clone() the tensor before performing the operation.");
  REQUIRE_THROWS_AS(torch::ones({3}) + torch::ones({4}), c10::Error);
}

TEST_CASE("dtype errors", "[errors]") {
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).data_ptr<int64_t>(), "expected scalar type Long but found Float");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}, torch::kLong).data_ptr<bool>(), "expected scalar type Bool but found Long");
  REQUIRE_THROWS_WITH(torch::ones({2}, torch::kLong).div_(2),
                      "result type Float can't be cast to the desired output type Long");
  REQUIRE_THROWS_WITH(torch::ones({2}, torch::kLong).add_(2.5),
                      "result type Float can't be cast to the desired output type Long");
  REQUIRE_THROWS_WITH(torch::ones({2}, torch::kBool).add_(1),
                      "result type Long can't be cast to the desired output type Bool");
  REQUIRE_THROWS_WITH(torch::ones({2}, torch::kLong).add(torch::ones({2}, torch::kLong), 2.5),
                      "For integral input tensors, argument alpha must not be a floating point number.");
  REQUIRE_THROWS_WITH(torch::ones({2}, torch::kBool) - torch::ones({2}, torch::kBool),
                      "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                      "`logical_xor()` operator instead.");
  REQUIRE_THROWS_WITH(-torch::ones({2}, torch::kBool),
                      "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a "
                      "mask, use the `~` or `logical_not()` operator instead.");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).item(), "a Tensor with 6 elements cannot be converted to Scalar");
  REQUIRE_THROWS_WITH(torch::tensor({{1, 2}, {3}}),
                      "Expected all sub-lists to have sizes: [2], but got sub-list with sizes: [1]");
}

TEST_CASE("view and reshape errors", "[errors][views]") {
  REQUIRE_THROWS_WITH(torch::ones({6}).view({2, 2}), "shape '[2, 2]' is invalid for input of size 6");
  REQUIRE_THROWS_WITH(torch::ones({6}).reshape({4, -1}), "shape '[4, -1]' is invalid for input of size 6");
  REQUIRE_THROWS_WITH(torch::ones({6}).view({-1, -1}), "only one dimension can be inferred");
  REQUIRE_THROWS_WITH(torch::ones({6}).view({-2, 3}), "invalid shape dimension -2");
  REQUIRE_THROWS_WITH(torch::ones({0}).view({-1, 0}),
                      "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified dimension size "
                      "-1 can be any value and is ambiguous");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).t().view({6}),
                      "view size is not compatible with input tensor's size and stride (at least one dimension spans "
                      "across two contiguous subspaces). Use .reshape(...) instead.");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).permute({0}),
                      "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
                      "desired ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 1");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).permute({0, 0}), "permute(): duplicate dims are not allowed.");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).transpose(0, 2),
                      "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  REQUIRE_THROWS_WITH(torch::ones({2, 3, 4}).t(), "t() expects a tensor with <= 2 dimensions, but self is 3D");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).expand({2, 4}),
                      "The expanded size of the tensor (4) must match the existing size (3) at non-singleton "
                      "dimension 1.  Target sizes: [2, 4].  Tensor sizes: [2, 3]");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).expand({3}),
                      "expand(CPUFloatType{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or "
                      "equal to the number of dimensions in the tensor (2)");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).expand({-1, -1, 3}),
                      "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).select(0, 5),
                      "select(): index 5 out of range for tensor of size [2, 3] at dimension 0");
  REQUIRE_THROWS_WITH(torch::ones({3}).narrow(0, 2, 2), "start (2) + length (2) exceeds dimension size (3).");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).flatten(1, 0),
                      "flatten() has invalid args: start_dim cannot come after end_dim");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).squeeze(3),
                      "Dimension out of range (expected to be in range of [-2, 1], but got 3)");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).unsqueeze(3),
                      "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
}

TEST_CASE("indexing errors", "[errors][indexing]") {
  REQUIRE_THROWS_WITH(torch::ones({2}).index({0, 0}), "too many indices for tensor of dimension 1");
  REQUIRE_THROWS_WITH(torch::ones({2}).index({5}), "index 5 is out of bounds for dimension 0 with size 2");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).index({Slice(0, 2, 0)}), "slice step cannot be zero");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).index({Slice(0, 2, -1)}), "step must be greater than zero");
  REQUIRE_THROWS_WITH(torch::ones({2}).index_put_({0, 1}, 1), "too many indices for tensor of dimension 1");
}

TEST_CASE("matrix product errors", "[errors][matmul]") {
  auto a = torch::ones({2, 3}), b = torch::ones({4, 5});
  REQUIRE_THROWS_WITH(torch::mm(a, b), "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  REQUIRE_THROWS_WITH(torch::mm(torch::ones({3}), b), "self must be a matrix");
  REQUIRE_THROWS_WITH(torch::mm(a, torch::ones({3})), "mat2 must be a matrix");
  REQUIRE_THROWS_WITH(torch::mm(a, torch::ones({3, 2}, torch::kDouble)), "expected scalar type Float but found Double");
  REQUIRE_THROWS_WITH(torch::mm(torch::ones({2, 2}, torch::kBool), torch::ones({2, 2}, torch::kBool)),
                      "\"addmm_impl_cpu_\" not implemented for 'Bool'");
  REQUIRE_THROWS_WITH(torch::bmm(a, b), "batch1 must be a 3D tensor");
  REQUIRE_THROWS_WITH(torch::bmm(torch::ones({2, 2, 3}), b), "batch2 must be a 3D tensor");
  REQUIRE_THROWS_WITH(torch::bmm(torch::ones({2, 2, 3}), torch::ones({2, 4, 4})),
                      "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].");
  REQUIRE_THROWS_WITH(torch::matmul(torch::tensor(1.0), torch::ones({3})),
                      "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
  REQUIRE_THROWS_WITH(torch::matmul(torch::ones({3}), torch::ones({4})),
                      "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, "
                      "but got 3 and 4 elements respectively");
  REQUIRE_THROWS_WITH(torch::matmul(torch::ones({2, 3}), torch::ones({4})), "size mismatch, got 2, 2x3,4");
  REQUIRE_THROWS_WITH(torch::matmul(torch::ones({3}), torch::ones({4, 2})),
                      "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x2)");
  REQUIRE_THROWS_WITH(torch::matmul(torch::ones({5, 2, 3}), torch::ones({3, 3, 4})),
                      "The size of tensor a (5) must match the size of tensor b (3) at non-singleton dimension 0");
  REQUIRE_THROWS_WITH(torch::matmul(torch::ones({2, 3}), torch::ones({3}, torch::kLong)),
                      "expected scalar type Float but found Long");
}

TEST_CASE("reduction errors", "[errors][reductions]") {
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).sum(2), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).sum(-3),
                      "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
  REQUIRE_THROWS_WITH(torch::tensor(1.0).sum(1), "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).sum({0, 0}), "dim 0 appears multiple times in the list of dims");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}, torch::kLong).mean(),
                      "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
                      "dtype. Got: Long");
  REQUIRE_THROWS_WITH(torch::ones({0}).max(),
                      "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
                      "with the 'dim' argument.");
  REQUIRE_THROWS_WITH(torch::ones({0}).argmax(), "argmax(): Expected reduction dim to be specified for input.numel() == 0.");
  REQUIRE_THROWS_WITH(torch::ones({2, 0}).max(1), "max(): Expected reduction dim 1 to have non-zero size.");
}

TEST_CASE("factory errors", "[errors][factories]") {
  REQUIRE_THROWS_WITH(torch::arange(0, 10, -1), "upper bound and larger bound inconsistent with step sign");
  REQUIRE_THROWS_WITH(torch::arange(0, 10, 0), "step must be nonzero");
  REQUIRE_THROWS_WITH(torch::randint(5, 2, {3}), "random_ expects 'from' to be less than 'to', but got from=5 >= to=2");
  REQUIRE_THROWS_WITH(torch::eye(-1), "n must be greater or equal to 0, got -1");
  REQUIRE_THROWS_WITH(torch::linspace(0, 1, -1), "number of steps must be non-negative");
  REQUIRE_THROWS_WITH(torch::empty({-1}), "Trying to create tensor with negative dimension -1: [-1]");
  REQUIRE_THROWS_WITH(torch::ones({2, 3}).clamp(std::nullopt, std::nullopt),
                      "torch.clamp: At least one of 'min' or 'max' must not be None");
}

TEST_CASE("NotImplemented names the function, the module and the lesson section", "[errors]") {
  const tinytorch::NotImplemented error("tinytorch::mm", "01_tensor", "6. Matrix multiplication");
  REQUIRE(std::string(error.what()) ==
          "tinytorch::mm is not implemented yet: it is yours to write in module 01_tensor (lesson section 6. Matrix "
          "multiplication), then run `tito module test 01`");
  REQUIRE(error.function() == "tinytorch::mm");
  REQUIRE(error.module() == "01_tensor");
  REQUIRE(error.lesson_section() == "6. Matrix multiplication");
  const tinytorch::Error& as_error = error;  // catchable as the framework's one error type
  REQUIRE(std::string(as_error.what_without_backtrace()) == error.what());
}
