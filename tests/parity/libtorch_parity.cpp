// One LibTorch program, compiled twice: against LibTorch (-DPARITY_WITH_LIBTORCH) and against tinytorch.
// Only the include line differs; tests/parity/run_parity.sh diffs the two outputs line by line.
#ifdef PARITY_WITH_LIBTORCH
#include <torch/torch.h>
#else
#include <tinytorch/torch.h>
#endif
#include <cmath>
#include <cstdio>
#include <limits>
#include <iostream>
#include <tuple>
#include <vector>

using torch::indexing::Slice;
using torch::indexing::None;

template <typename T>
static void show(const char* label, const T& value) {
  std::cout << "## " << label << "\n" << value << "\n";
}

// Optimizers: 20 steps of each on a fixed quadratic bowl, 0.5 * sum(curvature * p^2); the
// parameters are printed to 5 decimals (float32 rounding differences stay far below that).
template <typename Optimizer, typename Options>
static void show_optimizer_run(const char* label, Options options) {
  auto p = torch::tensor({1.0, -2.0, 3.0, 0.5}, torch::TensorOptions().requires_grad(true));
  auto curvature = torch::tensor({10.0, 1.0, 0.1, 5.0});
  Optimizer optimizer(std::vector<torch::Tensor>{p}, options);
  for (int step = 0; step < 20; ++step) {
    optimizer.zero_grad();
    ((p * p * curvature).sum() * 0.5).backward();
    optimizer.step();
  }
  std::cout << "## " << label << "\n";
  const float* values = p.data_ptr<float>();
  for (int64_t i = 0; i < p.numel(); ++i) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.5f ", static_cast<double>(values[i]));
    std::cout << text;
  }
  std::cout << "\n";
}

static void show_optimizers() {
  namespace optim = torch::optim;
  show_optimizer_run<optim::SGD>("optim SGD", optim::SGDOptions(0.05));
  show_optimizer_run<optim::SGD>("optim SGD momentum dampening weight_decay",
                                 optim::SGDOptions(0.05).momentum(0.9).dampening(0.1).weight_decay(0.01));
  show_optimizer_run<optim::SGD>("optim SGD nesterov", optim::SGDOptions(0.05).momentum(0.8).nesterov(true));
  show_optimizer_run<optim::Adam>("optim Adam", optim::AdamOptions(0.1));
  show_optimizer_run<optim::Adam>("optim Adam amsgrad weight_decay",
                                  optim::AdamOptions(0.1).betas({0.8, 0.99}).amsgrad(true).weight_decay(0.01));
  show_optimizer_run<optim::AdamW>("optim AdamW", optim::AdamWOptions(0.1).weight_decay(0.1));
  show_optimizer_run<optim::RMSprop>("optim RMSprop", optim::RMSpropOptions(0.01));
  show_optimizer_run<optim::RMSprop>("optim RMSprop centered momentum",
                                     optim::RMSpropOptions(0.01).centered(true).momentum(0.5).weight_decay(0.1));
}

// Quantization (module 15): codes and dequantized values of per-tensor and per-channel quantization
// over a range that forces rounding ties and clamping, for each quantized dtype.
static void show_quantization() {
  auto x = torch::linspace(-3, 3, 49).to(torch::kFloat);
  for (auto dtype : {torch::kQInt8, torch::kQUInt8, torch::kQInt32}) {
    auto q = torch::quantize_per_tensor(x, 0.025, dtype == torch::kQUInt8 ? 128 : -7, dtype);
    show("quantize_per_tensor int_repr", q.int_repr());
    show("quantize_per_tensor dequantize", q.dequantize());
  }
  auto w = x.narrow(0, 0, 48).reshape({4, 3, 4});
  auto scales = torch::tensor({0.01, 0.02, 0.0125});
  auto zero_points = torch::tensor({0, -3, 7});
  auto qc = torch::quantize_per_channel(w, scales, zero_points, 1, torch::kQInt8);
  show("quantize_per_channel int_repr", qc.int_repr());
  show("quantize_per_channel dequantize", qc.dequantize());
  show("quantize_per_channel printed", qc);
}

