#pragma once
// torch::data::samplers
#include "tinytorch/data/samplers/base.h"
#include "tinytorch/data/samplers/distributed.h"
#include "tinytorch/data/samplers/random.h"
#include "tinytorch/data/samplers/sequential.h"
