#pragma once
//! SHA-256 digests: of data files a scenario pins (data_files.h) and of the inline scripts and
//! styles a report page's Content-Security-Policy lists (reports/html_page.h).
#include <array>
#include <string>
#include <string_view>

namespace gpuplan {

//! The 32-byte SHA-256 digest of `bytes` (FIPS 180-4), computed by OpenSSL.
[[nodiscard]] std::array<unsigned char, 32> sha256(std::string_view bytes);

//! Lowercase hex of sha256(bytes) (64 characters).
[[nodiscard]] std::string sha256_hex(std::string_view bytes);

//! Base64 of sha256(bytes) (44 characters), as a CSP source expression writes it.
[[nodiscard]] std::string sha256_base64(std::string_view bytes);

}  // namespace gpuplan
