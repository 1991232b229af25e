#pragma once
// torch::save and torch::load (LibTorch 1.13's torch/serialize.h): checkpoints of modules,
// optimizers and tensors, in TinyTorch's archive format (tinytorch/serialize/archive.h).
//
//   torch::save(model, "model.tt");            // every parameter and buffer, by name
//   torch::save(optimizer, "optimizer.tt");    // hyperparameters and per-parameter state
//   ...
//   Net model;  torch::optim::Adam optimizer(model->parameters());
//   torch::load(model, "model.tt");            // copies the values into the existing tensors
//   torch::load(optimizer, "optimizer.tt");
//
// A module is stored as one archive whose keys are its named_parameters() and named_buffers()
// ("fc1.weight", "fc1.bias", ...). Loading copies into the module's own tensors, so an optimizer
// built over them keeps pointing at the right storage. It checks everything before copying
// anything: a name missing on either side, or a different shape or dtype, is an error naming the
// key (and both shapes), and the model is left as it was.
//
// Deviations from LibTorch: LibTorch nests one archive per submodule and, on load, replaces a
// tensor of another shape silently and ignores keys the module does not have; TinyTorch's files are
// not LibTorch's zip files (each library rejects the other's files with a clear error).
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tinytorch/nn/module.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/optim/optimizer.h"
#include "tinytorch/serialize/archive.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace serialize {

// Writes every parameter and buffer of the module tree under its full name.
void write_module(OutputArchive& archive, const nn::Module& module);
// Checks the archive against the module's parameters and buffers, then copies them in.
void read_module(InputArchive& archive, nn::Module& module);

inline OutputArchive& operator<<(OutputArchive& archive, const std::shared_ptr<nn::Module>& module) {
  TT_CHECK(module != nullptr, "torch::save: the module is empty (a null pointer)");
  write_module(archive, *module);
  return archive;
}
inline InputArchive& operator>>(InputArchive& archive, const std::shared_ptr<nn::Module>& module) {
  TT_CHECK(module != nullptr, "torch::load: the module is empty (a null pointer); construct it first");
  read_module(archive, *module);
  return archive;
}
template <typename ModuleType>
OutputArchive& operator<<(OutputArchive& archive, const nn::ModuleHolder<ModuleType>& module) {
  return archive << std::shared_ptr<nn::Module>(module.ptr());
}
template <typename ModuleType>
InputArchive& operator>>(InputArchive& archive, nn::ModuleHolder<ModuleType>& module) {
  return archive >> std::shared_ptr<nn::Module>(module.ptr());
}

// A single tensor is stored under the key "0", as LibTorch does.
inline OutputArchive& operator<<(OutputArchive& archive, const Tensor& tensor) {
  archive.write("0", tensor);
  return archive;
}
inline InputArchive& operator>>(InputArchive& archive, Tensor& tensor) {
  archive.read("0", tensor);
  return archive;
}

}  // namespace serialize

// Serializes value (a module holder, a shared_ptr to a module, an optimizer or a tensor) and
// writes it to a file name or a std::ostream.
template <typename Value, typename... SaveToArgs>
void save(const Value& value, SaveToArgs&&... args) {
  serialize::OutputArchive archive;
  archive << value;
  archive.save_to(std::forward<SaveToArgs>(args)...);
}

// A list of tensors, under the keys "0", "1", ...
template <typename... SaveToArgs>
void save(const std::vector<Tensor>& tensor_vec, SaveToArgs&&... args) {
  serialize::OutputArchive archive;
  for (size_t i = 0; i < tensor_vec.size(); ++i) archive.write(std::to_string(i), tensor_vec[i]);
  archive.save_to(std::forward<SaveToArgs>(args)...);
}

// Reads a file name or a std::istream into value, which must be built like the saved one.
template <typename Value, typename... LoadFromArgs>
void load(Value& value, LoadFromArgs&&... args) {
  serialize::InputArchive archive;
  archive.load_from(std::forward<LoadFromArgs>(args)...);
  archive >> value;
}

// Appends the tensors saved by save(std::vector<Tensor>) to tensor_vec.
template <typename... LoadFromArgs>
void load(std::vector<Tensor>& tensor_vec, LoadFromArgs&&... args) {
  serialize::InputArchive archive;
  archive.load_from(std::forward<LoadFromArgs>(args)...);
  Tensor value;
  for (size_t index = 0; archive.try_read(std::to_string(index), value); ++index) {
    tensor_vec.push_back(std::move(value));
    value = Tensor();
  }
}

}  // namespace tinytorch
