#pragma once
// tinytorch::training::Trainer (also torch::training::Trainer): the training loop TinyTorch teaches,
// packaged. Not part of LibTorch, whose users write this loop by hand; once you have written it
// here (module 08), you know every line of it.
//
//   auto model = torch::nn::Sequential(torch::nn::Linear(64, 32), torch::nn::ReLU(), torch::nn::Linear(32, 10));
//   torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
//   torch::optim::CosineAnnealingLR scheduler(optimizer, /*T_max=*/20);
//   torch::training::Trainer trainer(model, optimizer, torch::nn::CrossEntropyLoss(),
//                                    torch::training::TrainerOptions().scheduler(&scheduler).clip_grad_norm(1.0));
//   trainer.fit(*train_loader, *val_loader, /*epochs=*/20, /*patience=*/3);
//   trainer.history().write_svg("curves.svg");
//
// One epoch (train_epoch): for every batch, process_batch runs forward, loss and backward, and
// every accumulation_steps batches optimizer_update averages the summed gradients, clips them,
// steps and zeroes them; after the epoch's updates the scheduler steps once (the next epoch's rate).
// evaluate runs forward and loss only, in eval mode without recording a graph.
//
// Losses are averaged over samples, not over batches, so a short last batch counts for what it
// holds. The model, optimizer and scheduler are the caller's: the Trainer keeps references and
// the optimizer and scheduler must outlive it.
#include <chrono>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tinytorch/data/example.h"
#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"
#include "tinytorch/training/history.h"
#include "tinytorch/training/progress_bar.h"

namespace tinytorch {
namespace optim {
class Optimizer;
class LRScheduler;
}  // namespace optim

namespace training {

using ForwardFunction = std::function<Tensor(const Tensor& input)>;
using LossFunction = std::function<Tensor(const Tensor& output, const Tensor& target)>;
// How many samples of a batch the model got right.
using AccuracyFunction = std::function<int64_t(const Tensor& output, const Tensor& target)>;

// A classifier's correct predictions: output (N, C) scores, target (N) int64 class indices.
int64_t count_correct_classes(const Tensor& output, const Tensor& target);

// One epoch of batches from wherever they come: a DataLoader over a dataset mapped with
// transforms::Stack<>() (pass *loader or the loader's unique_ptr), or a std::vector<data::Example<>>.
// Constructing it starts the epoch (the loader's begin()); next() gives the batches one by one and
// std::nullopt at the end.
class Batches {
 public:
  template <typename Range, typename = std::enable_if_t<!std::is_same<std::decay_t<Range>, Batches>::value>>
  Batches(Range& range) : next_(iterate(range)) {}  // NOLINT: implicit, so train_epoch(*loader) reads naturally
  template <typename Loader>
  Batches(std::unique_ptr<Loader>& loader) : Batches(*loader) {}  // NOLINT

  std::optional<data::Example<>> next() { return next_(); }

 private:
  template <typename Range>
  static std::function<std::optional<data::Example<>>()> iterate(Range& range) {
    static_assert(std::is_convertible<decltype(*std::begin(range)), data::Example<>>::value,
                  "Trainer: each batch must be one data::Example<> (data, target); map the dataset with "
                  "torch::data::transforms::Stack<>() so that the loader stacks the examples of a batch");
    using Iterator = decltype(std::begin(range));
    struct Position {
      Iterator current, end;
      bool started;
    };
    auto position = std::make_shared<Position>(Position{std::begin(range), std::end(range), false});
    // The iterator moves on only when the next batch is asked for, so a loader never loads ahead.
    return [position]() -> std::optional<data::Example<>> {
      if (position->started) ++position->current;
      position->started = true;
      if (position->current == position->end) return std::nullopt;
      return data::Example<>(*position->current);
    };
  }

  std::function<std::optional<data::Example<>>()> next_;
};

// Mean loss and accuracy over the samples of an epoch (accuracy NaN when none was measured).
struct Metrics {
  double loss = kNotMeasured;
  double accuracy = kNotMeasured;
  int64_t samples = 0;
};

// What one batch contributed: its mean loss, its size and, when the task has an accuracy, the
// number of correct predictions.
struct BatchResult {
  double loss = 0;
  int64_t samples = 0;
  std::optional<int64_t> correct;
};

// Running sums over the batches of an epoch: the loss is weighted by batch size.
struct EpochTotals {
  double loss_sum = 0;
  int64_t samples = 0;
  int64_t correct = 0;
  bool accuracy_measured = false;

