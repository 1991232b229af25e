// LBFGS: options, state, serialization and step (given code), following LibTorch 1.13's lbfgs.cpp
// (itself a port of PyTorch's lbfgs.py, whose line search comes from Lua torch's optim package).
#include "tinytorch/optim/lbfgs.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/serialize/archive.h"
#include "07_optimizers/archive_fields.h"

namespace tinytorch {
namespace optim {
namespace {
using detail::write_optional;
using detail::read_optional;
using detail::read_double;
using detail::read_int;



bool same_tensor(const Tensor& a, const Tensor& b) {
  if (a.defined() != b.defined()) return false;
  return !a.defined() || a.equal(b);
}

template <typename Container>
bool same_tensors(const Container& a, const Container& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!same_tensor(a[i], b[i])) return false;
  }
  return true;
}



// A list of tensors as a nested archive: "size", then "0", "1", ... (an undefined entry is skipped).
template <typename Container>
void write_tensors(serialize::OutputArchive& archive, const char* key, const Container& tensors) {
  serialize::OutputArchive list;
  list.write("size", IValue(static_cast<int64_t>(tensors.size())));
  for (size_t i = 0; i < tensors.size(); ++i) write_optional(list, std::to_string(i).c_str(), tensors[i]);
  archive.write(key, list);
}

template <typename Container>
Container read_tensors(serialize::InputArchive& archive, const char* key) {
  serialize::InputArchive list;
  archive.read(key, list);
  const int64_t size = read_int(list, "size");
  Container tensors;
  for (int64_t i = 0; i < size; ++i) tensors.push_back(read_optional(list, std::to_string(i).c_str()));
  return tensors;
}

double value_of(const Tensor& t) { return t.item<double>(); }

// The minimiser of the cubic through (x1, f1) and (x2, f2) with slopes g1 and g2, clamped to
// `bounds` (by default [min(x1, x2), max(x1, x2)]); the interval's middle when the cubic has none.
double cubic_interpolate(double x1, double f1, double g1, double x2, double f2, double g2,
                         std::optional<std::pair<double, double>> bounds = std::nullopt) {
  double xmin_bound = std::min(x1, x2);
  double xmax_bound = std::max(x1, x2);
  if (bounds) std::tie(xmin_bound, xmax_bound) = *bounds;
  const double d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2);
  const double d2_square = d1 * d1 - g1 * g2;
  if (d2_square < 0) return (xmin_bound + xmax_bound) / 2;
  const double d2 = std::sqrt(d2_square);
  const double min_pos = x1 <= x2 ? x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
                                  : x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2));
  return std::min(std::max(min_pos, xmin_bound), xmax_bound);
}

using DirectionalEvaluate = std::function<std::tuple<double, Tensor>(const std::vector<Tensor>&, double, const Tensor&)>;

struct LineSearchResult {
  double loss;
  Tensor flat_grad;
  double t;
  int64_t func_evals;
};

