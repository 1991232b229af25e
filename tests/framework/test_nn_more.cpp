// LibTorch-coverage additions: nn::ParameterList / ParameterDict, the rest of nn::init, Adagrad and
// LBFGS, cross-entropy on (N, C, d1, ...) inputs and class probabilities, the other losses and
// distances, and small Module / IntArrayRef spellings. Expected numbers are LibTorch 1.13's outputs.
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

#include "test_helpers.h"

using test_helpers::shape;
using test_helpers::values;
using V = std::vector<double>;
using S = std::vector<int64_t>;
namespace F = torch::nn::functional;
namespace nn = torch::nn;

namespace {
void require_close(const V& actual, const V& expected, double tolerance = 1e-4) {
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) CHECK(actual[i] == Approx(expected[i]).margin(tolerance));
}
}  // namespace

TEST_CASE("ParameterList registers \"0\", \"1\", ... and keeps each tensor's requires_grad", "[nn_more]") {
  nn::ParameterList list(torch::ones({2, 2}, torch::requires_grad()), torch::zeros({3}));
  list->append(torch::arange(4.0).reshape({2, 2}));
  list->extend(std::vector<torch::Tensor>{torch::full({1}, 7.0), torch::eye(2, torch::kDouble)});
  REQUIRE(list->size() == 5);
  CHECK_FALSE(list->is_empty());
  CHECK(list->named_parameters().keys() == std::vector<std::string>{"0", "1", "2", "3", "4"});
  CHECK(list[0].requires_grad());
  CHECK_FALSE(list[1].requires_grad());
  CHECK(values(list->at(2)) == V{0, 1, 2, 3});
  CHECK_THROWS_WITH(list->at(9), "Index out of range");
  std::ostringstream printed;
  printed << *list;
  CHECK(printed.str() ==
        "torch::nn::ParameterList(\n(0): Parameter containing: [Float of size [2, 2]]\n"
        "(1): Parameter containing: [Float of size [3]]\n(2): Parameter containing: [Float of size [2, 2]]\n"
        "(3): Parameter containing: [Float of size [1]]\n(4): Parameter containing: [Double of size [2, 2]]\n)");
  nn::ParameterList copy;
  copy->extend(list->named_parameters());
  CHECK(copy->size() == 5);
  int64_t count = 0;
  for (const auto& item : *list) count += item.value().numel();
  CHECK(count == 4 + 3 + 4 + 1 + 4);
}

TEST_CASE("ParameterDict: insert, get, update of existing keys, pop, clear and LibTorch's errors", "[nn_more]") {
  nn::ParameterDict dict;
  dict->insert("scale", torch::ones({4}));
  dict->insert("shift", torch::zeros({4}, torch::requires_grad()));
  CHECK(dict->keys() == std::vector<std::string>{"scale", "shift"});
  CHECK(dict->contains("shift"));
  CHECK_FALSE(dict->contains("bias"));
  CHECK(dict["shift"].requires_grad());
  CHECK_THROWS_WITH(dict->insert("shift", torch::ones({1})), "Parameter 'shift' already defined");
  CHECK_THROWS_WITH(dict->pop("missing"), "Parameter 'missing' is not defined");
  CHECK_THROWS_WITH(dict->get("missing"), "Parameter 'missing' is not defined");
  torch::OrderedDict<std::string, torch::Tensor> replacements;
  replacements.insert("scale", torch::full({4}, 3.0));
  dict->update(replacements);
  CHECK(dict["scale"].sum().item<double>() == 12);
  torch::OrderedDict<std::string, torch::Tensor> fresh;
  fresh.insert("new", torch::ones({1}));
  CHECK_THROWS_WITH(dict->update(fresh), "Parameter 'new' is not defined");  // update overwrites only
  std::ostringstream printed;
  printed << *dict;
  CHECK(printed.str() ==
        "torch::nn::ParameterDict(\n(scale): Parameter containing: [Float of size [4]]\n"
        "(shift): Parameter containing: [Float of size [4]]\n)");
  CHECK(shape(dict->pop("scale")) == S{4});
  CHECK(dict->size() == 1);
  dict->clear();
  CHECK(dict->empty());
}

