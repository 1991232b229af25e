#pragma once
// SHA-256 fingerprints and checksums, computed by OpenSSL's libcrypto (EVP interface). The digests
// are the standard ones, so progress files and caches written by earlier versions of tito still verify.
#include <cstddef>
#include <memory>
#include <string>

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX; kept out of this header so callers need no OpenSSL include

namespace tito {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t size);
  void update(const std::string& text) { update(text.data(), text.size()); }
  std::string hex_digest();  // finishes the hash; call once

 private:
  struct ContextDeleter {
    void operator()(evp_md_ctx_st* context) const;
  };
  std::unique_ptr<evp_md_ctx_st, ContextDeleter> context_;
};

std::string sha256_hex(const std::string& text);

}  // namespace tito
