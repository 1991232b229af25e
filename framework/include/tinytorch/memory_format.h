#pragma once
// torch::MemoryFormat, LibTorch's c10::MemoryFormat: the element order a tensor's strides describe.
// TinyTorch lays every tensor out row-major (Contiguous); the others are accepted where LibTorch
// takes them, and ChannelsLast / ChannelsLast3d are refused with an error that says so (see
// src/01_tensor/shape_layout.cpp).
#include <cstdint>
#include <iosfwd>

namespace tinytorch {

enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d, NumOptions };

// "Contiguous", "Preserve", "ChannelsLast", "ChannelsLast3d", as LibTorch prints them.
std::ostream& operator<<(std::ostream& stream, MemoryFormat memory_format);

}  // namespace tinytorch