namespace {
struct MixtureImpl : nn::Module {
  MixtureImpl() {
    weights = register_module("weights", nn::ParameterList(torch::ones({2, 3}), torch::zeros({3})));
    scales = register_module("scales", nn::ParameterDict());
    scales->insert("beta", torch::arange(4.0).requires_grad_(true));
    head = register_module("head", nn::Linear(3, 2));
  }
  nn::ParameterList weights;
  nn::ParameterDict scales;
  nn::Linear head{nullptr};
};
TORCH_MODULE(Mixture);
}  // namespace

TEST_CASE("Module: containers as children, as<T>() const, const apply, to(dtype), zero_grad", "[nn_more]") {
  Mixture model;
  CHECK(model->named_parameters().keys() ==
        std::vector<std::string>{"weights.0", "weights.1", "scales.beta", "head.weight", "head.bias"});
  CHECK(model->parameters(/*recurse=*/false).empty());
  CHECK(model->named_children().keys() == std::vector<std::string>{"weights", "scales", "head"});
  const nn::Module& as_const = *model;
  CHECK(as_const.as<nn::ParameterList>() == nullptr);
  CHECK(as_const.as<MixtureImpl>() != nullptr);
  CHECK(model->head->as<nn::Linear>() != nullptr);
  int visited = 0;
  as_const.apply([&](const nn::Module&) { ++visited; });
  CHECK(visited == 4);
  std::vector<std::string> names;
  as_const.apply([&](const std::string& name, const nn::Module&) { names.push_back(name); }, "net");
  CHECK(names == std::vector<std::string>{"net", "net.weights", "net.scales", "net.head"});
  int pointers = 0;
  as_const.apply([&](const std::shared_ptr<nn::Module>& module) { pointers += module != nullptr; });
  CHECK(pointers == 4);
  model->eval();
  CHECK_FALSE(model->weights->is_training());
  model->to(torch::kDouble);
  CHECK(model->weights[0].scalar_type() == torch::kDouble);
  model->head->weight.sum().backward();
  model->zero_grad(/*set_to_none=*/false);
  REQUIRE(model->head->weight.grad().defined());
  CHECK(model->head->weight.grad().abs().sum().item<double>() == 0);
  model->zero_grad(/*set_to_none=*/true);
  CHECK_FALSE(model->head->weight.grad().defined());
}

TEST_CASE("IntArrayRef::slice and at as c10::ArrayRef", "[nn_more]") {
  auto tensor = torch::empty({2, 3, 4, 5});
  auto sizes = tensor.sizes();
  CHECK(sizes.slice(2).vec() == S{4, 5});
  CHECK(sizes.slice(1, 2).vec() == S{3, 4});
  CHECK(sizes.at(3) == 5);
  CHECK_THROWS_WITH(sizes.slice(3, 2), "ArrayRef: invalid slice, N = 3; M = 2; size = 4");
  CHECK_THROWS_WITH(sizes.at(4), "ArrayRef: invalid index Index = 4; Length = 4");
}

