// Given code for module 05: the TinyDigits reader and default_root(). The CSV format (header
// "label,p0,...,p63", one image per line, pixels k/16) is described in datasets/tinydigits/README.md.
#include "tinytorch/data/datasets/tinydigits.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace data {
namespace datasets {
namespace {

const char* kRegenerateHint =
    "Fix: regenerate it with scripts/make-tinydigits, or set TINYTORCH_DATASETS to the folder that holds tinydigits/";

std::vector<std::string> split_commas(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return fields;
    start = comma + 1;
  }
}

std::string expected_header() {
  std::string header = "label";
  for (int64_t p = 0; p < TinyDigits::kImagePixels; ++p) header += ",p" + std::to_string(p);
  return header;
}

}  // namespace

std::string default_root() {
  if (const char* env = std::getenv("TINYTORCH_DATASETS"); env != nullptr && *env != '\0') return env;
#ifdef TINYTORCH_DATASETS_DIR
  return TINYTORCH_DATASETS_DIR;
#else
  return "datasets";
#endif
}

TinyDigits::TinyDigits(const std::string& root, Mode mode)
    : TinyDigits(from_csv(root + "/tinydigits/" + (mode == Mode::kTrain ? "train.csv" : "test.csv"), mode)) {}

TinyDigits TinyDigits::from_csv(const std::string& path, Mode mode) {
  std::ifstream file(path);
  TT_CHECK(file.is_open(), "TinyDigits: cannot open ", path, " (missing or unreadable). ", kRegenerateHint);
  std::string line;
  TT_CHECK(static_cast<bool>(std::getline(file, line)), "TinyDigits: ", path, " is empty. ", kRegenerateHint);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  TT_CHECK(line == expected_header(), "TinyDigits: ", path,
           ":1: the header should be \"label,p0,p1,...,p63\" but is \"", line.substr(0, 40),
           line.size() > 40 ? "...\"" : "\"", ". ", kRegenerateHint);

  std::vector<float> pixels;
  std::vector<int64_t> labels;
  int64_t line_number = 1;
  while (std::getline(file, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;  // a trailing blank line
    const std::vector<std::string> fields = split_commas(line);
    TT_CHECK(static_cast<int64_t>(fields.size()) == kImagePixels + 1, "TinyDigits: ", path, ":", line_number,
             ": expected 65 comma-separated values (the label, then 64 pixels), found ", fields.size(), ". ",
             kRegenerateHint);
    char* end = nullptr;
    errno = 0;
    const long label = std::strtol(fields[0].c_str(), &end, 10);
    TT_CHECK(!fields[0].empty() && *end == '\0' && errno == 0 && label >= 0 && label < kClasses, "TinyDigits: ",
             path, ":", line_number, ": the label \"", fields[0], "\" is not an integer from 0 to 9. ", kRegenerateHint);
    labels.push_back(label);
    for (int64_t p = 0; p < kImagePixels; ++p) {
      const std::string& field = fields[static_cast<size_t>(p) + 1];
      const double value = std::strtod(field.c_str(), &end);
      TT_CHECK(!field.empty() && *end == '\0' && value >= 0.0 && value <= 1.0, "TinyDigits: ", path, ":",
               line_number, ": pixel p", p, " is \"", field, "\", not a number in [0, 1]. ", kRegenerateHint);
      pixels.push_back(static_cast<float>(value));
    }
  }
  const auto count = static_cast<int64_t>(labels.size());
  TT_CHECK(count > 0, "TinyDigits: ", path, " holds no images, only a header. ", kRegenerateHint);

  Tensor images = empty({count, kImagePixels}, kFloat);
  float* image_data = images.data_ptr<float>();
  for (size_t i = 0; i < pixels.size(); ++i) image_data[i] = pixels[i];
  Tensor targets = empty({count}, kLong);
  int64_t* target_data = targets.data_ptr<int64_t>();
  for (size_t i = 0; i < labels.size(); ++i) target_data[i] = labels[i];
  return TinyDigits(std::move(images), std::move(targets), mode);
}

Example<> TinyDigits::get(size_t index) {
  TT_CHECK(index < static_cast<size_t>(images_.size(0)), "TinyDigits: index ", index,
           " is out of range for a dataset of ", images_.size(0), " images");
  return {images_[static_cast<int64_t>(index)], targets_[static_cast<int64_t>(index)]};
}

std::optional<size_t> TinyDigits::size() const { return static_cast<size_t>(images_.size(0)); }

}  // namespace datasets
}  // namespace data
}  // namespace tinytorch
