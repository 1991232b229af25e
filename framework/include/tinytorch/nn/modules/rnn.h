#pragma once
// The recurrent layers, LibTorch 1.13's: nn::RNN (tanh or ReLU), nn::LSTM, nn::GRU over whole
// sequences, and nn::RNNCell, nn::LSTMCell, nn::GRUCell for one time step.
//
// One step of each, for input x (B, input_size) and state h (B, hidden_size) (LibTorch's formulas
// and gate order; W_ih stacks the gates' input weights row-wise, W_hh their hidden weights):
//   RNN   h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)          (or relu)
//   LSTM  i, f, g, o = chunks of (x W_ih^T + b_ih + h W_hh^T + b_hh)
//         c' = sigmoid(f) * c + sigmoid(i) * tanh(g),  h' = sigmoid(o) * tanh(c')
//         (with proj_size > 0: h' = (sigmoid(o) * tanh(c')) W_hr^T, of size proj_size)
//   GRU   r, z, n_x = chunks of (x W_ih^T + b_ih);  r_h, z_h, n_h = chunks of (h W_hh^T + b_hh)
//         r = sigmoid(r + r_h), z = sigmoid(z + z_h), n = tanh(n_x + r * n_h),  h' = (1 - z) * n + z * h
// They are composed of matmul, sigmoid, tanh, chunk and cat, so autograd gives their gradients.
//
//   nn::LSTM lstm(nn::LSTMOptions(32, 64).num_layers(2));
//   auto [output, state] = lstm(x);                 // x (T, B, 32) -> output (T, B, 64)
//   auto [h_n, c_n] = state;                        // (2, B, 64) each: the last step of each layer
//
// Parameters per layer l and direction (suffix "_reverse" for the backward one of a bidirectional
// layer), registered in this order so that named_parameters() and torch::save match LibTorch:
// weight_ih_l{l} (G*H, in), weight_hh_l{l} (G*H, H_out), bias_ih_l{l} (G*H), bias_hh_l{l} (G*H),
// weight_hr_l{l} (proj_size, H) with G = 1 (RNN), 4 (LSTM), 3 (GRU). All start U(-1/sqrt(H), 1/sqrt(H)).
// Inputs are (T, B, input_size), (B, T, input_size) with batch_first, or a PackedSequence through
// forward_with_packed_input; LibTorch 1.13's C++ modules take no unbatched (T, input_size) input.
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "tinytorch/enum.h"
#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/nn/utils/rnn.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

namespace enumtype {
struct kLSTM {};
struct kGRU {};
struct kRNN_TANH {};
struct kRNN_RELU {};
}  // namespace enumtype
inline constexpr enumtype::kLSTM kLSTM{};
inline constexpr enumtype::kGRU kGRU{};
inline constexpr enumtype::kRNN_TANH kRNN_TANH{};
inline constexpr enumtype::kRNN_RELU kRNN_RELU{};

// One step of each cell as a function (at::rnn_tanh_cell, ...), what the cell modules call:
// input (B, in), hx (B, H), w_ih (G*H, in), w_hh (G*H, H), biases (G*H) or absent.
Tensor rnn_tanh_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                     const std::optional<Tensor>& b_ih = {}, const std::optional<Tensor>& b_hh = {});
Tensor rnn_relu_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                     const std::optional<Tensor>& b_ih = {}, const std::optional<Tensor>& b_hh = {});
// hx = {h, c}; returns (h', c').
std::tuple<Tensor, Tensor> lstm_cell(const Tensor& input, TensorList hx, const Tensor& w_ih, const Tensor& w_hh,
                                     const std::optional<Tensor>& b_ih = {}, const std::optional<Tensor>& b_hh = {});
Tensor gru_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                const std::optional<Tensor>& b_ih = {}, const std::optional<Tensor>& b_hh = {});

namespace nn {

// ---- Options ----

namespace detail {
// What RNN, LSTM and GRU share; `mode` says which one (and RNN's nonlinearity).
struct RNNOptionsBase {
  using rnn_options_base_mode_t =
      std::variant<enumtype::kLSTM, enumtype::kGRU, enumtype::kRNN_TANH, enumtype::kRNN_RELU>;

