#include "models/input/sha256.h"

// NOTE: OpenSSL 3 deprecates its per-algorithm digest calls in favour of EVP, but the first EVP
// digest of a process builds the default library context's whole algorithm name map (every
// cipher and digest OpenSSL knows): about 2 ms, more than a `gpuplan run` of 100,000 jobs spends
// simulating. SHA256_Init/Update/Final hash with the same assembly (SHA-NI or AVX2, chosen when
// libcrypto loads) without it.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/sha.h>

namespace gpuplan {

std::array<unsigned char, 32> sha256(std::string_view bytes) {
  static_assert(SHA256_DIGEST_LENGTH == 32);
  std::array<unsigned char, 32> digest{};
  SHA256_CTX ctx;
  SHA256_Init(&ctx);
  SHA256_Update(&ctx, bytes.data(), bytes.size());
  SHA256_Final(digest.data(), &ctx);
  return digest;
}

std::string sha256_hex(std::string_view bytes) {
  static constexpr char HEX[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (const unsigned char b : sha256(bytes)) {
    out += HEX[b >> 4];
    out += HEX[b & 0xF];
  }
  return out;
}

std::string sha256_base64(std::string_view bytes) {
  const std::array<unsigned char, 32> digest = sha256(bytes);
  unsigned char buf[4 * ((32 + 2) / 3) + 1];  // base64 and the NUL EVP_EncodeBlock writes
  const int len = EVP_EncodeBlock(buf, digest.data(), static_cast<int>(digest.size()));
  return std::string(reinterpret_cast<const char*>(buf), static_cast<std::size_t>(len));
}

}  // namespace gpuplan
