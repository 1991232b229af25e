#pragma once
// torch::data::transforms
#include "tinytorch/data/transforms/base.h"
#include "tinytorch/data/transforms/collate.h"
#include "tinytorch/data/transforms/lambda.h"
#include "tinytorch/data/transforms/stack.h"
#include "tinytorch/data/transforms/tensor.h"
