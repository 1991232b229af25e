// A tiny character language model, as a LibTorch tutorial writes one: Embedding -> 2-layer LSTM ->
// Linear, trained with SGD on next-character prediction. Every weight is set from sin() of its
// index, so both libraries start from the same model; the losses then follow the same path.
// compat-tolerance: 2e-4
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "compat.h"

namespace rnn_lstm_language_model_program {

struct CharModelImpl : torch::nn::Module {
  explicit CharModelImpl(int64_t vocab_size)
      : embedding(register_module("embedding", torch::nn::Embedding(vocab_size, 8))),
        lstm(register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(8, 16).num_layers(2)))),
        head(register_module("head", torch::nn::Linear(16, vocab_size))) {}

  // tokens (T, B) -> logits (T, B, vocab_size)
  torch::Tensor forward(const torch::Tensor& tokens) {
    auto [output, state] = lstm->forward(embedding->forward(tokens));
    return head->forward(output);
  }

  torch::nn::Embedding embedding;
  torch::nn::LSTM lstm;
  torch::nn::Linear head;
};
TORCH_MODULE(CharModel);

void set_weights(torch::nn::Module& module) {
  torch::NoGradGuard no_grad;
  int k = 0;
  for (auto& p : module.parameters()) {
    p.copy_((torch::arange(p.numel()).to(torch::kFloat) * 0.61 + k).sin().reshape(p.sizes()) * 0.3);
    ++k;
  }
}

COMPAT_PROGRAM(rnn_lstm_language_model) {
  const std::string text = "hello tiny torch, hello lstm; the cat sat on the mat and the dog ran.";
  std::vector<char> vocab(text.begin(), text.end());
  std::sort(vocab.begin(), vocab.end());
  vocab.erase(std::unique(vocab.begin(), vocab.end()), vocab.end());
  std::vector<int64_t> ids;
  for (char ch : text) ids.push_back(std::find(vocab.begin(), vocab.end(), ch) - vocab.begin());
  const int64_t vocab_size = static_cast<int64_t>(vocab.size());
  std::cout << "vocab " << vocab_size << " text " << ids.size() << "\n";

  // Batches of B windows of T + 1 characters, time first: inputs (T, B), targets (T, B).
  const int64_t T = 12, B = 4;
  auto all = torch::tensor(ids);
  std::vector<torch::Tensor> windows;
  for (int64_t b = 0; b < B; ++b) windows.push_back(all.narrow(0, b * 15, T + 1));
  auto batch = torch::stack(windows, 1);  // (T + 1, B)
  auto inputs = batch.narrow(0, 0, T), targets = batch.narrow(0, 1, T);

  CharModel model(vocab_size);
  set_weights(*model);
  for (const auto& item : model->named_parameters()) std::cout << item.key() << " " << item.value().sizes() << "\n";
  std::cout << *model->lstm << "\n";

  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.5).momentum(0.9));
  for (int step = 1; step <= 20; ++step) {
    optimizer.zero_grad();
    auto logits = model->forward(inputs);
    auto loss = torch::nn::functional::cross_entropy(logits.reshape({T * B, vocab_size}), targets.reshape({T * B}));
    loss.backward();
    optimizer.step();
    if (step == 1 || step % 5 == 0) std::printf("step %d loss %.6f\n", step, loss.item<float>());
  }

  // Greedy continuation of "the " for 12 characters, one step at a time with the carried state.
  torch::NoGradGuard no_grad;
  std::string generated = "the ";
  std::vector<int64_t> prompt;
  for (char ch : generated) prompt.push_back(std::find(vocab.begin(), vocab.end(), ch) - vocab.begin());
  auto [output, state] = model->lstm->forward(model->embedding->forward(torch::tensor(prompt).reshape({-1, 1})));
  auto next = model->head->forward(output[-1]).argmax(-1);
  for (int i = 0; i < 12; ++i) {
    generated += vocab[next.item<int64_t>()];
    auto step = model->lstm->forward(model->embedding->forward(next.reshape({1, 1})), state);
    state = std::get<1>(step);
    next = model->head->forward(std::get<0>(step)[0]).argmax(-1);
  }
  std::cout << "generated: " << generated << "\n";
  auto [h_n, c_n] = state;
  std::cout << "state sizes " << h_n.sizes() << " " << c_n.sizes() << "\n";
  return 0;
}

}  // namespace rnn_lstm_language_model_program
