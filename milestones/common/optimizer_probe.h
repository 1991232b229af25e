#pragma once
// Does YOUR Adam take the steps Kingma and Ba's rule gives? Training cannot tell: a second moment
// of |g| instead of g^2, a missing bias correction or eps inside the square root change each step's
// size a little, and the network still learns (the knockout study, `tito instructor knockout 03`,
// found every one of them passing milestones 03 and 04 on accuracy alone).
#include <tinytorch/torch.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace milestone {

// Two steps of torch::optim::Adam on a parameter of 3 values with gradients set by hand, against
// the rule in double: m = b1 m + (1 - b1) g, v = b2 v + (1 - b2) g^2,
// p -= lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps). Returns max |p_yours - p_rule| / lr
// (infinity when YOUR value is not finite). eps is 0.01, the size of sqrt(v) here, so that where it
// is added shows; the second step's gradients differ from the first's, so that moments that are
// not carried over show.
inline double adam_step_error() {
  constexpr double lr = 0.1, beta1 = 0.8, beta2 = 0.9, eps = 0.01;
  const std::vector<double> start = {0.5, -1.0, 2.0};
  const std::vector<std::vector<double>> gradients = {{0.02, -0.3, 0.005}, {-0.01, -0.1, 0.04}};
  torch::NoGradGuard no_grad;
  torch::Tensor parameter = torch::tensor(std::vector<float>(start.begin(), start.end())).requires_grad_(true);
  torch::optim::Adam adam({parameter}, torch::optim::AdamOptions(lr).betas({beta1, beta2}).eps(eps));
  std::vector<double> expected = start, m(start.size(), 0), v(start.size(), 0);
  double error = 0;
  for (size_t t = 1; t <= gradients.size(); ++t) {
    const std::vector<double>& g = gradients[t - 1];
    parameter.mutable_grad() = torch::tensor(std::vector<float>(g.begin(), g.end()));
    adam.step();
    const torch::Tensor yours = parameter.detach().to(torch::kDouble).contiguous();
    for (size_t i = 0; i < start.size(); ++i) {
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
      const double m_hat = m[i] / (1 - std::pow(beta1, t)), v_hat = v[i] / (1 - std::pow(beta2, t));
      expected[i] -= lr * m_hat / (std::sqrt(v_hat) + eps);
      const double value = yours.data_ptr<double>()[i];
      if (!std::isfinite(value)) return std::numeric_limits<double>::infinity();
      error = std::max(error, std::fabs(value - expected[i]) / lr);
    }
  }
  return error;
}

}  // namespace milestone
