// torch::optim beyond the graded module-07 tests: parameter groups and their options, LibTorch's
// validation messages, RMSprop against its formula, closures, and optimizer state that is saved,
// restored into a fresh optimizer and then continues bit-identically.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <tinytorch/torch.h>

using Catch::Matchers::Contains;
namespace optim = torch::optim;
using Values = std::vector<double>;

namespace {

torch::Tensor parameter(const Values& values) {
  return torch::tensor(values, torch::TensorOptions().dtype(torch::kDouble).requires_grad(true));
}

Values values_of(const torch::Tensor& t) {
  const torch::Tensor dense = t.contiguous();
  const double* data = dense.data_ptr<double>();
  return Values(data, data + dense.numel());
}

// Gradient of 0.5 * sum(curvature * p^2) into p.grad(), through autograd.
void quadratic_backward(const torch::Tensor& p, const Values& curvature) {
  (p * p * torch::tensor(curvature, torch::kDouble)).sum().mul(0.5).backward();
}

const Values kCurvature = {50.0, 0.5, 5.0, 0.05};

void run_steps(optim::Optimizer& optimizer, const std::vector<torch::Tensor>& params, int steps) {
  for (int i = 0; i < steps; ++i) {
    optimizer.zero_grad();
    for (const auto& p : params) quadratic_backward(p, kCurvature);
    optimizer.step();
  }
}

bool bit_equal(const torch::Tensor& a, const torch::Tensor& b) {
  return a.sizes() == b.sizes() && std::memcmp(a.contiguous().data_ptr(), b.contiguous().data_ptr(), a.nbytes()) == 0;
}

std::vector<torch::Tensor> fresh_params() { return {parameter({1.0, 1.0, -2.0, 3.0}), parameter({0.5, -0.5, 2.0, 1.0})}; }

// Copies of the parameters' values, as new leaves that require grad.
std::vector<torch::Tensor> copies_of(const std::vector<torch::Tensor>& params) {
  std::vector<torch::Tensor> out;
  for (const auto& p : params) out.push_back(parameter(values_of(p)));
  return out;
}

// Runs `make` twice: A runs 5 steps, is saved, runs 5 more; B (fresh copies of A's parameters at the
// save) loads the state and runs the same 5 steps. Both must end bit-identical.
void check_state_round_trip(const std::function<std::unique_ptr<optim::Optimizer>(std::vector<torch::Tensor>)>& make) {
  auto params_a = fresh_params();
  auto a = make(params_a);
  run_steps(*a, params_a, 5);
  std::stringstream saved;
  {
    torch::serialize::OutputArchive archive;
    a->save(archive);
    archive.save_to(saved);
  }
  auto params_b = copies_of(params_a);
  run_steps(*a, params_a, 5);

  auto b = make(params_b);
  torch::serialize::InputArchive archive;
  archive.load_from(saved);
  b->load(archive);
  CHECK(b->state().size() == a->state().size());
  run_steps(*b, params_b, 5);
  for (size_t i = 0; i < params_a.size(); ++i) CHECK(bit_equal(params_a[i], params_b[i]));
}

}  // namespace

TEST_CASE("parameter groups take the defaults unless they bring options", "[optim][groups]") {
  auto a = parameter({1.0});
  auto b = parameter({1.0});
  std::vector<optim::OptimizerParamGroup> groups;
  groups.emplace_back(std::vector<torch::Tensor>{a});
  groups.emplace_back(std::vector<torch::Tensor>{b}, std::make_unique<optim::SGDOptions>(optim::SGDOptions(0.5)));
  optim::SGD sgd(groups, optim::SGDOptions(0.1).momentum(0.9));
  REQUIRE(sgd.param_groups().size() == 2);
  CHECK(sgd.size() == 2);
  CHECK(sgd.parameters().size() == 1);
  CHECK(sgd.param_groups()[0].options().get_lr() == 0.1);
  CHECK(static_cast<optim::SGDOptions&>(sgd.param_groups()[0].options()).momentum() == 0.9);
  CHECK(sgd.param_groups()[1].options().get_lr() == 0.5);
  CHECK(static_cast<optim::SGDOptions&>(sgd.param_groups()[1].options()).momentum() == 0.0);

  // What LibTorch's LRScheduler does: set the lr of every group through the typeless options.
  for (auto& group : sgd.param_groups()) group.options().set_lr(group.options().get_lr() / 10);
  CHECK(sgd.param_groups()[0].options().get_lr() == Approx(0.01));
  CHECK(static_cast<optim::SGDOptions&>(sgd.param_groups()[1].options()).lr() == Approx(0.05));

  (a * 1.0).sum().backward();
  (b * 1.0).sum().backward();
  sgd.step();
  CHECK(values_of(a)[0] == Approx(1.0 - 0.01));
  CHECK(values_of(b)[0] == Approx(1.0 - 0.05));
  CHECK(static_cast<optim::SGDOptions&>(sgd.defaults()).lr() == 0.1);  // the defaults are untouched
}

