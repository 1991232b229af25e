// Milestone 04 (1998), part 1: a convolutional network reads handwritten digits, on YOUR code for
// modules 01-07 and 09: Tensor, ReLU, nn::Linear, cross-entropy, the DataLoader over TinyDigits,
// autograd, Adam, and your Conv2d and MaxPool2d.
//
//     8x8 image -> Conv2d(1, 8, 3) -> ReLU -> MaxPool2d(2) -> Flatten -> Linear(72, 10) -> 10 logits
//     (B, 1, 8, 8) -> (B, 8, 6, 6) -> (B, 8, 3, 3) -> (B, 72) -> (B, 10)
// 810 parameters (8 * 9 + 8 in the convolution, 72 * 10 + 10 in the linear layer), against the 2,410
// of milestone 03's MLP: each 3x3 filter is shared by all 36 positions of the image.
//
// tito judges the test accuracy (milestone.json: gate >= 0.90), how far
// every convolution's weights moved from their initial values, ||W_end - W_start|| / ||W_start||
// (gate >= 0.25). The second guards against a network that passes on its last layer alone: random
// filters followed by a trained linear layer still read most digits, so a backward pass that never
// reaches the convolution (a flatten that cuts the graph, a conv backward that returns no
// grad_weight) would otherwise go unnoticed. Probes of YOUR conv2d and max_pool2d (layer_probes.h) and
// of the Linear layer, log_softmax and Adam (training_probes.h) against their definitions are gates too.
#include <tinytorch/torch.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "../common/classifier.h"
#include "../common/milestone_support.h"
#include "../common/training_probes.h"
#include "conv_learning.h"
#include "layer_probes.h"

namespace {

using milestone::seconds_since;

namespace F = torch::nn::functional;
namespace datasets = torch::data::datasets;

constexpr int kPart = 1;
constexpr int64_t kBatchSize = 32;
constexpr int kEpochs = 20;
constexpr double kLearningRate = 0.01;
constexpr int64_t kFilters = 8;
constexpr int64_t kClasses = 10;
constexpr double kRequiredConvChange = 0.25;  // the gate in milestone.json, for the report's wording

std::vector<float> values_of(const torch::Tensor& t) {
  const torch::Tensor flat = t.detach().to(torch::kFloat).contiguous();
  const float* p = flat.data_ptr<float>();
  return std::vector<float>(p, p + flat.numel());
}

double accuracy_of(torch::nn::Sequential& model, const torch::Tensor& images, const torch::Tensor& labels) {
  torch::NoGradGuard no_grad;
  return model->forward(images).argmax(1).eq(labels).to(torch::kFloat).mean().item<double>();
}

}  // namespace

