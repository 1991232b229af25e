// An exception thrown while a worker loads a batch: the loop sees torch::data::WorkerException, whose
// what() carries the worker's message and whose original_exception is the dataset's own exception.
// Without workers the dataset's exception reaches the loop as it is. The batches before the bad one
// arrive first, in the sampler's order; the loader, destroyed with the exception on its way, stops
// its threads.
#include <iostream>
#include <stdexcept>
#include <string>

#include "compat.h"

namespace data_loader_worker_exception_program {

// Ten examples {i}; example 7 is corrupt.
class Corrupt : public torch::data::Dataset<Corrupt> {
 public:
  torch::data::Example<> get(size_t index) override {
    if (index == 7) throw std::runtime_error("example 7 is corrupt");
    return {torch::tensor({static_cast<float>(index)}), torch::tensor(static_cast<int64_t>(index))};
  }
  torch::optional<size_t> size() const override { return 10; }
};

void run_epoch(size_t workers) {
  std::cout << "workers " << workers << ":";
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      Corrupt().map(torch::data::transforms::Stack<>()), torch::data::DataLoaderOptions(2).workers(workers));
  try {
    for (auto& batch : *loader) std::cout << " [" << batch.data[0][0].item<float>() << "]";
    std::cout << " no exception\n";
  } catch (const torch::data::WorkerException& error) {
    std::cout << " WorkerException: " << error.what() << "\n";
    try {
      std::rethrow_exception(error.original_exception);
    } catch (const std::runtime_error& original) {
      std::cout << "  original runtime_error: " << original.what() << "\n";
    }
  } catch (const std::runtime_error& error) {
    std::cout << " runtime_error: " << error.what() << "\n";
  }
}

COMPAT_PROGRAM(data_loader_worker_exception) {
  run_epoch(0);
  run_epoch(2);
  run_epoch(3);
  return 0;
}

}  // namespace data_loader_worker_exception_program
