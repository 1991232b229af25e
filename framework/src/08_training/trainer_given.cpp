// Module 08 (Training), given: everything of the Trainer around the loop you write in trainer.cpp:
// construction, the accuracy count, the clock/progress/history bookkeeping of an epoch, fit with
// early stopping, and checkpoints.
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "tinytorch/dispatch.h"
#include "tinytorch/errors.h"
#include "tinytorch/optim/optimizer.h"
#include "tinytorch/optim/schedulers/lr_scheduler.h"
#include "tinytorch/serialize.h"
#include "tinytorch/training/trainer.h"

namespace tinytorch {
namespace training {

int64_t count_correct_classes(const Tensor& output, const Tensor& target) {
  TT_CHECK(output.dim() == target.dim() + 1,
           "count_correct_classes: expected scores with one more dimension than the class indices (N, C) and (N), "
           "but got output ", output.sizes(), " and target ", target.sizes());
  NoGradGuard no_grad;
  const Tensor predicted = output.argmax(-1);
  TT_CHECK(predicted.sizes() == target.sizes(), "count_correct_classes: the predictions have shape ",
           predicted.sizes(), " but the targets ", target.sizes());
  return predicted.eq(target).sum().item<int64_t>();
}

Trainer::Trainer(std::shared_ptr<nn::Module> module, ForwardFunction forward, optim::Optimizer& optimizer,
                 LossFunction loss_fn, TrainerOptions options)
    : module_(std::move(module)),
      forward_(std::move(forward)),
      optimizer_(optimizer),
      loss_fn_(std::move(loss_fn)),
      options_(std::move(options)),
      progress_(ProgressBar::for_stderr()) {
  TT_CHECK(module_ != nullptr, "Trainer: the model is empty; construct it before the Trainer");
  TT_CHECK(forward_ != nullptr, "Trainer: no forward function was given");
  TT_CHECK(loss_fn_ != nullptr, "Trainer: no loss function was given (e.g. torch::nn::CrossEntropyLoss())");
  TT_CHECK(options_.accumulation_steps() >= 1,
           "TrainerOptions: accumulation_steps must be at least 1 (1 = one update per batch), but got ",
           options_.accumulation_steps());
  TT_CHECK(!options_.clip_grad_norm() || *options_.clip_grad_norm() > 0,
           "TrainerOptions: clip_grad_norm must be positive, but got ", options_.clip_grad_norm().value_or(0.0));
  parameters_ = module_->parameters();
}

std::optional<int64_t> Trainer::count_correct(const Tensor& output, const Tensor& target) const {
  NoGradGuard no_grad;
  if (options_.accuracy()) return options_.accuracy()(output, target);
  const bool class_indices = target.defined() && target.scalar_type() == kLong && output.dim() == target.dim() + 1;
  if (!class_indices) return std::nullopt;
  return count_correct_classes(output, target);
}

double Trainer::current_lr() const {
  if (optimizer_.param_groups().empty()) return kNotMeasured;
  return optimizer_.param_groups().front().options().get_lr();
}

void Trainer::begin_epoch() {
  epoch_lr_ = current_lr();
  epoch_started_ = std::chrono::steady_clock::now();
  if (options_.progress()) progress_.start("epoch " + std::to_string(epoch_ + 1), previous_epoch_samples_);
}

void Trainer::after_batch(const EpochTotals& totals) {
  if (options_.progress() && totals.samples > 0) {
    progress_.update(totals.samples, totals.loss_sum / static_cast<double>(totals.samples));
  }
}

Metrics Trainer::end_epoch(const Metrics& metrics) {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_started_).count();
  ++epoch_;
  EpochRecord record;
  record.epoch = epoch_;
  record.train_loss = metrics.loss;
  record.train_accuracy = metrics.accuracy;
  record.lr = epoch_lr_;
  record.samples = metrics.samples;
  record.seconds = seconds;
  record.samples_per_second = seconds > 0 ? static_cast<double>(metrics.samples) / seconds : 0.0;
  history_.epochs.push_back(record);
  previous_epoch_samples_ = metrics.samples;
  if (options_.progress() && !in_fit_) {
    std::ostringstream line;
    line << record;
    progress_.finish(line.str());
  }
  return metrics;
}

const History& Trainer::fit_loop(const std::function<Batches()>& train, const std::function<Batches()>& val,
                                 int64_t epochs, std::optional<int64_t> patience) {
  TT_CHECK(epochs >= 1, "Trainer::fit: epochs must be at least 1, but got ", epochs);
  TT_CHECK(!patience || *patience >= 1, "Trainer::fit: patience must be at least 1 epoch, but got ",
           patience.value_or(0));
  // in_fit_ is reset however the loop ends, exceptions included.
  struct FitScope {
    bool& flag;
    explicit FitScope(bool& f) : flag(f) { flag = true; }
    ~FitScope() { flag = false; }
  } scope(in_fit_);

  stopped_early_ = false;
  best_epoch_ = 0;
  double best_val_loss = std::numeric_limits<double>::infinity();
  int64_t epochs_without_improvement = 0;
  for (int64_t e = 0; e < epochs; ++e) {
    train_epoch(train());
    EpochRecord& record = history_.epochs.back();
    if (val) {
      const Metrics validation = evaluate(val());
      record.val_loss = validation.loss;
      record.val_accuracy = validation.accuracy;
      if (validation.loss < best_val_loss) {
        best_val_loss = validation.loss;
        best_epoch_ = record.epoch;
        epochs_without_improvement = 0;
      } else {
        ++epochs_without_improvement;
      }
    }
    if (options_.progress()) {
      std::ostringstream line;
      line << record;
      progress_.finish(line.str());
    }
    if (patience && epochs_without_improvement >= *patience) {
      stopped_early_ = true;
      if (options_.progress()) {
        std::ostringstream line;
        line << "early stop: validation loss has not improved for " << *patience << " epoch"
             << (*patience == 1 ? "" : "s") << "; best was epoch " << best_epoch_;
        progress_.finish(line.str());
      }
      break;
    }
  }
  return history_;
}

// ---- Checkpoints ----

namespace {
template <typename T, typename Field>
std::vector<T> column(const History& history, Field field) {
  std::vector<T> values;
  for (const EpochRecord& record : history.epochs) values.push_back(static_cast<T>(record.*field));
  return values;
}

const std::pair<const char*, double EpochRecord::*> kDoubleColumns[] = {
    {"train_loss", &EpochRecord::train_loss}, {"train_accuracy", &EpochRecord::train_accuracy},
    {"val_loss", &EpochRecord::val_loss},     {"val_accuracy", &EpochRecord::val_accuracy},
    {"lr", &EpochRecord::lr},                 {"seconds", &EpochRecord::seconds},
    {"samples_per_second", &EpochRecord::samples_per_second}};
const std::pair<const char*, int64_t EpochRecord::*> kIntColumns[] = {{"epoch", &EpochRecord::epoch},
                                                                       {"samples", &EpochRecord::samples}};
}  // namespace

void Trainer::save_checkpoint(const std::string& path) const {
  serialize::OutputArchive archive;
  serialize::OutputArchive model_archive;
  serialize::write_module(model_archive, *module_);
  archive.write("model", model_archive);
  serialize::OutputArchive optimizer_archive;
  optimizer_.save(optimizer_archive);
  archive.write("optimizer", optimizer_archive);
  archive.write("epoch", IValue(epoch_));
  archive.write("step", IValue(step_));
  if (options_.scheduler() != nullptr) {
    archive.write("scheduler_step_count", IValue(static_cast<int64_t>(options_.scheduler()->step_count())));
  }
  serialize::OutputArchive history_archive;
  for (const auto& [name, field] : kDoubleColumns) history_archive.write(name, IValue(column<double>(history_, field)));
  for (const auto& [name, field] : kIntColumns) history_archive.write(name, IValue(column<int64_t>(history_, field)));
  archive.write("history", history_archive);

  const std::string temporary = path + ".tmp";
  archive.save_to(temporary);
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    TT_CHECK(false, "Trainer::save_checkpoint: could not move ", temporary, " to ", path,
             "; check that the directory is writable");
  }
}

