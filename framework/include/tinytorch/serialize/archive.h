#pragma once
// torch::serialize::OutputArchive / InputArchive: LibTorch's key -> value archives, on which
// torch::save / torch::load of modules and optimizers are built. Keys map to tensors (parameters or
// buffers), small values (IValue) or nested archives ("layer1" -> {"weight", "bias"}).
//
//   torch::serialize::OutputArchive out;
//   out.write("weight", linear->weight);
//   out.write("epoch", c10::IValue(int64_t{3}));
//   out.save_to("checkpoint.tt");
//   torch::serialize::InputArchive in;
//   in.load_from("checkpoint.tt");
//   in.read("weight", linear->weight);   // copies into the existing tensor (same sizes required)
//
// LibTorch stores archives as a zip of TorchScript pickles. TinyTorch has its own, much simpler
// format, so neither reads the other's files (each says so clearly instead of misreading them).
//
// ---- The TinyTorch archive format, version 1 (all integers little-endian) ----
//   header   8 bytes   magic "\x89TTARCH\n" (the 0x89 byte catches text-mode and 7-bit mangling)
//            u32       format version (1)
//            u64       payload length L in bytes
//   payload  L bytes   one archive body (below)
//   trailer  u64       FNV-1a 64-bit hash of the L payload bytes
// archive body:  u32 record count, then the records in the order they were written.
// record:        u8 kind (1 tensor, 2 buffer, 3 value, 4 nested archive), u32 key length, key bytes,
//                then by kind:
//   tensor/buffer  u8 dtype (0 Bool, 1 Long, 2 Float, 3 Double), u32 dim, dim x i64 sizes,
//                  u64 data bytes, the elements contiguous in row-major order
//   value          u8 tag (0 None, 1 Bool, 2 Int, 3 Double, 4 String, 5 IntList, 6 DoubleList), then
//                  Bool u8 | Int i64 | Double IEEE-754 f64 bits | String u32 length + bytes |
//                  IntList u32 count + count x i64 | DoubleList u32 count + count x f64 | None nothing
//   nested archive an archive body
// A reader rejects: a wrong magic (naming zip files, which is what LibTorch writes, and text files),
// a newer version, a file shorter or longer than header + L + 8 (truncated or appended to), a hash
// mismatch (corrupted), and any record that runs past the payload. Tensors round-trip bit-exactly.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "tinytorch/serialize/ivalue.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace serialize {

namespace detail {
// One key of an archive, as written; shared by the output and input sides.
struct ArchiveRecord;
struct ArchiveNode {
  std::vector<ArchiveRecord> records;
  const ArchiveRecord* find(const std::string& key) const;
};
struct ArchiveRecord {
  enum class Kind : uint8_t { Tensor = 1, Buffer = 2, Value = 3, Archive = 4 };
  Kind kind;
  std::string key;
  Tensor tensor;                      // Tensor, Buffer
  IValue value;                       // Value
  std::shared_ptr<ArchiveNode> node;  // Archive
};
}  // namespace detail

class OutputArchive final {
 public:
  OutputArchive();
  OutputArchive(OutputArchive&&) = default;
  OutputArchive& operator=(OutputArchive&&) = default;
  OutputArchive(OutputArchive&) = delete;
  OutputArchive& operator=(OutputArchive&) = delete;

  // Each key is written once per archive (a second write of the same key is an error). Tensors are
  // kept by handle and their values read when the archive is saved, as LibTorch does; a nested
  // archive is shared the same way (what is written to it later is saved too).
  void write(const std::string& key, const IValue& ivalue);
  void write(const std::string& key, const Tensor& tensor, bool is_buffer = false);
  void write(const std::string& key, OutputArchive& nested_archive);

  void save_to(const std::string& filename);
  void save_to(std::ostream& stream);

  template <typename... Ts>
  void operator()(Ts&&... ts) {
    write(std::forward<Ts>(ts)...);
  }

  // TinyTorch extensions. Every tensor written, nested archives included (for memory accounting).
  std::vector<Tensor> tensors() const;
  // The keys written so far, in order (as InputArchive::keys() will list them).
  std::vector<std::string> keys() const;

 private:
  void add(detail::ArchiveRecord record);
  std::shared_ptr<detail::ArchiveNode> root_;
};

class InputArchive final {
 public:
  InputArchive();
  InputArchive(InputArchive&&) = default;
  InputArchive& operator=(InputArchive&&) = default;
  InputArchive(InputArchive&) = delete;
  InputArchive& operator=(InputArchive&) = delete;
  ~InputArchive() = default;

  // read() throws when the key is missing or holds another kind; try_read() returns false instead.
  // Reading into a defined tensor copies the values into it (its sizes must match, its dtype is
  // kept); reading into an undefined tensor makes it the archive's tensor. is_buffer is accepted
  // for LibTorch compatibility: parameters and buffers are read the same way.
  void read(const std::string& key, IValue& ivalue);
  bool try_read(const std::string& key, IValue& ivalue);
  bool try_read(const std::string& key, Tensor& tensor, bool is_buffer = false);
  void read(const std::string& key, Tensor& tensor, bool is_buffer = false);
  bool try_read(const std::string& key, InputArchive& archive);
  void read(const std::string& key, InputArchive& archive);

  void load_from(const std::string& filename);
  void load_from(std::istream& stream);
  void load_from(const char* data, size_t size);

  // The keys of this archive level, in the order they were written.
  std::vector<std::string> keys();

  template <typename... Ts>
  void operator()(Ts&&... ts) {
    read(std::forward<Ts>(ts)...);
  }

 private:
  std::shared_ptr<const detail::ArchiveNode> root_;
  std::string hierarchy_prefix_;  // "layer1." inside the nested archive "layer1"; used in messages
};

}  // namespace serialize
}  // namespace tinytorch
