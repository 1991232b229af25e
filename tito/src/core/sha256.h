#pragma once
// SHA-256 (FIPS 180-4), written here so fingerprints and checksums need no extra dependency.
#include <cstdint>
#include <string>

namespace tito {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t size);
  void update(const std::string& text) { update(text.data(), text.size()); }
  std::string hex_digest();  // finishes the hash; call once

 private:
  void compress(const std::uint8_t* block);
  std::uint32_t state_[8];
  std::uint8_t buffer_[64];
  std::size_t buffer_used_ = 0;
  std::uint64_t total_bytes_ = 0;
};

std::string sha256_hex(const std::string& text);

}  // namespace tito