// Autograd: grad_fn names, gradients of a small network and of each activation and loss, second
// derivatives, and the errors (first line only).
static void show_gradients() {
  auto opts = torch::TensorOptions().dtype(torch::kDouble).requires_grad(true);
  auto x = torch::tensor({{1.0, -2.0, 0.5}, {0.3, 0.8, -1.0}}, opts);
  auto w = torch::tensor({{0.5, -1.0}, {2.0, 0.25}, {-0.3, 0.7}}, opts);
  auto b = torch::tensor({0.1, -0.2}, opts);
  auto target = torch::tensor({1, 0});
  auto hidden = torch::relu(x.mm(w) + b);
  auto loss = torch::cross_entropy_loss(hidden, target) + torch::mse_loss(hidden, torch::ones({2, 2}, torch::kDouble));
  std::cout << "## grad_fn names\n" << loss.grad_fn()->name() << " " << hidden.grad_fn()->name() << " "
            << x.mm(w).grad_fn()->name() << " " << (x * 2).grad_fn()->name() << " " << x.sum(1).grad_fn()->name() << " "
            << x.t().contiguous().grad_fn()->name() << " " << x[0].grad_fn()->name() << "\n";
  const std::vector<int64_t> every_dim = {0, 1};  // a braced list would also match LibTorch's DimnameList
  std::cout << "## grad_fn names of overloads\n" << x.unsqueeze(0).squeeze(0).grad_fn()->name() << " "
            << x.unsqueeze(0).squeeze().grad_fn()->name() << " " << x.sum(every_dim).grad_fn()->name() << " "
            << x.sum().grad_fn()->name() << " " << (x + 2).grad_fn()->name() << " " << x.pow(2).grad_fn()->name()
            << " " << torch::cat({x, w.t()}).grad_fn()->name() << " " << torch::stack({x, x}).grad_fn()->name()
            << "\n";
  {
    auto joined = torch::cat({x, w.t(), x * 3}, 0);
    auto weights = torch::arange(18, torch::kDouble).reshape({6, 3});
    auto grads = torch::autograd::grad({(joined * weights).sum()}, {x, w});
    show("grad cat x", grads[0]);
    show("grad cat w", grads[1]);
  }
  {
    auto stacked = torch::stack({x, w.t(), x * 3}, 1);  // (2, 3, 3)
    auto weights = torch::arange(18, torch::kDouble).reshape({2, 3, 3});
    auto grads = torch::autograd::grad({(stacked * weights).sum()}, {x, w});
    show("grad stack x", grads[0]);
    show("grad stack w", grads[1]);
  }
  {
    auto bias = torch::tensor({0.5, -1.0}, torch::kDouble).requires_grad_(true);
    auto fused = torch::addmm(bias, x, w, /*beta=*/0.5, /*alpha=*/2);
    std::cout << "## addmm and folded matmul grad_fn\n" << fused.grad_fn()->name() << " "
              << x.unsqueeze(0).expand({2, 2, 3}).matmul(w).grad_fn()->name() << "\n";
    show("addmm", fused);
    auto weights = torch::arange(4, torch::kDouble).reshape({2, 2});
    auto grads = torch::autograd::grad({(fused * weights).sum()}, {bias, x, w});
    show("grad addmm bias", grads[0]);
    show("grad addmm x", grads[1]);
    show("grad addmm w", grads[2]);
  }
  loss.backward();
  show("grad x", x.grad());
  show("grad w", w.grad());
  show("grad b", b.grad());
  auto v = torch::tensor({-1.5, -0.25, 0.75, 2.0}, opts);
  auto upstream = torch::tensor({1.0, -2.0, 3.0, 0.5}, torch::kDouble);
  auto grad_of = [&](const torch::Tensor& y) { return torch::autograd::grad({(y * upstream).sum()}, {v})[0]; };
  show("grad sigmoid", grad_of(torch::sigmoid(v)));
  show("grad tanh", grad_of(torch::tanh(v)));
  show("grad gelu", grad_of(torch::gelu(v)));
  show("grad softmax", grad_of(torch::softmax(v, 0)));
  show("grad log_softmax", grad_of(torch::log_softmax(v, 0)));
  show("grad pow div", grad_of(v.pow(3) / (v.abs() + 1)));
  show("grad max", torch::autograd::grad({std::get<0>(v.reshape({2, 2}).max(1)).sum() + v.max()}, {v})[0]);
  show("grad bce", torch::autograd::grad({torch::binary_cross_entropy(torch::sigmoid(v), torch::tensor({1.0, 0.0, 1.0, 0.0}, torch::kDouble))}, {v})[0]);
  auto cube = torch::autograd::grad({v.pow(3).sum()}, {v}, {}, true, true)[0];
  show("second derivative", torch::autograd::grad({cube.sum()}, {v})[0]);
  auto first_line = [](const std::exception& e) { std::string s = e.what(); return s.substr(0, s.find('\n')); };
  auto twice = v.exp().sum();
  twice.backward();
  try { twice.backward(); } catch (const std::exception& e) { std::cout << "## backward twice\n" << first_line(e) << "\n"; }
  try { (v * 2).backward(); } catch (const std::exception& e) { std::cout << "## non-scalar\n" << first_line(e) << "\n"; }
  try { v.add_(1); } catch (const std::exception& e) { std::cout << "## leaf in-place\n" << first_line(e) << "\n"; }
  try { torch::ones({2}).sum().backward(); } catch (const std::exception& e) { std::cout << "## no grad\n" << first_line(e) << "\n"; }
}

