// Module 21, learner file: MemoryMappedDataset, a dataset whose records stay in their files. Each
// file is mapped into memory whole (torch::from_file, given); you write the record arithmetic: how
// many records a file holds, and example i as a view of record i, so that only the pages a batch
// touches are ever read from disk.
#include <sys/stat.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "tinytorch/data/datasets/memory_mapped.h"
#include "tinytorch/errors.h"
#include "tinytorch/from_blob.h"

namespace tinytorch {
namespace data {
namespace datasets {
namespace {

// The size in bytes of the file at `path` (`role`: "data" or "targets", for the message).
int64_t file_bytes(const std::string& path, const char* role) {
  struct stat status {};
  TT_CHECK(::stat(path.c_str(), &status) == 0, "MemoryMappedDataset: cannot open the ", role, " file ", path, ": ",
           std::strerror(errno), ". Fix: check the path (the files must be uncompressed: mmap cannot read .gz)");
  TT_CHECK(S_ISREG(status.st_mode), "MemoryMappedDataset: the ", role, " file ", path,
           " is not a regular file. Fix: give the path of the file itself");
  return static_cast<int64_t>(status.st_size);
}

// The whole file, header included, as a 1-D tensor of file.dtype() elements over a private mapping:
// the file is opened read-only and never written. `count` receives its number of records.
Tensor map_record_file(const RecordFileOptions& file, const char* role, int64_t& count) {
  const auto element_size = static_cast<int64_t>(elementSize(file.dtype()));
  TT_CHECK(file.header_bytes() % element_size == 0, "MemoryMappedDataset: the header of the ", role, " file ",
           file.path(), " is ", file.header_bytes(), " bytes, not a whole number of ", file.dtype(), " elements (",
           element_size, " bytes each), so its records would not start on an element. Fix: check header_bytes and dtype");
  const int64_t bytes = file_bytes(file.path(), role);
  count = MemoryMappedDataset::count_records(file, bytes);
  return from_file(file.path(), /*shared=*/false, bytes / element_size, file.dtype());
}

}  // namespace

MemoryMappedDataset::MemoryMappedDataset(RecordFileOptions data) : data_file_(std::move(data)) {
  data_mapping_ = map_record_file(data_file_, "data", count_);
}

// TODO: the two-file constructor, once both files are mapped: refuse (tinytorch::Error) a targets
// file that holds a different number of records than the data file. The message names both files
// and both counts, so the user sees which file is wrong.
//   Example: images with 5 records, labels with 4 -> Error naming "5" and "4" and both paths.
MemoryMappedDataset::MemoryMappedDataset(RecordFileOptions data, RecordFileOptions targets)
    : MemoryMappedDataset(std::move(data)) {
  targets_file_ = std::move(targets);
  int64_t target_count = 0;
  targets_mapping_ = map_record_file(*targets_file_, "targets", target_count);
  // BEGIN SOLUTION name="tinytorch::data::datasets::MemoryMappedDataset::MemoryMappedDataset" lesson="7. Datasets larger than memory"
  TT_CHECK(target_count == count_, "MemoryMappedDataset: the data file ", data_file_.path(), " holds ", count_,
           " records but the targets file ", targets_file_->path(), " holds ", target_count,
           "; give one target per example (check record_shape, dtype and header_bytes of both)");
  // END SOLUTION
}

// TODO: count_records -- how many records a file of `file_bytes` bytes holds: first
// file.header_bytes() bytes of header, then records of file.record_shape() elements of file.dtype()
// each (record_shape {} is one element per record). Refuse with a tinytorch::Error:
//   - records with no elements (a 0 in record_shape), and a negative size in it;
//   - a header that is negative or longer than the file;
//   - a rest after the header that is not a whole number of records. This message names the file's
//     path, its size in bytes and the record size in bytes: a cut or mis-described file must never
//     quietly lose its tail.
//   Example: header_bytes 16, record_shape {1, 28, 28}, dtype kByte: 3936 bytes -> 5 records;
//   3937 bytes -> Error naming the path, "3937" and "784".
int64_t MemoryMappedDataset::count_records(const RecordFileOptions& file, int64_t file_bytes) {
  // BEGIN SOLUTION name="tinytorch::data::datasets::MemoryMappedDataset::count_records" lesson="7. Datasets larger than memory"
  int64_t record_elements = 1;
  for (const int64_t size : file.record_shape()) {
    TT_CHECK(size >= 0, "MemoryMappedDataset: record_shape ", IntArrayRef(file.record_shape()), " of ", file.path(),
             " has a negative size");
    record_elements *= size;
  }
  const int64_t record_bytes = record_elements * static_cast<int64_t>(elementSize(file.dtype()));
  TT_CHECK(record_bytes > 0, "MemoryMappedDataset: the records of ", file.path(), " have no elements (record_shape ",
           IntArrayRef(file.record_shape()), "); give every dimension a size of at least 1");
  TT_CHECK(file.header_bytes() >= 0 && file.header_bytes() <= file_bytes, "MemoryMappedDataset: ", file.path(),
           " has ", file_bytes, " bytes, too few for a header of ", file.header_bytes(),
           " bytes. Fix: check header_bytes, and that this is the right file");
  const int64_t record_area = file_bytes - file.header_bytes();
  TT_CHECK(record_area % record_bytes == 0, "MemoryMappedDataset: ", file.path(), " has ", file_bytes,
           " bytes; after its header of ", file.header_bytes(), " bytes that is not a whole number of records of ",
           record_bytes, " bytes (", record_elements, " elements of ", file.dtype(),
           "). Fix: check record_shape, dtype and header_bytes, or whether the file was cut short");
  return record_area / record_bytes;
  // END SOLUTION
}

// TODO: record -- record `index` of `mapping`, which is the whole file (header included) as a 1-D
// tensor of file.dtype() elements, returned with shape file.record_shape() as a VIEW of mapping (it
// shares mapping's storage: no copy, so only this record's pages are read from disk). Mind the
// units: header_bytes counts bytes, the mapping counts elements.
//   Example: header_bytes 8, dtype kFloat (4 bytes), record_shape {2, 3}: record 1 holds the 6
//   elements that start at element 8 (2 elements of header, then the 6 of record 0), shaped [2, 3].
Tensor MemoryMappedDataset::record(const Tensor& mapping, const RecordFileOptions& file, int64_t index) {
  // BEGIN SOLUTION name="tinytorch::data::datasets::MemoryMappedDataset::record" lesson="7. Datasets larger than memory"
  int64_t record_elements = 1;
  for (const int64_t size : file.record_shape()) record_elements *= size;
  const int64_t header_elements = file.header_bytes() / static_cast<int64_t>(mapping.element_size());
  const int64_t first = header_elements + index * record_elements;
  return mapping.narrow(0, first, record_elements).view(file.record_shape());
  // END SOLUTION
}

// TODO: get(index) -- example `index`: record `index` of the data file and, when there is a targets
// file, of the targets file (without one the target is undefined: Tensor()); both views, through
// record(). Refuse an index >= size() with a tinytorch::Error whose message says "out of range" and
// gives the index and the size.
//   Example: 5 records of {2, 3} floats with int64 labels: get(4) -> ([2, 3] view of record 4,
//   0-dim label 4); get(5) -> Error.
Example<> MemoryMappedDataset::get(size_t index) {
  // BEGIN SOLUTION name="tinytorch::data::datasets::MemoryMappedDataset::get" lesson="7. Datasets larger than memory"
  TT_CHECK(index < static_cast<size_t>(count_), "MemoryMappedDataset: index ", index,
           " is out of range for a dataset of size ", count_);
  const auto i = static_cast<int64_t>(index);
  return {record(data_mapping_, data_file_, i),
          targets_file_.has_value() ? record(targets_mapping_, *targets_file_, i) : Tensor()};
  // END SOLUTION
}

// TODO: size() -- the number of records in the data file (counted when the dataset was built).
std::optional<size_t> MemoryMappedDataset::size() const {
  // BEGIN SOLUTION name="tinytorch::data::datasets::MemoryMappedDataset::size" lesson="7. Datasets larger than memory"
  return static_cast<size_t>(count_);
  // END SOLUTION
}

}  // namespace datasets
}  // namespace data
}  // namespace tinytorch
