// Given code: the recurrent layers (tinytorch/nn/modules/rnn.h), LibTorch 1.13's RNN, LSTM, GRU and
// their cells, composed of differentiable ops so that autograd gives their gradients.
//
// Every sequence layer runs on packed rows: the input (T, B, in) becomes T * B rows with
// batch_sizes = [B, ..., B], and a PackedSequence already is rows with its own batch_sizes. Step t
// then reads the batch_sizes[t] rows of its time step, and the state keeps one row per sequence
// still running (the batch is sorted longest first, so those are its first rows). One code path
// serves both inputs, and a packed sequence never steps through padding.
#include <algorithm>
#include <cmath>
#include <ostream>
#include <sstream>
#include <utility>

#include "tinytorch/data/tensor_ops.h"
#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/nn/init.h"
#include "tinytorch/nn/modules/rnn.h"

namespace tinytorch {
namespace nn {

// ---- Options ----

namespace detail {
RNNOptionsBase::RNNOptionsBase(rnn_options_base_mode_t mode, int64_t input_size, int64_t hidden_size)
    : mode_(mode), input_size_(input_size), hidden_size_(hidden_size) {}

RNNCellOptionsBase::RNNCellOptionsBase(int64_t input_size, int64_t hidden_size, bool bias, int64_t num_chunks)
    : input_size_(input_size), hidden_size_(hidden_size), bias_(bias), num_chunks_(num_chunks) {}
}  // namespace detail

RNNOptions::RNNOptions(int64_t input_size, int64_t hidden_size) : input_size_(input_size), hidden_size_(hidden_size) {}
LSTMOptions::LSTMOptions(int64_t input_size, int64_t hidden_size)
    : input_size_(input_size), hidden_size_(hidden_size) {}
GRUOptions::GRUOptions(int64_t input_size, int64_t hidden_size) : input_size_(input_size), hidden_size_(hidden_size) {}
RNNCellOptions::RNNCellOptions(int64_t input_size, int64_t hidden_size)
    : input_size_(input_size), hidden_size_(hidden_size) {}
LSTMCellOptions::LSTMCellOptions(int64_t input_size, int64_t hidden_size)
    : input_size_(input_size), hidden_size_(hidden_size) {}
GRUCellOptions::GRUCellOptions(int64_t input_size, int64_t hidden_size)
    : input_size_(input_size), hidden_size_(hidden_size) {}

namespace {

using Mode = detail::RNNOptionsBase::rnn_options_base_mode_t;

bool is_lstm(const Mode& mode) { return std::holds_alternative<enumtype::kLSTM>(mode); }
bool is_gru(const Mode& mode) { return std::holds_alternative<enumtype::kGRU>(mode); }

// Gates stacked in weight_ih / weight_hh: LSTM i, f, g, o; GRU r, z, n; a plain RNN one.
int64_t gate_count(const Mode& mode) { return is_lstm(mode) ? 4 : is_gru(mode) ? 3 : 1; }

const char* mode_name(const Mode& mode) { return is_lstm(mode) ? "LSTM" : is_gru(mode) ? "GRU" : "RNN"; }

// One layer's weights in one direction; biases and weight_hr undefined when absent.
struct CellWeights {
  Tensor w_ih, w_hh, b_ih, b_hh, w_hr;
};

// x W^T (+ b): rows (N, in) -> (N, out).
Tensor linear_rows(const Tensor& rows, const Tensor& weight, const Tensor& bias) {
  Tensor out = rows.matmul(weight.t());
  return bias.defined() ? out + bias : out;
}

// The recurrent state of one direction of one layer: h for RNN and GRU, (h, c) for LSTM.
struct State {
  Tensor h, c;
  State narrow(int64_t start, int64_t length) const {
    return {h.narrow(0, start, length), c.defined() ? c.narrow(0, start, length) : Tensor()};
  }
};

State cat_states(const std::vector<State>& parts) {
  if (parts.size() == 1) return parts[0];
  std::vector<Tensor> hs, cs;
  for (const State& part : parts) {
    hs.push_back(part.h);
    if (part.c.defined()) cs.push_back(part.c);
  }
  return {cat(hs, 0), cs.empty() ? Tensor() : cat(cs, 0)};
}

// The formulas of each cell, for the input's part of the gates already computed: input_gates =
// x W_ih^T + b_ih (the one big matmul over all steps), state (b, H_out) -> next state.
State rnn_step(const Mode& mode, const Tensor& input_gates, const State& state, const CellWeights& w) {
  const Tensor hidden_gates = linear_rows(state.h, w.w_hh, w.b_hh);
  if (is_lstm(mode)) {
    const std::vector<Tensor> gates = (input_gates + hidden_gates).chunk(4, 1);
    const Tensor c = gates[1].sigmoid() * state.c + gates[0].sigmoid() * gates[2].tanh();
    Tensor h = gates[3].sigmoid() * c.tanh();
    if (w.w_hr.defined()) h = h.matmul(w.w_hr.t());
    return {h, c};
  }
  if (is_gru(mode)) {
    const std::vector<Tensor> x_parts = input_gates.chunk(3, 1);
    const std::vector<Tensor> h_parts = hidden_gates.chunk(3, 1);
    const Tensor reset_gate = (x_parts[0] + h_parts[0]).sigmoid();
    const Tensor update_gate = (x_parts[1] + h_parts[1]).sigmoid();
    const Tensor candidate = (x_parts[2] + reset_gate * h_parts[2]).tanh();
    // (1 - z) * n + z * h, written as LibTorch's gru_cell writes it.
    return {candidate + update_gate * (state.h - candidate), Tensor()};
  }
  const Tensor pre_activation = input_gates + hidden_gates;
  return {std::holds_alternative<enumtype::kRNN_RELU>(mode) ? pre_activation.relu() : pre_activation.tanh(),
          Tensor()};
}

// One direction of one layer over packed rows. input_gates (N, G*H) holds every step's rows;
// initial (B, H_out) the state of each sequence. Returns (output rows (N, H_out), final state (B, .)).
std::pair<Tensor, State> run_direction(const Mode& mode, const Tensor& input_gates,
                                       const std::vector<int64_t>& batch_sizes, const State& initial,
                                       const CellWeights& weights, bool reverse) {
  const int64_t steps = static_cast<int64_t>(batch_sizes.size());
  std::vector<int64_t> offsets(steps, 0);
  for (int64_t t = 1; t < steps; ++t) offsets[t] = offsets[t - 1] + batch_sizes[t - 1];
  std::vector<Tensor> outputs(steps);

  if (!reverse) {
    // Sequences end as t grows: the rows beyond batch_sizes[t] are finished, kept as they are.
    std::vector<State> finished;  // later-ending rows first: the last rows of the batch first
    State state = initial;
    int64_t running = initial.h.size(0);
    for (int64_t t = 0; t < steps; ++t) {
      const int64_t batch = batch_sizes[t];
      if (batch < running) {
        finished.push_back(state.narrow(batch, running - batch));
        state = state.narrow(0, batch);
        running = batch;
      }
      state = rnn_step(mode, input_gates.narrow(0, offsets[t], batch), state, weights);
      outputs[t] = state.h;
    }
    finished.push_back(state);
    std::reverse(finished.begin(), finished.end());
    return {cat(outputs, 0), cat_states(finished)};
  }

  // Backwards, sequences start as t falls: the shortest start last, from their own initial state.
  int64_t running = batch_sizes[steps - 1];
  State state = initial.narrow(0, running);
  for (int64_t t = steps - 1; t >= 0; --t) {
    const int64_t batch = batch_sizes[t];
    if (batch > running) {
      state = cat_states({state, initial.narrow(running, batch - running)});
      running = batch;
    }
    state = rnn_step(mode, input_gates.narrow(0, offsets[t], batch), state, weights);
    outputs[t] = state.h;
  }
  return {cat(outputs, 0), state};
}

std::vector<int64_t> batch_sizes_of(const Tensor& batch_sizes) {
  const Tensor as_long = batch_sizes.to(kLong).contiguous();
  const int64_t* begin = as_long.data_ptr<int64_t>();
  return std::vector<int64_t>(begin, begin + as_long.numel());
}

std::string sizes_string(IntArrayRef sizes) {
  std::ostringstream out;
  out << sizes;
  return out.str();
}

}  // namespace

// ---- RNNImplBase ----

namespace detail {

template <typename Derived>
RNNImplBase<Derived>::RNNImplBase(const RNNOptionsBase& options_) : options_base(options_) {
  reset();
}

template <typename Derived>
void RNNImplBase<Derived>::reset() {
  const RNNOptionsBase& o = options_base;
  TT_CHECK(o.dropout() >= 0 && o.dropout() <= 1,
           "dropout should be a number in range [0, 1] representing the probability of an element being zeroed");
  TT_CHECK(o.num_layers() > 0, "num_layers should be a positive integer, but got num_layers=", o.num_layers());
  TT_CHECK(o.proj_size() >= 0 && o.proj_size() < o.hidden_size(),
           "proj_size has to be a positive integer, smaller than hidden_size or zero to disable projections");
  TT_CHECK(o.proj_size() == 0 || is_lstm(o.mode()), "proj_size argument is only supported for LSTM, not RNN or GRU");

  const int64_t gate_size = gate_count(o.mode()) * o.hidden_size();
  const int64_t num_directions = o.bidirectional() ? 2 : 1;
  const int64_t real_hidden_size = o.proj_size() > 0 ? o.proj_size() : o.hidden_size();
  flat_weights_names_.clear();
  all_weights_.clear();
  for (int64_t layer = 0; layer < o.num_layers(); ++layer) {
    for (int64_t direction = 0; direction < num_directions; ++direction) {
      const int64_t layer_input_size = layer == 0 ? o.input_size() : real_hidden_size * num_directions;
      const std::string suffix = std::to_string(layer) + (direction == 1 ? "_reverse" : "");
      std::vector<std::pair<std::string, Tensor>> layer_params = {
          {"weight_ih_l" + suffix, empty({gate_size, layer_input_size})},
          {"weight_hh_l" + suffix, empty({gate_size, real_hidden_size})}};
      if (o.bias()) {
        layer_params.emplace_back("bias_ih_l" + suffix, empty({gate_size}));
        layer_params.emplace_back("bias_hh_l" + suffix, empty({gate_size}));
      }
      if (o.proj_size() > 0) layer_params.emplace_back("weight_hr_l" + suffix, empty({o.proj_size(), o.hidden_size()}));
      std::vector<std::string> names;
      for (auto& [name, tensor] : layer_params) {
        this->register_parameter(name, tensor);
        names.push_back(name);
        flat_weights_names_.push_back(name);
      }
      all_weights_.push_back(std::move(names));
    }
  }
  reset_parameters();
}

template <typename Derived>
void RNNImplBase<Derived>::reset_parameters() {
  const double stdv = 1.0 / std::sqrt(static_cast<double>(options_base.hidden_size()));
  for (Tensor& weight : this->parameters()) init::uniform_(weight, -stdv, stdv);
}

template <typename Derived>
void RNNImplBase<Derived>::pretty_print(std::ostream& stream) const {
  const RNNOptionsBase& o = options_base;
  stream << std::boolalpha << "torch::nn::" << mode_name(o.mode()) << "(input_size=" << o.input_size()
         << ", hidden_size=" << o.hidden_size() << ", num_layers=" << o.num_layers() << ", bias=" << o.bias()
         << ", batch_first=" << o.batch_first() << ", dropout=" << o.dropout()
         << ", bidirectional=" << o.bidirectional();
  if (o.proj_size() > 0) stream << ", proj_size=" << o.proj_size();
  stream << ")";
}

template <typename Derived>
void RNNImplBase<Derived>::flatten_parameters() {}

template <typename Derived>
std::vector<Tensor> RNNImplBase<Derived>::all_weights() const {
  std::vector<Tensor> result;
  for (const auto& layer_names : all_weights_) {
    for (const std::string& name : layer_names) result.push_back(this->parameters_[name]);
  }
  return result;
}

template <typename Derived>
void RNNImplBase<Derived>::check_input(const Tensor& input, const Tensor& batch_sizes) const {
  const int64_t expected_input_dim = batch_sizes.defined() ? 2 : 3;
  TT_CHECK(input.dim() == expected_input_dim, "input must have ", expected_input_dim, " dimensions, got ",
           input.dim());
  TT_CHECK(options_base.input_size() == input.size(-1), "input.size(-1) must be equal to input_size. Expected ",
           options_base.input_size(), ", got ", input.size(-1));
}

template <typename Derived>
std::tuple<int64_t, int64_t, int64_t> RNNImplBase<Derived>::get_expected_hidden_size(const Tensor& input,
                                                                                    const Tensor& batch_sizes) const {
  int64_t mini_batch = 0;
  if (batch_sizes.defined()) {
    mini_batch = batch_sizes_of(batch_sizes)[0];
  } else {
    mini_batch = options_base.batch_first() ? input.size(0) : input.size(1);
  }
  const int64_t num_directions = options_base.bidirectional() ? 2 : 1;
  const int64_t real_hidden_size = options_base.proj_size() > 0 ? options_base.proj_size() : options_base.hidden_size();
  return std::make_tuple(options_base.num_layers() * num_directions, mini_batch, real_hidden_size);
}

template <typename Derived>
void RNNImplBase<Derived>::check_hidden_size(const Tensor& hx, std::tuple<int64_t, int64_t, int64_t> expected,
                                             std::string msg) const {
  const auto [layers, batch, hidden] = expected;
  if (hx.sizes().vec() == std::vector<int64_t>{layers, batch, hidden}) return;
  // LibTorch prints the expected size as "2 3 4" and the actual one as "[2, 3, 4]".
  const std::string expected_text = std::to_string(layers) + " " + std::to_string(batch) + " " + std::to_string(hidden);
  msg.replace(msg.find("{1}"), 3, expected_text);
  msg.replace(msg.find("{2}"), 3, sizes_string(hx.sizes()));
  TT_CHECK(false, msg);
}

template <typename Derived>
void RNNImplBase<Derived>::check_forward_args(Tensor input, Tensor hidden, Tensor batch_sizes) const {
  check_input(input, batch_sizes);
  check_hidden_size(hidden, get_expected_hidden_size(input, batch_sizes));
}

template <typename Derived>
Tensor RNNImplBase<Derived>::permute_hidden(Tensor hx, const Tensor& permutation) const {
  if (!permutation.defined()) return hx;
  return hx.index_select(1, permutation);
}

template <typename Derived>
std::tuple<Tensor, Tensor, Tensor> RNNImplBase<Derived>::run_layers(const Tensor& data,
                                                                    const std::vector<int64_t>& batch_sizes,
                                                                    const Tensor& h0, const Tensor& c0) {
  const RNNOptionsBase& o = options_base;
  const int64_t num_directions = o.bidirectional() ? 2 : 1;
  std::vector<Tensor> h_n, c_n;
  Tensor layer_input = data;
  for (int64_t layer = 0; layer < o.num_layers(); ++layer) {
    std::vector<Tensor> direction_outputs;
    for (int64_t direction = 0; direction < num_directions; ++direction) {
      const int64_t index = layer * num_directions + direction;
      const std::vector<std::string>& names = all_weights_[index];
      CellWeights weights;
      weights.w_ih = this->parameters_[names[0]];
      weights.w_hh = this->parameters_[names[1]];
      if (o.bias()) {
        weights.b_ih = this->parameters_[names[2]];
        weights.b_hh = this->parameters_[names[3]];
      }
      if (o.proj_size() > 0) weights.w_hr = this->parameters_[names.back()];
      // The input's part of every gate at every step, in one matmul.
      const Tensor input_gates = linear_rows(layer_input, weights.w_ih, weights.b_ih);
      const State initial{h0.select(0, index), c0.defined() ? c0.select(0, index) : Tensor()};
      auto [output, final_state] =
          run_direction(o.mode(), input_gates, batch_sizes, initial, weights, /*reverse=*/direction == 1);
      direction_outputs.push_back(output);
      h_n.push_back(final_state.h);
      if (final_state.c.defined()) c_n.push_back(final_state.c);
    }
    layer_input = num_directions == 1 ? direction_outputs[0] : cat(direction_outputs, 1);
    if (o.dropout() > 0 && layer + 1 < o.num_layers()) layer_input = ::tinytorch::dropout(layer_input, o.dropout(), this->is_training());
  }
  return std::make_tuple(layer_input, stack(h_n, 0), c_n.empty() ? Tensor() : stack(c_n, 0));
}

template <typename Derived>
std::tuple<Tensor, Tensor, Tensor> RNNImplBase<Derived>::run_dense(const Tensor& input, const Tensor& h0,
                                                                   const Tensor& c0) {
  // A dense (T, B, in) input is a packed one whose steps all hold B rows.
  const Tensor time_major = options_base.batch_first() ? input.transpose(0, 1) : input;
  const int64_t steps = time_major.size(0), batch = time_major.size(1);
  auto [rows, h_n, c_n] =
      run_layers(time_major.reshape({steps * batch, time_major.size(2)}), std::vector<int64_t>(steps, batch), h0, c0);
  Tensor output = rows.reshape({steps, batch, rows.size(1)});
  if (options_base.batch_first()) output = output.transpose(0, 1);
  return std::make_tuple(output, h_n, c_n);
}

template <typename Derived>
std::tuple<Tensor, Tensor> RNNImplBase<Derived>::forward_one_state(const Tensor& input, const Tensor& batch_sizes,
                                                                   const Tensor& sorted_indices, int64_t max_batch_size,
                                                                   Tensor hx) {
  const int64_t num_directions = options_base.bidirectional() ? 2 : 1;
  if (!hx.defined()) {
    hx = zeros({options_base.num_layers() * num_directions, max_batch_size, options_base.hidden_size()},
               TensorOptions().dtype(input.scalar_type()));
  } else {
    // The caller's batch order, rearranged like the packed input's.
    hx = permute_hidden(hx, sorted_indices);
  }
  check_forward_args(input, hx, batch_sizes);
  if (batch_sizes.defined()) {
    auto [output, h_n, c_n] = run_layers(input, batch_sizes_of(batch_sizes), hx, Tensor());
    return std::make_tuple(output, h_n);
  }
  auto [output, h_n, c_n] = run_dense(input, hx, Tensor());
  return std::make_tuple(output, h_n);
}

template <typename Derived>
std::tuple<utils::rnn::PackedSequence, Tensor> RNNImplBase<Derived>::forward_packed_one_state(
    const utils::rnn::PackedSequence& packed_input, Tensor hx) {
  const int64_t max_batch_size = batch_sizes_of(packed_input.batch_sizes())[0];
  auto [output, h_n] = forward_one_state(packed_input.data(), packed_input.batch_sizes(), packed_input.sorted_indices(),
                                      max_batch_size, std::move(hx));
  return std::make_tuple(utils::rnn::PackedSequence(output, packed_input.batch_sizes(), packed_input.sorted_indices(),
                                                    packed_input.unsorted_indices()),
                         permute_hidden(h_n, packed_input.unsorted_indices()));
}

template class RNNImplBase<RNNImpl>;
template class RNNImplBase<LSTMImpl>;
template class RNNImplBase<GRUImpl>;

}  // namespace detail

// ---- RNN ----

namespace {
detail::RNNOptionsBase rnn_options_base(const RNNOptions& options) {
  Mode mode = std::holds_alternative<enumtype::kTanh>(options.nonlinearity()) ? Mode(kRNN_TANH) : Mode(kRNN_RELU);
  return detail::RNNOptionsBase(mode, options.input_size(), options.hidden_size())
      .num_layers(options.num_layers())
      .bias(options.bias())
      .batch_first(options.batch_first())
      .dropout(options.dropout())
      .bidirectional(options.bidirectional());
}
}  // namespace

RNNImpl::RNNImpl(const RNNOptions& options_) : RNNImplBase(rnn_options_base(options_)), options(options_) {}

std::tuple<Tensor, Tensor> RNNImpl::forward_helper(const Tensor& input, const Tensor& batch_sizes,
                                                   const Tensor& sorted_indices, int64_t max_batch_size, Tensor hx) {
  return forward_one_state(input, batch_sizes, sorted_indices, max_batch_size, std::move(hx));
}

std::tuple<Tensor, Tensor> RNNImpl::forward(const Tensor& input, Tensor hx) {
  check_input(input, Tensor());
  const int64_t max_batch_size = options_base.batch_first() ? input.size(0) : input.size(1);
  return forward_helper(input, Tensor(), Tensor(), max_batch_size, std::move(hx));
}

std::tuple<utils::rnn::PackedSequence, Tensor> RNNImpl::forward_with_packed_input(
    const utils::rnn::PackedSequence& packed_input, Tensor hx) {
  return forward_packed_one_state(packed_input, std::move(hx));
}

// ---- LSTM ----

namespace {
detail::RNNOptionsBase lstm_options_base(const LSTMOptions& options) {
  return detail::RNNOptionsBase(kLSTM, options.input_size(), options.hidden_size())
      .num_layers(options.num_layers())
      .bias(options.bias())
      .batch_first(options.batch_first())
      .dropout(options.dropout())
      .bidirectional(options.bidirectional())
      .proj_size(options.proj_size());
}
}  // namespace

LSTMImpl::LSTMImpl(const LSTMOptions& options_) : RNNImplBase(lstm_options_base(options_)), options(options_) {}

std::tuple<int64_t, int64_t, int64_t> LSTMImpl::get_expected_cell_size(const Tensor& input,
                                                                       const Tensor& batch_sizes) const {
  const auto hidden_size = get_expected_hidden_size(input, batch_sizes);
  // c keeps hidden_size also where a projection makes h smaller.
  return std::make_tuple(std::get<0>(hidden_size), std::get<1>(hidden_size), options_base.hidden_size());
}

void LSTMImpl::check_forward_args(const Tensor& input, std::tuple<Tensor, Tensor> hidden,
                                  const Tensor& batch_sizes) const {
  check_input(input, batch_sizes);
  check_hidden_size(std::get<0>(hidden), get_expected_hidden_size(input, batch_sizes),
                    "Expected hidden[0] size {1}, got {2}");
  check_hidden_size(std::get<1>(hidden), get_expected_cell_size(input, batch_sizes),
                    "Expected hidden[1] size {1}, got {2}");
}

std::tuple<Tensor, Tensor> LSTMImpl::permute_hidden(std::tuple<Tensor, Tensor> hx, const Tensor& permutation) const {
  if (!permutation.defined()) return hx;
  return std::make_tuple(RNNImplBase::permute_hidden(std::get<0>(hx), permutation),
                         RNNImplBase::permute_hidden(std::get<1>(hx), permutation));
}

std::tuple<Tensor, std::tuple<Tensor, Tensor>> LSTMImpl::forward_helper(
    const Tensor& input, const Tensor& batch_sizes, const Tensor& sorted_indices, int64_t max_batch_size,
    std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  std::tuple<Tensor, Tensor> hx;
  if (!hx_opt.has_value()) {
    const int64_t num_directions = options_base.bidirectional() ? 2 : 1;
    const int64_t real_hidden_size =
        options_base.proj_size() > 0 ? options_base.proj_size() : options_base.hidden_size();
    const TensorOptions state_options = TensorOptions().dtype(input.scalar_type());
    hx = std::make_tuple(
        zeros({options_base.num_layers() * num_directions, max_batch_size, real_hidden_size}, state_options),
        zeros({options_base.num_layers() * num_directions, max_batch_size, options_base.hidden_size()},
              state_options));
  } else {
    hx = permute_hidden(*hx_opt, sorted_indices);
  }
  check_forward_args(input, hx, batch_sizes);
  const auto& [h0, c0] = hx;
  if (batch_sizes.defined()) {
    auto [output, h_n, c_n] = run_layers(input, batch_sizes_of(batch_sizes), h0, c0);
    return std::make_tuple(output, std::make_tuple(h_n, c_n));
  }
  auto [output, h_n, c_n] = run_dense(input, h0, c0);
  return std::make_tuple(output, std::make_tuple(h_n, c_n));
}

std::tuple<Tensor, std::tuple<Tensor, Tensor>> LSTMImpl::forward(const Tensor& input,
                                                                 std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  check_input(input, Tensor());
  const int64_t max_batch_size = options_base.batch_first() ? input.size(0) : input.size(1);
  return forward_helper(input, Tensor(), Tensor(), max_batch_size, std::move(hx_opt));
}

std::tuple<utils::rnn::PackedSequence, std::tuple<Tensor, Tensor>> LSTMImpl::forward_with_packed_input(
    const utils::rnn::PackedSequence& packed_input, std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  const int64_t max_batch_size = batch_sizes_of(packed_input.batch_sizes())[0];
  auto [output, state] = forward_helper(packed_input.data(), packed_input.batch_sizes(),
                                        packed_input.sorted_indices(), max_batch_size, std::move(hx_opt));
  return std::make_tuple(utils::rnn::PackedSequence(output, packed_input.batch_sizes(), packed_input.sorted_indices(),
                                                    packed_input.unsorted_indices()),
                         permute_hidden(state, packed_input.unsorted_indices()));
}

// ---- GRU ----

namespace {
detail::RNNOptionsBase gru_options_base(const GRUOptions& options) {
  return detail::RNNOptionsBase(kGRU, options.input_size(), options.hidden_size())
      .num_layers(options.num_layers())
      .bias(options.bias())
      .batch_first(options.batch_first())
      .dropout(options.dropout())
      .bidirectional(options.bidirectional());
}
}  // namespace

GRUImpl::GRUImpl(const GRUOptions& options_) : RNNImplBase(gru_options_base(options_)), options(options_) {}

std::tuple<Tensor, Tensor> GRUImpl::forward_helper(const Tensor& input, const Tensor& batch_sizes,
                                                   const Tensor& sorted_indices, int64_t max_batch_size, Tensor hx) {
  return forward_one_state(input, batch_sizes, sorted_indices, max_batch_size, std::move(hx));
}

std::tuple<Tensor, Tensor> GRUImpl::forward(const Tensor& input, Tensor hx) {
  check_input(input, Tensor());
  const int64_t max_batch_size = options_base.batch_first() ? input.size(0) : input.size(1);
  return forward_helper(input, Tensor(), Tensor(), max_batch_size, std::move(hx));
}

std::tuple<utils::rnn::PackedSequence, Tensor> GRUImpl::forward_with_packed_input(
    const utils::rnn::PackedSequence& packed_input, Tensor hx) {
  return forward_packed_one_state(packed_input, std::move(hx));
}

// ---- RNNCellImplBase ----

namespace detail {

template <typename Derived>
RNNCellImplBase<Derived>::RNNCellImplBase(const RNNCellOptionsBase& options_) : options_base(options_) {
  reset();
}

template <typename Derived>
void RNNCellImplBase<Derived>::reset() {
  const int64_t gate_size = options_base.num_chunks() * options_base.hidden_size();
  weight_ih = this->register_parameter("weight_ih", empty({gate_size, options_base.input_size()}));
  weight_hh = this->register_parameter("weight_hh", empty({gate_size, options_base.hidden_size()}));
  if (options_base.bias()) {
    bias_ih = this->register_parameter("bias_ih", empty({gate_size}));
    bias_hh = this->register_parameter("bias_hh", empty({gate_size}));
  } else {
    bias_ih = this->register_parameter("bias_ih", Tensor(), /*requires_grad=*/false);
    bias_hh = this->register_parameter("bias_hh", Tensor(), /*requires_grad=*/false);
  }
  reset_parameters();
}

template <typename Derived>
void RNNCellImplBase<Derived>::reset_parameters() {
  const double stdv = 1.0 / std::sqrt(static_cast<double>(options_base.hidden_size()));
  for (Tensor& weight : this->parameters()) init::uniform_(weight, -stdv, stdv);
}

template <typename Derived>
void RNNCellImplBase<Derived>::pretty_print(std::ostream& stream) const {
  const std::string name = this->name();  // "torch::nn::RNNCellImpl"
  stream << name.substr(0, name.size() - 4) << "(" << options_base.input_size() << ", " << options_base.hidden_size();
  if (!options_base.bias()) stream << ", bias=" << std::boolalpha << false;
  const std::string nonlinearity = get_nonlinearity_str();
  if (!nonlinearity.empty() && nonlinearity != "kTanh") stream << ", nonlinearity=" << nonlinearity;
  stream << ")";
}

template <typename Derived>
void RNNCellImplBase<Derived>::check_forward_input(const Tensor& input) const {
  TT_CHECK(input.size(1) == options_base.input_size(), "input has inconsistent input_size: got ", input.size(1),
           " expected ", options_base.input_size());
}

template <typename Derived>
void RNNCellImplBase<Derived>::check_forward_hidden(const Tensor& input, const Tensor& hx,
                                                    std::string hidden_label) const {
  TT_CHECK(input.size(0) == hx.size(0), "Input batch size ", input.size(0), " doesn't match hidden", hidden_label,
           " batch size ", hx.size(0));
  TT_CHECK(hx.size(1) == options_base.hidden_size(), "hidden", hidden_label,
           " has inconsistent hidden_size: got ", hx.size(1), ", expected ", options_base.hidden_size());
}

template <typename Derived>
std::string RNNCellImplBase<Derived>::get_nonlinearity_str() const {
  return "";
}

template class RNNCellImplBase<RNNCellImpl>;
template class RNNCellImplBase<LSTMCellImpl>;
template class RNNCellImplBase<GRUCellImpl>;

}  // namespace detail

}  // namespace nn

// ---- The cells as functions ----

namespace {
nn::State cell_function(const nn::Mode& mode, const Tensor& input, const nn::State& state, const Tensor& w_ih,
                        const Tensor& w_hh, const std::optional<Tensor>& b_ih, const std::optional<Tensor>& b_hh) {
  nn::CellWeights weights;
  weights.w_ih = w_ih;
  weights.w_hh = w_hh;
  weights.b_ih = b_ih.value_or(Tensor());
  weights.b_hh = b_hh.value_or(Tensor());
  return nn::rnn_step(mode, nn::linear_rows(input, weights.w_ih, weights.b_ih), state, weights);
}
}  // namespace

Tensor rnn_tanh_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                     const std::optional<Tensor>& b_ih, const std::optional<Tensor>& b_hh) {
  return cell_function(kRNN_TANH, input, {hx, Tensor()}, w_ih, w_hh, b_ih, b_hh).h;
}