// Convolution: a strided, padded, dilated conv2d in double (exact small numbers), its gradients,
// the module's printing and shapes, and the channel-mismatch error. 4-D results are printed as 3-D
// (N C, H, W): tinytorch prints the slices of a 4-D tensor in another order than LibTorch.
static void show_convolution() {
  auto as_3d = [](const torch::Tensor& t) { return t.reshape({-1, t.size(-2), t.size(-1)}); };
  auto x = (torch::arange(2 * 2 * 5 * 4, torch::kDouble).reshape({2, 2, 5, 4}) * 0.25 - 5).requires_grad_();
  auto w = (torch::arange(3 * 2 * 3 * 2, torch::kDouble).reshape({3, 2, 3, 2}) * 0.5 - 4).requires_grad_();
  auto b = torch::tensor({0.5, -1.0, 0.25}, torch::TensorOptions().dtype(torch::kDouble).requires_grad(true));
  auto y = torch::conv2d(x, w, b, {2, 1}, 1, {1, 2});
  show("conv2d", as_3d(y));
  std::cout << "## conv2d grad_fn\n" << y.grad_fn()->name() << "\n";
  auto upstream = torch::arange(y.numel(), torch::kDouble).reshape(y.sizes()) * 0.5 - 3;
  (y * upstream).sum().backward();
  show("conv2d grad input", as_3d(x.grad()));
  show("conv2d grad weight", as_3d(w.grad()));
  show("conv2d grad bias", b.grad());
  namespace F = torch::nn::functional;
  show("conv2d functional no bias", F::conv2d(x.detach()[0], w.detach(), F::Conv2dFuncOptions().padding(1)));
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(1, 8, 3).padding(1));
  std::cout << "## conv2d module\n" << *conv << " " << conv->weight.sizes() << " " << conv->bias.sizes() << " "
            << conv(torch::ones({32, 1, 8, 8})).sizes() << "\n";
  std::cout << "## conv2d module options\n"
            << *torch::nn::Conv2d(torch::nn::Conv2dOptions(2, 4, {3, 2}).stride(2).dilation({1, 2}).groups(2).bias(false))
            << "\n";
  auto first_line = [](const std::exception& e) { std::string s = e.what(); return s.substr(0, s.find('\n')); };
  try { torch::conv2d(torch::ones({32, 3, 8, 8}), conv->weight, {}, 1, 1); } catch (const std::exception& e) { std::cout << "## conv2d channels error\n" << first_line(e) << "\n"; }
  try { torch::conv2d(torch::ones({1, 1, 2, 2}), conv->weight); } catch (const std::exception& e) { std::cout << "## conv2d kernel error\n" << first_line(e) << "\n"; }
}

// Pooling, batch normalisation and the small CNN layers (module 09): values, gradients, node names,
// running statistics, printing and error messages, in double where the numbers are exact.
// Embeddings (module 11): lookups, EmbeddingBackward0 with repeated ids, padding and frequency
// scaling, max_norm's in-place renormalisation, and gather / scatter_add / index_add with gradients.
static void show_embeddings() {
  namespace F = torch::nn::functional;
  auto table = (torch::arange(20, torch::kFloat).reshape({5, 4}) * 0.37 - 2).requires_grad_();
  auto ids = torch::tensor({{4, 1, 1}, {0, 4, 2}});
  auto out = torch::embedding(table, ids, /*padding_idx=*/2, /*scale_grad_by_freq=*/true);
  show("embedding", out);
  (out * torch::arange(24, torch::kFloat).reshape({2, 3, 4})).sum().backward();
  show("embedding grad (padding 2, scale_grad_by_freq)", table.grad());
  auto renormed = torch::arange(8, torch::kFloat).reshape({4, 2}) - 3;
  show("F::embedding max_norm", F::embedding(torch::tensor({0, 3, 3}), renormed,
                                             F::EmbeddingFuncOptions().max_norm(2.0).norm_type(3)));
  show("max_norm table", renormed);
  auto x = (torch::arange(12, torch::kDouble).reshape({3, 4}) * 0.5).requires_grad_();
  auto index = torch::tensor({{3, 3}, {0, 2}, {1, 1}});
  auto src = torch::tensor({{1.0, -1.0}, {2.0, 0.5}, {4.0, 3.0}}, torch::kDouble).requires_grad_();
  auto gathered = x.gather(1, index);
  auto added = x.scatter_add(1, index, src);
  auto indexed = x.index_add(0, torch::tensor({2, 2, 0}), torch::cat({src, src}, 1), -0.5);
  show("gather", gathered);
  show("scatter_add", added);
  show("index_add", indexed);
  ((gathered * gathered).sum() + (added * x).sum() + (indexed * indexed).sum()).backward();
  show("gather/scatter_add/index_add grad x", x.grad());
  show("gather/scatter_add/index_add grad src", src.grad());
}

