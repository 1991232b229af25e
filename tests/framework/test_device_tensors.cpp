// Device tensors (module 22's given mechanism): device strings and types as LibTorch spells them, moving
// tensors and modules, the error an op without a device kernel gives, mixing devices, autograd through
// device ops, nll_loss's target check on the device, printing, pinned memory (module 21's pool included) and the explicit CPU fallback.
// The cases tagged [needs_opencl] need an OpenCL device (pocl runs them on the CPU) and are reported skipped
// without one.
#include <catch2/catch.hpp>

#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <tinytorch/opencl.h>
#include <tinytorch/torch.h>

#include "../test_skip.h"

using tinytorch::Device;
using tinytorch::DeviceType;
using tinytorch::Tensor;
namespace torch = tinytorch;

namespace {
std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "(no error)";
}

double max_difference(const Tensor& a, const Tensor& b) { return (a.cpu() - b.cpu()).abs().max().item<double>(); }
}  // namespace

TEST_CASE("device strings and types are LibTorch's", "[device]") {
  CHECK(static_cast<int>(DeviceType::OPENCL) == 4);  // c10::DeviceType::OPENCL
  CHECK(Device("opencl").type() == DeviceType::OPENCL);
  CHECK(Device("opencl").str() == "opencl");
  CHECK(Device("opencl:1").index() == 1);
  CHECK(Device(DeviceType::OPENCL, 0).str() == "opencl:0");
  CHECK(Device("cpu").is_cpu());
  CHECK(torch::DeviceTypeName(DeviceType::OPENCL) == "OPENCL");
  CHECK(torch::DeviceTypeName(DeviceType::OPENCL, true) == "opencl");
  CHECK(Device("xla").type() == DeviceType::XLA);
  CHECK_THAT(message_of([] { Device("gpu"); }),
             Catch::Contains("Expected one of cpu, cuda") && Catch::Contains("device type at start of device string: gpu"));
  CHECK_THAT(message_of([] { torch::zeros({2}, torch::device(torch::kCUDA)); }),
             Catch::Contains("PyTorch is not linked with support for cuda devices"));
  CHECK_THAT(message_of([] { torch::zeros({2}).to(Device("xla")); }),
             Catch::Contains("PyTorch is not linked with support for xla devices"));
  const Tensor cpu = torch::ones({2});
  CHECK(cpu.is_cpu());
  CHECK_FALSE(cpu.is_opencl());
  CHECK(cpu.get_device() == -1);
  CHECK(cpu.cpu().is_same(cpu));  // cpu() of a CPU tensor is the tensor itself
  CHECK(Tensor().is_cpu());       // undefined: as before devices existed
}

TEST_CASE("tensors move to the device and back, and keep their values and dtype", "[device][needs_opencl]") {
  if (!torch::opencl::is_available()) SKIP_TEST("no OpenCL device: install pocl-opencl-icd (scripts/setup does)");
  const Device device("opencl");
  torch::manual_seed(1);
  const Tensor x = torch::randn({3, 5});
  const Tensor d = x.to(device);
  CHECK(d.is_opencl());
  CHECK_FALSE(d.is_cpu());
  CHECK(d.device() == Device("opencl:0"));
  CHECK(d.get_device() == 0);
  CHECK(d.toString() == "OpenCLFloatType");
  CHECK(d.options().device() == Device("opencl:0"));
  CHECK(torch::equal(d.cpu(), x));
  const Tensor labels = torch::tensor({3, 1, 4}, torch::kLong).to(device);
  CHECK(labels.scalar_type() == torch::kLong);
  CHECK(torch::equal(labels.cpu(), torch::tensor({3, 1, 4}, torch::kLong)));
  // A strided view and a dtype change on the way.
  CHECK(torch::equal(x.t().to(device).cpu(), x.t()));
  CHECK(torch::equal(x.to(device, torch::kLong).cpu(), x.to(torch::kLong)));
  CHECK(torch::zeros({2, 2}, torch::device(device)).is_opencl());
  CHECK(torch::equal(torch::full({2}, 7, torch::TensorOptions(torch::kFloat).device(device)).cpu(), torch::full({2}, 7.0)));
  CHECK(torch::empty_like(d).is_opencl());
  CHECK(x[0][0].to(device).item<double>() == x[0][0].item<double>());  // item() copies the one element back
}

