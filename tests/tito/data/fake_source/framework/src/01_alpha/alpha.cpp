#include "tinytorch/tensor.h"

namespace tinytorch {

Tensor mm(const Tensor& a, const Tensor& b) {
  // BEGIN SOLUTION name="tinytorch::mm" lesson="6. Matrix multiplication"
  auto out = zeros({a.size(0), b.size(1)});
  return out;
  // END SOLUTION
}

namespace detail {
    int helper(int x) {
        // BEGIN SOLUTION name="tinytorch::detail::helper" lesson="2. Helpers"
        return x + 1;
        // END SOLUTION
    }
}  // namespace detail

}  // namespace tinytorch
