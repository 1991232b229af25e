// One LibTorch program, compiled twice: against LibTorch (-DPARITY_WITH_LIBTORCH) and against tinytorch.
// Only the include line differs; tests/parity/run_parity.sh diffs the two outputs line by line.
#ifdef PARITY_WITH_LIBTORCH
#include <torch/torch.h>
#else
#include <tinytorch/torch.h>
#endif
#include <iostream>
#include <tuple>

using torch::indexing::Slice;
using torch::indexing::None;

template <typename T>
static void show(const char* label, const T& value) {
  std::cout << "## " << label << "\n" << value << "\n";
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
  return 0;
}
