// Milestone 03 (1986), part 2: a multi-layer perceptron reads handwritten digits, on YOUR code for
// modules 01-08: Tensor, ReLU, nn::Linear, cross-entropy, the DataLoader over TinyDigits, autograd,
// Adam, and module 08's Trainer (train_epoch, process_batch, optimizer_update, evaluate) with a
// cosine learning-rate schedule and gradient clipping, and the training history with its SVG curves.
//
//     8x8 image (64 pixels) -> Linear(64, 32) -> ReLU -> Linear(32, 10) -> 10 logits
// 2,410 parameters (64*32 + 32 + 32*10 + 10), 4,736 multiply-adds-as-FLOPs per forward pass
// (2 * (64*32 + 32*10)). Trained with Adam on 1,000 digits in batches of 32 for 20 epochs, tested on
// 200 digits it never saw. Fixed seed: the same code gives the same numbers on every run.
// tito judges the test accuracy (gate: accuracy >= 0.85) and, after training, probes of YOUR Linear
// forward and initialisation, log_softmax and Adam (training_probes.h), the learning rates, gradient
// clipping and the sampler's reshuffle against their definitions: the network reaches its accuracy
// without a bias, with a mis-sized Adam step, a schedule never stepped or one order for every epoch.
//
// Before training, the program checks YOUR cross-entropy against a log-softmax computed here in
// double precision: a loss that returns a wrong value can still train (backward does the work), so
// a wrong forward would otherwise go unnoticed.
#include <tinytorch/torch.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "../common/milestone_support.h"
#include "../common/training_probes.h"

namespace {

namespace F = torch::nn::functional;
namespace datasets = torch::data::datasets;

constexpr int64_t kBatchSize = 32;
constexpr int kEpochs = 20;
constexpr double kLearningRate = 0.01;  // Adam's starting rate; the cosine schedule lowers it
constexpr double kMinLearningRate = 0.001;
constexpr double kClipNorm = 5.0;         // gradient norm cap (module 08, clip_grad_norm_)
constexpr int64_t kClasses = 10;

// Mean cross-entropy of logits (n, 10) against labels (n), in double precision with the stable
// log-softmax: loss_i = log(sum_j exp(z_ij - max_i)) + max_i - z_i,label.
double reference_cross_entropy(const torch::Tensor& logits, const torch::Tensor& labels) {
  const torch::Tensor z = logits.to(torch::kDouble).contiguous();
  const torch::Tensor t = labels.contiguous();
  const double* values = z.data_ptr<double>();
  const int64_t* targets = t.data_ptr<int64_t>();
  const int64_t n = z.size(0), classes = z.size(1);
  double total = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double* row = values + i * classes;
    double largest = row[0];
    for (int64_t j = 1; j < classes; ++j) largest = std::max(largest, row[j]);
    double sum = 0;
    for (int64_t j = 0; j < classes; ++j) sum += std::exp(row[j] - largest);
    total += std::log(sum) + largest - row[targets[i]];
  }
  return total / static_cast<double>(n);
}

// max over the epochs of |the rate the Trainer recorded - the cosine schedule's| / kLearningRate. The
// Trainer steps the scheduler once per epoch, after its updates, and a step sets the rate for t =
// the steps before it (LibTorch's), so epoch e (from 1) runs at
// eta_min + (lr - eta_min) (1 + cos(pi t / T_max)) / 2 with t = max(e - 2, 0). Adam trains the
// network at nearly any rate: a schedule never stepped, stepped per update or without its eta_min
// reaches the same accuracy.
double schedule_error(const torch::training::History& history) {
  const double pi = std::acos(-1.0);
  double error = 0;
  for (const auto& record : history.epochs) {
    const double progress = static_cast<double>(std::max<int64_t>(record.epoch - 2, 0)) / (kEpochs - 1);
    const double expected = kMinLearningRate + (kLearningRate - kMinLearningRate) * (1 + std::cos(pi * progress)) / 2;
    if (!std::isfinite(record.lr)) return std::numeric_limits<double>::infinity();
    error = std::max(error, std::fabs(record.lr - expected) / kLearningRate);
  }
  return error;
}