TEST_CASE("nn::init: calculate_gain, eye_, dirac_, orthogonal_, sparse_, kaiming modes", "[nn_more]") {
  namespace init = nn::init;
  CHECK(init::calculate_gain(torch::kLinear) == 1);
  CHECK(init::calculate_gain(torch::kConv3D) == 1);
  CHECK(init::calculate_gain(torch::kSigmoid) == 1);
  CHECK(init::calculate_gain(torch::kTanh) == Approx(1.66667).epsilon(1e-5));
  CHECK(init::calculate_gain(torch::kReLU) == Approx(1.41421).epsilon(1e-5));
  CHECK(init::calculate_gain(torch::kLeakyReLU) == Approx(1.41414).epsilon(1e-5));
  CHECK(init::calculate_gain(torch::kLeakyReLU, 0.2) == Approx(1.38675).epsilon(1e-5));
  CHECK(torch::enumtype::get_enum_name(init::FanModeType(torch::kFanOut)) == "kFanOut");

  torch::NoGradGuard no_grad;
  auto matrix = torch::empty({2, 3});
  init::eye_(matrix);
  CHECK(values(matrix) == V{1, 0, 0, 0, 1, 0});
  auto kernel = torch::empty({2, 3, 3});
  init::dirac_(kernel);
  CHECK(values(kernel.nonzero()) == V{0, 0, 1, 1, 1, 1});
  auto kernel5 = torch::empty({2, 2, 1, 3, 3});
  init::dirac_(kernel5);
  CHECK(values(kernel5.nonzero()) == V{0, 0, 0, 1, 1, 1, 1, 0, 1, 1});
  CHECK_THROWS_WITH(init::dirac_(torch::empty({2, 2})), "Only tensors with 3, 4, or 5 dimensions are supported");
  CHECK_THROWS_WITH(init::eye_(torch::empty({2, 2, 2})), "Only tensors with 2 dimensions are supported");
  CHECK_THROWS_WITH(init::orthogonal_(torch::empty({3})), "Only tensors with 2 or more dimensions are supported");
  CHECK_THROWS_WITH(init::sparse_(torch::empty({2, 2, 2}), 0.5), "Only tensors with 2 dimensions are supported");
  CHECK_THROWS_WITH(init::kaiming_normal_(torch::empty({3})),
                    "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");

  torch::manual_seed(0);
  auto tall = torch::empty({6, 4});
  init::orthogonal_(tall, 2.0);
  CHECK(torch::allclose(tall.t().mm(tall), 4 * torch::eye(4), 1e-4, 1e-4));
  auto wide = torch::empty({3, 2, 4});
  init::orthogonal_(wide);
  auto rows = wide.reshape({3, 8});
  CHECK(torch::allclose(rows.mm(rows.t()), torch::eye(3), 1e-4, 1e-4));
  auto sparse = torch::empty({10, 6});
  init::sparse_(sparse, 0.3, 0.5);
  CHECK(values((sparse == 0).sum(0)) == V{3, 3, 3, 3, 3, 3});
  auto big = torch::empty({400, 200});
  init::kaiming_uniform_(big, 0, torch::kFanOut, torch::kReLU);
  const double fan_out_bound = std::sqrt(2.0) * std::sqrt(3.0 / 400);
  CHECK(big.abs().max().item<double>() <= fan_out_bound);
  CHECK(big.abs().max().item<double>() > 0.95 * fan_out_bound);
  init::kaiming_normal_(big, 0, torch::kFanIn, torch::kTanh);
  CHECK(big.std().item<double>() == Approx((5.0 / 3.0) / std::sqrt(200.0)).epsilon(0.02));
}

TEST_CASE("Adagrad: LibTorch's update with lr_decay, weight_decay and initial accumulator", "[nn_more]") {
  auto p = torch::tensor({1.0, -2.0, 0.5}, torch::requires_grad());
  auto c = torch::tensor({1.0, 3.0, 0.5});
  torch::optim::Adagrad adagrad(
      {p}, torch::optim::AdagradOptions(0.1).lr_decay(0.5).weight_decay(0.1).initial_accumulator_value(0.2));
  REQUIRE(adagrad.state().size() == 1);  // made by the constructor
  const std::vector<V> expected = {{0.90219325, -1.9000671, 0.42241198},
                                   {0.85808367, -1.8541658, 0.38586482},
                                   {0.83145314, -1.826281, 0.36347637}};
  for (const auto& after : expected) {
    adagrad.zero_grad();
    (c * p * p).sum().backward();
    adagrad.step();
    require_close(values(p), after, 1e-6);
  }
  const auto& state = static_cast<const torch::optim::AdagradParamState&>(*adagrad.state().begin()->second);
  CHECK(state.step() == 3);
  CHECK_THROWS_WITH(torch::optim::Adagrad(std::vector<torch::Tensor>{torch::ones(1)},
                                          torch::optim::AdagradOptions().initial_accumulator_value(-1)),
                    "Invalid initial_accumulator_value value: -1");

  // save / load round trip keeps step and sum.
  torch::serialize::OutputArchive archive;
  adagrad.save(archive);
  std::ostringstream bytes;
  archive.save_to(bytes);
  auto q = p.detach().clone().requires_grad_(true);
  torch::optim::Adagrad restored({q}, torch::optim::AdagradOptions(0.1));
  torch::serialize::InputArchive input;
  const std::string data = bytes.str();
  input.load_from(data.data(), data.size());
  restored.load(input);
  const auto& loaded = static_cast<const torch::optim::AdagradParamState&>(*restored.state().begin()->second);
  CHECK(loaded.step() == 3);
  CHECK(torch::equal(loaded.sum(), state.sum()));
  CHECK(static_cast<const torch::optim::AdagradOptions&>(restored.param_groups()[0].options()).lr_decay() == 0.5);
}

