// Advanced indexing: several index tensors in one index({...}) / index_put_({...}, v), broadcast
// together, mixed with slices, None, Ellipsis and integers (adjacent tensor indices keep their
// place, separated ones move to the front); index_put_ with accumulate through the
// c10::List<c10::optional<Tensor>> overloads and torch::index_put_; gradients (IndexBackward0,
// IndexPutBackward0) and LibTorch's errors.
// compat-tolerance: 1e-6
#include <iostream>
#include <string>

#include "compat.h"

namespace indexing_advanced_program {

using torch::indexing::Ellipsis;
using torch::indexing::None;
using torch::indexing::Slice;

void show(const std::string& label, const torch::Tensor& t) { std::cout << label << "\n" << t << "\n"; }

std::string node(const torch::Tensor& t) { return t.grad_fn() ? t.grad_fn()->name() : std::string("none"); }

COMPAT_PROGRAM(indexing_advanced) {
  auto x = torch::arange(12, torch::kFloat).reshape({3, 4});
  auto x3 = torch::arange(24, torch::kFloat).reshape({2, 3, 4});
  auto rows = torch::tensor({0, 2, 1});
  auto cols = torch::tensor({3, 0, -1});

  show("x.index({rows, cols})", x.index({rows, cols}));
  show("broadcast (2, 1) with (3)", x.index({torch::tensor({0, 2}).reshape({2, 1}), torch::tensor({1, 2, 3})}));
  show("x3.index({Slice(), idx, idx}) adjacent", x3.index({Slice(), torch::tensor({0, 2}), torch::tensor({1, 3})}));
  show("x3.index({idx, Slice(), idx}) separated", x3.index({torch::tensor({0, 1}), Slice(), torch::tensor({1, 3})}));
  show("x3.index({Ellipsis, idx})", x3.index({Ellipsis, torch::tensor({1, 2})}));
  show("x3.index({idx, 1, idx}) integer between", x3.index({torch::tensor({1, 0}), 1, torch::tensor({0, 3})}));
  show("x3.index({None, idx2d, Slice(0, 2)})", x3.index({None, torch::tensor({1, 0, 1, 1}).reshape({2, 2}), Slice(0, 2)}));
  show("x3.index({mask2d})", x3.index({x3.select(2, 0) > 6}));
  show("x3.index({Slice(), mask})", x3.index({Slice(), x3.select(0, 0).select(1, 0) > 2}));
  show("x3.index({mask, idx})", x3.index({torch::tensor({true, false}), torch::tensor({2, 0})}));
  show("0-dim tensor index", x3.index({torch::tensor(1), torch::tensor({0, 2})}));
  std::cout << "sizes " << x3.index({torch::tensor(true)}).sizes() << " " << x3.index({torch::tensor(false)}).sizes()
            << " " << x3.index({Slice(), None, torch::tensor({0, 1}), None}).sizes() << "\n";

  // The List overloads, as LibTorch's c10::List<c10::optional<Tensor>>.
  c10::List<c10::optional<torch::Tensor>> list;
  list.push_back(c10::nullopt);
  list.push_back(torch::tensor({1, 1, 0}));
  show("x.index(List{nullopt, idx})", x.index(list));
  show("torch::index", torch::index(x, {rows, cols}));

  auto y = x.clone();
  y.index_put_({rows, cols}, torch::tensor({-1.0f, -2.0f, -3.0f}));
  show("index_put_ two indices", y);
  y.index_put_({Slice(), torch::tensor({0, 1})}, torch::tensor({100.0f, 200.0f}));
  show("index_put_ broadcast value", y);
  y.index_put_({torch::tensor({0, 2}).reshape({2, 1}), torch::tensor({1, 3})}, 7);
  show("index_put_ scalar, broadcast indices", y);
  y.index_put_({1, torch::tensor({0, 0})}, torch::tensor({5.0f, 6.0f}));
  show("index_put_ integer and repeated index", y);
  auto z = torch::zeros({3, 4});
  c10::List<c10::optional<torch::Tensor>> at_rows;
  at_rows.push_back(torch::tensor({0, 0, 2}));
  z.index_put_(at_rows, torch::ones({3, 4}), /*accumulate=*/true);
  show("index_put_ accumulate", z);
  torch::index_put_(z, {torch::tensor({1, 1}), torch::tensor({2, 2})}, torch::tensor({0.5f, 0.25f}), true);
  show("torch::index_put_ accumulate", z);
  show("index_put (out of place)", x.index_put({rows}, torch::zeros({4})));
  auto w3 = x3.clone();
  w3.index_put_({Ellipsis, torch::tensor({0, 3})}, -1);
  show("index_put_ with Ellipsis", w3);
  w3.index_put_({x3 > 20}, torch::tensor(0.0f));
  show("index_put_ with a mask", w3);

  // Gradients.
  auto g = torch::arange(12, torch::kDouble).reshape({3, 4}).requires_grad_(true);
  auto picked = g.index({torch::tensor({0, 0, 2}), torch::tensor({1, 1, 3})});
  std::cout << "index node " << node(picked) << "\n";
  (picked * torch::tensor({1.0, 2.0, 3.0}, torch::kDouble)).sum().backward();
  show("grad of index (repeated element accumulates)", g.grad());
  g.mutable_grad() = torch::Tensor();
  auto mixed = g.index({Slice(1, 3), torch::tensor({0, 2})});
  std::cout << "mixed node " << node(mixed) << "\n";
  mixed.pow(2).sum().backward();
  show("grad of index with a slice", g.grad());

  auto base = torch::arange(12, torch::kDouble).reshape({3, 4}).requires_grad_(true);
  auto values = torch::tensor({10.0, 20.0}, torch::kDouble).requires_grad_(true);
  auto written = base * 2;
  written.index_put_({torch::tensor({0, 2}), torch::tensor({1, 1})}, values);
  std::cout << "index_put_ node " << node(written) << "\n";
  (written * torch::arange(12, torch::kDouble).reshape({3, 4})).sum().backward();
  show("grad of base through index_put_", base.grad());
  show("grad of values", values.grad());
  base.mutable_grad() = torch::Tensor();
  values.mutable_grad() = torch::Tensor();
  auto summed = (base * 1).index_put({torch::tensor({1, 1})}, values.reshape({1, 2}).expand({2, 2}).repeat({1, 2}), true);
  std::cout << "index_put accumulate node " << node(summed) << "\n";
  summed.sum().backward();
  show("grad of base, accumulate", base.grad());
  show("grad of values, accumulate", values.grad());

  // Errors, with LibTorch's wording.
  auto error = [](const std::string& label, auto op) {
    try {
      op();
      std::cout << label << ": no error\n";
    } catch (const c10::Error& e) {
      std::string message = e.what();
      std::cout << label << ": " << message.substr(0, message.find('\n')) << "\n";
    }
  };
  error("out of range", [&] { x.index({torch::tensor({5})}); });
  error("out of range in dim 1", [&] { x.index({Slice(), torch::tensor({4})}); });
  error("negative out of range", [&] { x.index({torch::tensor({-4})}); });
  error("shapes do not broadcast", [&] { x.index({torch::tensor({0, 1}), torch::tensor({0, 1, 2})}); });
  error("float index", [&] { x.index({torch::tensor({0.0})}); });
  error("too many indices", [&] { x.index({0, 0, 0}); });
  error("integer out of range", [&] { x.index({Slice(), 7}); });
  error("mask shape", [&] { x.index({torch::tensor({true, false})}); });
  error("value shape", [&] {
    auto t = x.clone();
    t.index_put_({torch::tensor({0, 1})}, torch::ones({3}));
  });
  error("value dtype", [&] {
    auto t = x.clone();
    t.index_put_({torch::tensor({0, 1})}, torch::ones({2, 4}, torch::kDouble));
  });
  return 0;
}

}  // namespace indexing_advanced_program
