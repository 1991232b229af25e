// What torch/torch.h brings in: this program includes nothing else, yet uses std::isnan, std::sqrt,
// std::cout, std::vector, std::function, std::accumulate, std::map and std::ostringstream.
#include "compat.h"

namespace cmath_and_includes_program {

COMPAT_PROGRAM(cmath_and_includes) {
  auto values = torch::tensor({0.0, 1.0, 4.0});
  auto roots = values.sqrt();
  std::vector<double> host;
  for (int64_t i = 0; i < roots.numel(); ++i) host.push_back(roots[i].item<double>());
  std::function<double(double)> square = [](double v) { return v * v; };
  std::map<std::string, double> summary;
  summary["sum"] = std::accumulate(host.begin(), host.end(), 0.0);
  summary["sqrt2"] = std::sqrt(2.0);
  summary["square"] = square(host.back());
  std::ostringstream text;
  for (const auto& entry : summary) text << entry.first << "=" << entry.second << " ";
  std::cout << text.str() << "\n";
  auto logs = torch::tensor({-1.0, 1.0}).log();
  std::cout << "isnan(log(-1)) " << std::isnan(logs[0].item<double>()) << " isinf(log(0)) "
            << std::isinf(torch::tensor(0.0).log().item<double>()) << "\n";
  std::cout << "fabs " << std::fabs(-2.5) << " pow " << std::pow(2.0, 10) << " exp " << std::exp(0.0) << "\n";
  return 0;
}

}  // namespace cmath_and_includes_program
