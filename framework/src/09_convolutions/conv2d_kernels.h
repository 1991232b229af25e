#pragma once
// Module 09's convolution kernels for the framework's internal code (runtime/fast_kernels.h and
// module 17's 17_acceleration/): the declarations live in the public tinytorch/spatial_kernels.h, which
// the learner's files include.
#include "tinytorch/spatial_kernels.h"