TEST_CASE("an op without a device kernel names the op and the device, and never copies silently",
          "[device][needs_opencl]") {
  if (!torch::opencl::is_available()) SKIP_TEST("no OpenCL device: install pocl-opencl-icd (scripts/setup does)");
  const Tensor d = torch::ones({4}).to(Device("opencl"));
  const std::string error = message_of([&] { torch::cumsum(d, 0); });
  CHECK_THAT(error, Catch::Contains("Could not run 'aten::cumsum' with arguments from the 'OpenCL' backend") &&
                        Catch::Contains("opencl:0") && Catch::Contains(".cpu()") &&
                        Catch::Contains("torch::opencl::on_cpu"));
  CHECK_THAT(message_of([&] { (void)(d + torch::ones({4})); }),
             Catch::Contains("Expected all tensors to be on the same device") && Catch::Contains("opencl:0 and cpu"));
  // A number (a 0-dim CPU tensor) goes with any device, as in LibTorch.
  CHECK(torch::equal((d * 2).cpu(), torch::full({4}, 2.0)));
  CHECK(torch::equal((d + torch::tensor(1.0)).cpu(), torch::full({4}, 2.0)));
  CHECK_THAT(message_of([&] { d.to(torch::kDouble); }), Catch::Contains("Float, Long or Bool"));
  // The fallback asked for by name: the op runs on CPU copies, the result comes back to the device.
  const Tensor sums = torch::opencl::on_cpu([](const Tensor& x) { return torch::cumsum(x, 0); }, d);
  CHECK(sums.is_opencl());
  CHECK(torch::equal(sums.cpu(), torch::arange(1, 5).to(torch::kFloat)));
}

TEST_CASE("ops on the device equal the CPU's, forward and backward", "[device][needs_opencl]") {
  if (!torch::opencl::is_available()) SKIP_TEST("no OpenCL device: install pocl-opencl-icd (scripts/setup does)");
  const Device device("opencl");
  torch::manual_seed(7);
  const Tensor a = torch::randn({6, 9}), b = torch::randn({9}), m = torch::randn({9, 4});
  const Tensor da = a.to(device), db = b.to(device), dm = m.to(device);
  CHECK(max_difference(da + db, a + b) == 0);
  CHECK(max_difference(da * db - da / 3, a * b - a / 3) < 1e-6);
  CHECK(max_difference(da.mm(dm), a.mm(m)) < 1e-5);
  CHECK(max_difference(da.matmul(dm), a.matmul(m)) < 1e-5);
  CHECK(max_difference(da.sum(1), a.sum(1)) < 1e-5);
  CHECK(max_difference(da.sum(0, true), a.sum(0, true)) < 1e-5);
  CHECK(max_difference(da.mean(), a.mean()) < 1e-6);
  CHECK(max_difference(torch::softmax(da, 0), torch::softmax(a, 0)) < 1e-6);
  CHECK(max_difference(torch::log_softmax(da, 1), torch::log_softmax(a, 1)) < 1e-5);
  CHECK(max_difference(torch::relu(da), torch::relu(a)) == 0);
  CHECK(torch::equal((da > 0).cpu(), a > 0));
  CHECK(max_difference(da.exp().log(), a.exp().log()) < 1e-5);

  // A small CNN step: the gradients agree with the CPU's.
  torch::manual_seed(3);
  torch::nn::Sequential cpu_net(torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 4, 3).padding(1)), torch::nn::ReLU(),
                                torch::nn::MaxPool2d(2), torch::nn::Flatten(), torch::nn::Linear(4 * 5 * 5, 3));
  const Tensor x = torch::randn({5, 1, 10, 10});
  const Tensor y = torch::tensor({0, 2, 1, 1, 0}, torch::kLong);
  torch::nn::functional::cross_entropy(cpu_net->forward(x), y).backward();
  std::vector<Tensor> cpu_grads;
  for (const Tensor& p : cpu_net->parameters()) cpu_grads.push_back(p.grad().clone());
  cpu_net->zero_grad();
  cpu_net->to(device);
  for (const Tensor& p : cpu_net->parameters()) CHECK(p.is_opencl());
  const Tensor loss = torch::nn::functional::cross_entropy(cpu_net->forward(x.to(device)), y.to(device));
  CHECK(loss.is_opencl());
  loss.backward();
  size_t i = 0;
  for (const Tensor& p : cpu_net->parameters()) {
    REQUIRE(p.grad().is_opencl());
    CHECK(max_difference(p.grad(), cpu_grads[i++]) < 1e-5);
  }
  // A step of SGD runs on the device too (add_ with alpha in place).
  torch::optim::SGD sgd(cpu_net->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  sgd.step();
  for (const Tensor& p : cpu_net->parameters()) CHECK(p.is_opencl());
  // A gradient flows back to a CPU leaf through to(device).
  const Tensor leaf = torch::ones({3}, torch::requires_grad());
  (leaf.to(device) * 2).sum().backward();
  REQUIRE(leaf.grad().defined());
  CHECK(leaf.grad().is_cpu());
  CHECK(torch::equal(leaf.grad(), torch::full({3}, 2.0)));
}

