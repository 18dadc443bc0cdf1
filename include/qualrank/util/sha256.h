// SHA-256 digests (OpenSSL libcrypto's EVP interface), as lower-case hex.
#pragma once
#include <string>
#include <string_view>

namespace qualrank {

// The SHA-256 digest of `data` as 64 lower-case hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace qualrank