TEST_CASE("a parameter may be in one group once; add_parameters extends the first group", "[optim][groups]") {
  auto a = parameter({1.0});
  auto b = parameter({2.0});
  optim::Adam adam(std::vector<torch::Tensor>{a});
  CHECK_THROWS_WITH(adam.add_param_group(optim::OptimizerParamGroup({a})),
                    Contains("some parameters appear in more than one parameter group"));
  CHECK_THROWS_WITH(optim::Adam(std::vector<torch::Tensor>{b, b}),
                    Contains("some parameters appear in more than one parameter group"));
  CHECK_THROWS_WITH(optim::SGD(std::vector<torch::Tensor>{torch::Tensor()}, 0.1), Contains("undefined"));
  adam.add_parameters({b});
  CHECK(adam.parameters().size() == 2);
  CHECK(adam.param_groups().size() == 1);
  CHECK_THROWS_WITH(adam.add_parameters({b}), Contains("more than one parameter group"));
  auto non_leaf = a * 2.0;
  CHECK_THROWS_WITH(optim::SGD(std::vector<torch::Tensor>{non_leaf}, 0.1), "can't optimize a non-leaf Tensor");
}

TEST_CASE("invalid hyperparameters are refused with LibTorch's messages", "[optim][errors]") {
  const std::vector<torch::Tensor> params{parameter({1.0})};
  CHECK_THROWS_WITH(optim::SGD(params, optim::SGDOptions(-0.1)), "Invalid learning rate: -0.1");
  CHECK_THROWS_WITH(optim::SGD(params, optim::SGDOptions(0.1).momentum(-1)), "Invalid momentum value: -1");
  CHECK_THROWS_WITH(optim::SGD(params, optim::SGDOptions(0.1).nesterov(true)),
                    "Nesterov momentum requires a momentum and zero dampening");
  CHECK_THROWS_WITH(optim::Adam(params, optim::AdamOptions().betas({1.0, 0.999})),
                    "Invalid beta parameter at index 0: 1");
  CHECK_THROWS_WITH(optim::AdamW(params, optim::AdamWOptions().eps(-1)), "Invalid epsilon value: -1");
  CHECK_THROWS_WITH(optim::RMSprop(params, optim::RMSpropOptions().alpha(-0.5)), "Invalid alpha value: -0.5");
  CHECK_THROWS_WITH(optim::Adam(params, optim::AdamOptions().weight_decay(-1)), "Invalid weight_decay value: -1");
}

TEST_CASE("defaults match LibTorch 1.13", "[optim]") {
  CHECK(optim::AdamOptions().lr() == 1e-3);
  CHECK(optim::AdamOptions().betas() == std::make_tuple(0.9, 0.999));
  CHECK(optim::AdamOptions().eps() == 1e-8);
  CHECK(optim::AdamOptions().weight_decay() == 0);
  CHECK(optim::AdamWOptions().weight_decay() == 1e-2);
  CHECK(optim::RMSpropOptions().lr() == 1e-2);
  CHECK(optim::RMSpropOptions().alpha() == 0.99);
  CHECK(optim::SGDOptions(0.1).dampening() == 0);
  CHECK_FALSE(optim::SGDOptions(0.1).nesterov());
}

TEST_CASE("RMSprop follows its formula (centered, momentum, weight decay)", "[optim][rmsprop]") {
  auto p = parameter({1.0, 1.0, -2.0, 3.0});
  optim::RMSprop rmsprop(std::vector<torch::Tensor>{p},
                         optim::RMSpropOptions(0.01).alpha(0.9).momentum(0.5).centered(true).weight_decay(0.1));
  Values expected = values_of(p);
  Values square_avg(4, 0.0), grad_avg(4, 0.0), buf(4, 0.0);
  for (int step = 0; step < 50; ++step) {
    rmsprop.zero_grad();
    quadratic_backward(p, kCurvature);
    rmsprop.step();
    for (size_t i = 0; i < 4; ++i) {
      const double g = kCurvature[i] * expected[i] + 0.1 * expected[i];
      square_avg[i] = 0.9 * square_avg[i] + 0.1 * g * g;
      grad_avg[i] = 0.9 * grad_avg[i] + 0.1 * g;
      const double avg = std::sqrt(square_avg[i] - grad_avg[i] * grad_avg[i]) + 1e-8;
      buf[i] = 0.5 * buf[i] + g / avg;
      expected[i] -= 0.01 * buf[i];
    }
  }
  const Values actual = values_of(p);
  for (size_t i = 0; i < 4; ++i) CHECK(actual[i] == Approx(expected[i]).margin(1e-9));
}

