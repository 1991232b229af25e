// A custom Dataset, mapped through Lambda / Normalize / Stack, loaded in order with a SequentialSampler.
// compat-tolerance: 1e-6
#include <iostream>

#include "compat.h"

namespace data_dataset_map_program {

// Ten examples: data [2] = {i, 2i}, target i % 3.
class CountingDataset : public torch::data::Dataset<CountingDataset> {
 public:
  torch::data::Example<> get(size_t index) override {
    const auto i = static_cast<double>(index);
    return {torch::tensor({i, 2 * i}, torch::kFloat), torch::tensor(static_cast<int64_t>(index % 3))};
  }
  torch::optional<size_t> size() const override { return 10; }
};

COMPAT_PROGRAM(data_dataset_map) {
  CountingDataset raw;
  std::cout << "size " << raw.size().value() << " example 4 data\n" << raw.get(4).data << "\n";
  auto dataset = raw.map(torch::data::transforms::Lambda<torch::data::Example<>>([](torch::data::Example<> example) {
                      example.data = example.data + 1;
                      return example;
                    }))
                     .map(torch::data::transforms::Normalize<>(0.5, 2.0))
                     .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(dataset), torch::data::DataLoaderOptions().batch_size(4));
  int batch_index = 0;
  for (auto& batch : *loader) {
    std::cout << "batch " << batch_index++ << " data " << batch.data.sizes() << "\n"
              << batch.data << "\ntarget\n" << batch.target << "\n";
  }
  return 0;
}

}  // namespace data_dataset_map_program
