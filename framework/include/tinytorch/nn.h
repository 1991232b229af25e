#pragma once
// Everything under tinytorch::nn (LibTorch's torch::nn): the Module base, holders, initialisers
// and the layers built so far.
#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/init.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/modules/container/any.h"
#include "tinytorch/nn/modules/container/functional.h"
#include "tinytorch/nn/modules/container/moduledict.h"
#include "tinytorch/nn/modules/container/modulelist.h"
#include "tinytorch/nn/modules/container/named_any.h"
#include "tinytorch/nn/modules/container/sequential.h"
#include "tinytorch/nn/modules/conv.h"
#include "tinytorch/nn/modules/dropout.h"
#include "tinytorch/nn/modules/flatten.h"
#include "tinytorch/nn/modules/linear.h"
#include "tinytorch/nn/ordered_dict.h"
#include "tinytorch/nn/pimpl.h"
