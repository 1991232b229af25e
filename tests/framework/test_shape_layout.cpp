// Shape and layout ops and advanced indexing (src/01_tensor/shape_layout.cpp, indexing.cpp):
// values and error messages as LibTorch 1.13 gives them, autograd node names, and gradients
// against central differences.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace {

using test_helpers::shape;
using test_helpers::values;
using torch::Tensor;
using torch::indexing::Ellipsis;
using torch::indexing::None;
using torch::indexing::Slice;
using V = std::vector<double>;
using S = std::vector<int64_t>;

Tensor x34() { return torch::arange(12, torch::kFloat).reshape({3, 4}); }
Tensor x234() { return torch::arange(24, torch::kFloat).reshape({2, 3, 4}); }

std::string error_of(const std::function<void()>& op) {
  try {
    op();
  } catch (const c10::Error& e) {
    return e.what();
  }
  return "no error";
}

std::string node(const Tensor& t) { return t.grad_fn() ? t.grad_fn()->name() : "none"; }

// The analytic gradient of sum(f(x) * w) for a random w against central differences, in double.
void check_gradient(const std::function<Tensor(const Tensor&)>& f, const Tensor& input) {
  const Tensor x = input.to(torch::kDouble).detach().contiguous().requires_grad_();
  const Tensor out = f(x);
  const Tensor weight = torch::randn(out.sizes(), torch::kDouble);
  (out * weight).sum().backward();
  const std::vector<double> analytic = values(x.grad());
  double* data = x.data_ptr<double>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double saved = data[i];
    torch::NoGradGuard no_grad;
    data[i] = saved + 1e-6;
    const double plus = (f(x) * weight).sum().item<double>();
    data[i] = saved - 1e-6;
    const double minus = (f(x) * weight).sum().item<double>();
    data[i] = saved;
    INFO("element " << i);
    CHECK(analytic[i] == Approx((plus - minus) / 2e-6).margin(1e-6));
  }
}

}  // namespace