// Module 16: kl_div in every reduction (and its gradient), and the SVD. Singular vectors are unique
// only up to sign, so U and Vh are printed as |U| and |Vh| (distinct singular values), with the
// reconstruction U diag(S) Vh.
static void show_compression() {
  namespace F = torch::nn::functional;
  auto log_p = torch::log_softmax(torch::tensor({{1.0, 2.0, 0.5}, {0.0, -1.0, 3.0}}, torch::kDouble), 1);
  auto q = torch::tensor({{0.2, 0.5, 0.3}, {0.0, 0.1, 0.9}}, torch::kDouble);  // a 0 target contributes 0
  show("kl_div none", F::kl_div(log_p, q, F::KLDivFuncOptions(torch::kNone)));
  show("kl_div sum", F::kl_div(log_p, q, F::KLDivFuncOptions(torch::kSum)));
  show("kl_div batchmean", F::kl_div(log_p, q, F::KLDivFuncOptions(torch::kBatchMean)));
  show("kl_div log_target", F::kl_div(log_p, q.clamp(1e-3).log(), F::KLDivFuncOptions(torch::kBatchMean).log_target(true)));
  show("torch::kl_div sum", torch::kl_div(log_p, q, at::Reduction::Sum));
  torch::nn::KLDivLoss kl_module{torch::nn::KLDivLossOptions(torch::kBatchMean)};  // braces: not a function declaration
  show("KLDivLoss", kl_module(log_p, q));
  auto logits = torch::tensor({{1.0, 2.0, 0.5}, {0.0, -1.0, 3.0}}, torch::TensorOptions().dtype(torch::kDouble).requires_grad(true));
  F::kl_div(F::log_softmax(logits / 3.0, F::LogSoftmaxFuncOptions(1)), q, F::KLDivFuncOptions(torch::kBatchMean)).backward();
  show("kl_div grad", logits.grad());
  auto A = torch::tensor({{4.0, 1.0, -2.0}, {1.0, 3.0, 0.5}, {0.0, -1.0, 2.0}, {2.0, 0.0, 1.0}}, torch::kDouble);
  auto reduced = torch::linalg::svd(A, false, c10::nullopt);
  show("svd S", std::get<1>(reduced));
  show("svd |U|", std::get<0>(reduced).abs());
  show("svd |Vh|", std::get<2>(reduced).abs());
  std::cout << "## svd reconstruction\n"
            << torch::allclose((std::get<0>(reduced) * std::get<1>(reduced)).mm(std::get<2>(reduced)), A) << "\n";
  auto full = torch::linalg::svd(A.t(), true, c10::nullopt);
  std::cout << "## svd full_matrices sizes\n" << std::get<0>(full).sizes() << " " << std::get<1>(full).sizes() << " "
            << std::get<2>(full).sizes() << "\n";
  std::cout << "## svd full orthonormal\n"
            << torch::allclose(std::get<0>(full).t().mm(std::get<0>(full)), torch::eye(3, torch::kDouble)) << " "
            << torch::allclose(std::get<2>(full).mm(std::get<2>(full).t()), torch::eye(4, torch::kDouble)) << "\n";
  auto old = torch::svd(A.to(torch::kFloat));
  show("torch::svd S float", std::get<1>(old));
  show("torch::svd |V|", std::get<2>(old).abs());
  show("svd batched S", std::get<1>(torch::linalg::svd(torch::stack({A, A * 2}), false, c10::nullopt)));
  auto first_line = [](const std::exception& e) { std::string s = e.what(); return s.substr(0, s.find('\n')); };
  try { torch::linalg::svd(torch::ones({3}), false, c10::nullopt); } catch (const std::exception& e) { std::cout << "## svd 1-d error\n" << first_line(e) << "\n"; }
}