TEST_CASE("nll_loss on the device throws the CPU's error for a target out of range, forward and backward",
          "[device][needs_opencl]") {
  if (!torch::opencl::is_available()) SKIP_TEST("no OpenCL device: install pocl-opencl-icd (scripts/setup does)");
  const Device device("opencl");
  torch::manual_seed(5);
  const Tensor log_probs = torch::log_softmax(torch::randn({4, 3}), 1);
  auto loss_message = [&](const Device& on, const std::vector<int64_t>& labels, int64_t ignore_index) {
    return message_of([&] {
      torch::nll_loss(log_probs.to(on), torch::tensor(labels, torch::kLong).to(on), {}, torch::Reduction::Mean,
                      ignore_index);
    });
  };
  // Above, below, and two bad ones: the first in sample order is named, as the CPU's loop names it.
  for (const auto& labels : {std::vector<int64_t>{0, 3, 1, 2}, std::vector<int64_t>{0, 1, -1, 2},
                             std::vector<int64_t>{0, 7, 1, -5}}) {
    const std::string on_cpu = loss_message(Device("cpu"), labels, -100);
    CHECK_THAT(on_cpu, Catch::StartsWith("Target ") && Catch::EndsWith(" is out of bounds."));
    CHECK(loss_message(device, labels, -100) == on_cpu);
  }
  CHECK(loss_message(device, {0, 7, 1, -5}, -100) == "Target 7 is out of bounds.");
  // ignore_index, in range or not, is no error, forward or backward, and its samples count for nothing.
  for (const int64_t ignore_index : {int64_t{-100}, int64_t{1}, int64_t{9}}) {
    const Tensor labels = torch::tensor({0, ignore_index, 2, ignore_index}, torch::kLong);
    const Tensor x = log_probs.detach().requires_grad_(true), dx = log_probs.to(device).detach().requires_grad_(true);
    const Tensor want = torch::nll_loss(x, labels, {}, torch::Reduction::Mean, ignore_index);
    const Tensor got = torch::nll_loss(dx, labels.to(device), {}, torch::Reduction::Mean, ignore_index);
    CHECK(max_difference(got, want) < 1e-6);
    want.backward();
    got.backward();
    REQUIRE(dx.grad().defined());
    CHECK(max_difference(dx.grad(), x.grad()) < 1e-6);
  }
  // The backward checks the saved target again: here it was changed in place after the forward.
  for (const int64_t reduction : {torch::Reduction::None, torch::Reduction::Mean, torch::Reduction::Sum}) {
    auto backward_message = [&](const Device& on) {
      const Tensor x = log_probs.to(on).detach().requires_grad_(true);
      const Tensor labels = torch::tensor({0, 2, 1, 2}, torch::kLong).to(on);
      const Tensor loss = torch::nll_loss(x, labels, {}, reduction);
      labels.select(0, 2).fill_(4);
      return message_of([&] { loss.sum().backward(); });
    };
    CHECK(backward_message(Device("cpu")) == "Target 4 is out of bounds.");
    CHECK(backward_message(device) == "Target 4 is out of bounds.");
  }
}

