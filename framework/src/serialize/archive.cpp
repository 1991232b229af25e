// The archive behind torch::save / torch::load: IValue, OutputArchive and InputArchive, and the
// binary format specified at the top of tinytorch/serialize/archive.h. Given code (no learner part),
// shared by module 07 (Optimizer::save / load) and module 08 (torch::save / load, serialize.cpp).
//
// Writing serialises the whole tree into one byte string (header, payload, hash) and writes it at
// once; reading takes the whole file into memory, checks length and hash first, then parses with a
// bounds check on every field, so that no damaged file can make the reader misbehave.
#include <cmath>
#include <cstring>
#include <fstream>
#include <istream>
#include <iterator>
#include <ostream>
#include <set>
#include <sstream>

#include "tinytorch/dispatch.h"
#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/serialize/archive.h"

namespace tinytorch {

// ---------------------------------------------------------------------------------------------
// IValue
// ---------------------------------------------------------------------------------------------

const char* IValue::tagKind() const {
  switch (tag_) {
    case Tag::None: return "None";
    case Tag::Bool: return "Bool";
    case Tag::Int: return "Int";
    case Tag::Double: return "Double";
    case Tag::String: return "String";
    case Tag::IntList: return "IntList";
    case Tag::DoubleList: return "DoubleList";
  }
  return "Unknown";
}

void IValue::expect(Tag wanted) const {
  if (tag_ == wanted) return;
  IValue probe;
  probe.tag_ = wanted;
  throw Error(tinytorch::detail::str("IValue: expected ", probe.tagKind(), " but got ", tagKind()));
}

bool IValue::toBool() const { expect(Tag::Bool); return int_ != 0; }
int64_t IValue::toInt() const { expect(Tag::Int); return int_; }
double IValue::toDouble() const { expect(Tag::Double); return double_; }
const std::string& IValue::toStringRef() const { expect(Tag::String); return string_; }
std::vector<int64_t> IValue::toIntVector() const { expect(Tag::IntList); return ints_; }
std::vector<double> IValue::toDoubleVector() const { expect(Tag::DoubleList); return doubles_; }

bool operator==(const IValue& a, const IValue& b) {
  if (a.tag_ != b.tag_) return false;
  switch (a.tag_) {
    case IValue::Tag::None: return true;
    case IValue::Tag::Bool:
    case IValue::Tag::Int: return a.int_ == b.int_;
    case IValue::Tag::Double: return a.double_ == b.double_;
    case IValue::Tag::String: return a.string_ == b.string_;
    case IValue::Tag::IntList: return a.ints_ == b.ints_;
    case IValue::Tag::DoubleList: return a.doubles_ == b.doubles_;
  }
  return false;
}

namespace serialize {
namespace {

constexpr char kMagic[8] = {'\x89', 'T', 'T', 'A', 'R', 'C', 'H', '\n'};
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kHeaderBytes = sizeof(kMagic) + 4 + 8;
constexpr size_t kTrailerBytes = 8;

bool host_is_little_endian() {
  const uint16_t probe = 1;
  unsigned char first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

// FNV-1a, 64 bit: tiny, and any flipped or missing byte changes it.
uint64_t fnv1a64(const char* data, size_t size) {
  uint64_t hash = 14695981039346656037ULL;
  for (size_t i = 0; i < size; ++i) {
    hash ^= static_cast<unsigned char>(data[i]);
    hash *= 1099511628211ULL;
  }
  return hash;
}

// ---- Writing ----
class ByteWriter {
 public:
  void u8(uint8_t v) { bytes_.push_back(static_cast<char>(v)); }
  void u32(uint32_t v) { little_endian(v, 4); }
  void u64(uint64_t v) { little_endian(v, 8); }
  void i64(int64_t v) { u64(static_cast<uint64_t>(v)); }
  void f64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    u64(bits);
  }
  void text(const std::string& s) {
    TT_CHECK(s.size() <= UINT32_MAX, "OutputArchive: a key or string of ", s.size(), " bytes is too long to save");
    u32(static_cast<uint32_t>(s.size()));
    raw(s.data(), s.size());
  }
  void raw(const void* data, size_t size) {
    const char* begin = static_cast<const char*>(data);
    bytes_.insert(bytes_.end(), begin, begin + size);
  }
  std::string& bytes() { return bytes_; }

 private:
  void little_endian(uint64_t v, int count) {
    for (int i = 0; i < count; ++i) u8(static_cast<uint8_t>(v >> (8 * i)));
  }
  std::string bytes_;
};

void write_value(ByteWriter& out, const IValue& value) {
  out.u8(static_cast<uint8_t>(value.tag()));
  switch (value.tag()) {
    case IValue::Tag::None: break;
    case IValue::Tag::Bool: out.u8(value.toBool() ? 1 : 0); break;
    case IValue::Tag::Int: out.i64(value.toInt()); break;
    case IValue::Tag::Double: out.f64(value.toDouble()); break;
    case IValue::Tag::String: out.text(value.toStringRef()); break;
    case IValue::Tag::IntList: {
      const auto ints = value.toIntVector();
      out.u32(static_cast<uint32_t>(ints.size()));
      for (int64_t v : ints) out.i64(v);
      break;
    }
    case IValue::Tag::DoubleList: {
      const auto doubles = value.toDoubleVector();
      out.u32(static_cast<uint32_t>(doubles.size()));
      for (double v : doubles) out.f64(v);
      break;
    }
  }
}

void write_tensor(ByteWriter& out, const Tensor& tensor) {
  const Tensor dense = tensor.contiguous();
  out.u8(static_cast<uint8_t>(dense.scalar_type()));
  out.u32(static_cast<uint32_t>(dense.dim()));
  for (int64_t size : dense.sizes()) out.i64(size);
  out.u64(dense.nbytes());
  // Elements are stored little-endian; TinyTorch runs on little-endian hosts only (checked on save).
  out.raw(dense.data_ptr(), dense.nbytes());
}

void write_body(ByteWriter& out, const detail::ArchiveNode& node) {
  out.u32(static_cast<uint32_t>(node.records.size()));
  for (const auto& record : node.records) {
    out.u8(static_cast<uint8_t>(record.kind));
    out.text(record.key);
    switch (record.kind) {
      case detail::ArchiveRecord::Kind::Tensor:
      case detail::ArchiveRecord::Kind::Buffer: write_tensor(out, record.tensor); break;
      case detail::ArchiveRecord::Kind::Value: write_value(out, record.value); break;
      case detail::ArchiveRecord::Kind::Archive: write_body(out, *record.node); break;
    }
  }
}

std::string encode(const detail::ArchiveNode& root) {
  TT_CHECK(host_is_little_endian(), "OutputArchive: TinyTorch archives are little-endian and this host is not");
  ByteWriter payload;
  write_body(payload, root);
  ByteWriter file;
  file.raw(kMagic, sizeof(kMagic));
  file.u32(kFormatVersion);
  file.u64(payload.bytes().size());
  file.raw(payload.bytes().data(), payload.bytes().size());
  file.u64(fnv1a64(payload.bytes().data(), payload.bytes().size()));
  return std::move(file.bytes());
}

// ---- Reading ----
const char* const kResaveAdvice = "save it again with torch::save (tinytorch), or load the file it was copied from";

class ByteReader {
 public:
  ByteReader(const char* data, size_t size) : data_(data), size_(size) {}

