// MemoryMappedDataset under the parallel DataLoader: workers read records of one shared mapping at
// once (views, no locks) and the batches match a loader without workers. Tagged [threads], so the
// ThreadSanitizer build runs it; kept apart from test_memory_mapped_dataset.cpp, whose file larger
// than memory is no case for ThreadSanitizer's shadow memory.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace fs = std::filesystem;
using test_helpers::ScratchDir;
namespace data = torch::data;
using data::datasets::MemoryMappedDataset;
using data::datasets::RecordFileOptions;

namespace {

// Every batch of one epoch: the first feature of each example and its label.
template <typename Loader>
std::vector<std::vector<int64_t>> epoch(Loader& loader) {
  std::vector<std::vector<int64_t>> batches;
  for (auto& batch : *loader) {
    std::vector<int64_t> seen;
    for (int64_t i = 0; i < batch.data.size(0); ++i) {
      seen.push_back(static_cast<int64_t>(batch.data[i][0].template item<float>()));
      seen.push_back(batch.target[i].template item<int64_t>());
    }
    batches.push_back(seen);
  }
  return batches;
}

}  // namespace

TEST_CASE("MemoryMappedDataset feeds a DataLoader with workers the same batches as without", "[mmap][threads]") {
  ScratchDir scratch("mmap-loader-test");
  constexpr int64_t kCount = 37, kLength = 16;
  {
    std::ofstream features(scratch.file("features.bin"), std::ios::binary);
    std::ofstream labels(scratch.file("labels.bin"), std::ios::binary);
    for (int64_t i = 0; i < kCount; ++i) {
      for (int64_t e = 0; e < kLength; ++e) {
        const float value = static_cast<float>(i * 100 + e);
        features.write(reinterpret_cast<const char*>(&value), sizeof(value));
      }
      const int64_t label = i % 10;
      labels.write(reinterpret_cast<const char*>(&label), sizeof(label));
    }
  }
  MemoryMappedDataset dataset(RecordFileOptions(scratch.file("features.bin"), {kLength}),
                              RecordFileOptions(scratch.file("labels.bin"), {}).dtype(torch::kLong));
  auto run = [&](size_t workers) {
    auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
        dataset.map(data::transforms::Stack<>()), data::DataLoaderOptions(5).workers(workers));
    return epoch(loader);
  };
  const auto reference = run(0);
  REQUIRE(reference.size() == 8);
  CHECK(reference[7] == std::vector<int64_t>{3500, 5, 3600, 6});
  CHECK(run(2) == reference);
  CHECK(run(3) == reference);
}
