// The autograd registration point (see tinytorch/dispatch.h): empty until module 06 fills it.
#include "tinytorch/dispatch.h"

namespace tinytorch {

namespace detail {
AutogradLayer* registered_autograd_layer = nullptr;
}  // namespace detail

namespace {
thread_local bool grad_mode_enabled = true;
}  // namespace

void set_autograd_layer(AutogradLayer* layer) { detail::registered_autograd_layer = layer; }
AutogradLayer* autograd_layer() { return detail::registered_autograd_layer; }

bool GradMode::is_enabled() { return grad_mode_enabled; }
void GradMode::set_enabled(bool enabled) { grad_mode_enabled = enabled; }

}  // namespace tinytorch