TEST_CASE("LBFGS: fixed step and strong Wolfe line search as LibTorch", "[nn_more]") {
  auto c = torch::tensor({1.0, 3.0, 0.5});
  auto q = torch::tensor({1.0, -2.0, 0.5}, torch::requires_grad());
  torch::optim::LBFGS lbfgs({q}, torch::optim::LBFGSOptions(0.5).max_iter(5));
  CHECK(static_cast<const torch::optim::LBFGSOptions&>(lbfgs.defaults()).max_eval().value() == 6);
  auto loss = lbfgs.step([&] {
    lbfgs.zero_grad();
    auto l = (c * q * q).sum() + q.sum();
    l.backward();
    return l;
  });
  CHECK(loss.item<double>() == Approx(12.625));  // the loss at the start of the step
  require_close(values(q), V{-0.28206187, -0.1781971, -0.38634098}, 1e-5);

  auto r = torch::tensor({-1.2, 1.0}, torch::requires_grad());
  torch::optim::LBFGS wolfe({r}, torch::optim::LBFGSOptions(1).max_iter(30).line_search_fn("strong_wolfe"));
  auto rosenbrock = [&] {
    wolfe.zero_grad();
    auto x = r[0];
    auto y = r[1];
    auto f = (1 - x) * (1 - x) + 100 * (y - x * x) * (y - x * x);
    f.backward();
    return f;
  };
  CHECK(wolfe.step(rosenbrock).item<double>() == Approx(24.200006));
  require_close(values(r), V{0.97627497, 0.95133311}, 1e-3);
  CHECK(wolfe.step(rosenbrock).item<double>() == Approx(0.00087962288).margin(1e-4));
  require_close(values(r), V{0.99998242, 0.99996412}, 1e-3);

  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(std::vector<torch::Tensor>{torch::ones(1)});
  groups.emplace_back(std::vector<torch::Tensor>{torch::ones(2)});
  CHECK_THROWS_WITH(torch::optim::LBFGS(groups, torch::optim::LBFGSOptions()),
                    "LBFGS doesn't support per-parameter options (parameter groups)");
}