// Finds a step t along d that satisfies the strong Wolfe conditions
//   f(x + t d) <= f + c1 t gtd      (sufficient decrease)
//   |g(x + t d) . d| <= -c2 gtd     (curvature)
// first by growing t until a bracket holds such a point, then by zooming into the bracket with
// cubic interpolation (Nocedal & Wright, Algorithms 3.5 and 3.6).
LineSearchResult strong_wolfe(const DirectionalEvaluate& obj_func, const std::vector<Tensor>& x, double t,
                              const Tensor& d, double f, Tensor g, double gtd, double c1 = 1e-4, double c2 = 0.9,
                              double tolerance_change = 1e-9, int64_t max_ls = 25) {
  const double d_norm = value_of(d.abs().max());
  g = g.clone();
  auto [f_new, g_new] = obj_func(x, t, d);
  int64_t ls_func_evals = 1;
  double gtd_new = value_of(g_new.dot(d));

  // Bracketing phase.
  double t_prev = 0;
  double f_prev = f;
  Tensor g_prev = g;
  double gtd_prev = gtd;
  bool done = false;
  int64_t ls_iter = 0;
  std::vector<double> bracket, bracket_f, bracket_gtd;
  std::vector<Tensor> bracket_g;
  while (ls_iter < max_ls) {
    if (f_new > f + c1 * t * gtd || (ls_iter > 1 && f_new >= f_prev)) {
      bracket = {t_prev, t};
      bracket_f = {f_prev, f_new};
      bracket_g = {g_prev, g_new.clone()};
      bracket_gtd = {gtd_prev, gtd_new};
      break;
    }
    if (std::abs(gtd_new) <= -c2 * gtd) {
      bracket = {t};
      bracket_f = {f_new};
      bracket_g = {g_new};
      done = true;
      break;
    }
    if (gtd_new >= 0) {
      bracket = {t_prev, t};
      bracket_f = {f_prev, f_new};
      bracket_g = {g_prev, g_new.clone()};
      bracket_gtd = {gtd_prev, gtd_new};
      break;
    }
    // Extrapolate: somewhere between just past t and ten times t.
    const double min_step = t + 0.01 * (t - t_prev);
    const double max_step = t * 10;
    const double previous_t = t;
    t = cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, std::make_pair(min_step, max_step));
    t_prev = previous_t;
    f_prev = f_new;
    g_prev = g_new.clone();
    gtd_prev = gtd_new;
    std::tie(f_new, g_new) = obj_func(x, t, d);
    ls_func_evals += 1;
    gtd_new = value_of(g_new.dot(d));
    ls_iter += 1;
  }
  if (ls_iter == max_ls) {
    bracket = {0, t};
    bracket_f = {f, f_new};
    bracket_g = {g, g_new};
    bracket_gtd = {gtd, gtd_new};
  }

  // Zoom phase: shrink the bracket until its low end satisfies the conditions.
  bool insufficient_progress = false;
  size_t low_pos = bracket_f.front() <= bracket_f.back() ? 0 : 1;
  size_t high_pos = 1 - low_pos;
  while (!done && ls_iter < max_ls) {
    if (std::abs(bracket[1] - bracket[0]) * d_norm < tolerance_change) break;  // bracket too small
    t = cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1]);
    // A trial point too close to an end of the bracket twice in a row, or at an end, is moved to
    // 0.1 of the bracket's length away from it.
    const double bracket_max = std::max(bracket[0], bracket[1]);
    const double bracket_min = std::min(bracket[0], bracket[1]);
    const double eps = 0.1 * (bracket_max - bracket_min);
    if (std::min(bracket_max - t, t - bracket_min) < eps) {
      if (insufficient_progress || t >= bracket_max || t <= bracket_min) {
        t = std::abs(t - bracket_max) < std::abs(t - bracket_min) ? bracket_max - eps : bracket_min + eps;
        insufficient_progress = false;
      } else {
        insufficient_progress = true;
      }
    } else {
      insufficient_progress = false;
    }
    std::tie(f_new, g_new) = obj_func(x, t, d);
    ls_func_evals += 1;
    gtd_new = value_of(g_new.dot(d));
    ls_iter += 1;

    if (f_new > f + c1 * t * gtd || f_new >= bracket_f[low_pos]) {
      // Not a sufficient decrease, or not below the low end: t becomes the high end.
      bracket[high_pos] = t;
      bracket_f[high_pos] = f_new;
      bracket_g[high_pos] = g_new.clone();
      bracket_gtd[high_pos] = gtd_new;
      low_pos = bracket_f[0] <= bracket_f[1] ? 0 : 1;
      high_pos = 1 - low_pos;
    } else {
      if (std::abs(gtd_new) <= -c2 * gtd) {
        done = true;  // Wolfe conditions hold
      } else if (gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0) {
        // The old high end becomes the new low end.
        bracket[high_pos] = bracket[low_pos];
        bracket_f[high_pos] = bracket_f[low_pos];
        bracket_g[high_pos] = bracket_g[low_pos];
        bracket_gtd[high_pos] = bracket_gtd[low_pos];
      }
      bracket[low_pos] = t;
      bracket_f[low_pos] = f_new;
      bracket_g[low_pos] = g_new.clone();
      bracket_gtd[low_pos] = gtd_new;
    }
  }
  return {bracket_f[low_pos], bracket_g[low_pos], bracket[low_pos], ls_func_evals};
}

}  // namespace

