// TinyDigits: the shipped files read back with 100/20 images per digit, and clear errors for a
// missing or malformed file (small files written by the tests themselves).
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace datasets = torch::data::datasets;
using Mode = datasets::TinyDigits::Mode;

namespace {

// The repository root, from this file's path (tests/framework/test_data_tinydigits.cpp).
// From CMake, not __FILE__: a compiler launcher (ccache with base_dir) may make __FILE__ relative.
std::string repo_root() { return TINYTORCH_TESTS_REPO_ROOT; }

std::vector<int64_t> per_class(const torch::Tensor& targets) {
  std::vector<int64_t> counts(10, 0);
  const int64_t* t = targets.data_ptr<int64_t>();
  for (int64_t i = 0; i < targets.numel(); ++i) ++counts.at(static_cast<size_t>(t[i]));
  return counts;
}

std::string header() {
  std::string h = "label";
  for (int p = 0; p < 64; ++p) h += ",p" + std::to_string(p);
  return h;
}

// One line: the label, then 64 pixels all equal to `pixel`.
std::string row(const std::string& label, const std::string& pixel, int pixels = 64) {
  std::string r = label;
  for (int p = 0; p < pixels; ++p) r += "," + pixel;
  return r;
}

// A scratch file under the system temp folder, removed at the end of the test.
struct ScratchFile {
  explicit ScratchFile(const std::string& text) {
    char name[] = "/tmp/tinydigits-test-XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    path = name;
    std::ofstream(path) << text;
  }
  ~ScratchFile() { std::remove(path.c_str()); }
  std::string path;
};

}  // namespace

TEST_CASE("TinyDigits reads the shipped files: 100 train and 20 test images per digit", "[data][tinydigits]") {
  datasets::TinyDigits train(repo_root() + "/datasets", Mode::kTrain);
  datasets::TinyDigits test(repo_root() + "/datasets", Mode::kTest);
  CHECK(train.is_train());
  CHECK_FALSE(test.is_train());
  CHECK(train.size().value() == 1000);
  CHECK(test.size().value() == 200);
  CHECK(train.images().sizes() == std::vector<int64_t>{1000, 64});
  CHECK(train.images().scalar_type() == torch::kFloat);
  CHECK(train.targets().scalar_type() == torch::kLong);
  CHECK(per_class(train.targets()) == std::vector<int64_t>(10, 100));
  CHECK(per_class(test.targets()) == std::vector<int64_t>(10, 20));
  // Pixels are k/16 in [0, 1], exactly.
  const float* px = train.images().data_ptr<float>();
  bool all_sixteenths = true;
  for (int64_t i = 0; i < train.images().numel(); ++i) {
    const float k = px[i] * 16.0f;
    all_sixteenths = all_sixteenths && k >= 0.0f && k <= 16.0f && k == std::floor(k);
  }
  CHECK(all_sixteenths);
  // The first training image, as in train.csv line 2: a 9 whose top row is 0, 1, 8, 13, 15, 5, 0, 0 sixteenths.
  torch::data::Example<> first = train.get(0);
  CHECK(first.target.item<int64_t>() == 9);
  const float* top = first.data.data_ptr<float>();
  CHECK(std::vector<float>(top, top + 8) == std::vector<float>{0.0f, 0.0625f, 0.5f, 0.8125f, 0.9375f, 0.3125f, 0.0f, 0.0f});
  CHECK_THROWS_WITH(train.get(1000), "TinyDigits: index 1000 is out of range for a dataset of 1000 images");
}

TEST_CASE("TinyDigits goes through the loader in batches of stacked tensors", "[data][tinydigits]") {
  auto loader = torch::data::make_data_loader(
      datasets::TinyDigits(repo_root() + "/datasets", Mode::kTest).map(torch::data::transforms::Stack<>()), 64);
  std::vector<int64_t> sizes;
  for (auto& batch : *loader) {
    sizes.push_back(batch.data.size(0));
    CHECK(batch.data.size(1) == 64);
  }
  CHECK(sizes == std::vector<int64_t>{64, 64, 64, 8});
}

TEST_CASE("TinyDigits reads a small valid file, CRLF and blank last line included", "[data][tinydigits]") {
  ScratchFile file(header() + "\r\n" + row("3", "0.5") + "\r\n" + row("0", "1") + "\n\n");
  auto digits = datasets::TinyDigits::from_csv(file.path, Mode::kTest);
  CHECK(digits.size().value() == 2);
  CHECK(digits.targets().data_ptr<int64_t>()[0] == 3);
  CHECK(digits.images().data_ptr<float>()[0] == 0.5f);
  CHECK(digits.images().data_ptr<float>()[64 + 63] == 1.0f);
}

TEST_CASE("TinyDigits names the file, the line and the fix for a missing or malformed file", "[data][tinydigits]") {
  using Catch::Contains;
  CHECK_THROWS_WITH(datasets::TinyDigits("/nonexistent/folder"),
                    Contains("cannot open /nonexistent/folder/tinydigits/train.csv") && Contains("scripts/make-tinydigits"));
  ScratchFile empty("");
  CHECK_THROWS_WITH(datasets::TinyDigits::from_csv(empty.path), Contains(empty.path + " is empty"));
  ScratchFile wrong_header("label,x0\n" + row("1", "0") + "\n");
  CHECK_THROWS_WITH(datasets::TinyDigits::from_csv(wrong_header.path), Contains(":1: the header should be"));
  ScratchFile header_only(header() + "\n");
  CHECK_THROWS_WITH(datasets::TinyDigits::from_csv(header_only.path), Contains("holds no images"));
  ScratchFile short_row(header() + "\n" + row("1", "0") + "\n" + row("2", "0", 63) + "\n");
  CHECK_THROWS_WITH(datasets::TinyDigits::from_csv(short_row.path),
                    Contains(short_row.path + ":3: expected 65 comma-separated values") && Contains("found 64"));
  ScratchFile bad_label(header() + "\n" + row("10", "0") + "\n");
  CHECK_THROWS_WITH(datasets::TinyDigits::from_csv(bad_label.path),
                    Contains(":2: the label \"10\" is not an integer from 0 to 9"));
  ScratchFile text_label(header() + "\n" + row("seven", "0") + "\n");
  CHECK_THROWS_WITH(datasets::TinyDigits::from_csv(text_label.path), Contains("the label \"seven\""));
  ScratchFile big_pixel(header() + "\n" + row("1", "16") + "\n");
  CHECK_THROWS_WITH(datasets::TinyDigits::from_csv(big_pixel.path),
                    Contains(":2: pixel p0 is \"16\", not a number in [0, 1]"));
  ScratchFile empty_pixel(header() + "\n" + row("1", "") + "\n");
  CHECK_THROWS_WITH(datasets::TinyDigits::from_csv(empty_pixel.path), Contains("pixel p0 is \"\""));
}

TEST_CASE("default_root reads TINYTORCH_DATASETS first", "[data][tinydigits]") {
  const char* saved = std::getenv("TINYTORCH_DATASETS");
  const std::string previous = saved ? saved : "";
  setenv("TINYTORCH_DATASETS", "/some/where", 1);
  CHECK(datasets::default_root() == "/some/where");
  unsetenv("TINYTORCH_DATASETS");
  CHECK_FALSE(datasets::default_root().empty());  // the build-time folder, or "datasets"
  if (saved) setenv("TINYTORCH_DATASETS", previous.c_str(), 1);
}
