// torch::serialize::OutputArchive / InputArchive (framework/src/serialize/archive.cpp): bit-exact
// round trips, and a clear refusal of every damaged or foreign file (truncated at each byte, bytes
// appended, a flipped byte, a text file, a zip file as LibTorch writes, a newer format version).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <tinytorch/torch.h>

using torch::serialize::InputArchive;
using torch::serialize::OutputArchive;
using Catch::Matchers::Contains;

namespace {

std::string bytes_of(OutputArchive& archive) {
  std::ostringstream out;
  archive.save_to(out);
  return out.str();
}

bool same_bits(const torch::Tensor& a, const torch::Tensor& b) {
  if (a.scalar_type() != b.scalar_type() || a.sizes() != b.sizes()) return false;
  const torch::Tensor x = a.contiguous();
  const torch::Tensor y = b.contiguous();
  return std::memcmp(x.data_ptr(), y.data_ptr(), x.nbytes()) == 0;
}

// A small archive with one of everything: tensors of each dtype, values of each kind, a nesting.
std::string small_archive_bytes() {
  OutputArchive archive;
  archive.write("weight", torch::tensor({{1.5, -2.0}, {0.25, 3.0}}));
  archive.write("running_mean", torch::tensor({7, 8, 9}), /*is_buffer=*/true);
  archive.write("lr", c10::IValue(0.01));
  OutputArchive nested;
  nested.write("flag", c10::IValue(true));
  nested.write("bias", torch::zeros({3}, torch::kDouble));
  archive.write("layer1", nested);
  return bytes_of(archive);
}

}  // namespace

TEST_CASE("archive round trip is bit-exact for every dtype, shape and value kind", "[archive]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const torch::Tensor floats = torch::tensor({0.1, -0.0, 1e-38, 3.4e38});
  const torch::Tensor doubles = torch::tensor({nan, inf, -inf, -0.0, 5e-324}, torch::kDouble);
  const torch::Tensor longs = torch::tensor({std::numeric_limits<int64_t>::min(), int64_t{0}, int64_t{42}});
  const torch::Tensor bools = torch::tensor({1.0, 0.0, 1.0}).gt(0.5);
  const torch::Tensor scalar = torch::scalar_tensor(2.5);
  const torch::Tensor empty = torch::zeros({0, 3});
  const torch::Tensor transposed = torch::arange(6.0).reshape({2, 3}).t();  // not contiguous

  OutputArchive out;
  out.write("floats", floats);
  out.write("doubles", doubles);
  out.write("longs", longs, /*is_buffer=*/true);
  out.write("bools", bools);
  out.write("scalar", scalar);
  out.write("empty", empty);
  out.write("transposed", transposed);
  out.write("none", c10::IValue());
  out.write("bool", c10::IValue(false));
  out.write("int", c10::IValue(int64_t{-123456789012}));
  out.write("double", c10::IValue(0.1));
  out.write("string", c10::IValue("Adam"));
  out.write("ints", c10::IValue(std::vector<int64_t>{3, -1, 4}));
  out.write("doubles_list", c10::IValue(std::vector<double>{0.9, 0.999}));
  OutputArchive inner;
  inner.write("x", torch::ones({2}));
  OutputArchive middle;
  middle.write("inner", inner);
  out.write("middle", middle);
  std::stringstream stream;
  out.save_to(stream);

  InputArchive in;
  in.load_from(stream);
  CHECK(in.keys() == out.keys());
  for (const auto& [key, expected] :
       std::vector<std::pair<std::string, torch::Tensor>>{{"floats", floats}, {"doubles", doubles}, {"longs", longs},
                                                          {"bools", bools}, {"scalar", scalar}, {"empty", empty},
                                                          {"transposed", transposed}}) {
    torch::Tensor read;
    in.read(key, read);
    INFO(key);
    CHECK(same_bits(read, expected));
  }
  c10::IValue value;
  in.read("none", value);
  CHECK(value.isNone());
  in.read("bool", value);
  CHECK(value.toBool() == false);
  in.read("int", value);
  CHECK(value.toInt() == -123456789012);
  in.read("double", value);
  CHECK(value.toDouble() == 0.1);
  in.read("string", value);
  CHECK(value.toStringRef() == "Adam");
  in.read("ints", value);
  CHECK(value.toIntVector() == std::vector<int64_t>{3, -1, 4});
  in.read("doubles_list", value);
  CHECK(value.toDoubleVector() == std::vector<double>{0.9, 0.999});
  InputArchive middle_in;
  in.read("middle", middle_in);
  InputArchive inner_in;
  middle_in.read("inner", inner_in);
  torch::Tensor x;
  inner_in.read("x", x);
  CHECK(same_bits(x, torch::ones({2})));
}

