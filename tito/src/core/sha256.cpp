#include "core/sha256.h"

#include <openssl/err.h>
#include <openssl/evp.h>

#include "core/errors.h"

namespace tito {
namespace {

// An EVP call fails only when OpenSSL itself is broken (no memory, a provider that does not load):
// say which call failed and what OpenSSL reported.
[[noreturn]] void throw_openssl_error(const char* call) {
  std::string reason = "no reason given";
  if (unsigned long code = ERR_get_error(); code != 0) {
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    reason = text;
  }
  ERR_clear_error();
  throw UserError(std::string("SHA-256 failed: OpenSSL's ") + call + " reported: " + reason,
                  "check that OpenSSL works here (`openssl dgst -sha256 /dev/null`); if OPENSSL_CONF is set, "
                  "unset it or fix that configuration");
}

}  // namespace

void Sha256::ContextDeleter::operator()(evp_md_ctx_st* context) const { EVP_MD_CTX_free(context); }

Sha256::Sha256() : context_(EVP_MD_CTX_new()) {
  if (!context_) throw_openssl_error("EVP_MD_CTX_new");
  if (EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1) throw_openssl_error("EVP_DigestInit_ex");
}

void Sha256::update(const void* data, std::size_t size) {
  if (EVP_DigestUpdate(context_.get(), data, size) != 1) throw_openssl_error("EVP_DigestUpdate");
}

std::string Sha256::hex_digest() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context_.get(), digest, &length) != 1) throw_openssl_error("EVP_DigestFinal_ex");
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xf];
  }
  return out;
}

std::string sha256_hex(const std::string& text) {
  Sha256 hash;
  hash.update(text);
  return hash.hex_digest();
}

}  // namespace tito