  uint8_t u8() {
    need(1, "a byte");
    return static_cast<uint8_t>(data_[pos_++]);
  }
  uint32_t u32() { return static_cast<uint32_t>(little_endian(4, "a 4-byte integer")); }
  uint64_t u64() { return little_endian(8, "an 8-byte integer"); }
  int64_t i64() { return static_cast<int64_t>(u64()); }
  double f64() {
    const uint64_t bits = u64();
    double v;
    std::memcpy(&v, &bits, 8);
    return v;
  }
  std::string text() {
    const uint32_t length = u32();
    need(length, "a key or string");
    std::string s(data_ + pos_, length);
    pos_ += length;
    return s;
  }
  const char* raw(size_t size, const char* what) {
    need(size, what);
    const char* at = data_ + pos_;
    pos_ += size;
    return at;
  }
  size_t remaining() const { return size_ - pos_; }
  size_t position() const { return pos_; }

 private:
  uint64_t little_endian(int count, const char* what) {
    need(static_cast<size_t>(count), what);
    uint64_t v = 0;
    for (int i = 0; i < count; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(data_[pos_ + i])) << (8 * i);
    pos_ += static_cast<size_t>(count);
    return v;
  }
  void need(size_t count, const char* what) {
    TT_CHECK(count <= size_ - pos_, "InputArchive: the archive is corrupted: ", what, " at payload byte ", pos_,
             " runs past the end of the payload (", size_, " bytes); ", kResaveAdvice);
  }

