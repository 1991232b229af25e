#pragma once
// ModuleHolder<Impl> and TORCH_MODULE: LibTorch's "pointer to implementation" holders.
//
// A module is written as `class LinearImpl : public nn::Module {...}`; TORCH_MODULE(Linear) then
// declares `Linear`, a ModuleHolder that owns a std::shared_ptr<LinearImpl>. Users pass holders
// around by value (copies share one module, as Python references do), call members with `->`
// and call the module itself with `()`, which forwards to `forward`:
//
//   nn::Linear fc(784, 10);          // constructs LinearImpl(784, 10)
//   Tensor y = fc(x);                // fc->forward(x)
//   fc->weight                       // the LinearImpl's members
//   nn::Linear empty = nullptr;      // the empty state; using it throws "Accessing empty ModuleHolder"
#include <cstddef>
#include <memory>
#include <ostream>
#include <type_traits>
#include <utility>

#include "tinytorch/errors.h"

namespace tinytorch {
namespace nn {

namespace detail {
// A common base so that is_module_holder can be checked without knowing Impl.
struct ModuleHolderIndicator {};

template <typename T>
using is_module_holder = std::is_base_of<ModuleHolderIndicator, std::decay_t<T>>;
}  // namespace detail

template <typename Contained>
class ModuleHolder : detail::ModuleHolderIndicator {
 public:
  using ContainedType = Contained;

  // Default-constructs the module, which must then have a default constructor.
  ModuleHolder() : impl_(default_construct()) {
    static_assert(std::is_default_constructible<Contained>::value,
                  "You are trying to default construct a module which has no default constructor. Use = "
                  "nullptr to give it the empty state (e.g. `Linear linear = nullptr;` instead of `Linear "
                  "linear;`).");
  }

  // The empty state: holds no module.
  /* implicit */ ModuleHolder(std::nullptr_t) {}

  // Constructs the module from the arguments: Linear(784, 10) makes LinearImpl(784, 10).
  template <typename Head, typename... Tail,
            typename = std::enable_if_t<!(
                sizeof...(Tail) == 0 &&
                (std::is_base_of<ModuleHolder, std::decay_t<Head>>::value ||
                 std::is_same<std::decay_t<Head>, std::nullptr_t>::value ||
                 std::is_convertible<std::decay_t<Head>, std::shared_ptr<Contained>>::value))>>
  explicit ModuleHolder(Head&& head, Tail&&... tail)
      : impl_(std::make_shared<Contained>(std::forward<Head>(head), std::forward<Tail>(tail)...)) {}

  // Wraps an existing module (shares it).
  /* implicit */ ModuleHolder(std::shared_ptr<Contained> module) : impl_(std::move(module)) {}

  explicit operator bool() const noexcept { return !is_empty(); }
  bool is_empty() const noexcept { return impl_ == nullptr; }

  Contained* operator->() { return get(); }
  const Contained* operator->() const { return get(); }
  Contained& operator*() { return *get(); }
  const Contained& operator*() const { return *get(); }

  const std::shared_ptr<Contained>& ptr() const {
    TT_CHECK(!is_empty(), "Accessing empty ModuleHolder");
    return impl_;
  }
  Contained* get() {
    TT_CHECK(!is_empty(), "Accessing empty ModuleHolder");
    return impl_.get();
  }
  const Contained* get() const {
    TT_CHECK(!is_empty(), "Accessing empty ModuleHolder");
    return impl_.get();
  }

  // Calls the module: holder(args...) is holder->forward(args...). `Module` delays the lookup of
  // forward to the call, so that containers without a forward (ModuleList) can have holders.
  template <typename... Args, typename Module = Contained>
  auto operator()(Args&&... args) -> decltype(std::declval<Module&>().forward(std::forward<Args>(args)...)) {
    get()->run_forward_pre_hooks();
    return get()->forward(std::forward<Args>(args)...);
  }

  // Indexes the module: sequential[0] is (*sequential)[0].
  template <typename Arg>
  decltype(auto) operator[](Arg&& arg) {
    return (*get())[std::forward<Arg>(arg)];
  }

 protected:
  std::shared_ptr<Contained> impl_;

 private:
  static std::shared_ptr<Contained> default_construct() {
    if constexpr (std::is_default_constructible<Contained>::value) {
      return std::make_shared<Contained>();
    } else {
      return nullptr;
    }
  }
};

// Prints the held module as LibTorch does: "torch::nn::Linear(in_features=2, out_features=1, bias=true)".
template <typename Contained>
std::ostream& operator<<(std::ostream& stream, const ModuleHolder<Contained>& module) {
  return stream << *module;
}

}  // namespace nn
}  // namespace tinytorch

// TORCH_MODULE(Linear) declares `class Linear : public ModuleHolder<LinearImpl>` with the holder's
// constructors, exactly as LibTorch's macro does.
#define TORCH_MODULE_IMPL(Name, ImplType)                                \
  class Name : public ::tinytorch::nn::ModuleHolder<ImplType> {          \
   public:                                                               \
    using ::tinytorch::nn::ModuleHolder<ImplType>::ModuleHolder;         \
    using Impl = ImplType;                                               \
  }

#define TORCH_MODULE(Name) TORCH_MODULE_IMPL(Name, Name##Impl)
