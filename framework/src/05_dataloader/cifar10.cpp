// Given code for module 05: the reader behind torch::data::datasets::CIFAR10 (cifar10.h describes
// the binary format). Every file is checked in full before a byte is converted, so a damaged
// dataset fails at once with the file's name rather than training on garbage.
#include "tinytorch/data/datasets/cifar10.h"

#include <filesystem>
#include <fstream>
#include <vector>

#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace data {
namespace datasets {
namespace {

namespace fs = std::filesystem;

constexpr const char* kUnpackedFolder = "cifar-10-batches-bin";  // what the official tarball unpacks to

std::vector<std::string> batch_names(bool train) {
  if (!train) return {"test_batch.bin"};
  std::vector<std::string> names;
  for (int64_t i = 1; i <= CIFAR10::kTrainBatches; ++i) names.push_back("data_batch_" + std::to_string(i) + ".bin");
  return names;
}

// `root` itself when it holds data_batch_1.bin or test_batch.bin, else root/cifar-10-batches-bin
// when that does: people pass either the folder they unpacked into or the unpacked folder.
fs::path batches_folder(const std::string& root) {
  std::error_code ignored;
  const fs::path given(root);
  if (fs::is_regular_file(given / "data_batch_1.bin", ignored) || fs::is_regular_file(given / "test_batch.bin", ignored))
    return given;
  if (fs::is_directory(given / kUnpackedFolder, ignored)) return given / kUnpackedFolder;
  return given;
}

std::string where_to_get_files(const fs::path& folder) {
  return tinytorch::detail::str("Fix: ", kCifar10DownloadHint, ", then pass the folder cifar-10-batches-bin (it holds ",
                                "data_batch_1.bin ... data_batch_5.bin and test_batch.bin; here: ", folder.string(),
                                ")");
}

// The whole file, checked to be a non-empty run of whole records.
std::vector<unsigned char> read_batch_file(const fs::path& path, const fs::path& folder) {
  TT_CHECK(fs::is_directory(folder), "CIFAR10: the folder ", folder.string(), " does not exist. ",
           where_to_get_files(folder));
  TT_CHECK(fs::is_regular_file(path), "CIFAR10: the batch file ", path.string(), " is missing. ",
           where_to_get_files(folder));
  const auto bytes = static_cast<int64_t>(fs::file_size(path));
  TT_CHECK(bytes > 0 && bytes % CIFAR10::kRecordBytes == 0, "CIFAR10: the batch file ", path.string(), " is ", bytes,
           " bytes long, which is not a whole number of ", CIFAR10::kRecordBytes,
           "-byte records (1 label byte + 3072 pixel bytes; the official files hold 10000 records, ", 10000 * CIFAR10::kRecordBytes,
           " bytes): it is ", bytes > 0 ? "truncated or damaged" : "empty",
           ", or not the binary version of CIFAR-10 (the Python and MATLAB versions hold pickles and .mat files). ",
           where_to_get_files(folder));
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> data(static_cast<size_t>(bytes));
  in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(bytes));
  TT_CHECK(in.gcount() == bytes, "CIFAR10: could not read ", path.string(), " (read ", in.gcount(), " of ", bytes,
           " bytes). Fix: check that the file is readable (ls -l ", path.string(), ")");
  for (int64_t record = 0; record < bytes / CIFAR10::kRecordBytes; ++record) {
    const int label = data[static_cast<size_t>(record * CIFAR10::kRecordBytes)];
    TT_CHECK(label < CIFAR10::kClasses, "CIFAR10: record ", record, " of ", path.string(), " has the label ", label,
             ", but CIFAR-10's labels are 0-9: the file is damaged, or is CIFAR-100's (2 label bytes per record). ",
             where_to_get_files(folder));
  }
  return data;
}

}  // namespace

bool cifar10_files_present(const std::string& root) {
  const fs::path folder = batches_folder(root);
  std::error_code ignored;
  for (const bool train : {true, false})
    for (const std::string& name : batch_names(train))
      if (!fs::is_regular_file(folder / name, ignored)) return false;
  return true;
}

CIFAR10::CIFAR10(const std::string& root, Mode mode) : mode_(mode) {
  const fs::path folder = batches_folder(root);
  std::vector<std::vector<unsigned char>> files;
  int64_t count = 0;
  for (const std::string& name : batch_names(mode == Mode::kTrain)) {
    files.push_back(read_batch_file(folder / name, folder));
    count += static_cast<int64_t>(files.back().size()) / kRecordBytes;
  }
  images_ = empty({count, kChannels, kImageRows, kImageColumns}, kFloat);
  targets_ = empty({count}, kLong);
  float* pixels = images_.data_ptr<float>();
  int64_t* labels = targets_.data_ptr<int64_t>();
  for (const auto& file : files) {
    for (size_t offset = 0; offset < file.size(); offset += kRecordBytes) {
      *labels++ = file[offset];
      // The planes are stored R, G, B, each row-major: already [C, H, W].
      for (int64_t p = 0; p < kImageBytes; ++p) *pixels++ = static_cast<float>(file[offset + 1 + p]) / 255.0f;
    }
  }
}

Example<> CIFAR10::get(size_t index) {
  TT_CHECK(index < static_cast<size_t>(images_.size(0)), "CIFAR10: index ", index, " is out of range for a dataset of ",
           images_.size(0), " images");
  return {images_[static_cast<int64_t>(index)], targets_[static_cast<int64_t>(index)]};
}

std::optional<size_t> CIFAR10::size() const { return static_cast<size_t>(images_.size(0)); }
bool CIFAR10::is_train() const noexcept { return mode_ == Mode::kTrain; }
const Tensor& CIFAR10::images() const { return images_; }
const Tensor& CIFAR10::targets() const { return targets_; }

}  // namespace datasets
}  // namespace data
}  // namespace tinytorch