TEST_CASE("archive saves to and loads from a file", "[archive]") {
  const std::string path = "test_optim_archive_roundtrip.tt";
  OutputArchive out;
  out.write("w", torch::tensor({1.0, 2.0, 3.0}));
  out.save_to(path);
  InputArchive in;
  in.load_from(path);
  torch::Tensor w;
  in.read("w", w);
  CHECK(same_bits(w, torch::tensor({1.0, 2.0, 3.0})));
  std::remove(path.c_str());
  CHECK_THROWS_WITH(in.load_from(path), Contains("cannot open") && Contains(path));
}

TEST_CASE("reading into a defined tensor copies into its storage and checks sizes", "[archive]") {
  OutputArchive out;
  out.write("w", torch::tensor({4.0, 5.0}));
  const std::string bytes = bytes_of(out);
  InputArchive in;
  in.load_from(bytes.data(), bytes.size());
  torch::Tensor target = torch::zeros({2});
  const void* storage = target.data_ptr();
  in.read("w", target);
  CHECK(target.data_ptr() == storage);
  CHECK(same_bits(target, torch::tensor({4.0, 5.0})));
  torch::Tensor wrong = torch::zeros({3});
  CHECK_THROWS_WITH(in.read("w", wrong), Contains("size mismatch for 'w'") && Contains("[2]") && Contains("[3]"));
  // Two reads of a key into undefined tensors do not share storage.
  torch::Tensor a, b;
  in.read("w", a);
  in.read("w", b);
  CHECK_FALSE(a.is_alias_of(b));
}

TEST_CASE("a missing key names the key with its nesting path", "[archive]") {
  const std::string bytes = small_archive_bytes();
  InputArchive in;
  in.load_from(bytes.data(), bytes.size());
  torch::Tensor t;
  CHECK_THROWS_WITH(in.read("nope", t), "No such serialized tensor 'nope'");
  c10::IValue v;
  CHECK_THROWS_WITH(in.read("weight", v), "No such serialized IValue 'weight'");  // a tensor, not a value
  CHECK_FALSE(in.try_read("lr", t));
  CHECK(in.try_read("lr", v));
  InputArchive layer;
  CHECK_THROWS_WITH(in.read("missing", layer), "No such serialized submodule: 'missing'");
  in.read("layer1", layer);
  CHECK_THROWS_WITH(layer.read("weight", t), "No such serialized tensor 'layer1.weight'");
  CHECK(layer.keys() == std::vector<std::string>{"flag", "bias"});
}

TEST_CASE("an archive truncated at any byte is refused as truncated", "[archive]") {
  const std::string bytes = small_archive_bytes();
  REQUIRE(bytes.size() > 100);
  InputArchive in;
  CHECK_THROWS_WITH(in.load_from(bytes.data(), 0), Contains("empty"));
  for (size_t cut = 1; cut < bytes.size(); ++cut) {
    INFO("cut at byte " << cut << " of " << bytes.size());
    CHECK_THROWS_WITH(in.load_from(bytes.data(), cut), Contains("truncated") && Contains("save it again"));
  }
  in.load_from(bytes.data(), bytes.size());  // and the whole file still loads
  CHECK(in.keys().size() == 4);
}

TEST_CASE("appended, corrupted, foreign and newer files are refused with what is wrong", "[archive]") {
  const std::string bytes = small_archive_bytes();
  InputArchive in;

  const std::string appended = bytes + "x";
  CHECK_THROWS_WITH(in.load_from(appended.data(), appended.size()), Contains("longer than its header says"));

  std::string flipped = bytes;
  flipped[flipped.size() / 2] ^= 0x01;
  CHECK_THROWS_WITH(in.load_from(flipped.data(), flipped.size()), Contains("checksum"));

  const std::string text = "epoch,loss\n1,0.5\n2,0.25\n";
  CHECK_THROWS_WITH(in.load_from(text.data(), text.size()),
                    Contains("not a TinyTorch archive") && Contains("text file"));

  const std::string zip = std::string("PK\x03\x04", 4) + std::string(60, '\0');
  CHECK_THROWS_WITH(in.load_from(zip.data(), zip.size()), Contains("zip") && Contains("LibTorch"));

  std::string newer = bytes;
  newer[8] = 2;  // the version field follows the 8 magic bytes
  CHECK_THROWS_WITH(in.load_from(newer.data(), newer.size()), Contains("format version 2") && Contains("update tinytorch"));
}

TEST_CASE("writing refuses a repeated key and an undefined tensor; IValue names kinds", "[archive]") {
  OutputArchive out;
  out.write("w", torch::ones({1}));
  CHECK_THROWS_WITH(out.write("w", torch::ones({1})), Contains("key 'w' was already written"));
  CHECK_THROWS_WITH(out.write("u", torch::Tensor()), Contains("tensor 'u' is undefined"));
  CHECK_THROWS_WITH(c10::IValue(0.5).toInt(), "IValue: expected Int but got Double");
  CHECK(c10::IValue(std::make_tuple(0.9, 0.999)).toDoubleVector() == std::vector<double>{0.9, 0.999});
}
