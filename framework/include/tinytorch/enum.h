#pragma once
// torch::enumtype: LibTorch's enum-like option values (torch/enum.h). Each is an empty type with one
// constant, torch::kReLU of type torch::enumtype::kReLU, so that an option can hold a std::variant of
// the values it accepts and a wrong value fails to compile:
//   nn::init::kaiming_normal_(w, 0, torch::kFanOut, torch::kReLU)
// The reductions (kNone, kMean, kSum, kBatchMean) live in nn/functional/loss.h and the padding kinds
// (kZeros, kValid, ...) in nn/functional/conv.h, next to the options that use them.
#include <string>
#include <variant>

namespace tinytorch {

namespace enumtype {
struct kLinear {};
struct kConv1D {};
struct kConv2D {};
struct kConv3D {};
struct kConvTranspose1D {};
struct kConvTranspose2D {};
struct kConvTranspose3D {};
struct kSigmoid {};
struct kTanh {};
struct kReLU {};
struct kGELU {};
struct kLeakyReLU {};
struct kFanIn {};
struct kFanOut {};

// The printed name of a value, "kReLU", as LibTorch's torch::enumtype::get_enum_name gives it.
struct EnumNamePrinter {
  std::string operator()(kLinear) const { return "kLinear"; }
  std::string operator()(kConv1D) const { return "kConv1D"; }
  std::string operator()(kConv2D) const { return "kConv2D"; }
  std::string operator()(kConv3D) const { return "kConv3D"; }
  std::string operator()(kConvTranspose1D) const { return "kConvTranspose1D"; }
  std::string operator()(kConvTranspose2D) const { return "kConvTranspose2D"; }
  std::string operator()(kConvTranspose3D) const { return "kConvTranspose3D"; }
  std::string operator()(kSigmoid) const { return "kSigmoid"; }
  std::string operator()(kTanh) const { return "kTanh"; }
  std::string operator()(kReLU) const { return "kReLU"; }
  std::string operator()(kGELU) const { return "kGELU"; }
  std::string operator()(kLeakyReLU) const { return "kLeakyReLU"; }
  std::string operator()(kFanIn) const { return "kFanIn"; }
  std::string operator()(kFanOut) const { return "kFanOut"; }
};
template <typename... Values>
std::string get_enum_name(const std::variant<Values...>& value) {
  return std::visit(EnumNamePrinter{}, value);
}
}  // namespace enumtype

inline constexpr enumtype::kLinear kLinear{};
inline constexpr enumtype::kConv1D kConv1D{};
inline constexpr enumtype::kConv2D kConv2D{};
inline constexpr enumtype::kConv3D kConv3D{};
inline constexpr enumtype::kConvTranspose1D kConvTranspose1D{};
inline constexpr enumtype::kConvTranspose2D kConvTranspose2D{};
inline constexpr enumtype::kConvTranspose3D kConvTranspose3D{};
inline constexpr enumtype::kSigmoid kSigmoid{};
inline constexpr enumtype::kTanh kTanh{};
inline constexpr enumtype::kReLU kReLU{};
inline constexpr enumtype::kGELU kGELU{};
inline constexpr enumtype::kLeakyReLU kLeakyReLU{};
inline constexpr enumtype::kFanIn kFanIn{};
inline constexpr enumtype::kFanOut kFanOut{};

}  // namespace tinytorch
