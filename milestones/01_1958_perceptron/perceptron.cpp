// Milestone 01 (1958): Rosenblatt's perceptron, on YOUR Tensor (module 01), sigmoid (module 02)
// and nn::Linear (module 03).
//
// 100 points in two clouds that a straight line can separate. A Linear(2, 1) followed by sigmoid
// says "class 1" where sigmoid(w.x + b) > 0.5, i.e. where w.x + b > 0. Untrained, its random line
// gets about half of the points right: a forward pass is not intelligence. Then Rosenblatt's
// learning rule, with no gradients at all: for each point, if the prediction yhat is wrong, move
// the line towards it,
//     w += lr * (y - yhat) * x        b += lr * (y - yhat)
// which, on separable data, stops making mistakes after finitely many updates (Novikoff, 1962).
// tito judges the final accuracy (gate: accuracy >= 0.95).
#include <tinytorch/torch.h>

#include <cstdio>
#include <iostream>
#include <vector>

#include "../common/forward_probe.h"
#include "../common/milestone_support.h"

namespace {

constexpr int kPointsPerClass = 50;
constexpr double kLearningRate = 0.1;
constexpr int kMaxEpochs = 50;

// Predictions as 0/1 floats: sigmoid(Linear(x)) > 0.5, for every row of x (n, 2) -> (n).
torch::Tensor predict(torch::nn::Linear& model, const torch::Tensor& x) {
  return torch::sigmoid(model(x)).squeeze(1).gt(0.5).to(torch::kFloat);
}

double accuracy(torch::nn::Linear& model, const torch::Tensor& x, const torch::Tensor& y) {
  return predict(model, x).eq(y).to(torch::kFloat).mean().item<double>();
}

std::vector<milestone::LabelledPoint> labelled_points(torch::nn::Linear& model, const torch::Tensor& x,
                                                      const torch::Tensor& y) {
  const torch::Tensor yhat = predict(model, x);
  std::vector<milestone::LabelledPoint> points;
  for (int64_t i = 0; i < x.size(0); ++i) {
    const int label = y[i].item<double>() > 0.5 ? 1 : 0;
    points.push_back({x[i][0].item<double>(), x[i][1].item<double>(), label, yhat[i].item<double>() == label});
  }
  return points;
}

milestone::LinearBoundary boundary_of(torch::nn::Linear& model) {
  return {model->weight[0][0].item<double>(), model->weight[0][1].item<double>(), model->bias[0].item<double>()};
}

void describe(torch::nn::Linear& model) {
  const auto line = boundary_of(model);
  std::printf("  weights w = (%.3f, %.3f), bias b = %.3f: the model says class 1 where %.3f*x1 %+.3f*x2 %+.3f > 0\n",
              line.w1, line.w2, line.b, line.w1, line.w2, line.b);
}

}  // namespace

int main() {
  std::cout << "Milestone 01 - The Perceptron (Frank Rosenblatt, 1958)\n\n";
  torch::manual_seed(1958);

  // Two clouds of 2-D points: class 1 around (3, 3), class 0 around (1, 1), spread 0.5.
  // Rows 0..49 are class 1, rows 50..99 class 0.
  const torch::Tensor y = torch::arange(2 * kPointsPerClass).lt(kPointsPerClass).to(torch::kFloat);  // (100)
  const torch::Tensor centres = y.unsqueeze(1) * 2.0 + 1.0;                                         // (100, 1)
  const torch::Tensor x = torch::randn({2 * kPointsPerClass, 2}) * 0.5 + centres;                   // (100, 2)
  std::printf("Data: %lld points in 2-D, %d per class (%lld bytes of float32)\n", static_cast<long long>(x.size(0)),
              kPointsPerClass, static_cast<long long>(x.numel() * x.element_size()));

  torch::nn::Linear model(2, 1);
  std::cout << "Model: " << *model << " then sigmoid, threshold 0.5 - "
            << model->weight.numel() + model->bias.numel() << " parameters\n\n";

  const double untrained = accuracy(model, x, y);
  std::printf("Act 1 - the untrained forward pass: accuracy %.1f%% (random weights are a coin toss)\n", 100 * untrained);
  describe(model);

  std::cout << "\nAct 2 - Rosenblatt's learning rule, one point at a time (no gradients):\n";
  int epochs_run = 0;
  {
    torch::NoGradGuard no_grad;  // the rule edits the parameters in place; nothing is recorded
    for (int epoch = 1; epoch <= kMaxEpochs; ++epoch) {
      int mistakes = 0;
      for (int k = 0; k < 2 * kPointsPerClass; ++k) {
        // Alternate the classes: 0, 50, 1, 51, ...
        const int64_t i = (k % 2 == 0) ? k / 2 : kPointsPerClass + k / 2;
        const torch::Tensor xi = x[i].unsqueeze(0);                        // (1, 2)
        const torch::Tensor error = y[i] - predict(model, xi)[0];          // y - yhat: -1, 0 or +1
        if (error.item<double>() == 0) continue;
        ++mistakes;
        model->weight.add_(xi * error, kLearningRate);  // w += lr * (y - yhat) * x
        model->bias.add_(error.unsqueeze(0), kLearningRate);  // b += lr * (y - yhat)
      }
      epochs_run = epoch;
      std::printf("  epoch %2d: %3d mistakes, accuracy %.1f%%\n", epoch, mistakes, 100 * accuracy(model, x, y));
      if (mistakes == 0) break;
    }
  }

  const double trained = accuracy(model, x, y);
  std::printf("\nAct 3 - after %d epochs: accuracy %.1f%% (it was %.1f%% untrained)\n", epochs_run, 100 * trained,
              100 * untrained);
  describe(model);

  const auto points = labelled_points(model, x, y);
  const auto line = boundary_of(model);
  const auto area = milestone::area_around(points, 0.5);
  std::cout << "\nThe learned decision boundary:\n" << milestone::ascii_plot(points, line, area) << "\n";
  milestone::write_output_file("decision_boundary.svg",
                               milestone::svg_plot(points, line, area, "Milestone 01: the perceptron's learned boundary"));

  const double forward_error = milestone::sigmoid_linear_error(model, x);
  std::printf("Probe of your forward pass: sigmoid(Linear(x)) differs from sigmoid(w . x + b) by at most %.2e "
              "(on the 100 points, and on them scaled by 50)\n", forward_error);
  const auto learned = boundary_of(model);
  milestone::report_result(1, "accuracy", trained);
  milestone::report_result(1, "forward_max_error", forward_error);
  const double init_error = milestone::linear_init_error();
  std::printf("Probe of your initialisation: a fresh Linear(64, 256)'s largest |weight| and |bias| are within %.1f%% "
              "of 1/sqrt(64)\n", 100 * init_error);
  milestone::report_result(1, "init_bound_error", init_error);
  // Not gated: the learned line itself, so that a change to what the run computes shows (tito instructor knockout).
  milestone::report_result(1, "learned_w1", learned.w1);
  milestone::report_result(1, "learned_w2", learned.w2);
  milestone::report_result(1, "learned_b", learned.b);
  return 0;
}
