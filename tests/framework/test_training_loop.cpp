// Module 08's schedules, clipping and Trainer beyond the graded cases: schedules against their
// closed forms over many steps, clipping against a hand computation on random gradients, the
// Trainer on a real DataLoader, early stopping, the progress output and the SVG curves.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "test_helpers.h"

using test_helpers::values;
namespace nn = torch::nn;
namespace training = torch::training;

namespace {

double lr_of(const torch::optim::Optimizer& optimizer, size_t group = 0) {
  return optimizer.param_groups()[group].options().get_lr();
}

torch::Tensor leaf_with_grad(const torch::Tensor& gradient) {
  torch::Tensor p = torch::zeros(gradient.sizes(), torch::requires_grad());
  (p * gradient).sum().backward();
  return p;
}

// Checks that every tag opened is closed in order (<a><b/></a>), and returns the tag names seen.
std::vector<std::string> check_xml_nesting(const std::string& text) {
  std::vector<std::string> open, seen;
  std::regex tag("<(/?)([a-zA-Z]+)[^>]*?(/?)>");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), tag); it != std::sregex_iterator(); ++it) {
    const std::string closing = (*it)[1], name = (*it)[2], self_closing = (*it)[3];
    if (!closing.empty()) {
      REQUIRE_FALSE(open.empty());
      REQUIRE(open.back() == name);
      open.pop_back();
    } else {
      seen.push_back(name);
      if (self_closing.empty()) open.push_back(name);
    }
  }
  CHECK(open.empty());
  return seen;
}

size_t count_of(const std::vector<std::string>& names, const std::string& name) {
  return static_cast<size_t>(std::count(names.begin(), names.end(), name));
}

}  // namespace

TEST_CASE("training: StepLR matches LibTorch's sequence and its closed form over 100 steps", "[training][scheduler]") {
  auto p = torch::zeros({1}, torch::requires_grad());
  torch::optim::Adam optimizer({p}, torch::optim::AdamOptions(0.3));
  torch::optim::StepLR scheduler(optimizer, 7, 0.8);
  for (int call = 1; call <= 100; ++call) {
    scheduler.step();
    // LibTorch 1.13 (measured with libtorch-dev): after n calls, lr0 * gamma^floor((n - 1) / step_size).
    REQUIRE(lr_of(optimizer) == Approx(0.3 * std::pow(0.8, (call - 1) / 7)).epsilon(1e-12));
  }
  CHECK(scheduler.step_count() == 100);
  CHECK_THROWS_WITH(torch::optim::StepLR(optimizer, 0), Catch::Contains("step_size must be at least 1"));
}

TEST_CASE("training: CosineAnnealingLR keeps a base rate per group and restarts after 2 T_max", "[training][scheduler]") {
  auto p = torch::zeros({1}, torch::requires_grad());
  auto q = torch::zeros({1}, torch::requires_grad());
  torch::optim::SGD optimizer({p}, torch::optim::SGDOptions(1.0));
  optimizer.add_param_group(torch::optim::OptimizerParamGroup({q}, std::make_unique<torch::optim::SGDOptions>(0.5)));
  torch::optim::CosineAnnealingLR scheduler(optimizer, 10, 0.1);
  const double pi = std::acos(-1.0);
  for (int t = 0; t <= 40; ++t) {
    scheduler.step();
    for (size_t g = 0; g < 2; ++g) {
      const double base = g == 0 ? 1.0 : 0.5;
      REQUIRE(lr_of(optimizer, g) == Approx(0.1 + (base - 0.1) * (1 + std::cos(pi * t / 10)) / 2).epsilon(1e-12));
    }
  }
  CHECK(lr_of(optimizer) == Approx(1.0));  // t = 40 = 4 T_max: back at the top
  CHECK_THROWS_WITH(torch::optim::CosineAnnealingLR(optimizer, 0), Catch::Contains("T_max must be at least 1"));
}

TEST_CASE("training: clip_grad_norm_ equals a hand computation on random gradients for p = 1, 2, 3, inf", "[training][clipping]") {
  torch::manual_seed(11);
  for (double p : {1.0, 2.0, 3.0, static_cast<double>(INFINITY)}) {
    INFO("norm_type " << p);
    const torch::Tensor g1 = torch::randn({4, 3}), g2 = torch::randn({5});
    auto a = leaf_with_grad(g1), b = leaf_with_grad(g2);
    double expected = 0;
    for (const auto& g : {values(g1), values(g2)}) {
      for (double v : g) expected = std::isinf(p) ? std::max(expected, std::abs(v)) : expected + std::pow(std::abs(v), p);
    }
    if (!std::isinf(p)) expected = std::pow(expected, 1 / p);
    const double max_norm = expected / 4;
    CHECK(torch::nn::utils::clip_grad_norm_({a, b}, max_norm, p) == Approx(expected).epsilon(1e-5));
    const double coef = max_norm / (expected + 1e-6);
    const auto clipped = values(a.grad()), original = values(g1);
    for (size_t i = 0; i < clipped.size(); ++i) CHECK(clipped[i] == Approx(original[i] * coef).epsilon(1e-5));
  }
}