TEST_CASE("flip, fliplr, flipud, roll and rot90 match LibTorch", "[shape_layout]") {
  const Tensor x = x34();
  REQUIRE(values(x.flip({0, 1})) == V{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  REQUIRE(values(x.fliplr()) == V{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8});
  REQUIRE(values(torch::flipud(x)) == V{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3});
  REQUIRE(values(x.roll({1})) == V{11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  REQUIRE(values(torch::roll(x, {1, -1}, {0, 1})) == V{9, 10, 11, 8, 1, 2, 3, 0, 5, 6, 7, 4});
  REQUIRE(shape(x.rot90()) == S{4, 3});
  REQUIRE(values(x.rot90()) == V{3, 7, 11, 2, 6, 10, 1, 5, 9, 0, 4, 8});
  REQUIRE(values(x.rot90(2)) == values(x.flip({0, 1})));
  REQUIRE(values(x.rot90(-1)) == V{8, 4, 0, 9, 5, 1, 10, 6, 2, 11, 7, 3});
  CHECK(error_of([&] { x.flip({0, 0}); }) == "dim 0 appears multiple times in the list of dims");
  CHECK(error_of([&] { x.roll({1, 2}, {0}); }) == "shifts and dimensions must align. shifts: 2, dims:1");
  CHECK(error_of([&] { x.rot90(1, {0, 0}); }) == "expected rotation dims to be different, but got dim0 = 0 and dim1 = 0");
  CHECK(error_of([&] { x.rot90(1, {0}); }) == "expected total rotation dims == 2, but got dims = 1");
  CHECK(error_of([&] { torch::arange(3).rot90(); }) == "expected total dims >= 2, but got total dims = 1");
}

TEST_CASE("movedim, moveaxis and swapaxes are views; the in-place forms change the tensor's shape",
          "[shape_layout]") {
  const Tensor x = x234();
  REQUIRE(shape(x.movedim(0, 2)) == S{3, 4, 2});
  REQUIRE(shape(torch::moveaxis(x, {0, 1}, {2, 0})) == S{3, 4, 2});
  REQUIRE(x.movedim(0, 2).is_alias_of(x));
  REQUIRE(values(x.movedim(2, 0).select(0, 1)) == V{1, 5, 9, 13, 17, 21});
  REQUIRE(shape(x.swapaxes(0, 2)) == S{4, 3, 2});
  REQUIRE(shape(torch::swapdims(x, 1, 2)) == S{2, 4, 3});
  CHECK(error_of([&] { x.movedim({0, 0}, {0, 1}); }) == "movedim: repeated dim in `source` ([0, 0])");
  CHECK(error_of([&] { x.movedim({0}, {0, 1}); }) ==
        "movedim: Invalid source or destination dims: source ([0] dims) should contain the same number of dims as "
        "destination ([0, 1] dims)");

  Tensor m = x.clone();
  Tensor& same = m.transpose_(0, 2);
  REQUIRE(&same == &m);
  REQUIRE(shape(m) == S{4, 3, 2});
  REQUIRE(m.strides().vec() == S{1, 4, 12});
  m.swapdims_(0, 1);
  REQUIRE(shape(m) == S{3, 4, 2});
  Tensor s = torch::zeros({1, 3, 1});
  s.squeeze_();
  REQUIRE(shape(s) == S{3});
  s.unsqueeze_(1);
  REQUIRE(shape(s) == S{3, 1});
  s.t_();
  REQUIRE(shape(s) == S{1, 3});
  s.squeeze_(0);
  REQUIRE(shape(s) == S{3});
  CHECK(error_of([&] { x.clone().t_(); }) == "t_() expects a tensor with <= 2 dimensions, but self is 3D");

  // On a computed tensor the in-place forms record LibTorch's nodes.
  Tensor w = torch::arange(6, torch::kDouble).reshape({2, 3}).requires_grad_();
  Tensor y = w * 1;
  y.transpose_(0, 1);
  CHECK(node(y) == "TransposeBackward1");
  y.unsqueeze_(0);
  CHECK(node(y) == "UnsqueezeBackward1");
  y.squeeze_(0);
  CHECK(node(y) == "SqueezeBackward3");
  (y * torch::arange(6, torch::kDouble).reshape({3, 2})).sum().backward();
  REQUIRE(values(w.grad()) == V{0, 2, 4, 1, 3, 5});
  CHECK(error_of([&] { w.t_(); }) ==
        "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  Tensor z = w * 1;
  z.squeeze_();
  CHECK(node(z) == "SqueezeBackward2");
  z.t_();
  CHECK(node(z) == "TBackward1");
  namespace F = torch::nn::functional;
  const Tensor x3 = x234().slice(0, 0, 1);
  REQUIRE(values(torch::pad(x3, {1, 1}, "reflect").select(1, 0)) == V{1, 0, 1, 2, 3, 2});
  REQUIRE(values(torch::pad(x3, {1, 1}, "constant", 2.5).select(1, 0)) == V{2.5, 0, 1, 2, 3, 2.5});
  CHECK(error_of([&] { torch::pad(x3, {1, 1}, "zz"); }) == "Unrecognised padding mode zz");
  CHECK(error_of([&] { torch::pad(x3, {1, 1}, "reflect", 2.5); }) ==
        "Padding mode \"reflect\" doesn't take in value argument");
  CHECK(error_of([&] { F::pad(x3, F::PadFuncOptions({4, 1}).mode(torch::kReflect)); }) ==
        "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (4, 1) at "
        "dimension 2 of input [1, 3, 4]");
  CHECK(error_of([&] { F::pad(x3, F::PadFuncOptions({5, 1}).mode(torch::kCircular)); }) ==
        "Padding value causes wrapping around more than once.");
  CHECK(error_of([&] { F::pad(x3.reshape({12}), F::PadFuncOptions({1, 1}).mode(torch::kReplicate)); }) ==
        "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
  REQUIRE(values(F::pad(x3, F::PadFuncOptions({-1, 1}).mode(torch::kReplicate)).select(1, 0)) == V{1, 2, 3, 3});
}

TEST_CASE("tril, triu, diag, diagonal, diag_embed and diagflat", "[shape_layout]") {
  const Tensor x = x34();
  REQUIRE(values(x.tril()) == V{0, 0, 0, 0, 4, 5, 0, 0, 8, 9, 10, 0});
  REQUIRE(values(torch::tril(x, -1)) == V{0, 0, 0, 0, 4, 0, 0, 0, 8, 9, 0, 0});
  REQUIRE(values(x.triu(1)) == V{0, 1, 2, 3, 0, 0, 6, 7, 0, 0, 0, 11});
  Tensor t = x.clone();
  t.triu_();
  REQUIRE(values(t) == V{0, 1, 2, 3, 0, 5, 6, 7, 0, 0, 10, 11});
  REQUIRE(values(torch::arange(3).diag(1)) == V{0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0});
  REQUIRE(values(torch::diag(x, -1)) == V{4, 9});
  REQUIRE(values(x.diagonal(1)) == V{1, 6, 11});
  REQUIRE(x.diagonal().is_alias_of(x));
  REQUIRE(values(x234().diagonal(0, 1, 2)) == V{0, 5, 10, 12, 17, 22});
  REQUIRE(shape(x.diag_embed()) == S{3, 4, 4});
  REQUIRE(values(torch::arange(2).diag_embed(-1)) == V{0, 0, 0, 0, 0, 0, 0, 1, 0});
  REQUIRE(values(torch::arange(1, 3).reshape({1, 2}).diagflat()) == V{1, 0, 0, 2});
  CHECK(error_of([&] { torch::arange(3).tril(); }) ==
        "Dimension out of range (expected to be in range of [-1, 0], but got -2)");
  CHECK(error_of([&] { x234().diag(); }) == "matrix or a vector expected");
  CHECK(error_of([&] { x.diagonal(0, 0, 0); }) == "diagonal dimensions cannot be identical 0, 0");
}

TEST_CASE("repeat, tile, repeat_interleave, unfold, broadcast_to, ravel, sum_to_size, expand(-1)",
          "[shape_layout]") {
  const Tensor v = torch::arange(3, torch::kFloat);
  const Tensor x = x34();
  REQUIRE(values(v.repeat({2, 2})) == V{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2});
  REQUIRE(shape(x.repeat({2, 1, 2})) == S{2, 3, 8});
  REQUIRE(values(v.tile({2})) == V{0, 1, 2, 0, 1, 2});
  REQUIRE(shape(x.tile({2})) == S{3, 8});
  REQUIRE(values(v.repeat_interleave(2)) == V{0, 0, 1, 1, 2, 2});
  REQUIRE(values(x.repeat_interleave(torch::tensor({1, 0, 2}), 0)) == V{0, 1, 2, 3, 8, 9, 10, 11, 8, 9, 10, 11});
  REQUIRE(values(torch::repeat_interleave(torch::tensor({2, 0, 3}))) == V{0, 0, 2, 2, 2});
  const Tensor windows = x.unfold(1, 2, 1);
  REQUIRE(shape(windows) == S{3, 3, 2});
  REQUIRE(windows.is_alias_of(x));
  REQUIRE(values(windows.select(0, 1)) == V{4, 5, 5, 6, 6, 7});
  REQUIRE(values(torch::arange(5).unfold(0, 2, 2)) == V{0, 1, 2, 3});
  REQUIRE(shape(v.broadcast_to({2, 3})) == S{2, 3});
  const std::vector<Tensor> both = torch::broadcast_tensors({x.slice(1, 0, 1), torch::arange(4)});
  REQUIRE((shape(both[0]) == S{3, 4} && shape(both[1]) == S{3, 4}));
  REQUIRE(values(x.t().ravel()) == V{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11});
  REQUIRE(values(x.sum_to_size({1, 4})) == V{12, 15, 18, 21});
  REQUIRE(values(x234().sum_to_size({3, 1})) == V{60, 92, 124});
  REQUIRE(shape(x.expand({2, -1, -1})) == S{2, 3, 4});
  CHECK(error_of([&] { x.repeat({2}); }) ==
        "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  CHECK(error_of([&] { x.repeat({-1, 2}); }) == "Trying to create tensor with negative dimension -3: [-3, 8]");
  CHECK(error_of([&] { x.repeat_interleave(torch::tensor({1, 2}), 0); }) ==
        "repeats must have the same size as input along dim");
  CHECK(error_of([&] { x.repeat_interleave(-1); }) == "repeats can not be negative");
  CHECK(error_of([&] { x.unfold(1, 5, 1); }) == "maximum size for tensor at dimension 1 is 4 but size is 5");
  CHECK(error_of([&] { x.unfold(1, 2, 0); }) == "step is 0 but must be > 0");
  CHECK(error_of([&] { x.sum_to_size({2}); }) == "size {[2]} is not expandable to size {[3, 4]}.");
  CHECK(error_of([&] { x.expand({-1, -1, 4}); }) ==
        "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0");
}

TEST_CASE("tensor_split, hsplit, vsplit, dsplit and the stacks", "[shape_layout]") {
  const Tensor x = x34();
  const Tensor v = torch::arange(5, torch::kFloat);
  std::vector<Tensor> parts = x.tensor_split(3, 1);
  REQUIRE(parts.size() == 3);
  REQUIRE((shape(parts[0]) == S{3, 2} && shape(parts[1]) == S{3, 1} && shape(parts[2]) == S{3, 1}));
  REQUIRE(parts[0].is_alias_of(x));
  parts = torch::tensor_split(v, {1, 3});
  REQUIRE((values(parts[0]) == V{0} && values(parts[1]) == V{1, 2} && values(parts[2]) == V{3, 4}));
  parts = x.tensor_split(torch::tensor({1}), 0);
  REQUIRE((shape(parts[0]) == S{1, 4} && shape(parts[1]) == S{2, 4}));
  REQUIRE(x.hsplit(2).size() == 2);
  REQUIRE(shape(x.vsplit(std::vector<int64_t>{1})[1]) == S{2, 4});
  // {1} is one section, as in LibTorch (int64_t wins over IntArrayRef): the braces are the point here.
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wbraced-scalar-init"
#endif
  REQUIRE(x.vsplit({1}).size() == 1);
#ifdef __clang__
#pragma clang diagnostic pop
#endif
  REQUIRE(shape(torch::dsplit(x234(), 2)[0]) == S{2, 3, 2});
  REQUIRE(values(torch::hstack({v, v})) == V{0, 1, 2, 3, 4, 0, 1, 2, 3, 4});
  REQUIRE(shape(torch::vstack({v, v})) == S{2, 5});
  REQUIRE(shape(torch::row_stack({x, x.slice(0, 0, 1)})) == S{4, 4});
  REQUIRE(shape(torch::dstack({x, x})) == S{3, 4, 2});
  REQUIRE(values(torch::column_stack({v.slice(0, 0, 2), v.slice(0, 0, 2) * 2})) == V{0, 0, 1, 2});
  const std::vector<Tensor> ij = torch::meshgrid({v.slice(0, 0, 2), v.slice(0, 0, 3)}, "ij");
  REQUIRE(values(ij[0]) == V{0, 0, 0, 1, 1, 1});
  REQUIRE(values(ij[1]) == V{0, 1, 2, 0, 1, 2});
  const std::vector<Tensor> xy = torch::meshgrid({v.slice(0, 0, 2), v.slice(0, 0, 3)}, "xy");
  REQUIRE(shape(xy[0]) == S{3, 2});
  REQUIRE(values(xy[0]) == V{0, 1, 0, 1, 0, 1});
  REQUIRE(values(xy[1]) == V{0, 0, 1, 1, 2, 2});
  CHECK(error_of([&] { x.tensor_split(0); }) == "number of sections must be larger than 0, got 0");
  CHECK(error_of([&] { x.hsplit(3); }) ==
        "torch.hsplit attempted to split along dimension 1, but the size of the dimension 4 is not divisible by the "
        "split_size 3!");
  CHECK(error_of([&] { v.vsplit(2); }) ==
        "torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!");
  CHECK(error_of([&] { torch::hstack(std::vector<Tensor>{}); }) == "hstack expects a non-empty TensorList");
  CHECK(error_of([&] { torch::meshgrid(std::vector<Tensor>{}, "ij"); }) == "meshgrid expects a non-empty TensorList");
  CHECK(error_of([&] { torch::meshgrid({v, v}, "zz"); }) ==
        "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: zz");
}

TEST_CASE("take, take_along_dim, put, index_fill, index_copy, masked_scatter and the *_scatter ops",
          "[shape_layout]") {
  const Tensor x = x34();
  const Tensor v = torch::arange(6, torch::kFloat);
  REQUIRE(values(x.take(torch::tensor({0, 5, -1}))) == V{0, 5, 11});
  REQUIRE(values(x.take_along_dim(torch::tensor({3, 0, 1}).reshape({3, 1}), 1)) == V{3, 4, 9});
  REQUIRE(values(torch::take_along_dim(x, torch::tensor({11, 2}))) == V{11, 2});
  REQUIRE(values(v.put(torch::tensor({0, 5}), torch::tensor({-1.0f, -2.0f}))) == V{-1, 1, 2, 3, 4, -2});
  Tensor p = v.clone();
  p.put_(torch::tensor({1, 1, 2}), torch::tensor({10.0f, 20.0f, 30.0f}), true);
  REQUIRE(values(p) == V{0, 31, 32, 3, 4, 5});
  REQUIRE(values(x.index_fill(1, torch::tensor({0, 2}), -1)) == V{-1, 1, -1, 3, -1, 5, -1, 7, -1, 9, -1, 11});
  Tensor f = x.clone();
  f.index_fill_(0, torch::tensor({-1}), torch::tensor(7.0f));
  REQUIRE(values(f.select(0, 2)) == V{7, 7, 7, 7});
  REQUIRE(values(x.index_copy(0, torch::tensor({2, 0}), torch::zeros({2, 4})).select(1, 0)) == V{0, 4, 0});
  REQUIRE(values(x.masked_scatter(x.gt(8), -torch::arange(5, torch::kFloat)).slice(0, 2)) == V{8, 0, -1, -2});
  Tensor ms = x.clone();
  ms.masked_scatter_(torch::tensor({true, false, false, true}), torch::arange(10, 16, torch::kFloat));
  REQUIRE(values(ms) == V{10, 1, 2, 11, 12, 5, 6, 13, 14, 9, 10, 15});
  REQUIRE(values(x.select_scatter(torch::zeros({4}), 0, 1).select(0, 1)) == V{0, 0, 0, 0});
  REQUIRE(values(torch::slice_scatter(x, torch::zeros({3, 2}), 1, 0, 4, 2).select(0, 0)) == V{0, 1, 0, 3});
  REQUIRE(values(x.diagonal_scatter(torch::ones({3}), 1).select(0, 0)) == V{0, 1, 2, 3});
  REQUIRE(values(x.diagonal_scatter(torch::ones({3}) * 9, 1).diagonal(1)) == V{9, 9, 9});
  CHECK(error_of([&] { v.take(torch::tensor({6})); }) == "out of range: tried to access index 6 on a tensor of 6 elements.");
  CHECK(error_of([&] { v.put(torch::tensor({1, 2}), torch::tensor({1.0f})); }) ==
        "put_(): Expected source and index to have the same number of elements, but got source.numel() = 1, "
        "index.numel() = 2");
  CHECK(error_of([&] { v.put(torch::tensor({1}), torch::tensor({1.0}, torch::kDouble)); }) ==
        "put_(): self and source expected to have the same dtype, but got self.dtype = Float and source.dtype = "
        "Double");
  CHECK(error_of([&] { x.index_fill(1, torch::tensor({4}), 1); }) ==
        "index 4 is out of bounds for dimension 1 with size 4");
  CHECK(error_of([&] { x.index_fill(1, torch::tensor({1}), torch::tensor({1.0f, 2.0f})); }) ==
        "index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).");
  CHECK(error_of([&] { x.index_copy(0, torch::tensor({1}), torch::zeros({2, 4})); }) ==
        "index_copy_(): Number of indices (1) should be equal to source.size(dim) (2)");
  CHECK(error_of([&] { x.index_copy(0, torch::tensor({5}), torch::zeros({1, 4})); }) ==
        "index_copy_(): index 5 is out of bounds for dimension 0 with size 3");
  CHECK(error_of([&] { x.index_copy(0, torch::tensor({1}), torch::zeros({1, 3})); }) ==
        "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: 4 at "
        "dimension 0 and source slice shape: 3 at dimension 0.");
  CHECK(error_of([&] { x.masked_scatter(x > 5, torch::zeros({2})); }) ==
        "Number of elements of source < number of ones in mask");
  CHECK(error_of([&] { x.select_scatter(torch::zeros({3}), 0, 0); }) ==
        "expected src to have a size equal to the slice of self. src size = [3], slice size = [4]");
  CHECK(error_of([&] { x.take_along_dim(torch::tensor({1}), 0); }) ==
        "torch.take_along_dim(): input and indices should have the same number of dimensions, but got 2 dimensions "
        "for input, and 1 dimensions for indices");
}

TEST_CASE("as_strided, resize_, constant_pad_nd, F::pad and memory formats", "[shape_layout]") {
  const Tensor x = x34();
  const Tensor strided = x.as_strided({2, 2}, {1, 4}, 1);
  REQUIRE(strided.is_alias_of(x));
  REQUIRE(values(strided) == V{1, 5, 2, 6});
  CHECK(error_of([&] { x.as_strided({20}, {1}); }) ==
        "setStorage: sizes [20], strides [1], storage offset 0, and itemsize 4 requiring a storage size of 80 are out "
        "of bounds for storage of size 48");
  Tensor r = torch::arange(6, torch::kFloat);
  r.resize_({2, 2});
  REQUIRE(values(r) == V{0, 1, 2, 3});
  r.resize_({3, 3});
  REQUIRE(shape(r) == S{3, 3});
  REQUIRE(values(r.select(0, 0)) == V{0, 1, 2});

  REQUIRE(values(torch::constant_pad_nd(torch::arange(2, torch::kFloat), {1, 2}, -1)) == V{-1, 0, 1, -1, -1});
  REQUIRE(values(torch::constant_pad_nd(x, {-1, 0, 1, -1})) == V{0, 0, 0, 1, 2, 3, 5, 6, 7});
  CHECK(error_of([&] { torch::constant_pad_nd(x, {1}); }) == "Length of pad must be even but instead it equals 1");
  namespace F = torch::nn::functional;
  const Tensor row = torch::arange(5, torch::kFloat).reshape({1, 5});
  REQUIRE(values(F::pad(row, F::PadFuncOptions({3, 2}).mode(torch::kReflect))) ==
          V{3, 2, 1, 0, 1, 2, 3, 4, 3, 2});
  REQUIRE(values(F::pad(row, F::PadFuncOptions({2, 1}).mode(torch::kReplicate))) == V{0, 0, 0, 1, 2, 3, 4, 4});
  REQUIRE(values(F::pad(row, F::PadFuncOptions({2, 1}).mode(torch::kCircular))) == V{3, 4, 0, 1, 2, 3, 4, 0});
  REQUIRE(values(F::pad(row, F::PadFuncOptions({1, 0}).value(9))) == V{9, 0, 1, 2, 3, 4});

  REQUIRE(x.is_contiguous(torch::MemoryFormat::Contiguous));
  REQUIRE_FALSE(x.t().is_contiguous(torch::MemoryFormat::Contiguous));
  REQUIRE_FALSE(torch::arange(24.).reshape({1, 2, 3, 4}).is_contiguous(torch::MemoryFormat::ChannelsLast));
  REQUIRE(torch::arange(6.).reshape({1, 6, 1, 1}).is_contiguous(torch::MemoryFormat::ChannelsLast));
  REQUIRE(x.suggest_memory_format() == torch::MemoryFormat::Contiguous);
  REQUIRE(x.t().contiguous(torch::MemoryFormat::Contiguous).is_contiguous());
  REQUIRE(x.clone(torch::MemoryFormat::Preserve).strides().vec() == S{4, 1});
  REQUIRE(test_helpers::printed(torch::MemoryFormat::ChannelsLast3d) == "ChannelsLast3d");
  CHECK(error_of([&] { x.contiguous(torch::MemoryFormat::ChannelsLast); }) ==
        "required rank 4 tensor to use channels_last format");
  // TinyTorch keeps every tensor row-major: a channels-last copy is refused, not faked.
  CHECK(error_of([&] { torch::zeros({1, 2, 3, 4}).contiguous(torch::MemoryFormat::ChannelsLast); }).find("row-major") !=
        std::string::npos);
}

TEST_CASE("advanced indexing: several tensors broadcast, adjacent ones keep their place", "[shape_layout]") {
  const Tensor x = x34();
  const Tensor x3 = x234();
  REQUIRE(values(x.index({torch::tensor({0, 2, 1}), torch::tensor({3, 0, -1})})) == V{3, 8, 7});
  REQUIRE(shape(x.index({torch::tensor({0, 2}).reshape({2, 1}), torch::tensor({1, 2, 3})})) == S{2, 3});
  REQUIRE(shape(x3.index({Slice(), torch::tensor({0, 2}), torch::tensor({1, 3})})) == S{2, 2});
  REQUIRE(values(x3.index({Slice(), torch::tensor({0, 2}), torch::tensor({1, 3})})) == V{1, 11, 13, 23});
  REQUIRE(shape(x3.index({torch::tensor({0, 1}), Slice(), torch::tensor({1, 3})})) == S{2, 3});
  REQUIRE(values(x3.index({torch::tensor({0, 1}), Slice(), torch::tensor({1, 3})})) == V{1, 5, 9, 15, 19, 23});
  REQUIRE(shape(x3.index({None, torch::tensor({0, 1}).reshape({2, 1}), 1, torch::tensor({1, 3})})) == S{1, 2, 2});
  REQUIRE(shape(x3.index({x3.select(2, 0) > 4})) == S{4, 4});
  REQUIRE(shape(x3.index({Slice(), x3.select(0, 0) > 4})) == S{2, 7});
  REQUIRE(shape(x3.index({torch::tensor(true)})) == S{1, 2, 3, 4});
  REQUIRE(shape(x3.index({torch::tensor(1)})) == S{3, 4});
  REQUIRE(shape(x3.index({Ellipsis, torch::tensor({1, 2})})) == S{2, 3, 2});
  c10::List<c10::optional<Tensor>> list;
  list.push_back(c10::nullopt);
  list.push_back(torch::tensor({1, 1, 0}));
  REQUIRE(values(x.index(list).select(0, 0)) == V{1, 1, 0});
  REQUIRE(values(torch::index(x, {torch::tensor({2}), torch::tensor({1})})) == V{9});

  Tensor y = x.clone();
  y.index_put_({torch::tensor({0, 2, 1}), torch::tensor({3, 0, -1})}, torch::tensor({-1.0f, -2.0f, -3.0f}));
  REQUIRE(values(y) == V{0, 1, 2, -1, 4, 5, 6, -3, -2, 9, 10, 11});
  y.index_put_({Slice(), torch::tensor({0, 1})}, torch::tensor({100.0f, 200.0f}));
  REQUIRE(values(y.select(0, 2)) == V{100, 200, 10, 11});
  Tensor z = torch::zeros({3, 2});
  c10::List<c10::optional<Tensor>> rows;
  rows.push_back(torch::tensor({0, 0, 2}));
  z.index_put_(rows, torch::ones({3, 2}), /*accumulate=*/true);
  REQUIRE(values(z) == V{2, 2, 0, 0, 1, 1});
  torch::index_put_(z, {torch::tensor({1, 1}), torch::tensor({0, 0})}, torch::tensor({0.5f, 0.25f}), true);
  REQUIRE(values(z.select(0, 1)) == V{0.75, 0});

  CHECK(error_of([&] { x.index({torch::tensor({5})}); }) == "index 5 is out of bounds for dimension 0 with size 3");
  CHECK(error_of([&] { x.index({Slice(), torch::tensor({4})}); }) ==
        "index 4 is out of bounds for dimension 0 with size 4");
  CHECK(error_of([&] { x.index({torch::tensor({0, 1}), torch::tensor({0, 1, 2})}); }) ==
        "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]");
  CHECK(error_of([&] { x.index({torch::tensor({0.0})}); }) ==
        "tensors used as indices must be long, byte or bool tensors");
  CHECK(error_of([&] { x.index({0, 0, 0}); }) == "too many indices for tensor of dimension 2");
  CHECK(error_of([&] { x.index({Slice(), 7}); }) == "index 7 is out of bounds for dimension 1 with size 4");
  CHECK(error_of([&] { x.index({x.ge(0).select(0, 0)}); }) ==
        "The shape of the mask [4] at index 0 does not match the shape of the indexed tensor [3, 4] at index 0");
  CHECK(error_of([&] { x.clone().index_put_({torch::tensor({0, 1})}, torch::ones({3})); }) ==
        "shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result of shape [2, 4]");
  CHECK(error_of([&] { x.clone().index_put_({torch::tensor({0, 1})}, torch::ones({2, 4}, torch::kDouble)); }) ==
        "Index put requires the source and destination dtypes match, got Float for the destination and Double for "
        "the source.");
}

TEST_CASE("autograd node names of the shape and layout ops", "[shape_layout]") {
  const Tensor w = torch::arange(6, torch::kDouble).reshape({2, 3}).requires_grad_();
  CHECK(node(w.flip({0})) == "FlipBackward0");
  CHECK(node(w.roll({1}, {1})) == "RollBackward0");
  CHECK(node(w.rot90()) == "Rot90Backward0");
  CHECK(node(w.movedim(0, 1)) == "PermuteBackward0");
  CHECK(node(w.swapaxes(0, 1)) == "TransposeBackward0");
  CHECK(node(w.tril()) == "TrilBackward0");
  CHECK(node(w.triu()) == "TriuBackward0");
  CHECK(node(w.diag()) == "DiagBackward0");
  CHECK(node(w.diagonal()) == "DiagonalBackward0");
  CHECK(node(w.diag_embed()) == "DiagEmbedBackward0");
  CHECK(node(w.repeat({2, 1})) == "RepeatBackward0");
  CHECK(node(w.unfold(1, 2, 1)) == "UnfoldBackward0");
  CHECK(node(w.as_strided({2}, {1})) == "AsStridedBackward0");
  CHECK(node(w.take(torch::tensor({0}))) == "TakeBackward0");
  CHECK(node(w.put(torch::tensor({0}), torch::tensor({1.0}, torch::kDouble))) == "PutBackward0");
  CHECK(node(w.index_fill(0, torch::tensor({0}), 1)) == "IndexFillBackward0");
  CHECK(node(w.index_copy(0, torch::tensor({0}), torch::zeros({1, 3}, torch::kDouble))) == "IndexCopyBackward0");
  CHECK(node(w.masked_scatter(w > 2, torch::zeros({6}, torch::kDouble))) == "MaskedScatterBackward0");
  CHECK(node(w.select_scatter(torch::zeros({3}, torch::kDouble), 0, 0)) == "SelectScatterBackward0");
  CHECK(node(w.slice_scatter(torch::zeros({1, 3}, torch::kDouble), 0, 0, 1)) == "SliceScatterBackward0");
  CHECK(node(w.diagonal_scatter(torch::zeros({2}, torch::kDouble))) == "DiagonalScatterBackward0");
  CHECK(node(torch::constant_pad_nd(w, {1, 1})) == "ConstantPadNdBackward0");
  CHECK(node(w.index({torch::tensor({0})})) == "IndexBackward0");
  CHECK(node(w.index_put({torch::tensor({0})}, torch::tensor(1.0, torch::kDouble))) == "IndexPutBackward0");
  Tensor y = w * 1;
  y.index_put_({Slice(), torch::tensor({0})}, torch::tensor(1.0, torch::kDouble));
  CHECK(node(y) == "IndexPutBackward0");
}

TEST_CASE("gradients of the shape and layout ops against central differences", "[shape_layout]") {
  const Tensor x = torch::randn({3, 4}, torch::kDouble);
  check_gradient([](const Tensor& w) { return w.flip({0, 1}); }, x);
  check_gradient([](const Tensor& w) { return w.roll({1, -2}, {0, 1}); }, x);
  check_gradient([](const Tensor& w) { return w.rot90(3); }, x);
  check_gradient([](const Tensor& w) { return w.tril(1) + w.triu(-1); }, x);
  check_gradient([](const Tensor& w) { return w.diag(1) + 0; }, x);
  check_gradient([](const Tensor& w) { return w.diagonal(-1) * 2; }, x);
  check_gradient([](const Tensor& w) { return w.diag_embed(1); }, x);
  check_gradient([](const Tensor& w) { return w.repeat({2, 1, 3}); }, x);
  check_gradient([](const Tensor& w) { return w.repeat_interleave(torch::tensor({2, 0, 1}), 0); }, x);
  check_gradient([](const Tensor& w) { return w.unfold(1, 2, 1) * 1; }, x);
  check_gradient([](const Tensor& w) { return w.as_strided({2, 3}, {1, 2}, 1) * 1; }, x);
  check_gradient([](const Tensor& w) { return w.take(torch::tensor({1, 1, 5})); }, x);
  check_gradient([](const Tensor& w) { return w.take_along_dim(torch::tensor({0, 0, 3}).reshape({3, 1}), 1); }, x);
  check_gradient([](const Tensor& w) { return w.put(torch::tensor({0, 1}), w.select(0, 2).slice(0, 0, 2)); }, x);
  check_gradient([](const Tensor& w) { return w.put(torch::tensor({0, 0}), w.select(0, 2).slice(0, 0, 2), true); }, x);
  check_gradient([](const Tensor& w) { return w.index_fill(1, torch::tensor({1}), w.select(0, 0).sum()); }, x);
  check_gradient([](const Tensor& w) { return w.index_copy(0, torch::tensor({2}), w.slice(0, 0, 1) * 3); }, x);
  check_gradient([](const Tensor& w) { return w.masked_scatter(w.detach() > 0, w.flatten() * 2); }, x);
  check_gradient([](const Tensor& w) { return w.select_scatter(w.select(0, 0) * 2, 0, 2); }, x);
  check_gradient([](const Tensor& w) { return w.slice_scatter(w.slice(1, 0, 2) * 2, 1, 1, 4, 2); }, x);
  check_gradient([](const Tensor& w) { return w.diagonal_scatter(w.select(1, 0) * 2); }, x);
  check_gradient([](const Tensor& w) { return torch::constant_pad_nd(w, {1, -1, 0, 2}, 3); }, x);
  check_gradient([](const Tensor& w) { return w.sum_to_size({1, 4}); }, x);
  namespace F = torch::nn::functional;
  check_gradient([](const Tensor& w) { return F::pad(w.unsqueeze(0), F::PadFuncOptions({2, 1}).mode(torch::kReflect)); }, x);
  check_gradient([](const Tensor& w) { return F::pad(w.unsqueeze(0), F::PadFuncOptions({1, 2, 1, 0}).mode(torch::kReplicate)); }, x);
  check_gradient([](const Tensor& w) { return F::pad(w.unsqueeze(0), F::PadFuncOptions({1, 2}).mode(torch::kCircular)); }, x);
  // Advanced indexing and its in-place writes.
  check_gradient([](const Tensor& w) { return w.index({torch::tensor({0, 0, 2}), torch::tensor({1, 1, 3})}); }, x);
  check_gradient([](const Tensor& w) { return w.index({Slice(1, 3), torch::tensor({0, 2})}); }, x);
  check_gradient([](const Tensor& w) { return w.index({w.detach() > 0}); }, x);
  check_gradient([](const Tensor& w) {
    Tensor y = w * 2;
    y.index_put_({torch::tensor({0, 2}), torch::tensor({1, 1})}, w.select(0, 1).slice(0, 0, 2));
    return y;
  }, x);
  check_gradient([](const Tensor& w) {
    Tensor y = w * 1;
    y.index_put_({Slice(), torch::tensor({3})}, w.select(1, 0).unsqueeze(1));
    return y;
  }, x);
  check_gradient([](const Tensor& w) {
    return w.index_put({torch::tensor({1, 1})}, w.slice(0, 0, 1).expand({2, 4}), true);
  }, x);
  // Second order through index / put.
  const Tensor v = torch::randn({4}, torch::kDouble).requires_grad_();
  const Tensor picked = v.index({torch::tensor({0, 0, 3})});
  const Tensor g = torch::autograd::grad({(picked * picked).sum()}, {v}, {}, std::nullopt, true)[0];
  const Tensor gg = torch::autograd::grad({g.sum()}, {v})[0];
  REQUIRE(values(gg) == V{4, 0, 0, 2});
}
