// Module 08 (Training), given: modules in and out of archives, for torch::save / torch::load
// (tinytorch/serialize.h). A module is flat in its archive: one key per named parameter and buffer.
#include <string>
#include <unordered_set>
#include <vector>

#include "tinytorch/dispatch.h"
#include "tinytorch/errors.h"
#include "tinytorch/serialize.h"

namespace tinytorch {
namespace serialize {

namespace {
// Every tensor a module's checkpoint holds, parameters first, each with its full name.
std::vector<std::pair<std::string, Tensor>> module_state(const nn::Module& module) {
  std::vector<std::pair<std::string, Tensor>> state;
  for (const auto& item : module.named_parameters()) state.emplace_back(item.key(), item.value());
  for (const auto& item : module.named_buffers()) state.emplace_back(item.key(), item.value());
  return state;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text.empty() ? "nothing" : text;
}
}  // namespace

void write_module(OutputArchive& archive, const nn::Module& module) {
  const auto buffers = module.named_buffers();
  for (const auto& [name, tensor] : module_state(module)) {
    if (tensor.defined()) archive.write(name, tensor, /*is_buffer=*/buffers.contains(name));
  }
}

void read_module(InputArchive& archive, nn::Module& module) {
  const std::vector<std::string> keys = archive.keys();
  const auto state = module_state(module);

  // First every check, then every copy: a checkpoint that does not fit leaves the model untouched.
  std::unordered_set<std::string> expected;
  std::vector<Tensor> stored_values;
  for (const auto& [name, tensor] : state) {
    expected.insert(name);
    Tensor stored;
    TT_CHECK(archive.try_read(name, stored), "torch::load: the checkpoint has no tensor '", name,
             "', which the model has; it was saved from a different model (the checkpoint holds: ", joined(keys),
             ")");
    TT_CHECK(stored.sizes() == tensor.sizes(), "torch::load: '", name, "' has shape ", stored.sizes(),
             " in the checkpoint but ", tensor.sizes(),
             " in the model; build the model with the sizes it was saved with");
    TT_CHECK(stored.scalar_type() == tensor.scalar_type(), "torch::load: '", name, "' is ", stored.scalar_type(),
             " in the checkpoint but ", tensor.scalar_type(), " in the model; convert the model with the dtype it was ",
             "saved with before loading");
    stored_values.push_back(stored);
  }
  for (const std::string& key : keys) {
    TT_CHECK(expected.count(key) != 0, "torch::load: the checkpoint has a tensor '", key,
             "', which the model does not have; it was saved from a different model");
  }

  NoGradGuard no_grad;  // copying into parameters is not a step to differentiate
  for (size_t i = 0; i < state.size(); ++i) {
    Tensor target = state[i].second;
    target.copy_(stored_values[i]);
  }
}

}  // namespace serialize
}  // namespace tinytorch
