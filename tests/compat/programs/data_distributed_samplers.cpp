// DistributedSequentialSampler / DistributedRandomSampler: each replica's share of the dataset
// (num_replicas, rank, allow_duplicates), reset per epoch, and the random order per epoch.
#include <cstddef>
#include <iostream>
#include <vector>

#include "compat.h"

namespace data_distributed_samplers_program {

template <typename Sampler>
void print_epoch(Sampler& sampler, size_t batch_size) {
  while (auto batch = sampler.next(batch_size)) {
    std::cout << " [";
    for (size_t index : *batch) std::cout << " " << index;
    std::cout << " ]";
  }
  std::cout << " index " << sampler.index() << "\n";
}

COMPAT_PROGRAM(data_distributed_samplers) {
  for (bool allow_duplicates : {true, false}) {
    for (size_t rank = 0; rank < 3; ++rank) {
      torch::data::samplers::DistributedSequentialSampler sampler(10, 3, rank, allow_duplicates);
      std::cout << "sequential duplicates " << allow_duplicates << " rank " << rank;
      print_epoch(sampler, 2);
    }
  }
  torch::data::samplers::DistributedSequentialSampler again(7, 2, 1);
  print_epoch(again, 3);
  again.reset();
  std::cout << "after reset";
  print_epoch(again, 10);
  again.reset(4);
  std::cout << "new size";
  print_epoch(again, 10);

  for (size_t epoch = 0; epoch < 2; ++epoch) {
    for (size_t rank = 0; rank < 2; ++rank) {
      torch::data::samplers::DistributedRandomSampler sampler(9, 2, rank);
      sampler.set_epoch(epoch);
      sampler.reset();
      std::cout << "random epoch " << sampler.epoch() << " rank " << rank;
      print_epoch(sampler, 4);
    }
  }
  torch::data::samplers::DistributedRandomSampler no_duplicates(9, 2, 1, /*allow_duplicates=*/false);
  std::cout << "random without duplicates";
  print_epoch(no_duplicates, 10);
  torch::data::samplers::DistributedRandomSampler one_replica(5);
  std::cout << "one replica";
  print_epoch(one_replica, 10);
  return 0;
}

}  // namespace data_distributed_samplers_program
