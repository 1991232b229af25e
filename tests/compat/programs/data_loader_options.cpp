// DataLoaderOptions: batch_size, drop_last and workers. With workers the batches still come in the
// sampler's order (enforce_ordering defaults to true), so the output equals the single-threaded one.
#include <iostream>

#include "compat.h"

namespace data_loader_options_program {

// Eleven examples: data {i}, target 10 i.
class Numbers : public torch::data::Dataset<Numbers> {
 public:
  torch::data::Example<> get(size_t index) override {
    return {torch::tensor({static_cast<float>(index)}), torch::tensor(static_cast<int64_t>(10 * index))};
  }
  torch::optional<size_t> size() const override { return 11; }
};

void show_epoch(const char* label, torch::data::DataLoaderOptions options) {
  std::cout << label << ":";
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      Numbers().map(torch::data::transforms::Stack<>()), options);
  for (auto& batch : *loader) {
    std::cout << " [";
    for (int64_t i = 0; i < batch.data.size(0); ++i) std::cout << (i ? " " : "") << batch.data[i][0].item<float>();
    std::cout << "] targets " << batch.target.sum().item<int64_t>();
  }
  std::cout << "\n";
}

COMPAT_PROGRAM(data_loader_options) {
  show_epoch("batch_size 4", torch::data::DataLoaderOptions(4));
  show_epoch("batch_size 4 drop_last", torch::data::DataLoaderOptions(4).drop_last(true));
  show_epoch("batch_size 3 workers 2", torch::data::DataLoaderOptions().batch_size(3).workers(2));
  show_epoch("batch_size 5 workers 3 drop_last", torch::data::DataLoaderOptions(5).workers(3).drop_last(true));
  auto options = torch::data::DataLoaderOptions(8).workers(2);
  std::cout << "options batch_size " << options.batch_size() << " workers " << options.workers() << " drop_last "
            << options.drop_last() << " enforce_ordering " << options.enforce_ordering() << "\n";
  return 0;
}

}  // namespace data_loader_options_program