  void add(const BatchResult& batch) {
    loss_sum += batch.loss * static_cast<double>(batch.samples);
    samples += batch.samples;
    if (batch.correct) {
      correct += *batch.correct;
      accuracy_measured = true;
    }
  }
  Metrics metrics() const {
    Metrics result;
    result.samples = samples;
    if (samples == 0) return result;
    result.loss = loss_sum / static_cast<double>(samples);
    if (accuracy_measured) result.accuracy = static_cast<double>(correct) / static_cast<double>(samples);
    return result;
  }
};

struct TrainerOptions {
  // (An alias: TORCH_ARG's `const T&` must make the pointer const, not the scheduler.)
  using SchedulerPointer = optim::LRScheduler*;
  // Stepped once at the end of every training epoch, after its updates (optim/schedulers/lr_scheduler.h).
  // Not owned: the scheduler must outlive the Trainer.
  TORCH_ARG(SchedulerPointer, scheduler) = nullptr;
  // When set, gradients are clipped to this global 2-norm before every optimizer step.
  TORCH_ARG(std::optional<double>, clip_grad_norm) = std::nullopt;
  // Batches whose gradients are summed before one optimizer step (the effective batch is this
  // many times larger; activation memory stays that of one batch).
  TORCH_ARG(int64_t, accumulation_steps) = 1;
  // Counts correct predictions. Unset: count_correct_classes when the targets are int64 class
  // indices with one dimension fewer than the output, else no accuracy (NaN).
  TORCH_ARG(AccuracyFunction, accuracy) = nullptr;
  // Progress bar and one line per epoch on stderr (see progress_bar.h).
  TORCH_ARG(bool, progress) = true;
};

class Trainer {
 public:
  // model: a module holder (or shared_ptr) whose module has Tensor forward(Tensor).
  template <typename ModuleType>
  Trainer(nn::ModuleHolder<ModuleType> model, optim::Optimizer& optimizer, LossFunction loss_fn,
          TrainerOptions options = {})
      : Trainer(model.ptr(), optimizer, std::move(loss_fn), std::move(options)) {}
  template <typename ModuleType>
  Trainer(std::shared_ptr<ModuleType> model, optim::Optimizer& optimizer, LossFunction loss_fn,
          TrainerOptions options = {})
      : Trainer(std::shared_ptr<nn::Module>(model),
                ForwardFunction([model](const Tensor& input) { return model->forward(input); }), optimizer,
                std::move(loss_fn), std::move(options)) {}
  // Any module and any forward: the module gives parameters() and train()/eval(), forward the output.
  Trainer(std::shared_ptr<nn::Module> module, ForwardFunction forward, optim::Optimizer& optimizer,
          LossFunction loss_fn, TrainerOptions options = {});

  // ---- One epoch (written in module 08: modules/08_training/trainer.cpp) ----
  // Trains on every batch once; returns the epoch's mean loss and accuracy, and records the epoch
  // in history().
  Metrics train_epoch(Batches batches);
  // Loss and accuracy on every batch, in eval mode and without recording a graph. Leaves the
  // model in eval mode (train_epoch puts it back in training mode).
  Metrics evaluate(Batches batches);

  // The pieces of train_epoch (public so that they can be tested one by one).
  // Forward, loss and backward of one batch. The gradients of the summed loss (mean * batch size)
  // accumulate in the parameters' .grad(); optimizer_update divides them by the samples.
  BatchResult process_batch(const Tensor& input, const Tensor& target);
  // Averages the accumulated gradients over sample_count samples, clips them if asked, steps the
  // optimizer and zeroes the gradients.
  void optimizer_update(int64_t sample_count);

  // ---- Several epochs (given) ----
  // Trains for `epochs` epochs, evaluating on val after each. With patience, stops once the
  // validation loss has not improved for `patience` epochs in a row (early stopping).
  template <typename TrainLoader, typename ValLoader>
  const History& fit(TrainLoader& train, ValLoader& val, int64_t epochs, std::optional<int64_t> patience = std::nullopt) {
    return fit_loop([&train] { return Batches(train); }, [&val] { return Batches(val); }, epochs, patience);
  }
  template <typename TrainLoader>
  const History& fit(TrainLoader& train, int64_t epochs) {
    return fit_loop([&train] { return Batches(train); }, nullptr, epochs, std::nullopt);
  }

  // ---- Checkpoints (given) ----
  // One file with the model's parameters and buffers, the optimizer's state, the epoch and step
  // counters, the scheduler's position and the history: load_checkpoint into a Trainer built the
  // same way resumes training exactly where it stopped. The file is written to path + ".tmp" and
  // renamed, so a crash while saving never leaves a half-written checkpoint under path.
  void save_checkpoint(const std::string& path) const;
  void load_checkpoint(const std::string& path);

  // ---- State ----
  const History& history() const { return history_; }
  int64_t epoch() const { return epoch_; }  // epochs trained so far
  int64_t step() const { return step_; }    // optimizer steps taken so far
  bool stopped_early() const { return stopped_early_; }
  int64_t best_epoch() const { return best_epoch_; }  // the epoch with the lowest validation loss (0: none)
  const TrainerOptions& options() const { return options_; }
  const std::shared_ptr<nn::Module>& module() const { return module_; }
  optim::Optimizer& optimizer() { return optimizer_; }

  // Correct predictions in a batch (options().accuracy() or the default), nullopt without accuracy.
  std::optional<int64_t> count_correct(const Tensor& output, const Tensor& target) const;

 private:
  // Around the learner's loop: begin_epoch reads the learning rate and starts the clock and the
  // progress bar; after_batch redraws the bar; end_epoch records the epoch in history.
  void begin_epoch();
  void after_batch(const EpochTotals& totals);
  Metrics end_epoch(const Metrics& metrics);

  const History& fit_loop(const std::function<Batches()>& train, const std::function<Batches()>& val,
                          int64_t epochs, std::optional<int64_t> patience);
  double current_lr() const;
  bool in_fit_ = false;  // fit prints the epoch's line itself, after validation

  std::shared_ptr<nn::Module> module_;
  ForwardFunction forward_;
  optim::Optimizer& optimizer_;
  LossFunction loss_fn_;
  TrainerOptions options_;
  std::vector<Tensor> parameters_;

  History history_;
  int64_t epoch_ = 0;
  int64_t step_ = 0;
  bool stopped_early_ = false;
  int64_t best_epoch_ = 0;

  ProgressBar progress_;
  int64_t previous_epoch_samples_ = 0;  // the progress bar's expected size
  double epoch_lr_ = kNotMeasured;
  std::chrono::steady_clock::time_point epoch_started_;
};

}  // namespace training
}  // namespace tinytorch
