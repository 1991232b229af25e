#pragma once
// Module 08 (Training): what turns a model, a loss and an optimizer into a training run.
//   torch::optim::StepLR, CosineAnnealingLR     learning-rate schedules
//   torch::nn::utils::clip_grad_norm_/_value_  gradient clipping
//   torch::save / torch::load                  checkpoints of modules, optimizers and tensors
//   torch::training::Trainer                   TinyTorch's training loop, with history, early
//                                              stopping, a progress bar and SVG curves
#include "tinytorch/nn/utils/clip_grad.h"
#include "tinytorch/optim/schedulers/cosine_annealing_lr.h"
#include "tinytorch/optim/schedulers/lr_scheduler.h"
#include "tinytorch/optim/schedulers/step_lr.h"
#include "tinytorch/serialize.h"
#include "tinytorch/svg.h"
#include "tinytorch/training/history.h"
#include "tinytorch/training/progress_bar.h"
#include "tinytorch/training/trainer.h"
