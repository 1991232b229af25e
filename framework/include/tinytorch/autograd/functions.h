#pragma once
// The backward node of every differentiable op (module 06), named exactly as LibTorch's generated
// torch/csrc/autograd/generated/Functions.h names them. Each node keeps what its rule needs (the
// "saved" tensors and sizes, filled when the forward op is recorded) and implements apply():
// gradients of the op's outputs in, one gradient per op input out (undefined where
// !should_compute_output(i)).
//
// The rules you write are in framework/src/06_autograd/gradient_rules.cpp; every other rule is in
// the given rules_*.cpp files of the same folder.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tinytorch/autograd/node.h"
#include "tinytorch/scalar.h"

namespace tinytorch {
namespace autograd {

// Sums `grad` down to `sizes`: undoes broadcasting. A (4, 3) gradient for a (3) input is summed
// over dim 0; for a (4, 1) input over dim 1 with keepdim. Learner-written (gradient_rules.cpp).
Tensor sum_to(const Tensor& grad, IntArrayRef sizes);

namespace generated {

#define TT_BACKWARD_NODE_(NAME)                           \
  std::string name() const override { return #NAME; }    \
                                                          \
 protected:                                               \
  variable_list apply(variable_list&& grads) override;    \
                                                          \
 public:

// Releases and lists the saved tensors of a node (the engine frees them after backward).
#define TT_SAVED_VARIABLES_(...)                                        \
  void release_variables() override {                                   \
    for (SavedVariable* saved : {__VA_ARGS__}) saved->reset_data();     \
  }                                                                     \
  variable_list saved_tensors() const override {                        \
    variable_list all;                                                  \
    for (const SavedVariable* saved : {__VA_ARGS__})                    \
      if (saved->data().defined()) all.push_back(saved->data());        \
    return all;                                                         \
  }

// ---- The rules you write (gradient_rules.cpp) ----

struct AddBackward0 : public Node {  // self + alpha * other
  TT_BACKWARD_NODE_(AddBackward0)
  Scalar alpha = 1;
  std::vector<int64_t> self_sizes, other_sizes;
};

struct MulBackward0 : public Node {  // self * other
  TT_BACKWARD_NODE_(MulBackward0)
  TT_SAVED_VARIABLES_(&self_, &other_)
  SavedVariable self_, other_;
  std::vector<int64_t> self_sizes, other_sizes;
};

struct MmBackward0 : public Node {  // self (n, k) @ mat2 (k, m)
  TT_BACKWARD_NODE_(MmBackward0)
  TT_SAVED_VARIABLES_(&self_, &mat2_)
  SavedVariable self_, mat2_;
};

// `tensor + number` (the number is not a tensor input in LibTorch): the same rule, another name.
struct AddBackward1 : public AddBackward0 {
  std::string name() const override { return "AddBackward1"; }
};

struct MulBackward1 : public MulBackward0 {
  std::string name() const override { return "MulBackward1"; }
};

struct SumBackward0 : public Node {  // self.sum(): every element
  TT_BACKWARD_NODE_(SumBackward0)
  std::vector<int64_t> self_sizes;
};

struct SumBackward1 : public Node {  // self.sum(dims, keepdim)
  TT_BACKWARD_NODE_(SumBackward1)
  std::vector<int64_t> self_sizes, dims;  // dims: sorted, wrapped
  bool keepdim = false;
};

struct ReluBackward0 : public Node {
  TT_BACKWARD_NODE_(ReluBackward0)
  TT_SAVED_VARIABLES_(&result_)
  SavedVariable result_;
};

// ---- Given rules: element-wise arithmetic (rules_elementwise.cpp) ----

struct SubBackward0 : public Node {  // self - alpha * other
  TT_BACKWARD_NODE_(SubBackward0)
  Scalar alpha = 1;
  std::vector<int64_t> self_sizes, other_sizes;
};

struct SubBackward1 : public SubBackward0 {
  std::string name() const override { return "SubBackward1"; }
};

struct DivBackward0 : public Node {
  TT_BACKWARD_NODE_(DivBackward0)
  TT_SAVED_VARIABLES_(&self_, &other_)
  SavedVariable self_, other_;
  std::vector<int64_t> self_sizes, other_sizes;
};

struct DivBackward1 : public DivBackward0 {
  std::string name() const override { return "DivBackward1"; }
};

struct NegBackward0 : public Node {
  TT_BACKWARD_NODE_(NegBackward0)
};

struct PowBackward0 : public Node {  // self ** exponent (a number)
  TT_BACKWARD_NODE_(PowBackward0)
  TT_SAVED_VARIABLES_(&self_)
  SavedVariable self_;
  Scalar exponent = 1;
};

struct PowBackward1 : public Node {  // self ** exponent (a tensor)
  TT_BACKWARD_NODE_(PowBackward1)
  TT_SAVED_VARIABLES_(&self_, &exponent_, &result_)
  SavedVariable self_, exponent_, result_;
  std::vector<int64_t> self_sizes, exponent_sizes;
};

struct ExpBackward0 : public Node {
  TT_BACKWARD_NODE_(ExpBackward0)
  TT_SAVED_VARIABLES_(&result_)
  SavedVariable result_;
};

struct LogBackward0 : public Node {
  TT_BACKWARD_NODE_(LogBackward0)
  TT_SAVED_VARIABLES_(&self_)
  SavedVariable self_;
};

struct SqrtBackward0 : public Node {
  TT_BACKWARD_NODE_(SqrtBackward0)
  TT_SAVED_VARIABLES_(&result_)
  SavedVariable result_;
};

struct AbsBackward0 : public Node {
  TT_BACKWARD_NODE_(AbsBackward0)
  TT_SAVED_VARIABLES_(&self_)
  SavedVariable self_;
};

struct ClampBackward1 : public Node {
  TT_BACKWARD_NODE_(ClampBackward1)
  TT_SAVED_VARIABLES_(&self_)
  SavedVariable self_;
  std::optional<Scalar> min, max;
};

struct BmmBackward0 : public Node {
  TT_BACKWARD_NODE_(BmmBackward0)
  TT_SAVED_VARIABLES_(&self_, &mat2_)
  SavedVariable self_, mat2_;
};

// ---- Given rules: reductions, views and copies (rules_shape.cpp) ----

struct MeanBackward0 : public Node {
  TT_BACKWARD_NODE_(MeanBackward0)
  std::vector<int64_t> self_sizes;
};

struct MeanBackward1 : public Node {
  TT_BACKWARD_NODE_(MeanBackward1)
  std::vector<int64_t> self_sizes, dims;
  bool keepdim = false;
};

struct MaxBackward0 : public Node {  // max(dim, keepdim) -> (values, indices); also MinBackward0
  TT_BACKWARD_NODE_(MaxBackward0)
  TT_SAVED_VARIABLES_(&indices_)
  SavedVariable indices_;
  std::vector<int64_t> self_sizes;
  int64_t dim = 0;
  bool keepdim = false;
};

struct MinBackward0 : public MaxBackward0 {
  std::string name() const override { return "MinBackward0"; }
};

struct MaxBackward1 : public Node {  // max() of every element; ties share the gradient evenly
  TT_BACKWARD_NODE_(MaxBackward1)
  TT_SAVED_VARIABLES_(&self_, &result_)
  SavedVariable self_, result_;
};

struct MinBackward1 : public MaxBackward1 {
  std::string name() const override { return "MinBackward1"; }
};

struct ViewBackward0 : public Node {  // view and reshape
  TT_BACKWARD_NODE_(ViewBackward0)
  std::vector<int64_t> self_sizes;
};

struct SqueezeBackward0 : public Node {  // squeeze()
  TT_BACKWARD_NODE_(SqueezeBackward0)
  std::vector<int64_t> self_sizes;
};

struct SqueezeBackward1 : public SqueezeBackward0 {  // squeeze(dim)
  std::string name() const override { return "SqueezeBackward1"; }
};

struct UnsqueezeBackward0 : public Node {
  TT_BACKWARD_NODE_(UnsqueezeBackward0)
  int64_t dim = 0;
};

struct TransposeBackward0 : public Node {  // transpose and t()
  TT_BACKWARD_NODE_(TransposeBackward0)
  int64_t dim0 = 0, dim1 = 0;
};

struct PermuteBackward0 : public Node {
  TT_BACKWARD_NODE_(PermuteBackward0)
  std::vector<int64_t> dims;
};

struct ExpandBackward0 : public Node {
  TT_BACKWARD_NODE_(ExpandBackward0)
  std::vector<int64_t> self_sizes;
};

struct SelectBackward0 : public Node {
  TT_BACKWARD_NODE_(SelectBackward0)
  std::vector<int64_t> self_sizes;
  int64_t dim = 0, index = 0;
};

struct SliceBackward0 : public Node {  // slice and narrow
  TT_BACKWARD_NODE_(SliceBackward0)
  std::vector<int64_t> self_sizes;
  int64_t dim = 0, start = 0, end = 0, step = 1;
};

struct CloneBackward0 : public Node {  // clone and contiguous
  TT_BACKWARD_NODE_(CloneBackward0)
};

struct ToCopyBackward0 : public Node {  // to(dtype)
  TT_BACKWARD_NODE_(ToCopyBackward0)
  ScalarType self_scalar_type = kFloat;
};

struct CopyBackwards : public Node {  // self.copy_(src): self's old values are gone, src broadcasts
  std::string name() const override { return "torch::autograd::CopyBackwards"; }  // LibTorch's spelling

 protected:
  variable_list apply(variable_list&& grads) override;

 public:
  std::vector<int64_t> src_sizes;
  ScalarType src_scalar_type = kFloat;
};

struct FillBackward2 : public Node {  // self.fill_(value) (in place): the old values are gone
  TT_BACKWARD_NODE_(FillBackward2)
};

// ---- Given rules: activations and losses (rules_nn.cpp) ----

struct SigmoidBackward0 : public Node {
  TT_BACKWARD_NODE_(SigmoidBackward0)
  TT_SAVED_VARIABLES_(&result_)
  SavedVariable result_;
};

struct TanhBackward0 : public Node {
  TT_BACKWARD_NODE_(TanhBackward0)
  TT_SAVED_VARIABLES_(&result_)
  SavedVariable result_;
};

struct GeluBackward0 : public Node {
  TT_BACKWARD_NODE_(GeluBackward0)
  TT_SAVED_VARIABLES_(&self_)
  SavedVariable self_;
  bool tanh_approximation = false;
};

struct SoftmaxBackward0 : public Node {
  TT_BACKWARD_NODE_(SoftmaxBackward0)
  TT_SAVED_VARIABLES_(&result_)
  SavedVariable result_;
  int64_t dim = 0;
  ScalarType self_scalar_type = kFloat;
};

struct LogSoftmaxBackward0 : public Node {
  TT_BACKWARD_NODE_(LogSoftmaxBackward0)
  TT_SAVED_VARIABLES_(&result_)
  SavedVariable result_;
  int64_t dim = 0;
  ScalarType self_scalar_type = kFloat;
};

struct NllLossBackward0 : public Node {
  TT_BACKWARD_NODE_(NllLossBackward0)
  TT_SAVED_VARIABLES_(&target_, &weight_)
  SavedVariable target_, weight_;
  std::vector<int64_t> self_sizes;
  ScalarType self_scalar_type = kFloat;
  int64_t reduction = 1;
  int64_t ignore_index = -100;
};

struct BinaryCrossEntropyBackward0 : public Node {
  TT_BACKWARD_NODE_(BinaryCrossEntropyBackward0)
  TT_SAVED_VARIABLES_(&self_, &target_, &weight_)
  SavedVariable self_, target_, weight_;
  int64_t reduction = 1;
};

// ---- Given rule: convolution (rules_conv.cpp) ----

struct ConvolutionBackward0 : public Node {  // conv2d(input, weight, bias): 4-D input
  TT_BACKWARD_NODE_(ConvolutionBackward0)
  TT_SAVED_VARIABLES_(&input_, &weight_)
  SavedVariable input_, weight_;
  std::vector<int64_t> stride, padding, dilation;  // {height, width} each
  int64_t groups = 1;
};

#undef TT_BACKWARD_NODE_
#undef TT_SAVED_VARIABLES_

}  // namespace generated
}  // namespace autograd
}  // namespace tinytorch