TEST_CASE("training: clip_grad_value_ clamps each element and skips missing gradients", "[training][clipping]") {
  auto a = leaf_with_grad(torch::tensor({-3.0f, 0.5f, 2.0f}));
  auto none = torch::zeros({2}, torch::requires_grad());
  torch::nn::utils::clip_grad_value_({a, none}, 1.0);
  CHECK(values(a.grad()) == std::vector<double>{-1.0, 0.5, 1.0});
  CHECK_FALSE(none.grad().defined());
}

TEST_CASE("training: the Trainer runs on a DataLoader and learns a separable problem", "[training][trainer]") {
  // Two Gaussian blobs, one per class; a linear classifier separates them.
  torch::manual_seed(5);
  const int64_t n = 64;
  torch::Tensor x = torch::randn({n, 2});
  torch::Tensor y = torch::zeros({n}, torch::kLong);
  {
    torch::NoGradGuard no_grad;
    for (int64_t i = 0; i < n; ++i) {
      const bool positive = i % 2 == 1;
      y[i] = positive ? 1 : 0;
      x[i] = x[i] * 0.5 + (positive ? 2.0 : -2.0);
    }
  }
  auto dataset = torch::data::datasets::TensorDataset(x, y).map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(std::move(dataset), 16);
  nn::Linear model(2, 2);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.5));
  training::Trainer trainer(model, optimizer, nn::CrossEntropyLoss(), training::TrainerOptions().progress(false));
  const training::History& history = trainer.fit(loader, *loader, 5);
  REQUIRE(history.epochs.size() == 5);
  CHECK(history.epochs.back().train_loss < history.epochs.front().train_loss);
  CHECK(history.epochs.back().val_accuracy == Approx(1.0));
  CHECK(history.epochs.back().samples == n);
  CHECK(trainer.step() == 5 * 4);
}

TEST_CASE("training: Trainer options are checked when the Trainer is made", "[training][trainer][errors]") {
  nn::Linear model(1, 1);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  CHECK_THROWS_WITH(training::Trainer(model, optimizer, nn::MSELoss(), training::TrainerOptions().accumulation_steps(0)),
                    Catch::Contains("accumulation_steps must be at least 1"));
  CHECK_THROWS_WITH(training::Trainer(model, optimizer, nn::MSELoss(), training::TrainerOptions().clip_grad_norm(-1.0)),
                    Catch::Contains("clip_grad_norm must be positive"));
  training::Trainer trainer(model, optimizer, nn::MSELoss(), training::TrainerOptions().progress(false));
  std::vector<torch::data::Example<>> batches{{torch::ones({1, 1}), torch::ones({1, 1})}};
  CHECK_THROWS_WITH(trainer.fit(batches, batches, 0), Catch::Contains("epochs must be at least 1"));
  CHECK_THROWS_WITH(trainer.fit(batches, batches, 3, 0), Catch::Contains("patience must be at least 1"));
  CHECK_THROWS_WITH(training::count_correct_classes(torch::zeros({3, 2}), torch::zeros({3, 2})),
                    Catch::Contains("one more dimension"));
}

TEST_CASE("training: a custom accuracy function replaces the default", "[training][trainer]") {
  // Binary classification with one probability per sample: correct when p > 0.5 matches the label.
  nn::Linear model(nn::LinearOptions(1, 1).bias(false));
  {
    torch::NoGradGuard no_grad;
    model->weight.fill_(1.0);
  }
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  auto threshold = [](const torch::Tensor& output, const torch::Tensor& target) {
    return (output.gt(0.5) == target.gt(0.5)).sum().item<int64_t>();
  };
  training::Trainer trainer(model, optimizer, nn::MSELoss(),
                            training::TrainerOptions().accuracy(threshold).progress(false));
  std::vector<torch::data::Example<>> batches{
      {torch::tensor({{0.9f}, {0.2f}, {0.7f}, {0.1f}}), torch::tensor({{1.0f}, {0.0f}, {0.0f}, {1.0f}})}};
  CHECK(trainer.evaluate(batches).accuracy == Approx(0.5));
}

