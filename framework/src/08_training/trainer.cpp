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

// TODO: process_batch(input, target) -- forward, loss and backward of one batch.
//   1. batch_size = input.size(0); refuse an empty batch: TT_CHECK(batch_size > 0, "Trainer: empty batch ...").
//   2. output = forward_(input); loss = loss_fn_(output, target).
//   3. Backward the SUMMED loss, (loss * batch_size).backward(): gradients then add up over every
//      sample of the batches until the next update, which divides by the number of samples.
//   4. Return {loss.item<double>(), batch_size, count_correct(output, target)}.
//   Example: Linear(1, 1) without bias, w = 1, input [[1], [3]], target [[0], [0]], MSE: loss
//   (1 + 9) / 2 = 5, the summed loss is 10 and w.grad() = 2*1*1 + 2*3*3 = 20.
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

// TODO: optimizer_update(sample_count) -- one optimizer step on the gradients accumulated so far.
//   1. TT_CHECK(sample_count > 0, ...).
//   2. Under a NoGradGuard, divide the gradient of every parameter in parameters_ that has one
//      (p.grad().defined()) by sample_count, in place: the summed gradient becomes the mean.
//   3. If options_.clip_grad_norm() has a value, nn::utils::clip_grad_norm_(parameters_, *value).
//   4. optimizer_.step(); optimizer_.zero_grad(); ++step_.
//   Example: w.grad() = 20 after the example above, sample_count 2, SGD lr 0.1: the mean gradient
//   is 10 and w becomes 1 - 0.1 * 10 = 0; with clip_grad_norm 0.5 it becomes 1 - 0.1 * 0.5 = 0.95.
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

// TODO: train_epoch(batches) -- one pass over the training data.
//   1. (The scheduler is stepped at the end, step 6: once per epoch, after the optimizer's steps.)
//   2. begin_epoch() (it records the rate this epoch trains at); module_->train(); optimizer_.zero_grad().
//   3. EpochTotals totals; window_batches = 0, window_samples = 0.
//      while (auto batch = batches.next()):
//        result = process_batch(batch->data, batch->target); totals.add(result);
//        count the batch and its samples in the window; when the window holds
//        options_.accumulation_steps() batches, optimizer_update(window_samples) and empty it;
//        after_batch(totals).
//   4. A window left over at the end (fewer batches) gets its own optimizer_update too.
//   5. TT_CHECK(totals.samples > 0, ...): an epoch without batches is a mistake (an empty loader).
//   6. If options_.scheduler() is set, step it once, now that the epoch's updates are done (the
//      LibTorch and PyTorch convention): the next epoch trains at the new rate. Then return
//      end_epoch(totals.metrics()).
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

// TODO: evaluate(batches) -- loss and accuracy without training.
//   1. module_->eval() (Dropout off); a NoGradGuard for the whole loop (no graph is recorded, so
//      nothing is kept for a backward pass that will not come).
//   2. For every batch: output = forward_(data); loss = loss_fn_(output, target);
//      totals.add({loss.item<double>(), data.size(0), count_correct(output, target)}).
//   3. TT_CHECK(totals.samples > 0, ...); return totals.metrics().
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