TEST_CASE("cross_entropy_loss: (N, C, d1) class indices, probabilities, smoothing", "[nn_more]") {
  auto logits = torch::tensor({{{0.5, -1.0}, {2.0, 0.0}, {-0.5, 1.0}}});  // (1, 3, 2)
  auto target = torch::tensor({{2, 0}});
  auto probs = torch::tensor({{{0.2, 0.5}, {0.3, 0.5}, {0.5, 0.0}}});
  CHECK(torch::cross_entropy_loss(logits, target).item<double>() == Approx(2.586987));
  CHECK(torch::cross_entropy_loss(logits, target, {}, at::Reduction::Mean, 0, 0.2).item<double>() ==
        Approx(2.5330348));
  CHECK(torch::cross_entropy_loss(logits, target, {}, at::Reduction::Mean, -100, -0.5).item<double>() ==
        Approx(2.586987));  // a negative smoothing is no smoothing, as in LibTorch
  CHECK(torch::cross_entropy_loss(logits, probs).item<double>() == Approx(1.8619869));
  require_close(values(torch::cross_entropy_loss(logits, probs, {}, at::Reduction::None)), V{1.8164, 1.9076});
  auto x = logits.clone().requires_grad_(true);
  torch::cross_entropy_loss(x, probs, torch::tensor({1.0, 2.0, 0.5}), at::Reduction::Mean, -100, 0.1).backward();
  require_close(values(x.grad()), V{-0.0159, -0.1756, 0.1034, -0.3039, -0.0874, 0.4795});
  CHECK_THROWS_WITH(torch::cross_entropy_loss(logits, probs, torch::ones({2})),
                    "cross_entropy: weight tensor should be defined either for all 3 classes or no classes but got "
                    "weight tensor of shape: [2]");
  CHECK_THROWS_WITH(torch::cross_entropy_loss(logits, torch::ones({1, 3, 2}, torch::kLong)),
                    "Expected floating point type for target with class probabilities, got Long");
  CHECK_THROWS_WITH(torch::cross_entropy_loss(logits, probs, {}, at::Reduction::Mean, 1),
                    "ignore_index is not supported for floating point target");
  CHECK_THROWS_WITH(torch::nll_loss2d(torch::zeros({1, 2, 2, 2}), torch::zeros({1, 2, 3}, torch::kLong)),
                    "size mismatch (got input: [1, 2, 2, 2] , target: [1, 2, 3]");
  CHECK_THROWS_WITH(torch::nll_loss_nd(torch::zeros({1, 2, 2, 2, 2}), torch::zeros({1, 2, 3, 2}, torch::kLong)),
                    "Expected target size [1, 2, 2, 2], got [1, 2, 3, 2]");
}

TEST_CASE("Other losses and distances match LibTorch", "[nn_more]") {
  auto a = torch::tensor({0.5, -1.0, 2.0});
  auto b = torch::tensor({1.0, 1.0, -1.0});
  require_close(values(torch::huber_loss(a, b, at::Reduction::None, 1.5)), V{0.125, 1.875, 3.375});
  require_close(values(torch::soft_margin_loss(a, b, at::Reduction::None)), V{0.4741, 1.3133, 2.1269});
  CHECK(torch::cosine_similarity(a.view({1, 3}), b.view({1, 3})).item<double>() == Approx(-0.62994075));
  // Each input is divided by its clamped norm first (LibTorch 1.13), so tiny vectors give 0.01, not 1e-10.
  CHECK(torch::cosine_similarity(torch::tensor({{1e-9, 0.0}}), torch::tensor({{1e-9, 0.0}})).item<double>() ==
        Approx(0.01).epsilon(1e-4));
  CHECK(torch::pairwise_distance(a, b).item<double>() == Approx(3.6400552));
  require_close(values(torch::poisson_nll_loss(a.abs(), torch::tensor({0.0, 2.0, 3.0}), false, true, 1e-8,
                                               at::Reduction::None)),
                V{0.5, 1.6518, 1.6846});
  require_close(values(torch::hinge_embedding_loss(a, b, 1.5, at::Reduction::None)), V{0.5, -1.0, 0.0});
  CHECK_THROWS_WITH(torch::huber_loss(a, b, at::Reduction::Mean, 0.0),
                    "huber_loss does not support non-positive values for delta.");
  std::ostringstream printed;
  printed << *nn::HuberLoss() << " " << *nn::TripletMarginLoss(nn::TripletMarginLossOptions().margin(0.5).p(3).eps(1e-5))
          << " " << *nn::PairwiseDistance(nn::PairwiseDistanceOptions().p(1.5));
  CHECK(printed.str() ==
        "torch::nn::HuberLoss torch::nn::TripletMarginLoss(margin=0.5, p=3, eps=1e-05, swap=false) "
        "torch::nn::PairwiseDistance(p=1.5, eps=1e-06, keepdim=false)");
}