  RNNOptionsBase(rnn_options_base_mode_t mode, int64_t input_size, int64_t hidden_size);

  TORCH_ARG(rnn_options_base_mode_t, mode);
  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(int64_t, num_layers) = 1;
  TORCH_ARG(bool, bias) = true;
  // true: input and output are (B, T, features); the hidden state stays (layers * directions, B, H).
  TORCH_ARG(bool, batch_first) = false;
  // Dropout on the output of every layer but the last, in training mode.
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(bool, bidirectional) = false;
  // LSTM only: > 0 projects h to this size with weight_hr.
  TORCH_ARG(int64_t, proj_size) = 0;
};
}  // namespace detail

struct RNNOptions {
  using nonlinearity_t = std::variant<enumtype::kTanh, enumtype::kReLU>;

  RNNOptions(int64_t input_size, int64_t hidden_size);

  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(int64_t, num_layers) = 1;
  TORCH_ARG(nonlinearity_t, nonlinearity) = ::tinytorch::kTanh;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(bool, batch_first) = false;
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(bool, bidirectional) = false;
};

struct LSTMOptions {
  LSTMOptions(int64_t input_size, int64_t hidden_size);

  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(int64_t, num_layers) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(bool, batch_first) = false;
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(bool, bidirectional) = false;
  TORCH_ARG(int64_t, proj_size) = 0;
};

struct GRUOptions {
  GRUOptions(int64_t input_size, int64_t hidden_size);

  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(int64_t, num_layers) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(bool, batch_first) = false;
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(bool, bidirectional) = false;
};

namespace detail {
// What the cells share; num_chunks is the number of gates (1, 4 or 3).
struct RNNCellOptionsBase {
  RNNCellOptionsBase(int64_t input_size, int64_t hidden_size, bool bias, int64_t num_chunks);
  virtual ~RNNCellOptionsBase() = default;

  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(bool, bias);
  TORCH_ARG(int64_t, num_chunks);
};
}  // namespace detail

struct RNNCellOptions {
  using nonlinearity_t = std::variant<enumtype::kTanh, enumtype::kReLU>;

  RNNCellOptions(int64_t input_size, int64_t hidden_size);

  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(nonlinearity_t, nonlinearity) = ::tinytorch::kTanh;
};

struct LSTMCellOptions {
  LSTMCellOptions(int64_t input_size, int64_t hidden_size);

  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(bool, bias) = true;
};

struct GRUCellOptions {
  GRUCellOptions(int64_t input_size, int64_t hidden_size);

  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(bool, bias) = true;
};

// ---- RNN, LSTM, GRU ----

namespace detail {
template <typename Derived>
class RNNImplBase : public Cloneable<Derived> {
 public:
  explicit RNNImplBase(const RNNOptionsBase& options_);

  // Checks the options and registers every layer's weights, then calls reset_parameters().
  void reset() override;
  // Every parameter from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)).
  void reset_parameters();
  // "torch::nn::LSTM(input_size=4, hidden_size=8, num_layers=2, bias=true, batch_first=false,
  // dropout=0, bidirectional=false)", with ", proj_size=P" when it is set.
  void pretty_print(std::ostream& stream) const override;
  // cuDNN's packing of the weights into one buffer in LibTorch; nothing to do on the CPU.
  void flatten_parameters();
  // The parameters of every layer and direction in registration order.
  std::vector<Tensor> all_weights() const;

  RNNOptionsBase options_base;

 protected:
  void check_input(const Tensor& input, const Tensor& batch_sizes) const;
  // (num_layers * num_directions, mini_batch, hidden_size or proj_size)
  std::tuple<int64_t, int64_t, int64_t> get_expected_hidden_size(const Tensor& input, const Tensor& batch_sizes) const;
  void check_hidden_size(const Tensor& hx, std::tuple<int64_t, int64_t, int64_t> expected_hidden_size,
                         std::string msg = "Expected hidden size {1}, got {2}") const;
  void check_forward_args(Tensor input, Tensor hidden, Tensor batch_sizes) const;
  // The hidden state's batch rows reordered like a packed input's (index_select along dim 1).
  Tensor permute_hidden(Tensor hx, const Tensor& permutation) const;

