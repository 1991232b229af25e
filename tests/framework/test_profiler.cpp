// Module 14's given parts: RecordProfile's Chrome trace (every op while the guard lives, nothing
// after, LibTorch's op names, input shapes, RECORD_FUNCTION spans, autograd's ops in backward,
// its errors), the op observer's off state, and profile_layers over nested Sequentials with
// the allocator's statistics.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "test_helpers.h"

namespace {

namespace nn = torch::nn;
namespace P = torch::profiling;

size_t count_of(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

}  // namespace

TEST_CASE("RecordProfile writes one complete event per op while it lives", "[profiler]") {
  auto a = torch::ones({2, 3}), b = torch::ones({3, 4});
  std::ostringstream trace;
  {
    torch::autograd::profiler::RecordProfile guard(trace);
    CHECK(torch::op_observer() != nullptr);
    auto c = torch::mm(a, b);
    auto d = c.relu();
  }
  CHECK(torch::op_observer() == nullptr);
  const std::string text = trace.str();
  CHECK(text.rfind("{\"traceEvents\": [", 0) == 0);
  CHECK(count_of(text, "\"name\": \"aten::mm\"") == 1);
  CHECK(count_of(text, "\"name\": \"aten::relu\"") == 1);
  CHECK(count_of(text, "\"ph\": \"X\"") == 2);
  CHECK(text.find("\"Input Dims\": [[2, 3], [3, 4]]") != std::string::npos);
  auto after = torch::mm(a, b);  // not recorded: the guard is gone
  CHECK(count_of(trace.str(), "aten::mm") == 1);
}

TEST_CASE("RECORD_FUNCTION adds a span and backward's ops are recorded", "[profiler]") {
  auto w = torch::ones({3, 2}, torch::requires_grad());
  std::ostringstream trace;
  {
    torch::autograd::profiler::RecordProfile profile(trace);
    RECORD_FUNCTION("train_step", std::vector<torch::Tensor>{w});
    auto loss = torch::ones({4, 3}).mm(w).sum();
    loss.backward();
  }
  const std::string text = trace.str();
  CHECK(count_of(text, "\"name\": \"train_step\"") == 1);
  CHECK(count_of(text, "\"name\": \"aten::mm\"") >= 2);  // forward and the weight's gradient
  std::ostringstream quoted;
  {
    torch::autograd::profiler::RecordProfile profile(quoted);
    RECORD_FUNCTION("a \"quoted\" span", {});
  }
  CHECK(quoted.str().find("\"name\": \"a \\\"quoted\\\" span\"") != std::string::npos);  // escaped for JSON
  {
    // Outside a profiler RECORD_FUNCTION records nothing and costs nothing.
    RECORD_FUNCTION("not_recorded", {});
  }
}

TEST_CASE("RecordProfile refuses a second profiler and an unwritable path", "[profiler]") {
  std::ostringstream first_trace, second_trace;
  torch::autograd::profiler::RecordProfile first(first_trace);
  CHECK_THROWS_WITH(torch::autograd::profiler::RecordProfile(second_trace),
                    Catch::Contains("a profiler is already recording"));
  CHECK_THROWS_WITH(torch::autograd::profiler::RecordProfile(std::string("/no/such/dir/trace.json")),
                    Catch::Contains("could not open '/no/such/dir/trace.json'"));
}

TEST_CASE("RecordProfile writes its file when it goes", "[profiler]") {
  const std::string path = "test_profiler_trace.json";
  {
    torch::autograd::profiler::RecordProfile guard(path);
    torch::ones({2}).add(1);
  }
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  CHECK(text.str().find("\"name\": \"aten::add\"") != std::string::npos);
  CHECK(text.str().find("\"displayTimeUnit\": \"ms\"") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("profile_layers enters nested Sequentials and reads the allocator", "[profiler]") {
  nn::Sequential model(nn::Sequential(nn::Linear(8, 16), nn::ReLU()), nn::Linear(16, 4), nn::Tanh());
  const auto rows = P::profile_layers(*model, torch::ones({5, 8}), 0, 2);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].name == "0.0");
  CHECK(rows[0].type == "Linear");
  CHECK(rows[0].flops == 5 * 16 * 17);
  CHECK(rows[0].activation_bytes == 5 * 16 * 4);
  CHECK(rows[0].peak_bytes >= rows[0].activation_bytes);
  CHECK(rows[1].name == "0.1");
  CHECK(rows[2].name == "1");
  CHECK(rows[2].parameters == 16 * 4 + 4);
  CHECK(rows[3].type == "Tanh");
  CHECK(rows[3].flops == -1);
  const std::string table = P::format_profile(rows);
  CHECK(table.find("unknown") != std::string::npos);
  CHECK(table.find("total") != std::string::npos);
  CHECK_THROWS_WITH(P::profile_layers(*model, torch::Tensor()), Catch::Contains("the input is undefined"));
}

TEST_CASE("conv2d's FLOPs in a profile resolve padding kSame", "[profiler]") {
  nn::Sequential model(nn::Conv2d(nn::Conv2dOptions(2, 4, 3).padding(torch::kSame).bias(false)));
  const auto rows = P::profile_layers(*model, torch::ones({1, 2, 6, 6}), 0, 1);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].output_sizes == std::vector<int64_t>{1, 4, 6, 6});
  CHECK(rows[0].flops == 4 * 6 * 6 * (2 * 2 * 9));
}
