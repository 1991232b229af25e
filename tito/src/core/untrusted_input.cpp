#include "core/untrusted_input.h"

#include <cstdint>

#include <fmt/format.h>

namespace tito {
namespace fs = std::filesystem;

std::string escape_invalid_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  const auto byte = [&](std::size_t at) { return static_cast<unsigned char>(text[at]); };
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char lead = byte(i);
    // How many continuation bytes the lead byte announces, and the smallest second byte allowed (no
    // overlong forms, no surrogates, nothing past U+10FFFF).
    std::size_t extra = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (lead < 0x80) extra = 0;
    else if (lead >= 0xC2 && lead <= 0xDF) extra = 1;
    else if (lead == 0xE0) extra = 2, low = 0xA0;
    else if (lead == 0xED) extra = 2, high = 0x9F;
    else if (lead >= 0xE1 && lead <= 0xEF) extra = 2;
    else if (lead == 0xF0) extra = 3, low = 0x90;
    else if (lead == 0xF4) extra = 3, high = 0x8F;
    else if (lead >= 0xF1 && lead <= 0xF3) extra = 3;
    else extra = SIZE_MAX;  // 0x80-0xC1 and 0xF5-0xFF never start a character
    bool valid = extra != SIZE_MAX && i + extra < text.size();
    if (valid) {
      for (std::size_t k = 1; valid && k <= extra; ++k) {
        const unsigned char c = byte(i + k);
        valid = k == 1 ? (c >= low && c <= high) : (c >= 0x80 && c <= 0xBF);
      }
    }
    if (valid) {
      out.append(text, i, extra + 1);
      i += extra + 1;
    } else {
      out += fmt::format("\\x{:02X}", lead);
      ++i;
    }
  }
  return out;
}

std::optional<fs::path> first_symlink_in(const fs::path& root, const fs::path& relative) {
  fs::path partial;
  for (const auto& part : relative) {
    partial /= part;
    std::error_code error;
    if (fs::is_symlink(fs::symlink_status(root / partial, error))) return partial;
  }
  return std::nullopt;
}

}  // namespace tito