  // Runs every layer over a packed (or, with batch_sizes all B, dense) input of rows data (N, in):
  // returns (output rows (N, directions * H_out), h_n, c_n (LSTM only)).
  std::tuple<Tensor, Tensor, Tensor> run_layers(const Tensor& data, const std::vector<int64_t>& batch_sizes,
                                                const Tensor& h0, const Tensor& c0);
  // The same for a dense input (T, B, in), or (B, T, in) with batch_first: (output, h_n, c_n).
  std::tuple<Tensor, Tensor, Tensor> run_dense(const Tensor& input, const Tensor& h0, const Tensor& c0);
  // RNN's and GRU's forward_helper, which carry one hidden state (LSTM carries two): hx defaults to
  // zeros, and a given hx is put into the packed batch order.
  std::tuple<Tensor, Tensor> forward_one_state(const Tensor& input, const Tensor& batch_sizes,
                                               const Tensor& sorted_indices, int64_t max_batch_size, Tensor hx);
  // RNN's and GRU's forward_with_packed_input: h_n goes back to the caller's batch order.
  std::tuple<utils::rnn::PackedSequence, Tensor> forward_packed_one_state(
      const utils::rnn::PackedSequence& packed_input, Tensor hx);

  // Names of the parameters, all layers and directions in order, and grouped by layer and direction.
  std::vector<std::string> flat_weights_names_;
  std::vector<std::vector<std::string>> all_weights_;
};
}  // namespace detail

class RNNImpl : public detail::RNNImplBase<RNNImpl> {
 public:
  RNNImpl(int64_t input_size, int64_t hidden_size) : RNNImpl(RNNOptions(input_size, hidden_size)) {}
  explicit RNNImpl(const RNNOptions& options_);

  // input (T, B, input_size), hx (num_layers * directions, B, hidden_size), zeros when undefined.
  // Returns (output (T, B, directions * hidden_size): the last layer's h at every step, h_n).
  std::tuple<Tensor, Tensor> forward(const Tensor& input, Tensor hx = {});
  std::tuple<utils::rnn::PackedSequence, Tensor> forward_with_packed_input(
      const utils::rnn::PackedSequence& packed_input, Tensor hx = {});

  RNNOptions options;

 protected:
  std::tuple<Tensor, Tensor> forward_helper(const Tensor& input, const Tensor& batch_sizes,
                                            const Tensor& sorted_indices, int64_t max_batch_size, Tensor hx);
};

TORCH_MODULE(RNN);

class LSTMImpl : public detail::RNNImplBase<LSTMImpl> {
 public:
  LSTMImpl(int64_t input_size, int64_t hidden_size) : LSTMImpl(LSTMOptions(input_size, hidden_size)) {}
  explicit LSTMImpl(const LSTMOptions& options_);

  // hx_opt = (h_0, c_0), zeros when absent. Returns (output, (h_n, c_n)).
  std::tuple<Tensor, std::tuple<Tensor, Tensor>> forward(const Tensor& input,
                                                         std::optional<std::tuple<Tensor, Tensor>> hx_opt = {});
  std::tuple<utils::rnn::PackedSequence, std::tuple<Tensor, Tensor>> forward_with_packed_input(
      const utils::rnn::PackedSequence& packed_input, std::optional<std::tuple<Tensor, Tensor>> hx_opt = {});

  LSTMOptions options;

