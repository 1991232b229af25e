// Shape and layout ops: flip / fliplr / flipud / roll / rot90, movedim / moveaxis / swapaxes,
// in-place metadata changes (transpose_, t_, squeeze_, unsqueeze_), tril / triu, diag / diagonal /
// diag_embed / diagflat, repeat / repeat_interleave / tile, unfold, broadcast_to / broadcast_tensors,
// ravel, tensor_split / hsplit / vsplit / dsplit, hstack / vstack / dstack / column_stack / row_stack,
// meshgrid, take / take_along_dim / put, index_fill / index_copy / masked_scatter, the *_scatter ops,
// as_strided, resize_, sum_to_size, expand with -1, constant_pad_nd and F::pad, MemoryFormat; with
// gradients and autograd node names.
// compat-tolerance: 1e-6
#include <iostream>
#include <string>

#include "compat.h"

namespace shape_layout_program {

namespace F = torch::nn::functional;

void show(const std::string& label, const torch::Tensor& t) { std::cout << label << "\n" << t << "\n"; }

void show_all(const std::string& label, const std::vector<torch::Tensor>& parts) {
  std::cout << label << " (" << parts.size() << " parts)\n";
  for (const auto& part : parts) std::cout << part.sizes() << " " << part.flatten() << "\n";
}

std::string node(const torch::Tensor& t) { return t.grad_fn() ? t.grad_fn()->name() : std::string("none"); }

// The gradient of sum(f(w) * weights) with respect to w, and f's node name.
template <typename Op>
void show_grad(const std::string& label, const torch::Tensor& input, Op op) {
  auto w = input.detach().clone().requires_grad_(true);
  auto out = op(w);
  auto weights = torch::arange(out.numel(), torch::kDouble).reshape(out.sizes()) + 1;
  (out * weights).sum().backward();
  std::cout << label << " [" << node(out) << "]\n" << w.grad() << "\n";
}

COMPAT_PROGRAM(shape_layout) {
  auto x = torch::arange(12, torch::kFloat).reshape({3, 4});
  auto x3 = torch::arange(24, torch::kFloat).reshape({2, 3, 4});
  auto v = torch::arange(5, torch::kFloat);

  show("flip({0, 1})", x.flip({0, 1}));
  show("torch::flip(x3, {-1})", torch::flip(x3, {-1}));
  show("fliplr", x.fliplr());
  show("flipud", torch::flipud(x));
  show("roll(1)", x.roll({1}));
  show("roll({1, -1}, {0, 1})", torch::roll(x, {1, -1}, {0, 1}));
  show("rot90()", x.rot90());
  show("rot90(2)", torch::rot90(x, 2));
  show("rot90(-1, {1, 2})", x3.rot90(-1, {1, 2}));
  std::cout << "movedim(0, 2) " << x3.movedim(0, 2).sizes() << " moveaxis({0, 1}, {2, 0}) "
            << torch::moveaxis(x3, {0, 1}, {2, 0}).sizes() << " swapaxes(0, 2) " << x3.swapaxes(0, 2).sizes()
            << " swapdims " << torch::swapdims(x3, 1, 2).sizes() << "\n";
  show("movedim values", x3.movedim(2, 0));

  auto m = x3.clone();
  m.transpose_(0, 2);
  std::cout << "transpose_ " << m.sizes() << " " << m.strides() << "\n";
  m.swapaxes_(0, 1);
  std::cout << "swapaxes_ " << m.sizes() << "\n";
  auto s = torch::zeros({1, 3, 1});
  s.squeeze_();
  std::cout << "squeeze_ " << s.sizes() << "\n";
  s.unsqueeze_(1);
  std::cout << "unsqueeze_(1) " << s.sizes() << "\n";
  s.squeeze_(1);
  s.t_();
  std::cout << "squeeze_(1), t_ " << s.sizes() << "\n";

  show("tril", x.tril());
  show("tril(-1)", torch::tril(x, -1));
  show("triu(1)", x.triu(1));
  auto tri = x.clone();
  tri.triu_();
  show("triu_", tri);
  tri.tril_(1);
  show("tril_(1)", tri);
  show("diag of a vector, offset 1", v.diag(1));
  show("diag of a matrix, offset -1", torch::diag(x, -1));
  show("diagonal(1)", x.diagonal(1));
  show("diagonal(0, 1, 2)", x3.diagonal(0, 1, 2));
  show("diag_embed", x.diag_embed());
  show("diag_embed(-1, 0, 2)", torch::diag_embed(v.reshape({1, 5}), -1, 0, 2));
  show("diagflat", x.slice(0, 0, 1).diagflat());

  show("repeat({2, 1, 2})", x.repeat({2, 1, 2}));
  show("tile({2})", x.tile({2}));
  show("repeat_interleave(2)", v.repeat_interleave(2));
  show("repeat_interleave(tensor, 0)", x.repeat_interleave(torch::tensor({1, 0, 2}), 0));
  show("repeat_interleave(2, 1)", torch::repeat_interleave(x, 2, 1));
  show("torch::repeat_interleave(repeats)", torch::repeat_interleave(torch::tensor({2, 0, 3})));
  show("unfold(1, 2, 1)", x.unfold(1, 2, 1));
  show("unfold(0, 2, 2) of a vector", v.unfold(0, 2, 2));
  show("broadcast_to", v.broadcast_to({2, 5}));
  auto both = torch::broadcast_tensors({x.slice(1, 0, 1), v.slice(0, 0, 4)});
  std::cout << "broadcast_tensors " << both[0].sizes() << " " << both[1].sizes() << "\n";
  show("ravel of a transpose", x.t().ravel());
  show("expand({2, -1, -1})", x.expand({2, -1, -1}));
  show("sum_to_size({1, 4})", x.sum_to_size({1, 4}));
  show("sum_to_size({3, 1})", x3.sum_to_size({3, 1}));

  show_all("tensor_split(3, 1)", x.tensor_split(3, 1));
  show_all("tensor_split({1, 3})", torch::tensor_split(v, {1, 3}));
  show_all("tensor_split(tensor)", x.tensor_split(torch::tensor({1}), 0));
  show_all("hsplit(2)", x.hsplit(2));
#ifdef __clang__  // the braced {1} is the spelling under test (it picks the int64_t overload, as in LibTorch)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wbraced-scalar-init"
#endif
  show_all("vsplit({1})", x.vsplit({1}));
#ifdef __clang__
#pragma clang diagnostic pop
#endif
  show_all("dsplit(2)", torch::dsplit(x3, 2));
  show("hstack", torch::hstack({v, v}));
  show("vstack", torch::vstack({v, v}));
  show("row_stack", torch::row_stack({x, x.slice(0, 0, 1)}));
  show("dstack", torch::dstack({x, x}));
  show("column_stack", torch::column_stack({v, v * 2}));
  auto grids = torch::meshgrid({v.slice(0, 0, 2), v.slice(0, 0, 3)}, "ij");
  show("meshgrid ij", grids[0]);
  auto xy = torch::meshgrid({v.slice(0, 0, 2), v.slice(0, 0, 3)}, "xy");
  show("meshgrid xy", xy[0]);
  show("meshgrid xy second", xy[1]);

  show("take", x.take(torch::tensor({0, 5, -1}).reshape({3, 1})));
  show("take_along_dim(dim 1)", x.take_along_dim(torch::tensor({3, 0, 1}).reshape({3, 1}), 1));
  show("take_along_dim(no dim)", torch::take_along_dim(x, torch::tensor({11, 2})));
  show("put", x.put(torch::tensor({0, 11}), torch::tensor({-1.0f, -2.0f})));
  auto p = x.clone();
  p.put_(torch::tensor({1, 1, 2}), torch::tensor({10.0f, 20.0f, 30.0f}), true);
  show("put_ accumulate", p);
  show("index_fill", x.index_fill(1, torch::tensor({0, 2}), -1));
  show("index_fill with a tensor value", torch::index_fill(x, 0, torch::tensor({1}), torch::tensor(7.0f)));
  auto f = x.clone();
  f.index_fill_(0, torch::tensor({-1}), 0);
  show("index_fill_", f);
  show("index_copy", x.index_copy(0, torch::tensor({2, 0}), torch::zeros({2, 4})));
  auto c = x.clone();
  c.index_copy_(1, torch::tensor({3}), torch::ones({3, 1}));
  show("index_copy_", c);
  show("masked_scatter", x.masked_scatter(x.gt(8), -torch::arange(5, torch::kFloat)));
  auto ms = x.clone();
  ms.masked_scatter_(torch::tensor({true, false, false, true}), torch::full({8}, 100.0f));
  show("masked_scatter_ broadcast mask", ms);
  show("select_scatter", x.select_scatter(torch::zeros({4}), 0, 1));
  show("slice_scatter", torch::slice_scatter(x, torch::zeros({3, 2}), 1, 0, 4, 2));
  show("diagonal_scatter", x.diagonal_scatter(torch::ones({3}), 1));

  show("as_strided", x.as_strided({2, 2}, {1, 4}, 1));
  auto r = torch::arange(6, torch::kFloat);
  r.resize_({2, 2});
  show("resize_ smaller", r);
  std::cout << "is_contiguous(Contiguous) " << x.is_contiguous(torch::MemoryFormat::Contiguous)
            << " transposed " << x.t().is_contiguous(torch::MemoryFormat::Contiguous) << "\n";
  std::cout << "suggest_memory_format " << x.suggest_memory_format() << "\n";
  std::cout << "contiguous(MemoryFormat::Contiguous) " << x.t().contiguous(torch::MemoryFormat::Contiguous).strides()
            << " clone(Preserve) " << x.clone(torch::MemoryFormat::Preserve).strides() << "\n";
  std::cout << torch::MemoryFormat::Contiguous << " " << torch::MemoryFormat::Preserve << "\n";

  show("constant_pad_nd", torch::constant_pad_nd(x, {1, 2}, -1));
  show("constant_pad_nd cropping", torch::constant_pad_nd(x, {-1, 0, 1, -1}));
  auto img = torch::arange(9, torch::kFloat).reshape({1, 1, 3, 3});
  show("F::pad constant", F::pad(img, F::PadFuncOptions({1, 0, 0, 1}).value(5)));
  show("F::pad reflect", F::pad(img, F::PadFuncOptions({2, 1, 1, 0}).mode(torch::kReflect)));
  show("F::pad replicate", F::pad(img, F::PadFuncOptions({1, 1, 2, 0}).mode(torch::kReplicate)));
  show("F::pad circular", F::pad(img, F::PadFuncOptions({1, 2, 0, 1}).mode(torch::kCircular)));
  show("F::pad reflect 1-D", F::pad(v.reshape({1, 5}), F::PadFuncOptions({3, 2}).mode(torch::kReflect)));

  // Gradients, with each op's autograd node.
  auto xd = torch::arange(12, torch::kDouble).reshape({3, 4});
  show_grad("flip", xd, [](const torch::Tensor& w) { return w.flip({0}); });
  show_grad("roll", xd, [](const torch::Tensor& w) { return w.roll({1, 2}, {0, 1}); });
  show_grad("rot90", xd, [](const torch::Tensor& w) { return w.rot90(1); });
  show_grad("movedim", xd, [](const torch::Tensor& w) { return w.movedim(0, 1); });
  show_grad("tril", xd, [](const torch::Tensor& w) { return w.tril(1); });
  show_grad("triu", xd, [](const torch::Tensor& w) { return w.triu(); });
  show_grad("diag", xd, [](const torch::Tensor& w) { return w.diag(1); });
  show_grad("diagonal", xd, [](const torch::Tensor& w) { return w.diagonal(-1); });
  show_grad("diag_embed", xd, [](const torch::Tensor& w) { return w.diag_embed(); });
  show_grad("repeat", xd, [](const torch::Tensor& w) { return w.repeat({2, 3}); });
  show_grad("tile", xd, [](const torch::Tensor& w) { return w.tile({2}); });
  show_grad("repeat_interleave", xd, [](const torch::Tensor& w) { return w.repeat_interleave(2, 0); });
  show_grad("unfold", xd, [](const torch::Tensor& w) { return w.unfold(1, 3, 1); });
  show_grad("as_strided", xd, [](const torch::Tensor& w) { return w.as_strided({2, 3}, {1, 2}, 1); });
  show_grad("take", xd, [](const torch::Tensor& w) { return w.take(torch::tensor({1, 1, 5})); });
  show_grad("take_along_dim", xd, [](const torch::Tensor& w) {
    return w.take_along_dim(torch::tensor({0, 0, 3}).reshape({3, 1}), 1);
  });
  show_grad("put", xd, [](const torch::Tensor& w) { return w.put(torch::tensor({0, 1}), torch::zeros({2}, torch::kDouble)); });
  show_grad("index_fill", xd, [](const torch::Tensor& w) { return w.index_fill(1, torch::tensor({1}), 0); });
  show_grad("index_copy", xd, [](const torch::Tensor& w) { return w.index_copy(0, torch::tensor({0}), torch::zeros({1, 4}, torch::kDouble)); });
  show_grad("masked_scatter", xd, [](const torch::Tensor& w) { return w.masked_scatter(w.gt(5), torch::zeros({12}, torch::kDouble)); });
  show_grad("select_scatter", xd, [](const torch::Tensor& w) { return w.select_scatter(torch::zeros({4}, torch::kDouble), 0, 0); });
  show_grad("slice_scatter", xd, [](const torch::Tensor& w) { return w.slice_scatter(torch::zeros({3, 2}, torch::kDouble), 1, 1, 3); });
  show_grad("diagonal_scatter", xd, [](const torch::Tensor& w) { return w.diagonal_scatter(torch::zeros({3}, torch::kDouble)); });
  show_grad("constant_pad_nd", xd, [](const torch::Tensor& w) { return torch::constant_pad_nd(w, {1, -1, 0, 1}); });
  show_grad("sum_to_size", xd, [](const torch::Tensor& w) { return w.sum_to_size({1, 4}); });
  show_grad("hstack", xd, [](const torch::Tensor& w) { return torch::hstack({w, w.slice(1, 0, 1)}); });
  auto imgd = torch::arange(12, torch::kDouble).reshape({1, 3, 4});
  show_grad("F::pad reflect", imgd, [](const torch::Tensor& w) { return F::pad(w, F::PadFuncOptions({2, 1}).mode(torch::kReflect)).pow(2); });
  show_grad("F::pad replicate", imgd, [](const torch::Tensor& w) { return F::pad(w, F::PadFuncOptions({1, 2}).mode(torch::kReplicate)).pow(2); });

  // Values whose gradients go to the source: select_scatter's src, masked_scatter's source.
  auto src = torch::ones({4}, torch::kDouble).requires_grad_(true);
  (xd.select_scatter(src, 0, 2) * xd).sum().backward();
  show("select_scatter src grad", src.grad());
  auto source = torch::arange(8, torch::kDouble).requires_grad_(true);
  (xd.masked_scatter(xd.lt(5), source) * xd).sum().backward();
  show("masked_scatter source grad", source.grad());

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
  error("flip duplicate dims", [&] { x.flip({0, 0}); });
  error("roll mismatch", [&] { x.roll({1, 2}, {0}); });
  error("rot90 same dims", [&] { x.rot90(1, {0, 0}); });
  error("movedim repeated", [&] { x.movedim({0, 0}, {0, 1}); });
  error("diag of 3-D", [&] { x3.diag(); });
  error("repeat too few", [&] { x.repeat({2}); });
  error("repeat_interleave length", [&] { x.repeat_interleave(torch::tensor({1, 2}), 0); });
  error("unfold too large", [&] { x.unfold(1, 5, 1); });
  error("tensor_split 0", [&] { x.tensor_split(0); });
  error("hsplit indivisible", [&] { x.hsplit(3); });
  error("vsplit of 1-D", [&] { v.vsplit(2); });
  error("take out of range", [&] { v.take(torch::tensor({5})); });
  error("put size mismatch", [&] { v.put(torch::tensor({1, 2}), torch::tensor({1.0f})); });
  error("index_fill value", [&] { x.index_fill(1, torch::tensor({1}), torch::tensor({1.0f, 2.0f})); });
  error("index_copy count", [&] { x.index_copy(0, torch::tensor({1}), torch::zeros({2, 4})); });
  error("masked_scatter small source", [&] { x.masked_scatter(x.gt(5), torch::zeros({2})); });
  error("select_scatter shape", [&] { x.select_scatter(torch::zeros({3}), 0, 0); });
  error("as_strided out of bounds", [&] { x.as_strided({20}, {1}); });
  error("sum_to_size", [&] { x.sum_to_size({2}); });
  error("expand -1 leading", [&] { x.expand({-1, -1, 4}); });
  error("meshgrid indexing", [&] { torch::meshgrid({v, v}, "zz"); });
  error("hstack empty", [&] { torch::hstack(std::vector<torch::Tensor>{}); });
  return 0;
}

}  // namespace shape_layout_program
