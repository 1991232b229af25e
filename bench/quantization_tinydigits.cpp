// Module 15's accuracy-against-size table, measured: an MLP 64-64-10 trained in float on TinyDigits
// (1,000 training digits, 200 test digits), then its two Linears replaced by nn::QuantizedLinear
// (weights per tensor or per channel, activations calibrated on the training digits). Prints one
// row per variant: weight bytes, test accuracy, difference from float. Exits 1 when an int8 variant
// loses more than one point (the module's goal), so the claim is checked each time it is quoted.
//   build/bench/bench_quantization_tinydigits [datasets root]
#include <tinytorch/torch.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

namespace datasets = torch::data::datasets;

double accuracy(const torch::Tensor& logits, const torch::Tensor& labels) {
  return logits.argmax(1).eq(labels).to(torch::kFloat).mean().item<double>() * 100;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string root = argc > 1 ? argv[1] : datasets::default_root();
  datasets::TinyDigits train(root, datasets::TinyDigits::Mode::kTrain);
  datasets::TinyDigits test(root, datasets::TinyDigits::Mode::kTest);
  const torch::Tensor x_train = train.images().reshape({-1, 64}).to(torch::kFloat);
  const torch::Tensor y_train = train.targets();
  const torch::Tensor x_test = test.images().reshape({-1, 64}).to(torch::kFloat);
  const torch::Tensor y_test = test.targets();

  torch::manual_seed(0);
  torch::nn::Linear fc1(64, 64), fc2(64, 10);
  torch::optim::Adam optimizer({fc1->weight, fc1->bias, fc2->weight, fc2->bias}, torch::optim::AdamOptions(0.01));
  const int64_t n = x_train.size(0), batch = 50;
  for (int epoch = 0; epoch < 30; ++epoch) {
    const torch::Tensor order = torch::randperm(n);
    for (int64_t start = 0; start + batch <= n; start += batch) {
      const torch::Tensor index = order.narrow(0, start, batch);
      optimizer.zero_grad();
      const torch::Tensor logits = fc2(torch::relu(fc1(x_train.index_select(0, index))));
      torch::nn::functional::cross_entropy(logits, y_train.index_select(0, index)).backward();
      optimizer.step();
    }
  }

  torch::NoGradGuard no_grad;
  const double float_accuracy = accuracy(fc2(torch::relu(fc1(x_test))), y_test);
  const int64_t weights = fc1->weight.numel() + fc2->weight.numel(), biases = fc1->bias.numel() + fc2->bias.numel();
  std::printf("| model | weight+bias bytes | test accuracy | vs fp32 |\n|---|---|---|---|\n");
  std::printf("| fp32 | %lld | %.1f%% | - |\n", static_cast<long long>(4 * (weights + biases)), float_accuracy);
  const torch::Tensor hidden = torch::relu(fc1(x_train));
  bool within_a_point = true;
  const std::vector<std::pair<const char*, torch::QScheme>> schemes = {
      {"int8 per tensor (affine)", torch::kPerTensorAffine},
      {"int8 per tensor (symmetric)", torch::kPerTensorSymmetric},
      {"int8 per channel (symmetric)", torch::kPerChannelSymmetric}};
  for (const auto& [label, scheme] : schemes) {
    const auto options = torch::nn::QuantizedLinearOptions().weight_qscheme(scheme);
    auto q1 = torch::nn::QuantizedLinear::from_float(*fc1, {x_train}, options);
    auto q2 = torch::nn::QuantizedLinear::from_float(*fc2, {hidden}, options);
    const double int8_accuracy = accuracy(q2(torch::relu(q1(x_test))), y_test);
    std::printf("| %s | %lld | %.1f%% | %+.1f |\n", label, static_cast<long long>(q1->memory_bytes() + q2->memory_bytes()),
                int8_accuracy, int8_accuracy - float_accuracy);
    within_a_point = within_a_point && int8_accuracy >= float_accuracy - 1.0;
  }
  if (!within_a_point) std::printf("FAILED: an int8 model lost more than one point of accuracy\n");
  return within_a_point ? 0 : 1;
}