// ---- Options and state ----
LBFGSOptions::LBFGSOptions(double lr) : lr_(lr) {}
double LBFGSOptions::get_lr() const { return lr(); }
void LBFGSOptions::set_lr(const double lr) { this->lr(lr); }

bool operator==(const LBFGSOptions& lhs, const LBFGSOptions& rhs) {
  return lhs.lr() == rhs.lr() && lhs.max_iter() == rhs.max_iter() && lhs.max_eval() == rhs.max_eval() &&
         lhs.tolerance_grad() == rhs.tolerance_grad() && lhs.tolerance_change() == rhs.tolerance_change() &&
         lhs.history_size() == rhs.history_size() && lhs.line_search_fn() == rhs.line_search_fn();
}

void LBFGSOptions::serialize(serialize::OutputArchive& archive) const {
  archive.write("lr", IValue(lr()));
  archive.write("max_iter", IValue(max_iter()));
  if (max_eval()) archive.write("max_eval", IValue(*max_eval()));
  archive.write("tolerance_grad", IValue(tolerance_grad()));
  archive.write("tolerance_change", IValue(tolerance_change()));
  archive.write("history_size", IValue(history_size()));
  if (line_search_fn()) archive.write("line_search_fn", IValue(*line_search_fn()));
}

void LBFGSOptions::serialize(serialize::InputArchive& archive) {
  lr(read_double(archive, "lr"));
  max_iter(read_int(archive, "max_iter"));
  IValue value;
  max_eval(archive.try_read("max_eval", value) ? std::optional<int64_t>(value.toInt()) : std::nullopt);
  tolerance_grad(read_double(archive, "tolerance_grad"));
  tolerance_change(read_double(archive, "tolerance_change"));
  history_size(read_int(archive, "history_size"));
  line_search_fn(archive.try_read("line_search_fn", value) ? std::optional<std::string>(value.toStringRef())
                                                           : std::nullopt);
}

bool operator==(const LBFGSParamState& lhs, const LBFGSParamState& rhs) {
  const bool same_al = lhs.al().has_value() == rhs.al().has_value() && (!lhs.al() || same_tensors(*lhs.al(), *rhs.al()));
  return lhs.func_evals() == rhs.func_evals() && lhs.n_iter() == rhs.n_iter() && lhs.t() == rhs.t() &&
         lhs.prev_loss() == rhs.prev_loss() && same_tensor(lhs.d(), rhs.d()) && same_tensor(lhs.H_diag(), rhs.H_diag()) &&
         same_tensor(lhs.prev_flat_grad(), rhs.prev_flat_grad()) && same_tensors(lhs.old_dirs(), rhs.old_dirs()) &&
         same_tensors(lhs.old_stps(), rhs.old_stps()) && same_tensors(lhs.ro(), rhs.ro()) && same_al;
}

void LBFGSParamState::serialize(serialize::OutputArchive& archive) const {
  archive.write("func_evals", IValue(func_evals()));
  archive.write("n_iter", IValue(n_iter()));
  archive.write("t", IValue(t()));
  archive.write("prev_loss", IValue(prev_loss()));
  write_optional(archive, "d", d());
  write_optional(archive, "H_diag", H_diag());
  write_optional(archive, "prev_flat_grad", prev_flat_grad());
  write_tensors(archive, "old_dirs", old_dirs());
  write_tensors(archive, "old_stps", old_stps());
  write_tensors(archive, "ro", ro());
  if (al()) write_tensors(archive, "al", *al());
}