void Trainer::load_checkpoint(const std::string& path) {
  serialize::InputArchive archive;
  archive.load_from(path);
  IValue epoch, step;
  archive.read("epoch", epoch);
  archive.read("step", step);
  serialize::InputArchive history_archive;
  archive.read("history", history_archive);
  History history;
  for (const auto& [name, field] : kIntColumns) {
    IValue values;
    history_archive.read(name, values);
    const std::vector<int64_t> column_values = values.toIntVector();
    if (history.epochs.empty()) history.epochs.resize(column_values.size());
    TT_CHECK(column_values.size() == history.epochs.size(), "Trainer::load_checkpoint: ", path,
             " is damaged: its history columns have different lengths");
    for (size_t i = 0; i < column_values.size(); ++i) history.epochs[i].*field = column_values[i];
  }
  for (const auto& [name, field] : kDoubleColumns) {
    IValue values;
    history_archive.read(name, values);
    const std::vector<double> column_values = values.toDoubleVector();
    TT_CHECK(column_values.size() == history.epochs.size(), "Trainer::load_checkpoint: ", path,
             " is damaged: its history columns have different lengths");
    for (size_t i = 0; i < column_values.size(); ++i) history.epochs[i].*field = column_values[i];
  }

  // The model checks every name and shape before it copies anything.
  serialize::InputArchive model_archive;
  archive.read("model", model_archive);
  serialize::read_module(model_archive, *module_);
  serialize::InputArchive optimizer_archive;
  archive.read("optimizer", optimizer_archive);
  optimizer_.load(optimizer_archive);
  if (options_.scheduler() != nullptr) {
    IValue count;
    TT_CHECK(archive.try_read("scheduler_step_count", count), "Trainer::load_checkpoint: ", path,
             " was saved without a learning-rate scheduler, but this Trainer has one");
    options_.scheduler()->set_step_count(static_cast<unsigned>(count.toInt()));
  }
  epoch_ = epoch.toInt();
  step_ = step.toInt();
  history_ = std::move(history);
  previous_epoch_samples_ = history_.epochs.empty() ? 0 : history_.epochs.back().samples;
}

}  // namespace training
}  // namespace tinytorch