 protected:
  void check_forward_args(const Tensor& input, std::tuple<Tensor, Tensor> hidden, const Tensor& batch_sizes) const;
  // (num_layers * num_directions, mini_batch, hidden_size): c's size, also with a projection.
  std::tuple<int64_t, int64_t, int64_t> get_expected_cell_size(const Tensor& input, const Tensor& batch_sizes) const;
  std::tuple<Tensor, Tensor> permute_hidden(std::tuple<Tensor, Tensor> hx, const Tensor& permutation) const;
  std::tuple<Tensor, std::tuple<Tensor, Tensor>> forward_helper(const Tensor& input, const Tensor& batch_sizes,
                                                                const Tensor& sorted_indices, int64_t max_batch_size,
                                                                std::optional<std::tuple<Tensor, Tensor>> hx_opt);
};

TORCH_MODULE(LSTM);

class GRUImpl : public detail::RNNImplBase<GRUImpl> {
 public:
  GRUImpl(int64_t input_size, int64_t hidden_size) : GRUImpl(GRUOptions(input_size, hidden_size)) {}
  explicit GRUImpl(const GRUOptions& options_);

  std::tuple<Tensor, Tensor> forward(const Tensor& input, Tensor hx = {});
  std::tuple<utils::rnn::PackedSequence, Tensor> forward_with_packed_input(
      const utils::rnn::PackedSequence& packed_input, Tensor hx = {});

  GRUOptions options;

 protected:
  std::tuple<Tensor, Tensor> forward_helper(const Tensor& input, const Tensor& batch_sizes,
                                            const Tensor& sorted_indices, int64_t max_batch_size, Tensor hx);
};

TORCH_MODULE(GRU);

// ---- RNNCell, LSTMCell, GRUCell: one time step, input (B, input_size) ----

namespace detail {
template <typename Derived>
class RNNCellImplBase : public Cloneable<Derived> {
 public:
  explicit RNNCellImplBase(const RNNCellOptionsBase& options_);

  // Registers weight_ih (G*H, in), weight_hh (G*H, H), bias_ih, bias_hh (G*H), then reset_parameters().
  void reset() override;
  void reset_parameters();
  // "torch::nn::RNNCell(3, 5, bias=false, nonlinearity=kReLU)": bias and nonlinearity when not default.
  void pretty_print(std::ostream& stream) const override;

  RNNCellOptionsBase options_base;

  Tensor weight_ih;
  Tensor weight_hh;
  Tensor bias_ih;
  Tensor bias_hh;

 protected:
  void check_forward_input(const Tensor& input) const;
  void check_forward_hidden(const Tensor& input, const Tensor& hx, std::string hidden_label) const;
  virtual std::string get_nonlinearity_str() const;
};
}  // namespace detail

class RNNCellImpl : public detail::RNNCellImplBase<RNNCellImpl> {
 public:
  RNNCellImpl(int64_t input_size, int64_t hidden_size) : RNNCellImpl(RNNCellOptions(input_size, hidden_size)) {}
  explicit RNNCellImpl(const RNNCellOptions& options_);

  // input (B, input_size), hx (B, hidden_size) or zeros -> h' (B, hidden_size).
  Tensor forward(const Tensor& input, Tensor hx = {});

  RNNCellOptions options;

 protected:
  std::string get_nonlinearity_str() const override;
};

TORCH_MODULE(RNNCell);

class LSTMCellImpl : public detail::RNNCellImplBase<LSTMCellImpl> {
 public:
  LSTMCellImpl(int64_t input_size, int64_t hidden_size) : LSTMCellImpl(LSTMCellOptions(input_size, hidden_size)) {}
  explicit LSTMCellImpl(const LSTMCellOptions& options_);

  // hx_opt = (h, c), zeros when absent -> (h', c').
  std::tuple<Tensor, Tensor> forward(const Tensor& input, std::optional<std::tuple<Tensor, Tensor>> hx_opt = {});

  LSTMCellOptions options;
};

TORCH_MODULE(LSTMCell);

class GRUCellImpl : public detail::RNNCellImplBase<GRUCellImpl> {
 public:
  GRUCellImpl(int64_t input_size, int64_t hidden_size) : GRUCellImpl(GRUCellOptions(input_size, hidden_size)) {}
  explicit GRUCellImpl(const GRUCellOptions& options_);

  Tensor forward(const Tensor& input, Tensor hx = {});

  GRUCellOptions options;
};

TORCH_MODULE(GRUCell);

}  // namespace nn
}  // namespace tinytorch
