// The recurrent cells (RNNCell, LSTMCell, GRUCell) and nn::RNN with ReLU: options, printing,
// parameters, one step with and without a given state, a cell unrolled by hand against the
// sequence module with the same weights, and gradients. Weights are set from sin() of indices.
// compat-tolerance: 1e-5
#include <cstdio>
#include <iostream>
#include <vector>

#include "compat.h"

namespace rnn_cells_program {

void set_weights(torch::nn::Module& module, double scale) {
  torch::NoGradGuard no_grad;
  int k = 0;
  for (auto& p : module.parameters()) {
    p.copy_((torch::arange(p.numel()).to(torch::kFloat) * 0.41 + k).sin().reshape(p.sizes()) * scale);
    ++k;
  }
}

void print_values(const char* name, const torch::Tensor& t) {
  auto flat = t.contiguous().to(torch::kDouble).reshape({-1});
  std::printf("%s", name);
  for (int64_t i = 0; i < flat.numel(); ++i) std::printf(" %.6f", flat[i].item<double>());
  std::printf("\n");
}

COMPAT_PROGRAM(rnn_cells) {
  torch::nn::RNNCell rnn_cell(torch::nn::RNNCellOptions(3, 4).nonlinearity(torch::kReLU));
  torch::nn::LSTMCell lstm_cell(3, 4);
  torch::nn::GRUCell gru_cell(torch::nn::GRUCellOptions(3, 4).bias(false));
  torch::nn::RNN relu_rnn(torch::nn::RNNOptions(3, 4).nonlinearity(torch::kReLU).num_layers(2));
  std::cout << *rnn_cell << "\n" << *lstm_cell << "\n" << *gru_cell << "\n" << *relu_rnn << "\n";
  std::cout << *torch::nn::RNNCell(5, 2) << "\n" << *torch::nn::LSTMCell(torch::nn::LSTMCellOptions(2, 1).bias(false)) << "\n";
  std::cout << "options " << lstm_cell->options.input_size() << " " << lstm_cell->options.hidden_size() << " "
            << gru_cell->options.bias() << " " << relu_rnn->options.num_layers() << "\n";
  for (auto* module : std::vector<torch::nn::Module*>{rnn_cell.get(), lstm_cell.get(), gru_cell.get(), relu_rnn.get()}) {
    for (const auto& item : module->named_parameters()) std::cout << item.key() << " " << item.value().sizes() << " ";
    std::cout << "\n";
  }
  set_weights(*rnn_cell, 0.5);
  set_weights(*lstm_cell, 0.5);
  set_weights(*gru_cell, 0.5);
  set_weights(*relu_rnn, 0.4);

  auto x = (torch::arange(6).to(torch::kFloat) * 0.3).cos().reshape({2, 3});
  auto h = (torch::arange(8).to(torch::kFloat) * 0.2).sin().reshape({2, 4});
  print_values("rnn_cell", rnn_cell->forward(x, h));
  print_values("rnn_cell no state", rnn_cell->forward(x));
  auto [lstm_h, lstm_c] = lstm_cell->forward(x, std::make_tuple(h, h * -0.5));
  print_values("lstm_cell h", lstm_h);
  print_values("lstm_cell c", lstm_c);
  print_values("lstm_cell no state h", std::get<0>(lstm_cell->forward(x)));
  print_values("gru_cell", gru_cell->forward(x, h));

  // A GRU over a sequence is its cell applied step by step: the same numbers with the same weights.
  torch::nn::GRU gru(torch::nn::GRUOptions(3, 4));
  torch::nn::GRUCell cell(3, 4);
  set_weights(*gru, 0.5);
  {
    torch::NoGradGuard no_grad;
    cell->weight_ih.copy_(gru->named_parameters()["weight_ih_l0"]);
    cell->weight_hh.copy_(gru->named_parameters()["weight_hh_l0"]);
    cell->bias_ih.copy_(gru->named_parameters()["bias_ih_l0"]);
    cell->bias_hh.copy_(gru->named_parameters()["bias_hh_l0"]);
  }
  auto sequence = (torch::arange(15).to(torch::kFloat) * 0.17).cos().reshape({5, 1, 3});
  auto [gru_output, gru_h] = gru->forward(sequence);
  auto state = torch::zeros({1, 4});
  for (int64_t t = 0; t < 5; ++t) state = cell->forward(sequence[t], state);
  std::cout << "unrolled cell matches GRU: " << std::boolalpha << torch::allclose(state, gru_h[0], 1e-5, 1e-6) << "\n";
  print_values("gru output last step", gru_output[4]);

  // RNN with ReLU, two layers, and the gradients of its parameters.
  auto input = (torch::arange(18).to(torch::kFloat) * 0.29).sin().reshape({3, 2, 3}).requires_grad_();
  auto [output, h_n] = relu_rnn->forward(input);
  print_values("relu rnn output", output);
  print_values("relu rnn h_n", h_n);
  (output.sum() + h_n.pow(2).sum()).backward();
  print_values("grad input", input.grad());
  print_values("grad weight_ih_l1", relu_rnn->named_parameters()["weight_ih_l1"].grad());
  print_values("grad bias_hh_l0", relu_rnn->named_parameters()["bias_hh_l0"].grad());

  // The LSTM cell's gradient with respect to its state.
  auto h0 = h.clone().requires_grad_(), c0 = (h * 0.5).requires_grad_();
  auto [h1, c1] = lstm_cell->forward(x, std::make_tuple(h0, c0));
  (h1 * 2 + c1).sum().backward();
  print_values("lstm grad h0", h0.grad());
  print_values("lstm grad c0", c0.grad());
  return 0;
}

}  // namespace rnn_cells_program
