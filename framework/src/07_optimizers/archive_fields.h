#pragma once
// Reading and writing an optimizer's option and state fields in an archive, shared by the given
// optimizer sources (optimizer_options.cpp defines them). An undefined state tensor is not written and
// reads back undefined, as in LibTorch.
#include <cstdint>

#include "tinytorch/serialize/archive.h"

namespace tinytorch {
namespace optim {
namespace detail {

void write_optional(serialize::OutputArchive& archive, const char* key, const Tensor& tensor);
Tensor read_optional(serialize::InputArchive& archive, const char* key);
double read_double(serialize::InputArchive& archive, const char* key);
bool read_bool(serialize::InputArchive& archive, const char* key);
int64_t read_int(serialize::InputArchive& archive, const char* key);

}  // namespace detail
}  // namespace optim
}  // namespace tinytorch
