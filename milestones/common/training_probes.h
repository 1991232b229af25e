#pragma once
// The probes milestones 03, 04 and 06 report after training, each a gate in milestone.json: a network
// trained by YOUR code reaches its accuracy on a Linear that forgets the bias, a log-softmax that
// breaks on large logits, a cross-entropy whose softmax runs over the batch, an Adam with the wrong step
// size, or a sampler that never reshuffles (the knockout study found each).
#include <tinytorch/torch.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "forward_probe.h"
#include "milestone_support.h"
#include "optimizer_probe.h"

namespace milestone {

// 1 when a RandomSampler gives a new order of 100 indices after reset() (each epoch starts with one),
// else 0. One order for every epoch still trains; LibTorch's sampler reshuffles.
inline double sampler_reshuffles() {
  torch::data::samplers::RandomSampler sampler(100);
  sampler.reset();
  const auto first = sampler.next(100);
  sampler.reset();
  const auto second = sampler.next(100);
  return first && second && first->size() == 100 && second->size() == 100 && *first != *second ? 1 : 0;
}

// Reports init_bound_error, log_softmax_error, cross_entropy_error, adam_step_error and sampler_reshuffles
// for `part`: modules 03-05 and 07 against their definitions, whatever the part trained. Call it after
// training: it draws random numbers.
inline void report_definition_probes(int part) {
  const double init_error = linear_init_error(), log_softmax = log_softmax_error(), adam = adam_step_error();
  const double cross_entropy = cross_entropy_error();
  const double reshuffles = sampler_reshuffles();
  std::printf("  a fresh Linear(64, 256)'s largest |weight|, |bias|  %.1f%% from 1/sqrt(64)\n"
              "  log_softmax of logits spanning hundreds           within %.2e (relative)\n"
              "  cross_entropy of four rows of logits              within %.2e (relative)\n"
              "  two Adam steps                                    within %.2e (of lr)\n"
              "  your RandomSampler, reset for a second epoch      %s\n",
              100 * init_error, log_softmax, cross_entropy, adam, reshuffles == 1 ? "a new order" : "THE SAME ORDER");
  report_result(part, "init_bound_error", init_error);
  report_result(part, "log_softmax_error", log_softmax);
  report_result(part, "cross_entropy_error", cross_entropy);
  report_result(part, "adam_step_error", adam);
  report_result(part, "sampler_reshuffles", reshuffles);
}

// Reports linear_forward_error (the largest over `layers`, each on 16 random inputs in [-1, 1)), then
// report_definition_probes, for `part`. Call it after training: it draws random numbers.
inline void report_training_probes(int part, const std::vector<torch::nn::Linear>& layers) {
  double forward_error = 0;
  for (torch::nn::Linear layer : layers) {
    const torch::Tensor inputs = torch::rand({16, layer->weight.size(1)}) * 2 - 1;
    forward_error = std::max(forward_error, linear_forward_error(layer, inputs));
  }
  std::printf("Probes of your modules against the definitions, computed here in double:\n"
              "  Linear forward (x W^T + b) of your trained layers  within %.2e (relative)\n",
              forward_error);
  report_result(part, "linear_forward_error", forward_error);
  report_definition_probes(part);
}

}  // namespace milestone
