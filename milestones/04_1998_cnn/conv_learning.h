#pragma once
// Milestone 04's check that the convolutions themselves learned, shared by its three parts.
//
// A CNN can score well with random filters: the layers after them learn to read whatever the
// filters produce. So an accuracy alone cannot tell a working conv backward from one that never
// delivers a gradient (a flatten that cuts the graph, a grad_weight left at zero). The monitor keeps
// every Conv2d's starting weights, the largest |gradient| that reached each during training, and
// at the end the relative distance travelled, ||W_end - W_start|| / ||W_start||; tito gates the
// smallest of those (metric "min_conv_weight_change").
#include <tinytorch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

namespace milestone {

class ConvLearningMonitor {
 public:
  // Every Conv2d in `model` (at any depth), in order.
  explicit ConvLearningMonitor(const torch::nn::Module& model) {
    for (const auto& module : model.modules(/*include_self=*/false)) {
      if (auto* conv = module->as<torch::nn::Conv2d>()) {
        convs_.push_back(conv);
        initial_.push_back(conv->weight.detach().clone());
      }
    }
    largest_gradient_.assign(convs_.size(), 0.0);
  }

  const std::vector<torch::nn::Conv2dImpl*>& convolutions() const { return convs_; }

  // Call after backward(), before the optimizer's step.
  void after_backward() {
    for (size_t i = 0; i < convs_.size(); ++i) {
      const torch::Tensor grad = convs_[i]->weight.grad();
      if (!grad.defined()) continue;  // no gradient reached it: its weights stay where they were
      const double largest = grad.abs().max().item<double>();
      finite_ = finite_ && std::isfinite(largest);
      largest_gradient_[i] = std::max(largest_gradient_[i], largest);
    }
  }

  double relative_change(size_t i) const {
    const torch::Tensor start = initial_[i];
    const double change = (convs_[i]->weight.detach() - start).norm().item<double>() / start.norm().item<double>();
    return std::isfinite(change) ? change : 0.0;
  }

  // The smallest relative change over the convolutions; 0 when a gradient was NaN or infinite (the
  // weights then moved, but not by learning) or when the model has no convolution at all.
  double smallest_change() const {
    if (convs_.empty() || !finite_) return 0.0;
    double smallest = relative_change(0);
    for (size_t i = 1; i < convs_.size(); ++i) smallest = std::min(smallest, relative_change(i));
    return smallest;
  }

  // One line per convolution, and what to check when one did not learn.
  void print_report(double required) const {
    std::printf("Did your convolutions learn? (each one's weights must move at least %.0f%% from their initial "
                "values)\n",
                100 * required);
    for (size_t i = 0; i < convs_.size(); ++i)
      std::printf("  Conv2d #%zu %s: largest weight gradient %.1e, weights moved %.1f%% from their initial values\n",
                  i + 1, shape_of(convs_[i]->weight).c_str(), largest_gradient_[i], 100 * relative_change(i));
    if (!finite_) std::cout << "  Some weight gradients were NaN or infinite.\n";
    if (smallest_change() < required) {
      std::cout << "  A convolution that barely moved did not learn: the accuracy comes from the layers after it,\n"
                   "  reading random filters. Check that YOUR conv2d backward (module 09) returns a grad_weight of\n"
                   "  shape (out_channels, in_channels, kH, kW), that your max_pool2d backward passes gradients to\n"
                   "  the maxima, and that flatten/reshape keeps the graph (module 06's view and reshape gradients).\n";
    }
  }

 private:
  static std::string shape_of(const torch::Tensor& t) {
    std::string text = "(";
    for (int64_t d = 0; d < t.dim(); ++d) text += (d ? "x" : "") + std::to_string(t.size(d));
    return text + ")";
  }

  std::vector<torch::nn::Conv2dImpl*> convs_;
  std::vector<torch::Tensor> initial_;
  std::vector<double> largest_gradient_;
  bool finite_ = true;
};

}  // namespace milestone
