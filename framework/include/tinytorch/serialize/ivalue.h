#pragma once
// IValue: the small tagged value an archive stores next to tensors (LibTorch's c10::IValue, cut down
// to what checkpoints need): None, bool, int64, double, string, a list of int64, a list of double.
// Optimizer options (lr, betas, ...), step counters and epoch numbers travel as IValues.
//   archive.write("lr", c10::IValue(0.01));      ... archive.read("lr", value); value.toDouble()
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace tinytorch {

class IValue {
 public:
  enum class Tag : uint8_t { None = 0, Bool = 1, Int = 2, Double = 3, String = 4, IntList = 5, DoubleList = 6 };

  IValue() = default;  // None
  IValue(bool value) : tag_(Tag::Bool), int_(value ? 1 : 0) {}  // NOLINT: implicit, as LibTorch's
  IValue(int value) : tag_(Tag::Int), int_(value) {}            // NOLINT
  IValue(int64_t value) : tag_(Tag::Int), int_(value) {}        // NOLINT
  IValue(double value) : tag_(Tag::Double), double_(value) {}   // NOLINT
  IValue(std::string value) : tag_(Tag::String), string_(std::move(value)) {}  // NOLINT
  IValue(const char* value) : IValue(std::string(value)) {}     // NOLINT: not the bool overload
  IValue(std::vector<int64_t> values) : tag_(Tag::IntList), ints_(std::move(values)) {}      // NOLINT
  IValue(std::vector<double> values) : tag_(Tag::DoubleList), doubles_(std::move(values)) {}  // NOLINT
  // A pair of doubles (Adam's betas) is stored as a two-element double list.
  IValue(const std::tuple<double, double>& pair)  // NOLINT
      : tag_(Tag::DoubleList), doubles_{std::get<0>(pair), std::get<1>(pair)} {}

  Tag tag() const { return tag_; }
  const char* tagKind() const;  // "Int", "Double", ... as LibTorch names them
  bool isNone() const { return tag_ == Tag::None; }
  bool isBool() const { return tag_ == Tag::Bool; }
  bool isInt() const { return tag_ == Tag::Int; }
  bool isDouble() const { return tag_ == Tag::Double; }
  bool isString() const { return tag_ == Tag::String; }
  bool isIntList() const { return tag_ == Tag::IntList; }
  bool isDoubleList() const { return tag_ == Tag::DoubleList; }

  // Each throws tinytorch::Error naming the kind it holds when it holds another kind.
  bool toBool() const;
  int64_t toInt() const;
  double toDouble() const;
  const std::string& toStringRef() const;
  std::vector<int64_t> toIntVector() const;
  std::vector<double> toDoubleVector() const;

  friend bool operator==(const IValue& a, const IValue& b);
  friend bool operator!=(const IValue& a, const IValue& b) { return !(a == b); }

 private:
  void expect(Tag wanted) const;

  Tag tag_ = Tag::None;
  int64_t int_ = 0;  // Bool and Int
  double double_ = 0;
  std::string string_;
  std::vector<int64_t> ints_;
  std::vector<double> doubles_;
};

}  // namespace tinytorch