int main() {
  std::cout << "Milestone 04, part 1 - a convolutional network reads handwritten digits (LeCun et al., 1998)\n\n";
  torch::manual_seed(1998);
  const auto started = std::chrono::steady_clock::now();

  const std::string root = datasets::default_root();
  datasets::TinyDigits train_set(root, datasets::TinyDigits::Mode::kTrain);
  datasets::TinyDigits test_set(root, datasets::TinyDigits::Mode::kTest);
  // TinyDigits stores flat rows of 64 pixels; a convolution wants (batch, channels, height, width).
  const torch::Tensor train_images = train_set.images().reshape({-1, 1, 8, 8});
  const torch::Tensor train_labels = train_set.targets();
  const torch::Tensor test_images = test_set.images().reshape({-1, 1, 8, 8});
  const torch::Tensor test_labels = test_set.targets();
  std::printf("Data: TinyDigits, %lld training and %lld test digits, each 1 channel of 8x8 pixels\n",
              static_cast<long long>(train_images.size(0)), static_cast<long long>(test_images.size(0)));

  // The layers as handles, so that the pictures below can run them one by one; the Sequential shares them.
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(1, kFilters, 3));
  torch::nn::ReLU relu;
  torch::nn::MaxPool2d pool(torch::nn::MaxPool2dOptions(2));
  torch::nn::Flatten flatten;
  torch::nn::Linear classifier(kFilters * 3 * 3, kClasses);
  torch::nn::Sequential model(conv, relu, pool, flatten, classifier);
  int64_t parameters = 0;
  for (const auto& p : model->parameters()) parameters += p.numel();
  // Multiply-adds of one image: 8 filters x 6x6 positions x 9 taps, then 72 x 10.
  const int64_t conv_macs = kFilters * 6 * 6 * 9, linear_macs = kFilters * 9 * kClasses;
  std::cout << "Model: " << *model << "\n";
  std::printf("  %s parameters (the convolution %lld, the linear layer %lld); %s FLOPs per digit forward\n"
              "  (convolution %s: each weight is used at 36 positions; linear layer %s)\n",
              milestone::with_commas(parameters).c_str(), static_cast<long long>(kFilters * 9 + kFilters),
              static_cast<long long>(kFilters * 9 * kClasses + kClasses),
              milestone::with_commas(2 * (conv_macs + linear_macs)).c_str(),
              milestone::with_commas(2 * conv_macs).c_str(), milestone::with_commas(2 * linear_macs).c_str());

  // The shapes through YOUR layers, checked before training: a wrong output size fails here, named.
  {
    torch::NoGradGuard no_grad;
    torch::Tensor x = train_images.narrow(0, 0, 2);
    std::printf("Shapes of a batch of 2 through your layers:\n  input     %s\n",
                milestone::shape_text(x.sizes().vec()).c_str());
    struct Step {
      const char* name;
      std::function<torch::Tensor(const torch::Tensor&)> run;
      std::vector<int64_t> expected;
      const char* module;  // where a wrong shape comes from
    };
    const std::vector<Step> steps = {
        {"Conv2d", [&](const torch::Tensor& t) { return conv(t); }, {2, kFilters, 6, 6}, "09 (Convolutions)"},
        {"ReLU", [&](const torch::Tensor& t) { return relu(t); }, {2, kFilters, 6, 6}, "02 (Activations)"},
        {"MaxPool2d", [&](const torch::Tensor& t) { return pool(t); }, {2, kFilters, 3, 3}, "09 (Convolutions)"},
        {"Flatten", [&](const torch::Tensor& t) { return flatten(t); }, {2, kFilters * 9}, "01 (Tensor: reshape)"},
        {"Linear", [&](const torch::Tensor& t) { return classifier(t); }, {2, kClasses}, "03 (Layers)"}};
    for (const Step& step : steps) {
      x = step.run(x);
      const std::vector<int64_t> shape = x.sizes().vec();
      std::printf("  %-9s %s\n", step.name, milestone::shape_text(shape).c_str());
      if (shape != step.expected) {
        std::printf("Your %s returns %s, but it should return %s. Fix module %s and re-run its tests.\n", step.name,
                    milestone::shape_text(shape).c_str(), milestone::shape_text(step.expected).c_str(), step.module);
        return 1;
      }
    }
    std::printf("\n");
  }

  milestone::ConvLearningMonitor conv_learning(*model);  // remembers the filters as they start

  auto loader = torch::data::make_data_loader(train_set.map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions().batch_size(kBatchSize));
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(kLearningRate));
  const double untrained_accuracy = accuracy_of(model, test_images, test_labels);
  std::printf("Untrained: test accuracy %.1f%% (a guess is right 10%% of the time)\n", 100 * untrained_accuracy);
  std::printf("Training: your Adam lr %.3f, batch %lld, %d epochs, %lld batches per epoch\n", kLearningRate,
              static_cast<long long>(kBatchSize), kEpochs,
              static_cast<long long>((train_images.size(0) + kBatchSize - 1) / kBatchSize));

  const auto training_started = std::chrono::steady_clock::now();
  int64_t steps = 0;
  for (int epoch = 1; epoch <= kEpochs; ++epoch) {
    model->train();
    double loss_sum = 0;
    int64_t samples = 0;
    for (auto& batch : *loader) {
      const torch::Tensor images = batch.data.reshape({-1, 1, 8, 8});
      torch::Tensor loss = F::cross_entropy(model->forward(images), batch.target);
      optimizer.zero_grad();
      loss.backward();
      conv_learning.after_backward();  // what reached the filters: nothing, if the graph was cut before them
      optimizer.step();
      ++steps;
      loss_sum += loss.item<double>() * static_cast<double>(images.size(0));
      samples += images.size(0);
    }
    if (epoch == 1 || epoch % 5 == 0) {
      model->eval();
      std::printf("  epoch %2d/%d  loss %.4f  train %5.1f%%  test %5.1f%%\n", epoch, kEpochs,
                  loss_sum / static_cast<double>(samples), 100 * accuracy_of(model, train_images, train_labels),
                  100 * accuracy_of(model, test_images, test_labels));
    }
  }
  const double training_seconds = seconds_since(training_started);
  model->eval();
  const double train_accuracy = accuracy_of(model, train_images, train_labels);
  const double test_accuracy = accuracy_of(model, test_images, test_labels);
  std::printf("\nAfter %d epochs (%.2f s of training, %lld optimizer steps): train %.1f%%, test %.1f%% "
              "(untrained: %.1f%%)\n\n",
              kEpochs, training_seconds, static_cast<long long>(steps), 100 * train_accuracy, 100 * test_accuracy,
              100 * untrained_accuracy);

  conv_learning.print_report(kRequiredConvChange);
  std::cout << "\n";

  // The learned filters, and what they make of one test digit.
  const torch::Tensor filters = conv->weight.detach();
  std::vector<milestone::ImagePanelRow> rows;
  {
    torch::NoGradGuard no_grad;
    const torch::Tensor digit = test_images.narrow(0, 0, 1);
    const torch::Tensor activated = relu(conv(digit));
    const torch::Tensor pooled = pool(activated);
    milestone::ImagePanelRow learned{"The 8 learned 3x3 filters (red: positive weight, blue: negative)", {}, true};
    milestone::ImagePanelRow input{"A test digit (label " + std::to_string(test_labels[0].item<int64_t>()) + ")", {}, false};
    milestone::ImagePanelRow maps{"Feature maps: each filter slid over the digit, then ReLU (6x6)", {}, false};
    milestone::ImagePanelRow pools{"After MaxPool2d(2): the strongest response in each 2x2 block (3x3)", {}, false};
    input.panels.push_back({values_of(digit), 8, 8, "8x8 input"});
    for (int64_t f = 0; f < kFilters; ++f) {
      const std::string name = "filter " + std::to_string(f + 1);
      learned.panels.push_back({values_of(filters[f][0]), 3, 3, name});
      maps.panels.push_back({values_of(activated[0][f]), 6, 6, name});
      pools.panels.push_back({values_of(pooled[0][f]), 3, 3, name});
    }
    rows = {learned, input, maps, pools};
    std::cout << "Your learned filters (brighter: larger weight; each scaled to its own range):\n";
    std::vector<std::vector<float>> shown;
    std::vector<std::string> captions;
    for (const auto& panel : learned.panels) {
      std::vector<float> v = panel.values;
      const float low = *std::min_element(v.begin(), v.end()), high = *std::max_element(v.begin(), v.end());
      for (float& x : v) x = high > low ? (x - low) / (high - low) : 0.0f;
      shown.push_back(v);
      captions.push_back(panel.caption.substr(7));
    }
    std::cout << milestone::images_side_by_side(shown, 3, 3, captions) << "\n";
  }
  milestone::write_output_file("tinydigits_filters.svg",
                               milestone::svg_panel_rows("Milestone 04: what your convolution learned", rows));
  std::printf("Wall time: %.2f s\n", seconds_since(started));

  milestone::report_result(kPart, "train_accuracy", train_accuracy);
  milestone::report_result(kPart, "training_seconds", training_seconds);
  milestone::report_result(kPart, "min_conv_weight_change", conv_learning.smallest_change());
  milestone::report_result(kPart, "accuracy", test_accuracy);
  const double conv_error = milestone::conv2d_probe_error(), pool_error = milestone::max_pool2d_probe_error();
  std::printf("Probes of your layers on small inputs, forward and backward against the definition: conv2d within "
              "%.2e, max_pool2d within %.2e\n", conv_error, pool_error);
  milestone::report_result(kPart, "conv2d_probe_error", conv_error);
  milestone::report_result(kPart, "max_pool2d_probe_error", pool_error);
  milestone::report_training_probes(kPart, {classifier});
  return 0;
}
