// Milestone 04 (1998), part 3 (optional): colour photos. CIFAR-10 (Krizhevsky, 2009) has 50,000
// training and 10,000 test images of 32x32 RGB pixels in ten classes (airplane ... truck), read from
// its binary batch files with torch::data::datasets::CIFAR10, on YOUR code for modules 01-07 and 09.
//
//     (B, 3, 32, 32) -> [Conv2d 3x3 padding 1 -> BatchNorm2d -> ReLU -> MaxPool2d(2)] x 3 (32, 64, 128 filters)
//                    -> (B, 128, 4, 4) -> Flatten (2048) -> Linear(2048, 128) -> ReLU -> Linear(128, 10)
// 357,258 parameters, 21.2 MFLOPs per image forward (about 64 MFLOPs per training image, 3.2 TFLOPs per
// epoch). Each training batch is augmented as the original course did: a random half of the images
// mirrored left-right, and every image shifted by up to 4 pixels (zero padding, then a random 32x32 crop).
// Adam, batches of 64, 12 epochs (`-- --epochs N` for more or fewer).
//
// tito judges the original curriculum's gate, 75% test accuracy (7.5 times a guess), and that every
// convolution's weights moved at least 25% (min_conv_weight_change), as in parts 1 and 2. This recipe
// (batch normalisation, flips and shifts) typically passes 75% after 8-12 epochs and ends near 80%;
// CIFAR-10 cannot be fetched here, so that is the recipe's known behaviour, not a figure measured on
// this course's code. Measured here on CIFAR-shaped data (50,000 + 10,000 random images in the binary
// format) with `tito milestone run 04 --part 3 --reference --data-dir DIR -- --epochs 1` (the reference
// library's im2col + GEMM, what your module 17 gives your builds; a shared 2-core machine, load 2-3):
// 99 training images/s, 506 s per epoch, so about 85 minutes to 75% (10 epochs) and 100 minutes for
// the 12 epochs. On module 09's seven loops alone it is many times slower (hours per epoch): run this
// part after module 17.
//
// The dataset is not shipped: download the "CIFAR-10 binary version" and unpack it, then
//     tito milestone run 04 --part 3 --data-dir ~/data/cifar-10-batches-bin
// (tito hands the folder over as $TITO_DATA_DIR; run by hand, the program takes --data-dir DIR or
// $TINYTORCH_CIFAR10). Without a folder the part is skipped; a folder whose files are missing or
// damaged fails the part with the loader's message, which names the file.
#include <tinytorch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "../common/classifier.h"
#include "../common/milestone_support.h"
#include "conv_learning.h"

namespace {

using milestone::accuracy_of;
using milestone::labels_of;
using milestone::predict_all;
using milestone::seconds_since;

namespace F = torch::nn::functional;
namespace datasets = torch::data::datasets;

constexpr int kPart = 3;
constexpr int64_t kBatchSize = 64;
constexpr int kDefaultEpochs = 12;
constexpr int64_t kShift = 4;  // the augmentation's largest shift, in pixels
constexpr double kLearningRate = 0.001;
constexpr int64_t kClasses = 10;
constexpr int64_t kEvalBatch = 500;
constexpr double kRequiredConvChange = 0.25;  // the gate in milestone.json, for the report's wording

// --data-dir DIR, else $TITO_DATA_DIR (tito's --data-dir), else $TINYTORCH_CIFAR10; "" when none.
std::string data_dir(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--data-dir") == 0) return argv[i + 1];
  for (const char* variable : {"TITO_DATA_DIR", "TINYTORCH_CIFAR10"})
    if (const char* value = std::getenv(variable); value != nullptr && *value != '\0') return value;
  return "";
}

// --epochs N (default kDefaultEpochs).
int epochs_from(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--epochs") == 0) {
      const int epochs = std::atoi(argv[i + 1]);
      if (epochs < 1) {
        std::cerr << "--epochs " << argv[i + 1] << ": give a whole number of epochs, 1 or more\n";
        std::exit(2);
      }
      return epochs;
    }
  return kDefaultEpochs;
}