TEST_CASE("step evaluates the closure with grad mode on and returns its loss", "[optim]") {
  auto p = parameter({3.0});
  optim::SGD sgd(std::vector<torch::Tensor>{p}, optim::SGDOptions(0.1));
  const torch::Tensor loss = sgd.step([&] {
    sgd.zero_grad();
    torch::Tensor l = (p * p).sum();
    l.backward();
    return l;
  });
  CHECK(loss.item<double>() == 9.0);
  CHECK(values_of(p)[0] == Approx(3.0 - 0.1 * 6.0));
  CHECK_FALSE(sgd.step().defined());
}

TEST_CASE("optimizer state saved mid-run continues bit-identically in a fresh optimizer", "[optim][serialize]") {
  SECTION("SGD with Nesterov momentum") {
    check_state_round_trip([](std::vector<torch::Tensor> p) {
      return std::make_unique<optim::SGD>(p, optim::SGDOptions(0.01).momentum(0.9).nesterov(true));
    });
  }
  SECTION("Adam with amsgrad") {
    check_state_round_trip([](std::vector<torch::Tensor> p) {
      return std::make_unique<optim::Adam>(p, optim::AdamOptions(0.05).amsgrad(true).weight_decay(0.01));
    });
  }
  SECTION("AdamW") {
    check_state_round_trip([](std::vector<torch::Tensor> p) { return std::make_unique<optim::AdamW>(p, 0.05); });
  }
  SECTION("RMSprop, centered with momentum") {
    check_state_round_trip([](std::vector<torch::Tensor> p) {
      return std::make_unique<optim::RMSprop>(p, optim::RMSpropOptions(0.01).momentum(0.5).centered(true));
    });
  }
}

TEST_CASE("loading restores options and refuses another optimizer or another model", "[optim][serialize]") {
  auto p = parameter({1.0, 2.0});
  optim::Adam adam(std::vector<torch::Tensor>{p}, optim::AdamOptions(0.05).betas({0.8, 0.9}));
  quadratic_backward(p, {1.0, 1.0});
  adam.step();
  torch::serialize::OutputArchive out;
  adam.save(out);
  std::stringstream bytes;
  out.save_to(bytes);
  const std::string saved = bytes.str();

  auto q = parameter({1.0, 2.0});
  optim::Adam restored(std::vector<torch::Tensor>{q}, optim::AdamOptions(0.001));
  torch::serialize::InputArchive in;
  in.load_from(saved.data(), saved.size());
  restored.load(in);
  const auto& options = static_cast<const optim::AdamOptions&>(restored.param_groups()[0].options());
  CHECK(options.lr() == 0.05);
  CHECK(options.betas() == std::make_tuple(0.8, 0.9));
  const auto& state = static_cast<const optim::AdamParamState&>(*restored.state().at(optim::param_state_key(q)));
  CHECK(state.step() == 1);

  optim::SGD sgd(std::vector<torch::Tensor>{q}, optim::SGDOptions(0.1));
  CHECK_THROWS_WITH(sgd.load(in), Contains("state of a torch::optim::Adam, not of a torch::optim::SGD"));

  auto wide = parameter({1.0, 2.0, 3.0});
  optim::Adam other_model(std::vector<torch::Tensor>{wide});
  CHECK_THROWS_WITH(other_model.load(in), Contains("has sizes [2], the parameter has [3]"));
  CHECK(other_model.state().empty());  // a failed load changes nothing
  CHECK(other_model.param_groups()[0].options().get_lr() == 1e-3);

  optim::Adam two_params(std::vector<torch::Tensor>{parameter({1.0, 2.0}), parameter({3.0})});
  CHECK_THROWS_WITH(two_params.load(in), Contains("saved with 1 parameters, this optimizer's has 2"));
}

TEST_CASE("memory_footprint counts the optimizer's state tensors", "[optim][memory]") {
  auto p = parameter({1.0, 2.0, 3.0, 4.0});  // 32 bytes
  optim::RMSprop plain(std::vector<torch::Tensor>{p});
  optim::RMSprop full(std::vector<torch::Tensor>{p}, optim::RMSpropOptions().momentum(0.9).centered(true));
  optim::Adam amsgrad(std::vector<torch::Tensor>{p}, optim::AdamOptions().amsgrad(true));
  CHECK(optim::memory_footprint(plain) == 0);  // state is created lazily, on the first step
  quadratic_backward(p, kCurvature);
  plain.step();
  full.step();
  amsgrad.step();
  CHECK(optim::memory_footprint(plain) == 32);       // square_avg
  CHECK(optim::memory_footprint(full) == 3 * 32);    // + momentum_buffer + grad_avg
  CHECK(optim::memory_footprint(amsgrad) == 3 * 32); // exp_avg, exp_avg_sq, max_exp_avg_sq
}
