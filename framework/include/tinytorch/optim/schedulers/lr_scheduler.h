#pragma once
// LRScheduler: the base of LibTorch's learning-rate schedulers (torch::optim::LRScheduler, 1.13).
//
// A scheduler holds a reference to an optimizer (which must outlive it) and, on every step(),
// asks its subclass for one learning rate per parameter group (get_lrs) and writes them into the
// optimizer's param_groups()[i].options(). step_count_ counts the calls to step() made so far.
//
//   torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
//   torch::optim::StepLR scheduler(optimizer, /*step_size=*/30, /*gamma=*/0.1);
//   for (int epoch = 0; epoch < 90; ++epoch) {
//     train_one_epoch();     // every optimizer.step() of the epoch
//     scheduler.step();      // once per epoch, after the optimizer's steps (LibTorch's and PyTorch's convention)
//   }
//
// LibTorch's C++ schedulers differ from PyTorch's Python ones by one call: Python's constructor
// already performs a step, LibTorch's does not, so the k-th call to step() computes the rate for
// step_count_ = k - 1 and the first call keeps the starting rate. Stepped after every epoch, as
// above, each change arrives one epoch later than in Python (this StepLR first decays epoch 32).
#include <vector>

namespace tinytorch {
namespace optim {

class Optimizer;

class LRScheduler {
 public:
  // The optimizer must outlive the scheduler: the scheduler changes its learning rates.
  LRScheduler(Optimizer& optimizer);  // NOLINT: implicit, as in LibTorch
  virtual ~LRScheduler() = default;

  // Sets every parameter group's lr to get_lrs(), then counts the step.
  void step();

  // TinyTorch extension (not in LibTorch): the number of step() calls so far, readable and settable
  // so that a checkpoint can resume a schedule where it stopped (Trainer::save_checkpoint).
  unsigned step_count() const noexcept { return step_count_; }
  void set_step_count(unsigned step_count) noexcept { step_count_ = step_count; }

 protected:
  // One learning rate per parameter group, for the step numbered step_count_ (0 on the first call).
  virtual std::vector<double> get_lrs() = 0;

  // The learning rates the optimizer's parameter groups have now.
  std::vector<double> get_current_lrs() const;

  unsigned step_count_ = 0;  // LibTorch 1.13 leaves it uninitialised; we start at 0

 private:
  void set_optimizer_lrs(const std::vector<double>& learning_rates);

  Optimizer& optimizer_;
};

}  // namespace optim
}  // namespace tinytorch