// The original course's augmentation: each image mirrored left-right with probability 1/2, then shifted
// by up to kShift pixels each way (zero padding, then a 32x32 crop at a random offset).
torch::Tensor augmented(const torch::Tensor& images) {
  const int64_t batch = images.size(0), side = images.size(3);
  const torch::Tensor mirror = torch::rand({batch, 1, 1, 1}).lt(0.5);
  const torch::Tensor flipped = torch::where(mirror, images.flip({3}), images);
  const torch::Tensor padded = torch::constant_pad_nd(flipped, {kShift, kShift, kShift, kShift});
  const torch::Tensor offsets = torch::randint(2 * kShift + 1, {batch, 2}, torch::kLong);
  std::vector<torch::Tensor> crops;
  crops.reserve(static_cast<size_t>(batch));
  for (int64_t i = 0; i < batch; ++i)
    crops.push_back(padded[i].narrow(1, offsets[i][0].item<int64_t>(), side).narrow(2, offsets[i][1].item<int64_t>(), side));
  return torch::stack(crops);
}

}  // namespace

int main(int argc, char** argv) {
  std::cout << "Milestone 04, part 3 - a CNN on CIFAR-10 colour photos (optional)\n\n";
  const std::string root = data_dir(argc, argv);
  if (root.empty()) {
    const std::string reason = std::string("CIFAR-10 is not shipped with TinyTorch: ") + datasets::kCifar10DownloadHint +
                               ", then run `tito milestone run 04 --part 3 --data-dir DIR` with DIR the folder "
                               "cifar-10-batches-bin";
    std::cout << reason << ".\nThis part is optional: the milestone does not need it.\n";
    milestone::report_skipped(kPart, reason);
    return 0;
  }
  const int epochs = epochs_from(argc, argv);
  torch::manual_seed(1998);
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::string> class_names(datasets::CIFAR10::kClassNames.begin(), datasets::CIFAR10::kClassNames.end());

  // A folder that was named but holds no usable dataset is the user's mistake to fix, not a skip.
  std::optional<datasets::CIFAR10> train_set, test_set;
  try {
    train_set.emplace(root, datasets::CIFAR10::Mode::kTrain);
    test_set.emplace(root, datasets::CIFAR10::Mode::kTest);
  } catch (const c10::Error& error) {
    std::cout << "Cannot read CIFAR-10 from " << root << ":\n  " << error.what() << "\n";
    return 1;
  }
  const torch::Tensor& test_images = test_set->images();
  const std::vector<int64_t> test_labels = labels_of(test_set->targets());
  const int64_t train_size = static_cast<int64_t>(train_set->size().value());
  std::printf("Data: %s\n  %lld training and %lld test images of 3x32x32, %.0f MB as float32, read in %.2f s\n",
              root.c_str(), static_cast<long long>(train_size), static_cast<long long>(test_set->size().value()),
              static_cast<double>((train_set->images().numel() + test_images.numel()) * 4) / 1e6,
              seconds_since(started));

  namespace nn = torch::nn;
  nn::Sequential model(nn::Conv2d(nn::Conv2dOptions(3, 32, 3).padding(1)), nn::BatchNorm2d(32), nn::ReLU(),
                       nn::MaxPool2d(nn::MaxPool2dOptions(2)),
                       nn::Conv2d(nn::Conv2dOptions(32, 64, 3).padding(1)), nn::BatchNorm2d(64), nn::ReLU(),
                       nn::MaxPool2d(nn::MaxPool2dOptions(2)),
                       nn::Conv2d(nn::Conv2dOptions(64, 128, 3).padding(1)), nn::BatchNorm2d(128), nn::ReLU(),
                       nn::MaxPool2d(nn::MaxPool2dOptions(2)),
                       nn::Flatten(), nn::Linear(2048, 128), nn::ReLU(), nn::Linear(128, kClasses));
  int64_t parameters = 0;
  for (const auto& p : model->parameters()) parameters += p.numel();
  const int64_t macs = 32 * 32 * 32 * 27 + 64 * 16 * 16 * 288 + 128 * 8 * 8 * 576 + 2048 * 128 + 128 * 10;
  std::cout << "Model: " << *model << "\n";
  std::printf("  %s parameters; %s FLOPs per image forward; about %.1f TFLOPs for %d training epochs\n\n",
              milestone::with_commas(parameters).c_str(), milestone::with_commas(2 * macs).c_str(),
              3.0 * 2 * static_cast<double>(macs * train_size) * epochs / 1e12, epochs);

  milestone::ConvLearningMonitor conv_learning(*model);
  auto loader = torch::data::make_data_loader(train_set->map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions().batch_size(kBatchSize));
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(kLearningRate));
  std::printf("Training: your Adam lr %.3f, batch %lld, %d epochs, random mirror and shifts of up to %lld pixels\n",
              kLearningRate, static_cast<long long>(kBatchSize), epochs, static_cast<long long>(kShift));
  double test_accuracy = 0;
  const auto training_started = std::chrono::steady_clock::now();
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    const auto epoch_started = std::chrono::steady_clock::now();
    model->train();
    double loss_sum = 0;
    int64_t samples = 0, batches = 0;
    for (auto& batch : *loader) {
      torch::Tensor loss = F::cross_entropy(model->forward(augmented(batch.data)), batch.target);
      optimizer.zero_grad();
      loss.backward();
      conv_learning.after_backward();
      optimizer.step();
      loss_sum += loss.item<double>() * static_cast<double>(batch.data.size(0));
      samples += batch.data.size(0);
      // Batch 10 too: on module 09's loops an epoch takes hours, and the rate is known after a minute or two.
      if (++batches % 100 == 0 || batches == 10)
        std::printf("    epoch %d: %6lld/%lld images, running loss %.4f (%.0f images/s)\n", epoch,
                    static_cast<long long>(samples), static_cast<long long>(train_size),
                    loss_sum / static_cast<double>(samples), static_cast<double>(samples) / seconds_since(epoch_started));
    }
    model->eval();
    const std::vector<int64_t> answers = predict_all(model, test_images, kEvalBatch);
    test_accuracy = accuracy_of(answers, test_labels);
    std::printf("  epoch %d/%d  loss %.4f  test %5.1f%%  %.1f s\n", epoch, epochs,
                loss_sum / static_cast<double>(samples), 100 * test_accuracy, seconds_since(epoch_started));
  }
  const double training_seconds = seconds_since(training_started);

  const std::vector<int64_t> predictions = predict_all(model, test_images, kEvalBatch);
  std::vector<std::vector<int64_t>> confusion(kClasses, std::vector<int64_t>(kClasses, 0));
  for (size_t i = 0; i < test_labels.size(); ++i)
    ++confusion[static_cast<size_t>(test_labels[i])][static_cast<size_t>(predictions[i])];
  std::cout << "\nConfusion matrix on the " << test_labels.size() << " test images:\n"
            << milestone::confusion_matrix_text(confusion, class_names) << "\n";
  conv_learning.print_report(kRequiredConvChange);

  // The first layer's filters in colour would need three panels each; the red, green and blue
  // weights side by side show which colours each filter looks for.
  const torch::Tensor filters = conv_learning.convolutions().front()->weight.detach().contiguous();
  std::vector<milestone::ImagePanelRow> rows;
  const char* channels[] = {"red", "green", "blue"};
  for (int64_t c = 0; c < 3; ++c) {
    milestone::ImagePanelRow row{std::string("First-layer 3x3 filters, their ") + channels[c] +
                                     "-channel weights (red: positive, blue: negative)",
                                 {}, true};
    for (int64_t f = 0; f < filters.size(0); ++f) {
      const torch::Tensor w = filters[f][c].contiguous();
      row.panels.push_back({std::vector<float>(w.data_ptr<float>(), w.data_ptr<float>() + w.numel()), 3, 3,
                            std::to_string(f + 1)});
    }
    rows.push_back(row);
  }
  milestone::write_output_file("cifar10_filters.svg",
                               milestone::svg_panel_rows("Milestone 04, part 3: CIFAR-10 filters", rows, 40));
  std::printf("\nTest accuracy %.2f%% after %d epochs; training %.1f s, wall time %.1f s\n", 100 * test_accuracy,
              epochs, training_seconds, seconds_since(started));
  milestone::report_result(kPart, "training_seconds", training_seconds);
  milestone::report_result(kPart, "images_per_second",
                           static_cast<double>(train_size) * epochs / std::max(training_seconds, 1e-9));
  milestone::report_result(kPart, "min_conv_weight_change", conv_learning.smallest_change());
  milestone::report_result(kPart, "accuracy", test_accuracy);
  return 0;
}