void LBFGSParamState::serialize(serialize::InputArchive& archive) {
  func_evals(read_int(archive, "func_evals"));
  n_iter(read_int(archive, "n_iter"));
  t(read_double(archive, "t"));
  prev_loss(read_double(archive, "prev_loss"));
  d(read_optional(archive, "d"));
  H_diag(read_optional(archive, "H_diag"));
  prev_flat_grad(read_optional(archive, "prev_flat_grad"));
  old_dirs(read_tensors<std::deque<Tensor>>(archive, "old_dirs"));
  old_stps(read_tensors<std::deque<Tensor>>(archive, "old_stps"));
  ro(read_tensors<std::deque<Tensor>>(archive, "ro"));
  serialize::InputArchive al_archive;
  al(archive.try_read("al", al_archive) ? std::optional<std::vector<Tensor>>(read_tensors<std::vector<Tensor>>(archive, "al"))
                                        : std::nullopt);
}

// ---- The parameters as one flat vector ----
int64_t LBFGS::_numel() {
  if (!numel_cache_) {
    int64_t total = 0;
    for (const auto& p : param_groups_.at(0).params()) total += p.numel();
    numel_cache_ = total;
  }
  return *numel_cache_;
}

Tensor LBFGS::_gather_flat_grad() {
  std::vector<Tensor> views;
  for (const auto& p : param_groups_.at(0).params()) {
    views.push_back(p.grad().defined() ? p.grad().reshape({-1}) : zeros({p.numel()}, p.options()));
  }
  return cat(views, 0);
}

void LBFGS::_add_grad(const double step_size, const Tensor& update) {
  int64_t offset = 0;
  for (auto& p : param_groups_.at(0).params()) {
    const int64_t numel = p.numel();
    p.add_(update.slice(0, offset, offset + numel).view_as(p), step_size);
    offset += numel;
  }
  TT_CHECK(offset == _numel(), "LBFGS: the parameters changed size since the first step");
}

void LBFGS::_set_param(const std::vector<Tensor>& params_data) {
  auto& params = param_groups_.at(0).params();
  for (size_t i = 0; i < params.size(); ++i) params[i].copy_(params_data[i]);
}

std::vector<Tensor> LBFGS::_clone_param() {
  std::vector<Tensor> result;
  for (const auto& p : param_groups_.at(0).params()) result.push_back(p.clone());
  return result;
}

std::tuple<double, Tensor> LBFGS::_directional_evaluate(const LossClosure& closure, const std::vector<Tensor>& x,
                                                        double t, const Tensor& d) {
  _add_grad(t, d);
  const double loss = value_of(evaluate_closure(closure));
  Tensor flat_grad = _gather_flat_grad();
  _set_param(x);
  return {loss, flat_grad};
}

