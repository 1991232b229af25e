// Device-CPU parity for every op with an OpenCL kernel, forward and backward, within the tolerances lesson 22
// states (section 10, "Parity with the CPU"). The cases and tolerances are bench/device_parity.h's, the same
// that scripts/lesson-figures 22 prints for the lesson, so the table a learner reads is the one CI holds the
// kernels to. A kernel that drifts fails here; so does a kernel registered without a parity case.
#include <catch2/catch.hpp>

#include <string>

#include <tinytorch/torch.h>

#include "../../bench/device_parity.h"
#include "../test_skip.h"

namespace torch = tinytorch;

// No device needed: the registry lists the kernels whether or not a device exists, so a new kernel without a
// case fails on every machine, not only on those with OpenCL.
TEST_CASE("every op with an OpenCL kernel has a parity case", "[device]") {
  const auto registered = torch::ops_with_device_kernels(torch::DeviceType::OPENCL);
  REQUIRE_FALSE(registered.empty());  // the kernels are linked in (-Wl,-u,tinytorch_device_kernels_registration)
  INFO("add a case for each to bench/device_parity.h: " << device_parity::joined(device_parity::ops_without_case()));
  CHECK(device_parity::ops_without_case().empty());
}

TEST_CASE("every op with an OpenCL kernel equals the CPU's within its stated tolerance, forward and backward",
          "[device][needs_opencl]") {
  if (!torch::opencl::is_available()) SKIP_TEST("no OpenCL device: install pocl-opencl-icd (scripts/setup does)");
  const device_parity::Report report = device_parity::measure(torch::Device("opencl"));
  CHECK(report.ops_without_case.empty());
  CHECK(report.rows.size() >= device_parity::cases().size());
  for (const device_parity::Row& row : report.rows) {
    INFO(row.op << ", " << row.pass << " (" << row.inputs << "): max |device - CPU| " << row.max_abs_error
                << ", relative to " << row.relative_to << " " << row.max_rel_error << ", tolerance " << row.tolerance
                << " (" << row.reason << ")");
    CHECK(row.passed());
  }
}