static void show_spatial() {
  namespace nn = torch::nn;
  namespace F = torch::nn::functional;
  auto as_3d = [](const torch::Tensor& t) { return t.reshape({-1, t.size(-2), t.size(-1)}); };
  auto first_line = [](const std::exception& e) { std::string s = e.what(); return s.substr(0, s.find('\n')); };
  // Small integers in a scrambled order (with ties), so maxima and their indices are exact.
  auto pattern = [](int64_t n, int64_t multiplier, int64_t modulus) {
    std::vector<double> v(n);
    for (int64_t i = 0; i < n; ++i) v[i] = static_cast<double>((i * multiplier) % modulus);
    return torch::tensor(v, torch::kDouble);
  };
  auto x = (pattern(100, 7, 9) - 4).reshape({2, 2, 5, 5}).requires_grad_();
  auto pooled = torch::max_pool2d_with_indices(x, {3, 2}, {2, 1}, 1, 1, true);
  show("max_pool2d", as_3d(std::get<0>(pooled)));
  show("max_pool2d indices", as_3d(std::get<1>(pooled)));
  std::cout << "## max_pool2d grad_fn\n" << std::get<0>(pooled).grad_fn()->name() << "\n";
  auto avg = torch::avg_pool2d(x, 3, 2, 1, true, false);
  show("avg_pool2d", as_3d(avg));
  std::cout << "## avg_pool2d grad_fn\n" << avg.grad_fn()->name() << "\n";
  auto adaptive = torch::adaptive_avg_pool2d(x, {2, 3});
  show("adaptive_avg_pool2d", as_3d(adaptive));
  std::cout << "## adaptive_avg_pool2d grad_fn\n" << adaptive.grad_fn()->name() << "\n";
  (std::get<0>(pooled).sum() + (avg * 2).sum() + (adaptive * 3).sum()).backward();
  show("pooling grad", as_3d(x.grad()));
  show("max_pool1d", torch::max_pool1d(x.detach()[0], 2));
  show("avg_pool2d divisor", as_3d(F::avg_pool2d(x.detach(), F::AvgPool2dFuncOptions(2).divisor_override(3))));

  auto input = (pattern(24, 3, 5) * 0.5).reshape({3, 2, 2, 2}).requires_grad_();
  auto weight = torch::tensor({1.5, -0.5}, torch::TensorOptions().dtype(torch::kDouble).requires_grad(true));
  auto bias = torch::tensor({0.25, 1.0}, torch::TensorOptions().dtype(torch::kDouble).requires_grad(true));
  auto running_mean = torch::zeros({2}, torch::kDouble), running_var = torch::ones({2}, torch::kDouble);
  auto normed = torch::batch_norm(input, weight, bias, running_mean, running_var, true, 0.1, 1e-5, false);
  show("batch_norm train", as_3d(normed));
  std::cout << "## batch_norm grad_fn\n" << normed.grad_fn()->name() << "\n";
  show("running_mean", running_mean);
  show("running_var", running_var);
  (normed * torch::arange(24, torch::kDouble).reshape({3, 2, 2, 2})).sum().backward();
  show("batch_norm grad input", as_3d(input.grad()));
  show("batch_norm grad weight", weight.grad());
  show("batch_norm grad bias", bias.grad());
  show("batch_norm eval", as_3d(F::batch_norm(input.detach(), running_mean, running_var,
                                              F::BatchNormFuncOptions().weight(weight.detach()).eps(1e-3))));

  std::cout << "## spatial modules\n" << *nn::MaxPool2d(nn::MaxPool2dOptions(3).stride(2).padding(1)) << "\n"
            << *nn::AvgPool2d(2) << "\n" << *nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({4, 4})) << "\n"
            << *nn::BatchNorm2d(6) << "\n" << *nn::BatchNorm1d(nn::BatchNorm1dOptions(3).momentum(0.01).affine(false))
            << "\n" << *nn::LeakyReLU() << "\n" << *nn::Dropout2d(0.25) << "\n"
            << *nn::Unflatten(nn::UnflattenOptions(1, {2, 3})) << "\n";
  nn::BatchNorm2d bn(2);
  bn(input.detach().to(torch::kFloat));
  std::cout << "## batchnorm buffers\n" << bn->running_mean << "\n" << bn->running_var << "\n"
            << bn->num_batches_tracked << "\n";
  show("leaky_relu", torch::leaky_relu(torch::tensor({-2.0, 0.5}), 0.2));
  try { torch::max_pool2d(torch::ones({1, 1, 4, 4}), 2, 2, 2); } catch (const std::exception& e) { std::cout << "## max_pool2d pad error\n" << first_line(e) << "\n"; }
  try { torch::avg_pool2d(torch::ones({1, 1, 4, 4}), 2, 2, 2); } catch (const std::exception& e) { std::cout << "## avg_pool2d pad error\n" << first_line(e) << "\n"; }
  try { torch::max_pool2d(torch::ones({1, 1, 2, 2}), 3); } catch (const std::exception& e) { std::cout << "## max_pool2d size error\n" << first_line(e) << "\n"; }
  try { bn(torch::ones({2, 2})); } catch (const std::exception& e) { std::cout << "## batchnorm dim error\n" << first_line(e) << "\n"; }
  try { nn::BatchNorm1d(2)(torch::ones({1, 2})); } catch (const std::exception& e) { std::cout << "## batchnorm one value error\n" << first_line(e) << "\n"; }
}