Tensor rnn_relu_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                     const std::optional<Tensor>& b_ih, const std::optional<Tensor>& b_hh) {
  return cell_function(kRNN_RELU, input, {hx, Tensor()}, w_ih, w_hh, b_ih, b_hh).h;
}

std::tuple<Tensor, Tensor> lstm_cell(const Tensor& input, TensorList hx, const Tensor& w_ih, const Tensor& w_hh,
                                     const std::optional<Tensor>& b_ih, const std::optional<Tensor>& b_hh) {
  TT_CHECK(hx.size() == 2, "lstm_cell expects two hidden states");
  const nn::State next = cell_function(kLSTM, input, {hx[0], hx[1]}, w_ih, w_hh, b_ih, b_hh);
  return std::make_tuple(next.h, next.c);
}

Tensor gru_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                const std::optional<Tensor>& b_ih, const std::optional<Tensor>& b_hh) {
  return cell_function(kGRU, input, {hx, Tensor()}, w_ih, w_hh, b_ih, b_hh).h;
}

namespace nn {
namespace {
// An absent bias (bias=false) is an undefined tensor in the module and no tensor for the function.
std::optional<Tensor> optional_bias(const Tensor& bias) {
  return bias.defined() ? std::optional<Tensor>(bias) : std::nullopt;
}
}  // namespace

// ---- RNNCell ----

RNNCellImpl::RNNCellImpl(const RNNCellOptions& options_)
    : RNNCellImplBase(detail::RNNCellOptionsBase(options_.input_size(), options_.hidden_size(), options_.bias(),
                                                 /*num_chunks=*/1)),
      options(options_) {}

std::string RNNCellImpl::get_nonlinearity_str() const { return enumtype::get_enum_name(options.nonlinearity()); }

Tensor RNNCellImpl::forward(const Tensor& input, Tensor hx) {
  check_forward_input(input);
  if (!hx.defined()) hx = zeros({input.size(0), options.hidden_size()}, TensorOptions().dtype(input.scalar_type()));
  check_forward_hidden(input, hx, "");
  if (std::holds_alternative<enumtype::kTanh>(options.nonlinearity())) {
    return rnn_tanh_cell(input, hx, weight_ih, weight_hh, optional_bias(bias_ih), optional_bias(bias_hh));
  }
  return rnn_relu_cell(input, hx, weight_ih, weight_hh, optional_bias(bias_ih), optional_bias(bias_hh));
}

// ---- LSTMCell ----

LSTMCellImpl::LSTMCellImpl(const LSTMCellOptions& options_)
    : RNNCellImplBase(detail::RNNCellOptionsBase(options_.input_size(), options_.hidden_size(), options_.bias(),
                                                 /*num_chunks=*/4)),
      options(options_) {}

std::tuple<Tensor, Tensor> LSTMCellImpl::forward(const Tensor& input,
                                                 std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  check_forward_input(input);
  std::tuple<Tensor, Tensor> hx;
  if (hx_opt.has_value()) {
    hx = *hx_opt;
  } else {
    const Tensor zero_state = zeros({input.size(0), options.hidden_size()}, TensorOptions().dtype(input.scalar_type()));
    hx = std::make_tuple(zero_state, zero_state);
  }
  check_forward_hidden(input, std::get<0>(hx), "[0]");
  check_forward_hidden(input, std::get<1>(hx), "[1]");
  return lstm_cell(input, {std::get<0>(hx), std::get<1>(hx)}, weight_ih, weight_hh, optional_bias(bias_ih),
                   optional_bias(bias_hh));
}

// ---- GRUCell ----

GRUCellImpl::GRUCellImpl(const GRUCellOptions& options_)
    : RNNCellImplBase(detail::RNNCellOptionsBase(options_.input_size(), options_.hidden_size(), options_.bias(),
                                                 /*num_chunks=*/3)),
      options(options_) {}

Tensor GRUCellImpl::forward(const Tensor& input, Tensor hx) {
  check_forward_input(input);
  if (!hx.defined()) hx = zeros({input.size(0), options.hidden_size()}, TensorOptions().dtype(input.scalar_type()));
  check_forward_hidden(input, hx, "");
  return gru_cell(input, hx, weight_ih, weight_hh, optional_bias(bias_ih), optional_bias(bias_hh));
}

}  // namespace nn
}  // namespace tinytorch