TEST_CASE("training: without a terminal, progress is one plain line per epoch", "[training][progress]") {
  std::ostringstream out;
  training::ProgressBar bar(out, /*interactive=*/false);
  bar.start("epoch 1", 0);
  bar.update(10, 0.5);
  bar.update(20, 0.4);
  bar.finish("epoch 1  train loss 0.4000");
  CHECK(out.str() == "epoch 1  train loss 0.4000\n");  // no carriage returns, no partial lines

  std::ostringstream live;
  training::ProgressBar terminal(live, /*interactive=*/true);
  terminal.start("epoch 2", 100);
  terminal.update(50, 0.25);
  terminal.finish("done");
  const std::string text = live.str();
  CHECK(text.find("\repoch 2 [##########..........] 50/100  loss 0.2500") != std::string::npos);
  CHECK(text.find("samples/s") != std::string::npos);
  CHECK(text.substr(text.size() - 5) == "done\n");

  CHECK(training::with_thousands_separators(1234567) == "1,234,567");
  CHECK(training::with_thousands_separators(999) == "999");
  CHECK(training::with_thousands_separators(-1000) == "-1,000");
}

TEST_CASE("training: an epoch prints as one line with what was measured", "[training][progress]") {
  training::EpochRecord record;
  record.epoch = 3;
  record.train_loss = 0.41234;
  record.train_accuracy = 0.912;
  record.val_loss = 0.45;
  record.lr = 0.05;
  record.seconds = 1.234;
  record.samples_per_second = 10412.7;
  CHECK(test_helpers::printed(record) ==
        "epoch 3  train loss 0.4123 acc 91.2%  val loss 0.4500  lr 0.05  1.23 s  10,412 samples/s");
}

TEST_CASE("training: the history's SVG is well-formed and draws one point per epoch", "[training][svg]") {
  training::History history;
  for (int e = 1; e <= 4; ++e) {
    training::EpochRecord record;
    record.epoch = e;
    record.train_loss = 1.0 / e;
    record.val_loss = 1.2 / e;
    record.train_accuracy = 0.5 + 0.1 * e;
    record.val_accuracy = e == 2 ? training::kNotMeasured : 0.45 + 0.1 * e;  // a gap is left out
    history.epochs.push_back(record);
  }
  const std::string svg = history.to_svg("Run <1> & co");
  REQUIRE(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
  const std::vector<std::string> tags = check_xml_nesting(svg);
  CHECK(count_of(tags, "svg") == 1);
  CHECK(count_of(tags, "polyline") == 4);     // train and validation, loss and accuracy
  CHECK(count_of(tags, "circle") == 4 + 4 + 4 + 3);
  CHECK(svg.find("Run &lt;1&gt; &amp; co") != std::string::npos);  // text is escaped
  CHECK(svg.find("nan") == std::string::npos);

  // Coordinates of the train-loss curve: 4 points, x increasing, the loss falling (y growing downwards).
  std::smatch points;
  REQUIRE(std::regex_search(svg, points, std::regex("<polyline points=\"([^\"]*)\"")));
  std::istringstream coordinates(points[1].str());
  std::vector<std::pair<double, double>> xy;
  double px, py;
  char comma;
  while (coordinates >> px >> comma >> py) xy.emplace_back(px, py);
  REQUIRE(xy.size() == 4);
  for (size_t i = 1; i < xy.size(); ++i) {
    CHECK(xy[i].first > xy[i - 1].first);
    CHECK(xy[i].second > xy[i - 1].second);
  }

  const std::string path = "/tmp/tinytorch_test_curves_" + std::to_string(::getpid()) + ".svg";
  history.write_svg(path);
  std::ifstream in(path);
  CHECK(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()) == history.to_svg());
  std::remove(path.c_str());
  CHECK_THROWS_WITH(history.write_svg("/nonexistent/dir/curves.svg"), Catch::Contains("/nonexistent/dir/curves.svg"));

  // An empty history and a regression run (no accuracy) still give valid documents.
  check_xml_nesting(training::History().to_svg());
  training::History regression;
  regression.epochs.push_back(training::EpochRecord{});
  regression.epochs.back().epoch = 1;
  regression.epochs.back().train_loss = 0.3;
  const std::string regression_svg = regression.to_svg();
  check_xml_nesting(regression_svg);
  CHECK(regression_svg.find("not measured") != std::string::npos);
}