// Multi-head attention (module 12), LibTorch 1.13's nn::MultiheadAttention with the same weights in
// double: self- and cross-attention, a float attn_mask with a key_padding_mask, kdim/vdim (separate
// projection weights), add_bias_kv with add_zero_attn, per-head weights, gradients, printing and
// parameter names. (scaled_dot_product_attention is not in LibTorch 1.13: module 12's tests check it
// against the formula instead.)
static void show_attention() {
  namespace nn = torch::nn;
  auto wave = [](std::vector<int64_t> sizes, double phase) {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    std::vector<double> v(n);
    for (int64_t i = 0; i < n; ++i) v[i] = 0.5 * std::sin(0.37 * static_cast<double>(i) + phase);
    return torch::tensor(v, torch::kDouble).reshape(sizes);
  };
  auto set_weights = [&](nn::MultiheadAttention& attention) {
    torch::NoGradGuard no_grad;
    double phase = 0.0;
    for (auto& parameter : attention->named_parameters()) {
      parameter.value().copy_(wave(parameter.value().sizes().vec(), phase));
      phase += 1.0;
    }
  };
  auto first_line = [](const std::exception& e) { std::string s = e.what(); return s.substr(0, s.find('\n')); };

  nn::MultiheadAttention self_attention(nn::MultiheadAttentionOptions(4, 2));
  self_attention->to(torch::kDouble);
  set_weights(self_attention);
  std::cout << "## mha module\n" << *self_attention << "\n";
  std::cout << "## mha parameters\n";
  for (const auto& parameter : self_attention->named_parameters()) std::cout << parameter.key() << " " << parameter.value().sizes() << "\n";
  auto x = wave({3, 2, 4}, 0.3).requires_grad_();
  auto self_result = self_attention(x, x, x);
  show("mha self output", std::get<0>(self_result));
  show("mha self weights", std::get<1>(self_result));
  (std::get<0>(self_result) * wave({3, 2, 4}, 2.0)).sum().backward();
  show("mha grad in_proj_weight", self_attention->in_proj_weight.grad());
  show("mha grad out_proj.weight", self_attention->out_proj->weight.grad());
  show("mha grad input", x.grad());

  auto query = wave({2, 3, 4}, 0.7), memory = wave({5, 3, 4}, 1.1);
  auto causal_like = torch::zeros({2, 5}, torch::kDouble);
  causal_like.index_put_({0, Slice(2, None)}, -std::numeric_limits<double>::infinity());
  auto padding = torch::tensor({false, false, false, true, true, false, false, false, false, true, false, false,
                                false, false, false}).reshape({3, 5});
  auto cross = self_attention->forward(query, memory, memory, padding, true, causal_like);
  show("mha cross output", std::get<0>(cross));
  show("mha cross weights", std::get<1>(cross));
  auto per_head = self_attention->forward(query, memory, memory, {}, true, {}, false);
  show("mha per-head weights", std::get<1>(per_head).reshape({-1, 2, 5}));
  std::cout << "## mha need_weights false\n" << std::get<1>(self_attention->forward(x, x, x, {}, false)).defined() << "\n";

  nn::MultiheadAttention separate(nn::MultiheadAttentionOptions(4, 2).kdim(3).vdim(3).bias(false));
  separate->to(torch::kDouble);
  set_weights(separate);
  std::cout << "## mha kdim vdim parameters\n";
  for (const auto& parameter : separate->named_parameters()) std::cout << parameter.key() << " " << parameter.value().sizes() << "\n";
  show("mha kdim vdim output", std::get<0>(separate(query, wave({5, 3, 3}, 0.2), wave({5, 3, 3}, 0.9))));

  nn::MultiheadAttention extra_keys(nn::MultiheadAttentionOptions(4, 1).add_bias_kv(true).add_zero_attn(true));
  extra_keys->to(torch::kDouble);
  set_weights(extra_keys);
  std::cout << "## mha bias_kv parameters\n";
  for (const auto& parameter : extra_keys->named_parameters()) std::cout << parameter.key() << " " << parameter.value().sizes() << "\n";
  auto extended = extra_keys->forward(query, memory, memory, padding, true, causal_like);
  show("mha bias_kv zero_attn output", std::get<0>(extended));
  show("mha bias_kv zero_attn weights", std::get<1>(extended));
  try { nn::MultiheadAttention(nn::MultiheadAttentionOptions(6, 4)); } catch (const std::exception& e) { std::cout << "## mha heads error\n" << first_line(e) << "\n"; }
}

