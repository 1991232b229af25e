#pragma once
// A collation turns a vector of examples into one batch (Stack<> is the usual one).
#include <vector>

#include "tinytorch/data/transforms/base.h"
#include "tinytorch/data/transforms/lambda.h"

namespace tinytorch {
namespace data {
namespace transforms {

template <typename T, typename BatchType = std::vector<T>>
using Collation = BatchTransform<BatchType, T>;

template <typename T, typename BatchType = std::vector<T>>
using Collate = BatchLambda<BatchType, T>;

}  // namespace transforms
}  // namespace data
}  // namespace tinytorch
