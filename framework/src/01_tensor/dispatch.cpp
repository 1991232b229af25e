// The autograd registration point (see tinytorch/dispatch.h): empty until module 06 fills it. The
// table of derivative declarations (tinytorch/derivative.h) lives here too: plain data, filled
// before main() by the files that define the ops, and read only by module 06.
#include "tinytorch/dispatch.h"

#include <string_view>
#include <unordered_map>

namespace tinytorch {

namespace detail {
AutogradLayer* registered_autograd_layer = nullptr;
OpObserver* registered_op_observer = nullptr;
}  // namespace detail

namespace {
thread_local bool grad_mode_enabled = true;

// Created on first use: registrations run from static initializers in any order.
std::unordered_map<std::string_view, Derivative>& derivatives() {
  static auto* const table = new std::unordered_map<std::string_view, Derivative>();
  return *table;
}
}  // namespace

void set_autograd_layer(AutogradLayer* layer) { detail::registered_autograd_layer = layer; }
AutogradLayer* autograd_layer() { return detail::registered_autograd_layer; }
void set_op_observer(OpObserver* observer) { detail::registered_op_observer = observer; }
OpObserver* op_observer() { return detail::registered_op_observer; }

unsigned AutogradLayer::register_hook(const Tensor& /*self*/, std::function<Tensor(const Tensor&)> /*hook*/) {
  throw Error("this autograd layer does not support tensor hooks: register module 06's engine (enable_autograd())");
}
void AutogradLayer::remove_hook(const Tensor& /*self*/, unsigned /*pos*/) {
  throw Error("this autograd layer does not support tensor hooks: register module 06's engine (enable_autograd())");
}

bool GradMode::is_enabled() { return grad_mode_enabled; }
void GradMode::set_enabled(bool enabled) { grad_mode_enabled = enabled; }

RegisterDerivative::RegisterDerivative(const char* op_name, const Derivative& derivative) {
  const bool added = derivatives().emplace(op_name, derivative).second;
  TT_CHECK(added, "two derivatives are registered for the op '", op_name, "': keep one declaration per op");
}

const Derivative* find_derivative(const char* op_name) {
  const auto& table = derivatives();
  const auto found = table.find(op_name);
  return found == table.end() ? nullptr : &found->second;
}

const Derivative* OpHandle::look_up() const {
  const Derivative* found = find_derivative(name_);
  // Entries never move (the table only grows, and unordered_map keeps its elements in place).
  if (found != nullptr) derivative_.store(found, std::memory_order_release);
  return found;
}

}  // namespace tinytorch