// Transformers (module 13): LayerNorm forward and gradients, topk/sort with gradients, and LibTorch
// 1.13's post-LN nn::TransformerEncoderLayer / nn::TransformerEncoder with the same weights (dropout
// off), masks included, in double.
static void show_transformers() {
  namespace nn = torch::nn;
  auto wave = [](std::vector<int64_t> sizes, double phase) {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    std::vector<double> v(n);
    for (int64_t i = 0; i < n; ++i) v[i] = 0.5 * std::sin(0.41 * static_cast<double>(i) + phase);
    return torch::tensor(v, torch::kDouble).reshape(sizes);
  };
  nn::LayerNorm norm(nn::LayerNormOptions({2, 3}).eps(1e-3));
  norm->to(torch::kDouble);
  {
    torch::NoGradGuard no_grad;
    norm->weight.copy_(wave({2, 3}, 0.3) + 1);
    norm->bias.copy_(wave({2, 3}, 1.1));
  }
  auto x = (wave({4, 2, 3}, 0.0) * 3).requires_grad_();
  auto y = norm(x);
  show("layer_norm", y);
  std::cout << "## layer_norm grad_fn\n" << y.grad_fn()->name() << "\n";
  (y * wave({4, 2, 3}, 2.0)).sum().backward();
  show("layer_norm grad input", x.grad());
  show("layer_norm grad weight", norm->weight.grad());
  show("layer_norm grad bias", norm->bias.grad());

  auto scores = (wave({3, 5}, 0.7) * 10).requires_grad_();
  auto [top, top_index] = scores.topk(3);
  show("topk values", top);
  show("topk indices", top_index);
  auto [sorted, order] = scores.sort(0, true);
  show("sort values", sorted);
  show("sort indices", order);
  (top.sum() * 2 + (sorted * wave({3, 5}, 0.1)).sum()).backward();
  show("topk + sort grad", scores.grad());

  for (bool gelu : {false, true}) {
    auto options = nn::TransformerEncoderLayerOptions(8, 2).dim_feedforward(16).dropout(0.0);
    if (gelu) options.activation(torch::kGELU);
    nn::TransformerEncoderLayer layer(options);
    layer->to(torch::kDouble);
    {
      torch::NoGradGuard no_grad;
      double phase = 0.0;
      for (auto& p : layer->parameters()) {
        p.copy_(wave(p.sizes().vec(), phase) * 0.8);
        phase += 0.9;
      }
    }
    std::cout << "## encoder layer parameters\n";
    for (const auto& p : layer->named_parameters()) std::cout << p.key() << " " << p.value().sizes() << "\n";
    auto src = wave({5, 2, 8}, 0.2).requires_grad_();
    // A float causal mask (0 / -inf): LibTorch 1.13's C++ multi_head_attention_forward adds attn_mask to
    // the scores even when it is kBool, so a bool mask is not diffable.
    auto mask = torch::zeros({5, 5}, torch::kDouble).masked_fill(torch::arange(5).unsqueeze(0) > torch::arange(5).unsqueeze(1), -INFINITY);
    auto padding = torch::tensor({false, false, false, false, true, false, false, false, true, true}).reshape({2, 5});
    auto out = layer(src, mask, padding);
    show(gelu ? "encoder layer gelu" : "encoder layer relu", out);
    out.pow(2).sum().backward();
    show("encoder layer grad src", src.grad());
    nn::TransformerEncoder encoder(nn::TransformerEncoderOptions(layer, 2));
    encoder->to(torch::kDouble);  // TinyTorch's clone() re-creates parameters as float (LibTorch keeps the dtype)
    show("encoder of 2", encoder(src.detach(), mask));
  }
}

