// Module 20 (Capstone), lesson section "2. Your entry": the models you enter. Everything here is
// yours to change - the architecture, the training, the optimisations - as long as make_optimized
// starts from what make_baseline builds and both stay deterministic under torch::manual_seed.
#include <memory>
#include <string>
#include <vector>

#include "tinytorch/autograd.h"
#include "tinytorch/data/tensor_ops.h"
#include "tinytorch/nn/functional/loss.h"
#include "tinytorch/nn/modules/activation.h"
#include "tinytorch/nn/modules/container/sequential.h"
#include "tinytorch/nn/modules/linear.h"
#include "tinytorch/nn/modules/quantized_linear.h"
#include "tinytorch/olympics.h"
#include "tinytorch/optim.h"

namespace tinytorch {
namespace olympics {

// Helpers of the reference entries (external linkage: the starter does not call them yet).
namespace detail {

// The baseline's recipe: a 64-128-10 MLP, Adam, 15 epochs of shuffled batches of 32.
nn::Sequential trained_mlp(const Tensor& images, const Tensor& labels) {
  nn::Sequential model(nn::Linear(images.size(1), 128), nn::ReLU(), nn::Linear(128, 10));
  // BEGIN SOLUTION name="tinytorch::olympics::trained_mlp" lesson="2. Your entry"
  optim::Adam optimizer(model->parameters(), optim::AdamOptions(1e-2));
  const int64_t n = images.size(0), batch = 32;
  for (int epoch = 0; epoch < 15; ++epoch) {
    const Tensor order = randperm(n);
    for (int64_t start = 0; start < n; start += batch) {
      const Tensor index = order.narrow(0, start, std::min(batch, n - start));
      optimizer.zero_grad();
      Tensor loss = nn::functional::cross_entropy(model->forward(images.index_select(0, index)),
                                                  labels.index_select(0, index));
      loss.backward();
      optimizer.step();
    }
  }
  // END SOLUTION
  model->eval();
  model->zero_grad();  // set_to_none: the gradients are freed; an entry keeps only what predict needs
  return model;
}

int64_t parameters_of(nn::Module& model) {
  int64_t count = 0;
  for (const auto& p : model.parameters()) count += p.numel();
  return count;
}

}  // namespace detail
using detail::parameters_of;
using detail::trained_mlp;

// TODO: make_baseline -- your fp32 reference point (section 2): the trained MLP as an Entry whose
//   predict runs it, memory_bytes = 4 bytes a parameter, a description and no techniques.
Entry make_baseline(const Tensor& train_images, const Tensor& train_labels) {
  Entry entry;
  // BEGIN SOLUTION name="tinytorch::olympics::make_baseline" lesson="2. Your entry"
  nn::Sequential model = trained_mlp(train_images, train_labels);
  entry.description = "64-128-10 MLP, fp32";
  entry.parameter_count = parameters_of(*model);
  entry.memory_bytes = 4 * entry.parameter_count;
  entry.predict = [model](const Tensor& x) mutable { return model->forward(x); };
  // END SOLUTION
  return entry;
}

// TODO: make_optimized -- your entry (section 2). The reference quantizes the baseline's recipe:
//   each Linear becomes a QuantizedLinear::from_float calibrated on the activations that reach it,
//   memory_bytes the sum of their memory_bytes(). Choose your own: prune, distil, shrink, quantize.
Entry make_optimized(const Tensor& train_images, const Tensor& train_labels) {
  Entry entry;
  // BEGIN SOLUTION name="tinytorch::olympics::make_optimized" lesson="2. Your entry"
  nn::Sequential model = trained_mlp(train_images, train_labels);
  NoGradGuard no_grad;
  nn::Sequential quantized;
  Tensor activations = train_images.narrow(0, 0, std::min<int64_t>(256, train_images.size(0)));
  for (auto& step : *model) {
    if (auto linear = std::dynamic_pointer_cast<nn::LinearImpl>(step.ptr())) {
      auto q = nn::QuantizedLinear::from_float(*linear, {activations});
      entry.memory_bytes += q->memory_bytes();
      entry.parameter_count += linear->weight.numel() + (linear->bias.defined() ? linear->bias.numel() : 0);
      quantized->push_back(q);
    } else {
      quantized->push_back(nn::ReLU());
    }
    activations = step.forward(activations);
  }
  entry.description = "64-128-10 MLP, int8 QuantizedLinear (per-channel weights, calibrated activations)";
  entry.techniques = {"quantization"};
  entry.predict = [quantized](const Tensor& x) mutable { return quantized->forward(x); };
  // END SOLUTION
  return entry;
}

}  // namespace olympics
}  // namespace tinytorch