// max error of clip_grad_norm_ on gradients [3, 4] and [12] (norm 13, LibTorch's example) clipped to
// 1, and on [0.3, 0.4] (norm 0.5) under a cap of 1, which must stay as it is; the returned norms
// count too. Gradients of norm 5 never reach a sum of squares or a rescale that shows in accuracy.
double clip_error() {
  torch::NoGradGuard no_grad;
  double error = 0;
  auto with_grad = [](std::vector<float> values) {
    torch::Tensor p = torch::zeros({static_cast<int64_t>(values.size())}).requires_grad_(true);
    p.mutable_grad() = torch::tensor(values);
    return p;
  };
  auto compare = [&](const torch::Tensor& p, const std::vector<double>& expected) {
    const torch::Tensor got = p.grad().to(torch::kDouble).contiguous();
    for (size_t i = 0; i < expected.size(); ++i) {
      const double value = got.data_ptr<double>()[i];
      error = std::isfinite(value) ? std::max(error, std::fabs(value - expected[i])) : std::numeric_limits<double>::infinity();
    }
  };
  torch::Tensor a = with_grad({3, 4}), b = with_grad({12});
  error = std::max(error, std::fabs(torch::nn::utils::clip_grad_norm_({a, b}, 1.0) - 13) / 13);
  compare(a, {3.0 / (13 + 1e-6), 4.0 / (13 + 1e-6)});
  compare(b, {12.0 / (13 + 1e-6)});
  torch::Tensor small = with_grad({0.3f, 0.4f});
  error = std::max(error, std::fabs(torch::nn::utils::clip_grad_norm_({small}, 1.0) - 0.5));
  compare(small, {0.3f, 0.4f});
  return error;
}

// Two of YOUR Trainer's updates against their definition, in double. A Linear(2, 1) without bias, plain
// SGD at lr 1, mean squared error. Batches of 2 and 3 samples go through process_batch, then
// optimizer_update(5): the step is minus the mean over the 5 samples of d(w.x - y)^2/dw = 2 (w.x - y) x,
// clipped to clip_grad_norm, which is set to twice that mean's norm (so the mean is not clipped, and
// the summed gradient, 5 times longer, would be). A second update, on one more sample, must start
// from zero gradients. Returns the largest difference of the weights from the formula.
double trainer_update_error() {
  using Sample = std::pair<std::array<double, 2>, double>;
  const std::vector<Sample> first = {{{1, 0}, 1}, {{0, 1}, 0}, {{1, 1}, 2}, {{2, -1}, -1}, {{-1, 2}, 0.5}};
  const Sample second = {{1, 2}, 0};
  std::array<double, 2> w = {0.5, -0.25};
  auto mean_gradient = [](const std::array<double, 2>& weights, const std::vector<Sample>& samples) {
    std::array<double, 2> g = {0, 0};
    for (const auto& [x, y] : samples) {
      const double residual = weights[0] * x[0] + weights[1] * x[1] - y;
      for (int i = 0; i < 2; ++i) g[i] += 2 * residual * x[i] / static_cast<double>(samples.size());
    }
    return g;
  };
  const std::array<double, 2> g1 = mean_gradient(w, first);
  const double clip = 2 * std::hypot(g1[0], g1[1]);

  torch::nn::Linear layer(torch::nn::LinearOptions(2, 1).bias(false));
  {
    torch::NoGradGuard no_grad;
    layer->weight.copy_(torch::tensor({{static_cast<float>(w[0]), static_cast<float>(w[1])}}));
  }
  torch::optim::SGD sgd(layer->parameters(), torch::optim::SGDOptions(1.0));
  torch::training::Trainer trainer(
      layer, sgd, [](const torch::Tensor& out, const torch::Tensor& target) { return torch::mse_loss(out, target); },
      torch::training::TrainerOptions().clip_grad_norm(clip).progress(false));
  auto batch = [](const std::vector<Sample>& samples) {
    std::vector<float> x, y;
    for (const auto& [features, target] : samples) {
      x.insert(x.end(), {static_cast<float>(features[0]), static_cast<float>(features[1])});
      y.push_back(static_cast<float>(target));
    }
    const auto n = static_cast<int64_t>(samples.size());
    return std::make_pair(torch::tensor(x).reshape({n, 2}), torch::tensor(y).reshape({n, 1}));
  };
  double error = 0;
  auto compare = [&] {
    const torch::Tensor got = layer->weight.detach().to(torch::kDouble).contiguous();
    for (int i = 0; i < 2; ++i) {
      const double value = got.data_ptr<double>()[i];
      error = std::isfinite(value) ? std::max(error, std::fabs(value - w[i])) : std::numeric_limits<double>::infinity();
    }
  };
  const auto [x1, y1] = batch({first[0], first[1]});
  const auto [x2, y2] = batch({first[2], first[3], first[4]});
  trainer.process_batch(x1, y1);
  trainer.process_batch(x2, y2);
  trainer.optimizer_update(5);
  for (int i = 0; i < 2; ++i) w[i] -= g1[i];
  compare();
  const std::array<double, 2> g2 = mean_gradient(w, {second});
  const auto [x3, y3] = batch({second});
  trainer.process_batch(x3, y3);
  trainer.optimizer_update(1);
  const double norm2 = std::hypot(g2[0], g2[1]), scale = norm2 > clip ? clip / (norm2 + 1e-6) : 1.0;
  for (int i = 0; i < 2; ++i) w[i] -= scale * g2[i];
  compare();
  return error;
}