TEST_CASE("a device tensor prints its values; pinned memory and the device allocator's statistics",
          "[device][needs_opencl]") {
  if (!torch::opencl::is_available()) SKIP_TEST("no OpenCL device: install pocl-opencl-icd (scripts/setup does)");
  const Device device("opencl");
  std::ostringstream printed;
  printed << torch::ones({2, 2}).to(device);
  CHECK_THAT(printed.str(), Catch::Contains("[ OpenCLFloatType{2,2} ]") && Catch::Contains(" 1  1"));

  const Tensor host = torch::arange(12).to(torch::kFloat);
  CHECK_FALSE(host.is_pinned());
  const Tensor pinned = host.pin_memory();
  CHECK(pinned.is_pinned());
  CHECK(torch::equal(pinned, host));
  const Tensor queued = pinned.to(device, /*non_blocking=*/true);
  torch::opencl::synchronize();
  CHECK(torch::equal(queued.cpu(), host));

  torch::opencl::reset_peak_memory_stats();
  const auto before = torch::opencl::memory_stats();
  {
    const Tensor big = torch::empty({1 << 20}, torch::device(device));  // 4 MiB: a large block
    const auto during = torch::opencl::memory_stats();
    CHECK(during.allocated_bytes >= before.allocated_bytes + (4 << 20));
    CHECK(during.reserved_bytes >= during.allocated_bytes);
  }
  torch::opencl::synchronize();
  const auto after = torch::opencl::memory_stats();
  CHECK(after.allocated_bytes == before.allocated_bytes);
  CHECK(after.peak_allocated_bytes >= before.allocated_bytes + (4 << 20));
  torch::opencl::empty_cache();
  CHECK(torch::opencl::memory_stats().reserved_bytes <= after.reserved_bytes);
}

TEST_CASE("module 21's batch buffers are pinned once a device is in use, and a queued copy keeps its block from the pool",
          "[device][needs_opencl]") {
  if (!torch::opencl::is_available()) SKIP_TEST("no OpenCL device: install pocl-opencl-icd (scripts/setup does)");
  const Device device("opencl");
  const int64_t n = 1 << 16;
  const Tensor values = torch::arange(n).to(torch::kFloat);
  Tensor on_device = torch::zeros({n}, torch::device(device));  // the device is in use from here on
  CHECK(torch::opencl::is_initialized());
  torch::data::PinnedMemoryPool pool;
  Tensor batch = pool.empty({n}, torch::kFloat);
  CHECK(batch.is_pinned());
  CHECK(batch[1].is_pinned());  // a view into the block
  batch.copy_(values);
  {
    // The queue waits behind a user event, so the copy cannot have run before the checks below.
    struct HeldQueue {
      cl_event gate = nullptr;
      HeldQueue() {
        cl_int status = CL_SUCCESS;
        gate = clCreateUserEvent(torch::opencl::context(), &status);
        torch::opencl::check(status, "clCreateUserEvent");
        torch::opencl::check(clEnqueueMarkerWithWaitList(torch::opencl::queue(), 1, &gate, nullptr),
                             "clEnqueueMarkerWithWaitList");
      }
      ~HeldQueue() {  // also when a check throws: a queue left waiting would hang synchronize()
        clSetUserEventStatus(gate, CL_COMPLETE);
        clReleaseEvent(gate);
      }
    } held;
    on_device = batch.to(device, /*non_blocking=*/true);
    batch = Tensor();  // a training loop drops its batch at once
    CHECK(pool.stats().blocks_in_use == 1);  // the queued copy will still read the block
    CHECK(torch::opencl::release_completed_holds() >= 1);
  }
  torch::opencl::synchronize();
  CHECK(pool.stats().blocks_in_use == 0);
  CHECK(torch::equal(on_device.cpu(), values));
  Tensor next = pool.empty({n}, torch::kFloat);  // the next batch takes the block again
  CHECK(pool.stats().blocks_reused == 1);
  CHECK(next.is_pinned());
  next = Tensor();
  pool.empty_cache();  // pinned blocks go back to the driver
  CHECK(pool.stats().bytes_reserved == 0);
  CHECK_THAT(message_of([] { torch::opencl::free_pinned(reinterpret_cast<void*>(64)); }),
             Catch::Contains("is not a block from opencl::allocate_pinned"));
}
