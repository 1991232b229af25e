// Module 01 (Tensor), lesson section "8. Memory footprint".
// nbytes() says what a tensor's elements would occupy (numel * element_size). memory_footprint()
// says what it actually keeps alive: its whole storage, which a small view may share with a large
// tensor. The difference is why `big.narrow(0, 0, 1)` can pin gigabytes.
#include <unordered_set>

#include "tinytorch/kernels.h"

namespace tinytorch {

// TODO: Tensor::memory_footprint() -- the bytes of the storage this tensor uses.
//   An undefined tensor holds nothing (0). Otherwise it is storage().nbytes(): the whole storage,
//   even when this tensor is a view of part of it.
//   Example: x = zeros({1000}) (4000 bytes); x.narrow(0, 0, 10).nbytes() == 40 but its
//   memory_footprint() == 4000.
int64_t Tensor::memory_footprint() const {
  // BEGIN SOLUTION name="tinytorch::Tensor::memory_footprint" lesson="8. Memory footprint"
  if (!defined()) return 0;
  return static_cast<int64_t>(storage().nbytes());
  // END SOLUTION
}

// TODO: memory_footprint(tensors) -- the bytes held by a group of tensors, each storage counted once.
//   Views share a storage: x and x.t() together hold x's bytes once, not twice. Identify a storage
//   by t.storage().unsafeGetStorageImpl() (a pointer); skip undefined tensors.
//   Example: {x, x.t(), y} with x 4000 bytes and y 800 bytes -> 4800.
int64_t memory_footprint(const std::vector<Tensor>& tensors) {
  // BEGIN SOLUTION name="tinytorch::memory_footprint" lesson="8. Memory footprint"
  std::unordered_set<const StorageImpl*> counted;
  int64_t total = 0;
  for (const Tensor& t : tensors) {
    if (!t.defined()) continue;
    if (counted.insert(t.storage().unsafeGetStorageImpl()).second) total += static_cast<int64_t>(t.storage().nbytes());
  }
  return total;
  // END SOLUTION
}

}  // namespace tinytorch
