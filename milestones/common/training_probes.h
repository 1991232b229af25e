#pragma once
// The probes milestones 03 and 04 report after training, each a gate in milestone.json: a network
// trained by YOUR code reaches its accuracy on a Linear that forgets the bias, a log-softmax that
// breaks on large logits, or an Adam with the wrong step size (the knockout study found each).
#include <tinytorch/torch.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "forward_probe.h"
#include "milestone_support.h"
#include "optimizer_probe.h"

namespace milestone {

// Reports linear_forward_error (the largest over `layers`, each on 16 random inputs in [-1, 1)),
// init_bound_error, log_softmax_error and adam_step_error for `part`. Call it after training: it
// draws random numbers.
inline void report_training_probes(int part, const std::vector<torch::nn::Linear>& layers) {
  double forward_error = 0;
  for (torch::nn::Linear layer : layers) {
    const torch::Tensor inputs = torch::rand({16, layer->weight.size(1)}) * 2 - 1;
    forward_error = std::max(forward_error, linear_forward_error(layer, inputs));
  }
  const double init_error = linear_init_error(), log_softmax = log_softmax_error(), adam = adam_step_error();
  std::printf("Probes of your modules against the definitions, computed here in double:\n"
              "  Linear forward (x W^T + b) of your trained layers  within %.2e (relative)\n"
              "  a fresh Linear(64, 256)'s largest |weight|, |bias|  %.1f%% from 1/sqrt(64)\n"
              "  log_softmax of logits spanning hundreds           within %.2e (relative)\n"
              "  two Adam steps                                    within %.2e (of lr)\n",
              forward_error, 100 * init_error, log_softmax, adam);
  report_result(part, "linear_forward_error", forward_error);
  report_result(part, "init_bound_error", init_error);
  report_result(part, "log_softmax_error", log_softmax);
  report_result(part, "adam_step_error", adam);
}

}  // namespace milestone
