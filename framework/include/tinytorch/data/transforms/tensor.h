#pragma once
// Transforms of an example's data tensor (LibTorch's torch::data::transforms::TensorTransform):
//   Normalize<>(mean, stddev)          data -> (data - mean) / stddev, per channel
//   TensorLambda<>(f)                  data -> f(data)
#include <functional>
#include <utility>

#include "tinytorch/data/example.h"
#include "tinytorch/data/transforms/base.h"
#include "tinytorch/factories.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace data {
namespace transforms {

template <typename Target = Tensor>
class TensorTransform : public Transform<Example<Tensor, Target>, Example<Tensor, Target>> {
 public:
  using E = Example<Tensor, Target>;
  using typename Transform<E, E>::InputType;
  using typename Transform<E, E>::OutputType;

  virtual Tensor operator()(Tensor input) = 0;

  OutputType apply(InputType input) override {
    input.data = (*this)(std::move(input.data));
    return input;
  }
};

template <typename Target = Tensor>
class TensorLambda : public TensorTransform<Target> {
 public:
  using FunctionType = std::function<Tensor(Tensor)>;
  explicit TensorLambda(FunctionType function) : function_(std::move(function)) {}
  Tensor operator()(Tensor input) override { return function_(std::move(input)); }

 private:
  FunctionType function_;
};

// LibTorch's Normalize: mean and stddev hold one value per channel and are shaped [C, 1, 1], so they
// broadcast over a [C, H, W] image. With one channel and flat [64] data, the result is [1, 1, 64]
// (as in LibTorch); reshape afterwards, or normalise with a TensorLambda.
template <typename Target = Tensor>
struct Normalize : public TensorTransform<Target> {
  Normalize(ArrayRef<double> mean, ArrayRef<double> stddev)
      : mean(tinytorch::tensor(std::vector<double>(mean.begin(), mean.end()), kFloat).unsqueeze(1).unsqueeze(2)),
        stddev(tinytorch::tensor(std::vector<double>(stddev.begin(), stddev.end()), kFloat).unsqueeze(1).unsqueeze(2)) {}

  Tensor operator()(Tensor input) override { return input.sub(mean).div(stddev); }

  Tensor mean, stddev;
};

}  // namespace transforms
}  // namespace data
}  // namespace tinytorch