// ---- The step ----
Tensor LBFGS::step(LossClosure closure) {
  NoGradGuard no_grad;
  TT_CHECK(closure != nullptr, "LBFGS requires a closure function");
  auto& group = param_groups_.at(0);
  auto& params = group.params();
  const auto& options = static_cast<const LBFGSOptions&>(group.options());
  const double lr = options.lr();
  const int64_t max_iter = options.max_iter();
  const int64_t max_eval = options.max_eval().value_or(max_iter * 5 / 4);
  const double tolerance_grad = options.tolerance_grad();
  const double tolerance_change = options.tolerance_change();
  const int64_t history_size = options.history_size();

  // The state is global; LibTorch files it under the first parameter.
  const std::string key = param_state_key(params.at(0));
  if (state_.find(key) == state_.end()) state_[key] = std::make_unique<LBFGSParamState>();
  auto& state = static_cast<LBFGSParamState&>(*state_[key]);

  // f(x) and its gradient at the start.
  Tensor orig_loss = evaluate_closure(closure);
  double loss = value_of(orig_loss);
  int64_t current_evals = 1;
  state.func_evals(state.func_evals() + 1);
  Tensor flat_grad = _gather_flat_grad();
  bool opt_cond = value_of(flat_grad.abs().max()) <= tolerance_grad;
  if (opt_cond) return orig_loss;  // already at a stationary point

  Tensor& d = state.d();
  double& t = state.t();
  auto& old_dirs = state.old_dirs();
  auto& old_stps = state.old_stps();
  auto& ro = state.ro();
  Tensor& H_diag = state.H_diag();
  Tensor& prev_flat_grad = state.prev_flat_grad();
  double& prev_loss = state.prev_loss();

  int64_t n_iter = 0;
  while (n_iter < max_iter) {
    n_iter++;
    state.n_iter(state.n_iter() + 1);

    // The direction: steepest descent at first, then the L-BFGS approximation of -H g.
    if (state.n_iter() == 1) {
      d = flat_grad.neg();
      H_diag = tensor(1);
      old_dirs.clear();
      old_stps.clear();
      ro.clear();
    } else {
      const Tensor y = flat_grad.sub(prev_flat_grad);
      const Tensor s = d.mul(t);
      const Tensor ys = y.dot(s);
      if (value_of(ys) > 1e-10) {  // keep only pairs of positive curvature
        if (static_cast<int64_t>(old_dirs.size()) == history_size) {
          old_dirs.pop_front();
          old_stps.pop_front();
          ro.pop_front();
        }
        old_dirs.push_back(y);
        old_stps.push_back(s);
        ro.push_back(1. / ys);
        H_diag = ys / y.dot(y);  // scale of the initial inverse Hessian
      }
      // Two-loop recursion, with one buffer.
      const int64_t num_old = static_cast<int64_t>(old_dirs.size());
      if (!state.al()) state.al(std::vector<Tensor>(static_cast<size_t>(history_size)));
      auto& al = *state.al();
      Tensor q = flat_grad.neg();
      for (int64_t i = num_old - 1; i > -1; i--) {
        al.at(i) = old_stps.at(i).dot(q) * ro.at(i);
        q.add_(old_dirs.at(i), -value_of(al.at(i)));
      }
      Tensor r = q.mul(H_diag);
      d = r;
      for (int64_t i = 0; i < num_old; i++) {
        const Tensor be_i = old_dirs.at(i).dot(r) * ro.at(i);
        r.add_(old_stps.at(i), value_of(al.at(i) - be_i));
      }
    }

    if (!prev_flat_grad.defined()) {
      prev_flat_grad = flat_grad.clone();
    } else {
      prev_flat_grad.copy_(flat_grad);
    }
    prev_loss = loss;

    // The step length: the first one shrinks with the gradient, so that the first move is at most lr.
    t = state.n_iter() == 1 ? std::min(1., 1. / value_of(flat_grad.abs().sum())) * lr : lr;

    const double gtd = value_of(flat_grad.dot(d));  // directional derivative
    if (gtd > -tolerance_change) break;             // not a descent direction any more

    int64_t ls_func_evals = 0;
    if (options.line_search_fn()) {
      TT_CHECK(*options.line_search_fn() == "strong_wolfe", "only 'strong_wolfe' is supported");
      const std::vector<Tensor> x_init = _clone_param();
      auto obj_func = [&](const std::vector<Tensor>& x, double step, const Tensor& direction) {
        return _directional_evaluate(closure, x, step, direction);
      };
      LineSearchResult found = strong_wolfe(obj_func, x_init, t, d, loss, flat_grad, gtd);
      loss = found.loss;
      flat_grad = found.flat_grad;
      t = found.t;
      ls_func_evals = found.func_evals;
      _add_grad(t, d);
      opt_cond = value_of(flat_grad.abs().max()) <= tolerance_grad;
    } else {
      _add_grad(t, d);  // a fixed step
      if (n_iter != max_iter) {
        // Re-evaluated except after the last iteration (in a stochastic setting it would be wasted).
        loss = value_of(evaluate_closure(closure));
        flat_grad = _gather_flat_grad();
        opt_cond = value_of(flat_grad.abs().max()) <= tolerance_grad;
        ls_func_evals = 1;
      }
    }
    current_evals += ls_func_evals;
    state.func_evals(state.func_evals() + ls_func_evals);

    // Stopping conditions.
    if (n_iter == max_iter) break;
    if (current_evals >= max_eval) break;
    if (opt_cond) break;
    if (value_of(d.mul(t).abs().max()) <= tolerance_change) break;  // no progress in x
    if (std::abs(loss - prev_loss) < tolerance_change) break;        // no progress in f
  }
  return orig_loss;
}

}  // namespace optim
}  // namespace tinytorch
