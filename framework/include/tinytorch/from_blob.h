#pragma once
// from_blob: a tensor over memory someone else owns (an image buffer, a memory-mapped file...).
// Kept apart from factories.h because std::function is heavy for the headers learner files include.
#include <functional>

#include "tinytorch/tensor.h"

namespace tinytorch {

// A tensor over memory the caller owns: no copy. Without a deleter the caller keeps ownership and
// must keep the memory alive; with one, the deleter runs when the last tensor using it goes away.
Tensor from_blob(void* data, IntArrayRef sizes, TensorOptions options = {});
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options = {});
Tensor from_blob(void* data, IntArrayRef sizes, const std::function<void(void*)>& deleter,
                 TensorOptions options = {});

}  // namespace tinytorch
