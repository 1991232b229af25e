// A bidirectional GRU that classifies sequences of different lengths, fed as a packed batch
// (pack_padded_sequence with enforce_sorted=false), its final forward and backward states joined
// for a Linear head, trained a few SGD steps. Weights and data come from sin()/cos() of indices.
// compat-tolerance: 1e-4
#include <cstdio>
#include <iostream>
#include <vector>

#include "compat.h"

namespace rnn_gru_classifier_program {

namespace rnn = torch::nn::utils::rnn;

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl()
      : gru(register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(3, 6).bidirectional(true).batch_first(true)))),
        head(register_module("head", torch::nn::Linear(12, 2))) {}

  // padded (B, T, 3), lengths (B) -> logits (B, 2)
  torch::Tensor forward(const torch::Tensor& padded, const torch::Tensor& lengths) {
    auto packed = rnn::pack_padded_sequence(padded, lengths, /*batch_first=*/true, /*enforce_sorted=*/false);
    auto [output, h_n] = gru->forward_with_packed_input(packed);
    // h_n (2, B, 6): the forward direction's last step and the backward direction's first.
    return head->forward(torch::cat({h_n[0], h_n[1]}, 1));
  }

  torch::nn::GRU gru;
  torch::nn::Linear head;
};
TORCH_MODULE(Classifier);

void set_weights(torch::nn::Module& module) {
  torch::NoGradGuard no_grad;
  int k = 0;
  for (auto& p : module.parameters()) {
    p.copy_((torch::arange(p.numel()).to(torch::kFloat) * 0.53 + k).sin().reshape(p.sizes()) * 0.35);
    ++k;
  }
}

void print_values(const char* name, const torch::Tensor& t) {
  auto flat = t.contiguous().to(torch::kDouble).reshape({-1});
  std::printf("%s", name);
  for (int64_t i = 0; i < flat.numel(); ++i) std::printf(" %.6f", flat[i].item<double>());
  std::printf("\n");
}

COMPAT_PROGRAM(rnn_gru_classifier) {
  // Six sequences of lengths 2..5 in no particular order; class 1 when the first feature rises.
  const std::vector<int64_t> lengths_list = {3, 5, 2, 4, 5, 3};
  const int64_t B = 6, T = 5;
  std::vector<torch::Tensor> sequences;
  std::vector<int64_t> labels;
  for (int64_t b = 0; b < B; ++b) {
    auto steps = torch::arange(lengths_list[b]).to(torch::kFloat).unsqueeze(1);
    auto features = torch::cat({steps * (b % 2 == 0 ? 0.4 : -0.4), (steps * 0.7 + b).cos(), (steps + b).sin() * 0.5}, 1);
    sequences.push_back(features);
    labels.push_back(b % 2 == 0 ? 1 : 0);
  }
  auto padded = rnn::pad_sequence(sequences, /*batch_first=*/true);
  auto lengths = torch::tensor(lengths_list);
  auto targets = torch::tensor(labels);
  std::cout << "padded " << padded.sizes() << "\n";

  auto packed = rnn::pack_padded_sequence(padded, lengths, true, false);
  std::cout << "packed data " << packed.data().sizes() << " batch_sizes " << packed.batch_sizes()
            << " sorted_indices " << packed.sorted_indices() << " unsorted_indices " << packed.unsorted_indices() << "\n";

  Classifier model;
  set_weights(*model);
  std::cout << *model->gru << "\n";
  for (const auto& item : model->named_parameters()) std::cout << item.key() << " " << item.value().sizes() << "\n";

  {
    auto [output, h_n] = model->gru->forward_with_packed_input(packed);
    auto [unpacked, unpacked_lengths] = rnn::pad_packed_sequence(output, true, -1.0, T + 1);
    std::cout << "unpacked " << unpacked.sizes() << " lengths " << unpacked_lengths << "\n";
    print_values("first sequence output", unpacked[0]);
    print_values("h_n", h_n);
  }

  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.3));
  for (int step = 1; step <= 8; ++step) {
    optimizer.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(model->forward(padded, lengths), targets);
    loss.backward();
    if (step == 1) {
      auto parameters = model->gru->named_parameters();
      print_values("grad weight_hh_l0_reverse row 0 (x1000)", parameters["weight_hh_l0_reverse"].grad()[0] * 1000);
      print_values("grad bias_ih_l0 (x1000)", parameters["bias_ih_l0"].grad() * 1000);
    }
    optimizer.step();
    std::printf("step %d loss %.6f\n", step, loss.item<float>());
  }
  torch::NoGradGuard no_grad;
  auto logits = model->forward(padded, lengths);
  print_values("logits", logits);
  std::cout << "predictions " << logits.argmax(1) << "\n";
  return 0;
}

}  // namespace rnn_gru_classifier_program
