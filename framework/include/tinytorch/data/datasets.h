#pragma once
// torch::data::datasets: every dataset TinyTorch has.
#include "tinytorch/data/datasets/base.h"
#include "tinytorch/data/datasets/cifar10.h"
#include "tinytorch/data/datasets/map.h"
#include "tinytorch/data/datasets/memory_mapped.h"
#include "tinytorch/data/datasets/mnist.h"
#include "tinytorch/data/datasets/tensor.h"
#include "tinytorch/data/datasets/tinydigits.h"
#include "tinytorch/data/datasets/tinytalks.h"
