// SHA-256 against the FIPS 180-4 / NIST test vectors.
#include <catch2/catch.hpp>

#include <string>

#include "core/sha256.h"

TEST_CASE("sha256 matches the published test vectors", "[sha256]") {
  CHECK(tito::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(tito::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(tito::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(tito::sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256 gives the same digest however the input is split", "[sha256]") {
  const std::string text(300, 'x');
  tito::Sha256 pieces;
  for (std::size_t i = 0; i < text.size(); i += 7) pieces.update(text.substr(i, 7));
  CHECK(pieces.hex_digest() == tito::sha256_hex(text));
}
