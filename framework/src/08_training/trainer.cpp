// Module 08 (Training), lesson sections 4-6: the Trainer's loop. The given code (trainer_given.cpp)
// builds the Trainer (module_, forward_, optimizer_, loss_fn_, options_, parameters_) and provides
// the helpers you call:
//   forward_(input)              the model's forward pass
//   loss_fn_(output, target)     the loss, a 0-dim tensor (the mean over the batch)
//   count_correct(output, target)    correct predictions, or std::nullopt when the task has no accuracy
//   begin_epoch() / after_batch(totals) / end_epoch(metrics)
//                                clock, progress bar and history around an epoch
//   EpochTotals                  sums batch results weighted by their size; metrics() gives the means
#include <optional>

#include "tinytorch/dispatch.h"
#include "tinytorch/errors.h"
#include "tinytorch/nn/utils/clip_grad.h"
#include "tinytorch/optim/optimizer.h"
#include "tinytorch/optim/schedulers/lr_scheduler.h"
#include "tinytorch/training/trainer.h"

namespace tinytorch {
namespace training {

// TODO: process_batch(input, target) -> BatchResult{mean loss, samples, correct} -- forward, loss and
//   backward of one batch (lesson section 4). input's first dim is the batch (size B).
//   Contract: the returned loss is the batch's mean loss (loss_fn_'s value); the gradients of the
//   parameters grow by the gradient of the batch's SUMMED loss (B times the mean's), so that they add
//   up per sample until the next update divides by the sample count; the optimizer is not touched;
//   `correct` is count_correct(output, target) (std::nullopt for a regression loss).
//   Errors: an empty batch (B == 0) -> TT_CHECK failure "Trainer: empty batch (input of shape [0, 1]);
//   every batch needs at least one sample".
//   Example: Linear(1, 1) without bias, w = 1, input [[1], [3]], target [[0], [0]], MSE: returns
//   loss 5 ((1 + 9) / 2) and 2 samples, and w.grad() becomes 20 (2*1*1 + 2*3*3).
BatchResult Trainer::process_batch(const Tensor& input, const Tensor& target) {
  // BEGIN SOLUTION name="tinytorch::training::Trainer::process_batch" lesson="4. One batch: process_batch"
  const int64_t batch_size = input.size(0);
  TT_CHECK(batch_size > 0, "Trainer: empty batch (input of shape ", input.sizes(),
           "); every batch needs at least one sample");
  const Tensor output = forward_(input);
  const Tensor loss = loss_fn_(output, target);
  (loss * static_cast<double>(batch_size)).backward();
  return BatchResult{loss.item<double>(), batch_size, count_correct(output, target)};
  // END SOLUTION
}

// TODO: optimizer_update(sample_count) -- one optimizer step on the gradients accumulated since the
//   last one (lesson section 5): they are sums over sample_count samples.
//   Contract: the step uses the MEAN gradient (each defined gradient divided by sample_count, in
//   place and unrecorded by autograd), clipped by global norm to options_.clip_grad_norm() when that
//   is set; after it the gradients are zero and step_ has grown by 1.
//   Errors: sample_count <= 0 -> "Trainer::optimizer_update: sample_count must be positive, but got 0".
//   Example: w.grad() = 20 after the example above, sample_count 2, SGD lr 0.1: w becomes
//   1 - 0.1 * 10 = 0; with clip_grad_norm 0.5 it becomes 1 - 0.1 * 0.5 = 0.95.
void Trainer::optimizer_update(int64_t sample_count) {
  // BEGIN SOLUTION name="tinytorch::training::Trainer::optimizer_update" lesson="5. One update: optimizer_update"
  TT_CHECK(sample_count > 0, "Trainer::optimizer_update: sample_count must be positive, but got ", sample_count);
  {
    NoGradGuard no_grad;
    for (const Tensor& parameter : parameters_) {
      Tensor grad = parameter.grad();
      if (grad.defined()) grad.div_(static_cast<double>(sample_count));
    }
  }
  if (options_.clip_grad_norm()) nn::utils::clip_grad_norm_(parameters_, *options_.clip_grad_norm());
  optimizer_.step();
  optimizer_.zero_grad();
  ++step_;
  // END SOLUTION
}

// TODO: train_epoch(batches) -> the epoch's Metrics -- one pass over the training data (lesson
//   section 6). batches.next() gives std::optional<Example<>> until the data runs out.
//   Contract: the given begin_epoch() starts the epoch (it records the rate this epoch trains at); the
//   model is in training mode; every batch goes through process_batch; an update (optimizer_update)
//   follows every options_.accumulation_steps() batches, with the number of samples in that window, and
//   a shorter window left at the end gets its own update; after_batch runs after each batch, with the
//   totals so far; the scheduler (options_.scheduler(), when set) steps once per epoch, after the
//   epoch's last update (the PyTorch and LibTorch convention: the next epoch trains at the new rate);
//   the result is end_epoch's, from the sample-weighted EpochTotals.
//   Errors: an epoch without batches -> "Trainer::train_epoch: the loader yielded no batches; check
//   the dataset's size and that drop_last does not drop the only batch".
//   Example: accumulation_steps 4 and a single batch: the leftover window of 1 batch is still
//   stepped, so the epoch makes 1 update, not 0.
Metrics Trainer::train_epoch(Batches batches) {
  // BEGIN SOLUTION name="tinytorch::training::Trainer::train_epoch" lesson="6. One epoch: train_epoch"
  begin_epoch();
  module_->train();
  optimizer_.zero_grad();

  EpochTotals totals;
  int64_t window_batches = 0;
  int64_t window_samples = 0;
  while (std::optional<data::Example<>> batch = batches.next()) {
    const BatchResult result = process_batch(batch->data, batch->target);
    totals.add(result);
    window_batches += 1;
    window_samples += result.samples;
    if (window_batches == options_.accumulation_steps()) {
      optimizer_update(window_samples);
      window_batches = 0;
      window_samples = 0;
    }
    after_batch(totals);
  }
  if (window_batches > 0) optimizer_update(window_samples);
  TT_CHECK(totals.samples > 0, "Trainer::train_epoch: the loader yielded no batches; check the dataset's size ",
           "and that drop_last does not drop the only batch");
  if (options_.scheduler() != nullptr) options_.scheduler()->step();  // after the epoch's updates
  return end_epoch(totals.metrics());
  // END SOLUTION
}

// TODO: evaluate(batches) -> Metrics -- loss and accuracy without training (lesson section 7).
//   Contract: the model is in eval mode (Dropout off) and no graph is recorded; no backward, no
//   update, no history record (evaluation is not an epoch); the loss and accuracy are means over
//   samples, not over batches.
//   Errors: no batches -> "Trainer::evaluate: the loader yielded no batches; check the dataset's
//   size and that drop_last does not drop the only batch".
//   Example: two batches of 2 and 1 samples with mean losses 1.0 and 4.0: the mean loss over the
//   3 samples is (2 * 1.0 + 1 * 4.0) / 3 = 2.0, not the mean of the batch means, 2.5.
Metrics Trainer::evaluate(Batches batches) {
  // BEGIN SOLUTION name="tinytorch::training::Trainer::evaluate" lesson="7. Evaluation: evaluate"
  module_->eval();
  NoGradGuard no_grad;
  EpochTotals totals;
  while (std::optional<data::Example<>> batch = batches.next()) {
    const Tensor output = forward_(batch->data);
    const Tensor loss = loss_fn_(output, batch->target);
    totals.add(BatchResult{loss.item<double>(), batch->data.size(0), count_correct(output, batch->target)});
  }
  TT_CHECK(totals.samples > 0, "Trainer::evaluate: the loader yielded no batches; check the dataset's size ",
           "and that drop_last does not drop the only batch");
  return totals.metrics();
  // END SOLUTION
}

}  // namespace training
}  // namespace tinytorch