double accuracy_of(torch::nn::Sequential& model, const torch::Tensor& images, const torch::Tensor& labels) {
  torch::NoGradGuard no_grad;
  return model->forward(images).argmax(1).eq(labels).to(torch::kFloat).mean().item<double>();
}

std::vector<float> pixels_of(const torch::Tensor& image) {
  const torch::Tensor flat = image.to(torch::kFloat).contiguous();
  const float* p = flat.data_ptr<float>();
  return std::vector<float>(p, p + flat.numel());
}

}  // namespace

int main() {
  std::cout << "Milestone 03, part 2 - an MLP reads handwritten digits (Rumelhart, Hinton and Williams, 1986)\n\n";
  torch::manual_seed(1986);
  const auto started = std::chrono::steady_clock::now();

  const std::string root = datasets::default_root();
  datasets::TinyDigits train_set(root, datasets::TinyDigits::Mode::kTrain);
  datasets::TinyDigits test_set(root, datasets::TinyDigits::Mode::kTest);
  const torch::Tensor& test_images = test_set.images();
  const torch::Tensor& test_labels = test_set.targets();
  std::printf("Data: TinyDigits, %zu training and %zu test digits of 8x8 pixels (%lld KB of float32 pixels)\n",
              train_set.size().value(), test_set.size().value(),
              static_cast<long long>((train_set.images().numel() + test_images.numel()) * 4 / 1024));
  const torch::Tensor train_images = train_set.images();
  const torch::Tensor train_labels = train_set.targets();

  // The layers as handles, so that the probes after training can run each one; the Sequential shares them.
  torch::nn::Linear hidden(64, 32), output(32, kClasses);
  torch::nn::Sequential model(hidden, torch::nn::ReLU(), output);
  int64_t parameters = 0;
  for (const auto& p : model->parameters()) parameters += p.numel();
  const int64_t flops_per_forward = 2 * (64 * 32 + 32 * 10);
  std::cout << "Model: " << *model << "\n";
  std::printf("  %s parameters = %s bytes of float32; %s FLOPs per digit forward, about %.1f MFLOPs per\n"
              "  training epoch (forward + backward ~ 3x forward, %zu digits)\n\n",
              milestone::with_commas(parameters).c_str(), milestone::with_commas(parameters * 4).c_str(),
              milestone::with_commas(flops_per_forward).c_str(),
              3.0 * flops_per_forward * train_set.size().value() / 1e6, train_set.size().value());

  // Your cross-entropy against the double-precision reference, on the untrained model's first batch.
  {
    torch::NoGradGuard no_grad;
    const torch::Tensor logits = model->forward(train_images.narrow(0, 0, kBatchSize));
    const torch::Tensor labels = train_labels.narrow(0, 0, kBatchSize);
    const double yours = F::cross_entropy(logits, labels).item<double>();
    const double reference = reference_cross_entropy(logits, labels);
    std::printf("Checking your cross_entropy on one batch: %.6f, reference log-softmax %.6f", yours, reference);
    if (!(std::fabs(yours - reference) <= 1e-4 + 1e-3 * std::fabs(reference))) {
      std::printf(" - MISMATCH\n");
      std::cout << "Your F::cross_entropy returns a wrong value, so the losses below would mean nothing. It should\n"
                   "be the mean over the batch of logsumexp(logits) - logits[label]. Fix module 04 (losses.cpp) and\n"
                   "re-run `tito module test 04`.\n";
      return 1;
    }
    std::printf(" - agree\n\n");
  }

  // Shuffled batches of 32 (a RandomSampler, seeded by manual_seed above); the loader holds a copy
  // of the dataset, which shares the image tensor rather than copying it.
  auto loader = torch::data::make_data_loader(train_set.map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions().batch_size(kBatchSize));
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(kLearningRate));
  // Stepped by the Trainer once per epoch, after the epoch's updates; LibTorch's first step keeps the
  // starting rate, so with T_max = epochs - 1 the last epoch runs just above the minimum.
  torch::optim::CosineAnnealingLR scheduler(optimizer, kEpochs - 1, kMinLearningRate);
  torch::training::Trainer trainer(model, optimizer, torch::nn::CrossEntropyLoss(),
                                   torch::training::TrainerOptions()
                                       .scheduler(&scheduler)
                                       .clip_grad_norm(kClipNorm)
                                       .progress(false));
  // The test digits as one batch for Trainer::evaluate.
  std::vector<torch::data::Example<>> test_batches{{test_images, test_labels}};

  const double untrained_accuracy = accuracy_of(model, test_images, test_labels);
  std::printf("Untrained: test accuracy %.1f%% (a guess is right 10%% of the time)\n", 100 * untrained_accuracy);
  std::printf("Training with your module 08 Trainer: train_epoch (process_batch, optimizer_update with\n"
              "clip_grad_norm_ %.1f) and evaluate; your Adam lr %.3f, your CosineAnnealingLR down to %.3f;\n"
              "batch %lld, %d epochs, %zu batches per epoch\n",
              kClipNorm, kLearningRate, kMinLearningRate, static_cast<long long>(kBatchSize), kEpochs,
              (train_set.size().value() + static_cast<size_t>(kBatchSize) - 1) / static_cast<size_t>(kBatchSize));

  const auto training_started = std::chrono::steady_clock::now();
  const torch::training::History& history = trainer.fit(loader, test_batches, kEpochs);
  const double training_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - training_started).count();
  for (const auto& record : history.epochs) {
    if (record.epoch == 1 || record.epoch % 5 == 0) {
      std::printf("  epoch %2lld/%d  lr %.4f  loss %.4f  train %5.1f%%  test %5.1f%%  (%.0f digits/s)\n",
                  static_cast<long long>(record.epoch), kEpochs, record.lr, record.train_loss,
                  100 * record.train_accuracy, 100 * record.val_accuracy,
                  record.samples_per_second);
    }
  }
  const double train_accuracy = accuracy_of(model, train_images, train_labels);
  const double test_accuracy = accuracy_of(model, test_images, test_labels);
  std::printf("\nAfter %d epochs (%.2f s of training, %lld optimizer steps): train %.1f%%, test %.1f%% "
              "(untrained: %.1f%%)\n\n",
              kEpochs, training_seconds, static_cast<long long>(trainer.step()), 100 * train_accuracy,
              100 * test_accuracy, 100 * untrained_accuracy);
  // Which digits it confuses: rows are the true digit, columns the model's answer.
  torch::Tensor predictions, confidences;
  {
    torch::NoGradGuard no_grad;
    const torch::Tensor probabilities = torch::softmax(model->forward(test_images), 1);
    predictions = probabilities.argmax(1);
    confidences = std::get<0>(probabilities.max(1));
  }
  std::vector<std::vector<int64_t>> confusion(kClasses, std::vector<int64_t>(kClasses, 0));
  std::vector<int64_t> wrong;
  for (int64_t i = 0; i < test_labels.size(0); ++i) {
    const int64_t truth = test_labels[i].item<int64_t>(), guess = predictions[i].item<int64_t>();
    ++confusion[static_cast<size_t>(truth)][static_cast<size_t>(guess)];
    if (truth != guess) wrong.push_back(i);
  }
  std::vector<std::string> digit_names;
  for (int64_t d = 0; d < kClasses; ++d) digit_names.push_back("digit " + std::to_string(d));
  std::cout << "Confusion matrix on the " << test_labels.size(0) << " test digits:\n"
            << milestone::confusion_matrix_text(confusion, digit_names) << "\n";

  if (!wrong.empty()) {
    const size_t shown = std::min<size_t>(wrong.size(), 4);
    std::vector<std::vector<float>> images;
    std::vector<std::string> captions;
    for (size_t k = 0; k < shown; ++k) {
      const int64_t i = wrong[k];
      images.push_back(pixels_of(test_images[i]));
      char caption[64];
      std::snprintf(caption, sizeof caption, "%lld -> %lld (%.0f%%)",
                    static_cast<long long>(test_labels[i].item<int64_t>()),
                    static_cast<long long>(predictions[i].item<int64_t>()), 100 * confidences[i].item<double>());
      captions.push_back(caption);
    }
    std::printf("%zu of %lld test digits are read wrong. The first %zu, captioned true digit -> the model's answer\n"
                "(its confidence); would you have read them right?\n",
                wrong.size(), static_cast<long long>(test_labels.size(0)), shown);
    std::cout << milestone::images_side_by_side(images, 8, 8, captions) << "\n";
  }

  try {
    history.write_svg(milestone::output_dir() + "/tinydigits_curves.svg", "Milestone 03: a 64-32-10 MLP on TinyDigits");
    std::cout << "saved " << milestone::output_dir() << "/tinydigits_curves.svg (loss and accuracy per epoch)\n";
  } catch (const c10::Error& error) {
    std::cout << "could not save the training curves: " << error.what() << "\n";
  }
  std::printf("Wall time: %.2f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());

  milestone::report_result(2, "train_accuracy", train_accuracy);
  milestone::report_result(2, "accuracy", test_accuracy);
  milestone::report_training_probes(2, {hidden, output});
  const double schedule = schedule_error(history), clipping = clip_error(), update = trainer_update_error();
  std::printf("  the rates your Trainer recorded against the cosine schedule   within %.2e (of lr)\n"
              "  clip_grad_norm_ on gradients of norm 13 and 0.5, cap 1         within %.2e\n"
              "  two updates of your Trainer (2 + 3 samples, then 1)           within %.2e\n",
              schedule, clipping, update);
  milestone::report_result(2, "lr_schedule_error", schedule);
  milestone::report_result(2, "clip_grad_norm_error", clipping);
  milestone::report_result(2, "trainer_update_error", update);
  return 0;
}