int main() {
  // Factories and dtype inference.
  show("tensor floats", torch::tensor({{1.5, 2.0}, {3.0, 4.0}}));
  show("tensor ints", torch::tensor({1, 2, 3}));
  show("tensor bools", torch::tensor({true, false}));
  show("zeros", torch::zeros({2, 3}));
  show("ones long", torch::ones({2}, torch::kLong));
  show("full int infers long", torch::full({2}, 7));
  show("full float", torch::full({2, 2}, 0.5));
  show("arange int", torch::arange(5));
  show("arange float", torch::arange(0.0, 1.0, 0.25));
  show("linspace", torch::linspace(0, 1, 5));
  show("eye", torch::eye(3));
  std::cout << "## dtypes\n" << torch::full({2}, 7).dtype() << " " << torch::tensor({1.0}).dtype() << " "
            << torch::arange(3).dtype() << " " << torch::tensor({true}).dtype() << " "
            << torch::zeros({1}, torch::kDouble).dtype() << "\n";

  // Printing across magnitudes.
  show("small fractions", torch::tensor({0.001, 0.25, -3.5}));
  show("large", torch::tensor({12345.678, 1.0}));
  show("very large spread", torch::tensor({1e-5, 1e5}));
  show("huge", torch::tensor({1e10, 2e10}));
  show("negatives int", torch::tensor({-1, 20, -300}));
  show("scalar", torch::tensor(3.25));
  show("3d", torch::arange(12).reshape({2, 2, 3}));
  show("wide", torch::arange(30.0).reshape({1, 30}) * 1.5);

  // Arithmetic, broadcasting, promotion.
  auto a = torch::tensor({{1.0, 2.0}, {3.0, 4.0}});
  auto row = torch::tensor({10.0, 20.0});
  auto ints = torch::tensor({1, 2, 3});
  show("a + row", a + row);
  show("a * 2", a * 2);
  show("2 - a", 2 - a);
  show("a / 4", a / 4);
  show("-a", -a);
  show("int + float scalar", ints + 0.5);
  show("int / int", ints / 2);
  show("int * int", ints * ints);
  show("col * row", torch::tensor({{1.0}, {2.0}, {3.0}}) * torch::tensor({{1.0, 10.0}}));
  show("pow", a.pow(2));
  show("exp", torch::tensor({0.0, 1.0}).exp());
  show("log", torch::tensor({1.0, 10.0}).log());
  show("sqrt", torch::tensor({4.0, 2.0}).sqrt());
  show("abs", torch::tensor({-1.5, 2.0}).abs());
  show("clamp", torch::tensor({-2.0, 0.5, 3.0}).clamp(-1, 1));
  show("add alpha", torch::add(a, a, 3));

  // Views and shapes.
  auto x = torch::arange(24).reshape({2, 3, 4});
  show("transpose", x.transpose(0, 2).sizes());
  show("transpose strides", x.transpose(0, 2).strides());
  show("permute", x.permute({2, 0, 1}).contiguous());
  show("flatten", x.flatten(1).sizes());
  show("unsqueeze", a.unsqueeze(0).sizes());
  show("squeeze", torch::zeros({1, 3, 1}).squeeze().sizes());
  show("expand", row.expand({3, 2}));
  show("select", x.select(1, 2));
  show("narrow", x.narrow(2, 1, 2));
  show("index", x.index({Slice(), 1, Slice(None, None, 2)}));
  show("operator[]", x[1][2]);
  show("reshape -1", x.reshape({-1, 6}).sizes());
  show("t", a.t());

  // Matmul.
  auto m = torch::tensor({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}});
  show("mm", torch::mm(m, m.t()));
  show("matmul mv", torch::matmul(m, torch::tensor({1.0, 2.0, 3.0})));
  show("matmul dot", torch::matmul(torch::tensor({1.0, 2.0}), torch::tensor({3.0, 4.0})));
  show("bmm", torch::bmm(torch::ones({2, 2, 3}), torch::ones({2, 3, 1})));
  show("matmul broadcast", torch::matmul(torch::ones({2, 1, 2, 3}), torch::ones({3, 3, 2})).sizes());

  // Reductions.
  show("sum", m.sum());
  show("sum dim", m.sum(0));
  show("sum keepdim", m.sum(1, true));
  show("mean", m.mean());
  show("mean dims", x.to(torch::kFloat).mean(std::vector<int64_t>{0, 2}));
  show("max", m.max());
  auto max_dim = m.max(1);
  show("max values", std::get<0>(max_dim));
  show("max indices", std::get<1>(max_dim));
  show("min dim", std::get<0>(m.min(0, true)));
  show("argmax", m.argmax());
  show("argmax dim", m.argmax(0));
  show("sum of ints", ints.sum());
  show("sum of bools", torch::tensor({true, true, false}).sum());

  // Comparisons.
  show("gt", m.gt(2.5));
  show("eq", a == torch::tensor({1.0, 4.0}));
  show("all", (a > 0).all());
  show("any", (a > 3).any());
  std::cout << "## allclose\n" << torch::allclose(a, a + 1e-9) << " " << a.equal(a.clone()) << "\n";

  // Sizes in bytes.
  auto images = torch::zeros({32, 3, 224, 224});
  std::cout << "## nbytes\n" << images.nbytes() << " " << images.element_size() << " " << ints.nbytes() << "\n";

  // Errors carry LibTorch's wording (first line only: LibTorch appends a backtrace).
  auto first_line = [](const std::exception& e) { std::string s = e.what(); return s.substr(0, s.find('\n')); };
  try { torch::mm(torch::ones({2, 3}), torch::ones({4, 5})); } catch (const std::exception& e) { std::cout << "## mm error\n" << first_line(e) << "\n"; }
  try { torch::ones({3}) + torch::ones({4}); } catch (const std::exception& e) { std::cout << "## broadcast error\n" << first_line(e) << "\n"; }
  try { torch::ones({6}).view({2, 2}); } catch (const std::exception& e) { std::cout << "## view error\n" << first_line(e) << "\n"; }
  try { torch::ones({6}).reshape({-1, -1}); } catch (const std::exception& e) { std::cout << "## infer error\n" << first_line(e) << "\n"; }
  try { torch::ones({2, 3}).sum(2); } catch (const std::exception& e) { std::cout << "## dim error\n" << first_line(e) << "\n"; }
  try { torch::ones({2, 3}).item<float>(); } catch (const std::exception& e) { std::cout << "## item error\n" << first_line(e) << "\n"; }
  show_optimizers();
  show_gradients();
  show_convolution();
  show_spatial();
  show_embeddings();
  show_quantization();
  show_attention();
  show_transformers();
  show_compression();
  return 0;
}
