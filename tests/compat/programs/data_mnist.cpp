// datasets::MNIST reading IDX files this program writes itself (the test split: LibTorch insists on
// exactly 10000 images of 28x28), then a DataLoader over it with Normalize and Stack, as LibTorch's
// MNIST example does.
// compat-tolerance: 1e-5
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

#include "compat.h"

namespace data_mnist_program {

void write_big_endian(std::ofstream& out, uint32_t value) {
  const unsigned char bytes[4] = {static_cast<unsigned char>(value >> 24), static_cast<unsigned char>(value >> 16),
                                  static_cast<unsigned char>(value >> 8), static_cast<unsigned char>(value)};
  out.write(reinterpret_cast<const char*>(bytes), 4);
}

void write_idx(const std::string& root, const std::string& prefix, int count) {
  std::ofstream images(root + "/" + prefix + "-images-idx3-ubyte", std::ios::binary);
  write_big_endian(images, 2051);
  write_big_endian(images, count);
  write_big_endian(images, 28);
  write_big_endian(images, 28);
  for (int n = 0; n < count; ++n)
    for (int p = 0; p < 28 * 28; ++p) images.put(static_cast<char>((p * (n + 1)) % 256));
  std::ofstream labels(root + "/" + prefix + "-labels-idx1-ubyte", std::ios::binary);
  write_big_endian(labels, 2049);
  write_big_endian(labels, count);
  for (int n = 0; n < count; ++n) labels.put(static_cast<char>((n * 7) % 10));
}

COMPAT_PROGRAM(data_mnist) {
  const std::string root = "compat_mnist";
  std::filesystem::create_directories(root);
  write_idx(root, "t10k", 10000);
  torch::data::datasets::MNIST train(root, torch::data::datasets::MNIST::Mode::kTest);
  std::cout << "test size " << train.size().value() << " is_train " << train.is_train() << "\n";
  std::cout << "images " << train.images().sizes() << " " << train.images().dtype() << " targets "
            << train.targets().sizes() << " " << train.targets().dtype() << "\n";
  auto example = train.get(1);
  std::cout << "example 1: target " << example.target.item<int64_t>() << " pixel[0][0][5] "
            << example.data[0][0][5].item<float>() << " max " << example.data.max().item<float>() << "\n";
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      train.map(torch::data::transforms::Normalize<>(0.1307, 0.3081)).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(2));
  int batches = 0;
  for (auto& batch : *loader) {
    std::cout << "batch " << batch.data.sizes() << " targets " << batch.target << "\n"
              << "mean " << batch.data.mean().item<float>() << "\n";
    if (++batches == 3) break;
  }
  return 0;
}

}  // namespace data_mnist_program
