#pragma once
// torch::data: datasets, samplers, transforms and the DataLoader (module 05). torch.h includes this.
#include "tinytorch/data/dataloader.h"
#include "tinytorch/data/dataloader_options.h"
#include "tinytorch/data/datasets.h"
#include "tinytorch/data/example.h"
#include "tinytorch/data/samplers.h"
#include "tinytorch/data/tensor_ops.h"
#include "tinytorch/data/transforms.h"

namespace tinytorch {
namespace data {
// LibTorch's short spellings: torch::data::Dataset<Self> for torch::data::datasets::Dataset<Self>.
using datasets::BatchDataset;
using datasets::Dataset;
}  // namespace data
}  // namespace tinytorch
