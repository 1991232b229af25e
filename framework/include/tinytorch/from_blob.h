#pragma once
// from_blob: a tensor over memory someone else owns (an image buffer, a memory-mapped file...);
// from_file: a tensor over a file's bytes, mapped into memory.
// Kept apart from factories.h because std::function is heavy for the headers learner files include.
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "tinytorch/tensor.h"

namespace tinytorch {

// A tensor over memory the caller owns: no copy. Without a deleter the caller keeps ownership and
// must keep the memory alive; with one, the deleter runs when the last tensor using it goes away.
Tensor from_blob(void* data, IntArrayRef sizes, TensorOptions options = {});
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options = {});
Tensor from_blob(void* data, IntArrayRef sizes, const std::function<void(void*)>& deleter,
                 TensorOptions options = {});

// LibTorch's from_file: the first `size` elements (not bytes) of the file, as a 1-D tensor of
// options' dtype whose storage IS the file mapped into memory (mmap). Nothing is read up front: the
// OS reads a page of the file the first time an element in it is touched, so the file may be larger
// than the machine's memory. size 0 (the default) gives an empty tensor without opening the file.
//   shared=true:  a shared mapping; writes to the tensor go to the file. The file is created if
//                 missing (mode 0600) and grown with zeros when it is shorter than size elements.
//   shared=false or nullopt: a private mapping of a file opened read-only; writes stay in this
//                 process (copy on write). A file shorter than size elements is an error.
// Differences from LibTorch 1.13, on purpose: the private mapping reserves no swap (MAP_NORESERVE),
// so a file larger than memory plus swap maps (LibTorch's mmap fails with "Cannot allocate memory");
// growing a shared file does not overwrite its first byte with 0 (LibTorch's does); a negative size
// is refused as such (LibTorch fails to mmap a negative byte count); the storage of a mapped tensor
// is not marked non-resizable (resize_ past the end moves the tensor to fresh memory, off the file).
Tensor from_file(std::string_view filename, std::optional<bool> shared = std::nullopt,
                 std::optional<int64_t> size = 0, TensorOptions options = {});

}  // namespace tinytorch
