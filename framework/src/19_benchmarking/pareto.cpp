// Module 19 (Benchmarking), lesson section "6. The Pareto frontier". No single number ranks models
// that trade accuracy for speed and size; the frontier keeps every model that no other beats on all
// counts, and leaves the choice among them to the deployment.
#include <cmath>
#include <cstdint>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/utils/benchmark.h"

namespace tinytorch {
namespace utils {
namespace benchmark {

// TODO: pareto_frontier -- the indices of the non-dominated points, ascending (section 6). One value
//   per objective in every point (checked below), each objective minimised or maximised as its Goal
//   says. q dominates p when q is no worse than p in EVERY objective and strictly better in AT LEAST
//   ONE: equal in one objective and worse in another is dominated; two identical points are both kept.
//   Example: (latency min, accuracy max) {5, 0.80}, {40, 0.94}, {40, 0.70}, {12, 0.90} -> {0, 1, 3}.
std::vector<int64_t> pareto_frontier(const std::vector<std::vector<double>>& points, const std::vector<Goal>& goals) {
  TT_CHECK(!goals.empty(), "pareto_frontier: no objectives; pass one Goal per value of a point");
  for (size_t i = 0; i < points.size(); ++i) {
    TT_CHECK(points[i].size() == goals.size(), "pareto_frontier: point ", i, " has ", points[i].size(),
             " values but there are ", goals.size(), " goals; give every point one value per objective");
    for (double value : points[i]) {
      TT_CHECK(std::isfinite(value), "pareto_frontier: point ", i, " has a non-finite value (", value,
               "); a failed measurement cannot be ranked: drop the point or measure it again");
    }
  }
  std::vector<int64_t> frontier;
  // BEGIN SOLUTION name="tinytorch::utils::benchmark::pareto_frontier" lesson="6. The Pareto frontier"
  const auto dominates = [&](size_t q, size_t p) {
    bool strictly_better = false;
    for (size_t k = 0; k < goals.size(); ++k) {
      const double sign = goals[k] == Goal::kMinimize ? 1.0 : -1.0;  // compare as "smaller is better"
      const double a = sign * points[q][k], b = sign * points[p][k];
      if (a > b) return false;
      if (a < b) strictly_better = true;
    }
    return strictly_better;
  };
  for (size_t p = 0; p < points.size(); ++p) {
    bool dominated = false;
    for (size_t q = 0; q < points.size() && !dominated; ++q) dominated = q != p && dominates(q, p);
    if (!dominated) frontier.push_back(static_cast<int64_t>(p));
  }
  // END SOLUTION
  return frontier;
}

}  // namespace benchmark
}  // namespace utils
}  // namespace tinytorch