  const char* data_;
  size_t size_;
  size_t pos_ = 0;
};

IValue read_value(ByteReader& in) {
  const uint8_t tag = in.u8();
  switch (static_cast<IValue::Tag>(tag)) {
    case IValue::Tag::None: return IValue();
    case IValue::Tag::Bool: return IValue(in.u8() != 0);
    case IValue::Tag::Int: return IValue(in.i64());
    case IValue::Tag::Double: return IValue(in.f64());
    case IValue::Tag::String: return IValue(in.text());
    case IValue::Tag::IntList: {
      const uint32_t count = in.u32();
      TT_CHECK(count <= in.remaining() / 8, "InputArchive: the archive is corrupted: a list of ", count,
               " integers does not fit in the rest of the payload; ", kResaveAdvice);
      std::vector<int64_t> ints(count);
      for (auto& v : ints) v = in.i64();
      return IValue(std::move(ints));
    }
    case IValue::Tag::DoubleList: {
      const uint32_t count = in.u32();
      TT_CHECK(count <= in.remaining() / 8, "InputArchive: the archive is corrupted: a list of ", count,
               " doubles does not fit in the rest of the payload; ", kResaveAdvice);
      std::vector<double> doubles(count);
      for (auto& v : doubles) v = in.f64();
      return IValue(std::move(doubles));
    }
  }
  throw Error(tinytorch::detail::str("InputArchive: the archive is corrupted: unknown value tag ", static_cast<int>(tag),
                          "; ", kResaveAdvice));
}

Tensor read_tensor(ByteReader& in, const std::string& key) {
  const uint8_t dtype_code = in.u8();
  // Every plain dtype (kBool ... kDouble, the integer codes kByte, kChar, kInt, and kShort, kHalf,
  // kBFloat16); quantized tensors are not archived.
  const bool plain = dtype_code <= static_cast<uint8_t>(ScalarType::Int) ||
                     (dtype_code >= static_cast<uint8_t>(ScalarType::Short) &&
                      dtype_code <= static_cast<uint8_t>(ScalarType::BFloat16));
  TT_CHECK(plain, "InputArchive: the archive is corrupted: tensor '", key, "' has unknown dtype code ",
           static_cast<int>(dtype_code), "; ", kResaveAdvice);
  const auto dtype = static_cast<ScalarType>(dtype_code);
  const uint32_t dim = in.u32();
  TT_CHECK(dim <= in.remaining() / 8, "InputArchive: the archive is corrupted: tensor '", key, "' claims ", dim,
           " dimensions; ", kResaveAdvice);
  std::vector<int64_t> sizes(dim);
  uint64_t numel = 1;
  for (auto& size : sizes) {
    size = in.i64();
    TT_CHECK(size >= 0 && (size == 0 || numel <= in.remaining() / static_cast<uint64_t>(size)),
             "InputArchive: the archive is corrupted: tensor '", key, "' has an impossible size ", size, "; ",
             kResaveAdvice);
    numel *= static_cast<uint64_t>(size);
  }
  const uint64_t nbytes = in.u64();
  TT_CHECK(nbytes == numel * static_cast<uint64_t>(elementSize(dtype)), "InputArchive: the archive is corrupted: tensor '",
           key, "' of sizes ", IntArrayRef(sizes), " stores ", nbytes, " bytes instead of ",
           numel * static_cast<uint64_t>(elementSize(dtype)), "; ", kResaveAdvice);
  const char* data = in.raw(nbytes, "tensor data");
  Tensor tensor = empty(sizes, TensorOptions().dtype(dtype));
  if (nbytes > 0) std::memcpy(tensor.data_ptr(), data, nbytes);
  return tensor;
}

std::shared_ptr<detail::ArchiveNode> read_body(ByteReader& in, int depth) {
  TT_CHECK(depth < 256, "InputArchive: the archive is corrupted: archives nested more than 256 deep; ", kResaveAdvice);
  auto node = std::make_shared<detail::ArchiveNode>();
  const uint32_t count = in.u32();
  // Every record takes at least 6 bytes (kind + key length + one byte of content or a count).
  TT_CHECK(count <= in.remaining() / 5, "InputArchive: the archive is corrupted: ", count,
           " records cannot fit in the rest of the payload; ", kResaveAdvice);
  std::set<std::string> seen;
  for (uint32_t i = 0; i < count; ++i) {
    detail::ArchiveRecord record;
    const uint8_t kind = in.u8();
    record.key = in.text();
    TT_CHECK(seen.insert(record.key).second, "InputArchive: the archive is corrupted: key '", record.key,
             "' appears twice; ", kResaveAdvice);
    switch (static_cast<detail::ArchiveRecord::Kind>(kind)) {
      case detail::ArchiveRecord::Kind::Tensor:
      case detail::ArchiveRecord::Kind::Buffer: record.tensor = read_tensor(in, record.key); break;
      case detail::ArchiveRecord::Kind::Value: record.value = read_value(in); break;
      case detail::ArchiveRecord::Kind::Archive: record.node = read_body(in, depth + 1); break;
      default:
        throw Error(tinytorch::detail::str("InputArchive: the archive is corrupted: record '", record.key, "' has unknown kind ",
                                static_cast<int>(kind), "; ", kResaveAdvice));
    }
    record.kind = static_cast<detail::ArchiveRecord::Kind>(kind);
    node->records.push_back(std::move(record));
  }
  return node;
}

// What a file that is not ours probably is, to name it in the error.
std::string describe_foreign_bytes(const char* data, size_t size) {
  if (size >= 4 && std::memcmp(data, "PK\x03\x04", 4) == 0) {
    return "it is a zip file, which is what LibTorch's and PyTorch's torch::save / torch.save write; TinyTorch "
           "reads only archives written by tinytorch's torch::save (save the model again with tinytorch)";
  }
  size_t printable = 0;
  const size_t probe = size < 64 ? size : 64;
  for (size_t i = 0; i < probe; ++i) {
    const unsigned char c = static_cast<unsigned char>(data[i]);
    if (c == '\n' || c == '\r' || c == '\t' || (c >= 32 && c < 127)) ++printable;
  }
  if (probe > 0 && printable == probe) {
    return "it looks like a text file; give the path of a file written by torch::save (tinytorch)";
  }
  return "give the path of a file written by torch::save (tinytorch)";
}

std::shared_ptr<const detail::ArchiveNode> decode(const char* data, size_t size) {
  TT_CHECK(size > 0, "InputArchive: the archive is empty (0 bytes); the save was interrupted or the file is not an "
                     "archive: ", kResaveAdvice);
  const size_t magic_bytes = size < sizeof(kMagic) ? size : sizeof(kMagic);
  if (std::memcmp(data, kMagic, magic_bytes) != 0) {
    throw Error(tinytorch::detail::str("InputArchive: not a TinyTorch archive (wrong magic bytes at the start): ",
                            describe_foreign_bytes(data, size)));
  }
  TT_CHECK(size >= kHeaderBytes, "InputArchive: the archive is truncated: ", size, " bytes is shorter than the ",
           kHeaderBytes, "-byte header; the save was interrupted or the copy is incomplete: ", kResaveAdvice);
  ByteReader header(data + sizeof(kMagic), kHeaderBytes - sizeof(kMagic));
  const uint32_t version = header.u32();
  TT_CHECK(version != 0 && version <= kFormatVersion, "InputArchive: archive format version ", version,
           " is not one this tinytorch reads (it reads versions 1 to ", kFormatVersion,
           "); a newer tinytorch wrote it: update tinytorch, or save the model again with this one");
  const uint64_t payload_bytes = header.u64();
  // A payload length beyond the file size is a truncated file (and must not overflow the sum).
  const uint64_t expected = payload_bytes <= size ? kHeaderBytes + payload_bytes + kTrailerBytes : UINT64_MAX;
  TT_CHECK(size == expected, "InputArchive: the archive is ",
           size < expected ? "truncated" : "longer than its header says", ": it has ", size, " bytes, its header promises ",
           kHeaderBytes, " + ", payload_bytes, " + ", kTrailerBytes, "; ",
           size < expected ? "the save was interrupted or the copy is incomplete: " : "something was appended to it: ",
           kResaveAdvice);
  const char* payload = data + kHeaderBytes;
  ByteReader trailer(payload + payload_bytes, kTrailerBytes);
  TT_CHECK(trailer.u64() == fnv1a64(payload, payload_bytes),
           "InputArchive: the archive is corrupted (its checksum does not match its contents); ", kResaveAdvice);
  ByteReader in(payload, payload_bytes);
  auto root = read_body(in, 0);
  TT_CHECK(in.remaining() == 0, "InputArchive: the archive is corrupted: ", in.remaining(),
           " unread bytes after the last record; ", kResaveAdvice);
  return root;
}

void collect_tensors(const detail::ArchiveNode& node, std::vector<Tensor>& out) {
  for (const auto& record : node.records) {
    if (record.kind == detail::ArchiveRecord::Kind::Archive) {
      collect_tensors(*record.node, out);
    } else if (record.tensor.defined()) {
      out.push_back(record.tensor);
    }
  }
}

}  // namespace

namespace detail {
const ArchiveRecord* ArchiveNode::find(const std::string& key) const {
  for (const auto& record : records) {
    if (record.key == key) return &record;
  }
  return nullptr;
}
}  // namespace detail

// ---------------------------------------------------------------------------------------------
// OutputArchive
// ---------------------------------------------------------------------------------------------

OutputArchive::OutputArchive() : root_(std::make_shared<detail::ArchiveNode>()) {}

void OutputArchive::add(detail::ArchiveRecord record) {
  TT_CHECK(!record.key.empty(), "OutputArchive::write: the key is empty; give every entry a name");
  TT_CHECK(root_->find(record.key) == nullptr, "OutputArchive::write: key '", record.key,
           "' was already written to this archive; every key is written once (use a nested archive or another "
           "name)");
  root_->records.push_back(std::move(record));
}

void OutputArchive::write(const std::string& key, const IValue& ivalue) {
  detail::ArchiveRecord record{detail::ArchiveRecord::Kind::Value, key, Tensor(), ivalue, nullptr};
  add(std::move(record));
}

void OutputArchive::write(const std::string& key, const Tensor& tensor, bool is_buffer) {
  TT_CHECK(tensor.defined(), "OutputArchive::write: tensor '", key,
           "' is undefined; write only defined tensors (skip the key, or write a value instead)");
  detail::ArchiveRecord record{is_buffer ? detail::ArchiveRecord::Kind::Buffer : detail::ArchiveRecord::Kind::Tensor,
                               key, tensor, IValue(), nullptr};
  add(std::move(record));
}

void OutputArchive::write(const std::string& key, OutputArchive& nested_archive) {
  TT_CHECK(&nested_archive != this, "OutputArchive::write: an archive cannot be nested inside itself ('", key, "')");
  detail::ArchiveRecord record{detail::ArchiveRecord::Kind::Archive, key, Tensor(), IValue(), nested_archive.root_};
  add(std::move(record));
}

void OutputArchive::save_to(std::ostream& stream) {
  const std::string bytes = encode(*root_);
  stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  TT_CHECK(stream.good(), "OutputArchive::save_to: writing ", bytes.size(),
           " bytes to the stream failed (disk full, or the stream is closed?)");
}

void OutputArchive::save_to(const std::string& filename) {
  std::ofstream file(filename, std::ios::binary | std::ios::trunc);
  TT_CHECK(file.is_open(), "OutputArchive::save_to: cannot open '", filename,
           "' for writing; check that its directory exists and is writable");
  save_to(file);
  file.close();
  TT_CHECK(!file.fail(), "OutputArchive::save_to: closing '", filename, "' failed (disk full?)");
}

std::vector<Tensor> OutputArchive::tensors() const {
  std::vector<Tensor> out;
  collect_tensors(*root_, out);
  return out;
}

std::vector<std::string> OutputArchive::keys() const {
  std::vector<std::string> out;
  for (const auto& record : root_->records) out.push_back(record.key);
  return out;
}

// ---------------------------------------------------------------------------------------------
// InputArchive
// ---------------------------------------------------------------------------------------------

InputArchive::InputArchive() : root_(std::make_shared<detail::ArchiveNode>()) {}

void InputArchive::load_from(const char* data, size_t size) {
  root_ = decode(data, size);
  hierarchy_prefix_.clear();
}

void InputArchive::load_from(std::istream& stream) {
  const std::string bytes((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
  TT_CHECK(!stream.bad(), "InputArchive::load_from: reading the stream failed");
  load_from(bytes.data(), bytes.size());
}

void InputArchive::load_from(const std::string& filename) {
  std::ifstream file(filename, std::ios::binary);
  TT_CHECK(file.is_open(), "InputArchive::load_from: cannot open '", filename,
           "': no such file, or it is not readable; check the path");
  try {
    load_from(file);
  } catch (const Error& error) {
    throw Error(tinytorch::detail::str(error.what(), " (file '", filename, "')"));
  }
}

bool InputArchive::try_read(const std::string& key, IValue& ivalue) {
  const auto* record = root_->find(key);
  if (record == nullptr || record->kind != detail::ArchiveRecord::Kind::Value) return false;
  ivalue = record->value;
  return true;
}

void InputArchive::read(const std::string& key, IValue& ivalue) {
  TT_CHECK(try_read(key, ivalue), "No such serialized IValue '", hierarchy_prefix_, key, "'");
}

bool InputArchive::try_read(const std::string& key, Tensor& tensor, bool /*is_buffer*/) {
  const auto* record = root_->find(key);
  if (record == nullptr || (record->kind != detail::ArchiveRecord::Kind::Tensor &&
                            record->kind != detail::ArchiveRecord::Kind::Buffer)) {
    return false;
  }
  if (!tensor.defined()) {
    // A private copy: two reads of one key must not share storage.
    tensor = record->tensor.clone();
    return true;
  }
  NoGradGuard no_grad;  // loading a parameter's values is not an op to differentiate
  TT_CHECK(tensor.sizes() == record->tensor.sizes(), "InputArchive: size mismatch for '", hierarchy_prefix_, key,
           "': the archive holds ", record->tensor.sizes(), ", the tensor to read into is ", tensor.sizes(),
           "; build the model with the same shapes it was saved with");
  tensor.copy_(record->tensor);
  return true;
}

void InputArchive::read(const std::string& key, Tensor& tensor, bool is_buffer) {
  TT_CHECK(try_read(key, tensor, is_buffer), "No such serialized tensor '", hierarchy_prefix_, key, "'");
}

bool InputArchive::try_read(const std::string& key, InputArchive& archive) {
  const auto* record = root_->find(key);
  if (record == nullptr || record->kind != detail::ArchiveRecord::Kind::Archive) return false;
  archive.root_ = record->node;
  archive.hierarchy_prefix_ = hierarchy_prefix_ + key + ".";
  return true;
}

void InputArchive::read(const std::string& key, InputArchive& archive) {
  TT_CHECK(try_read(key, archive), "No such serialized submodule: '", hierarchy_prefix_, key, "'");
}

std::vector<std::string> InputArchive::keys() {
  std::vector<std::string> out;
  for (const auto& record : root_->records) out.push_back(record.key);
  return out;
}

}  // namespace serialize
}  // namespace tinytorch
