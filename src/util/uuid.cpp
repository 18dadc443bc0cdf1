// UUID version 5 (RFC 4122 section 4.3): SHA-1 over the namespace's 16 bytes followed by the name's bytes;
// the first 16 bytes of the digest, with the version nibble set to 5 and the variant bits to 10.
#include "qualrank/util/uuid.h"

#include <openssl/evp.h>

#include <cctype>

namespace qualrank::uuid {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string format(const Bytes& b) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += digits[b[i] >> 4];
    out += digits[b[i] & 0x0F];
  }
  return out;
}

}  // namespace

std::string v5(const Bytes& ns, std::string_view name) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_sha1(), nullptr);
  EVP_DigestUpdate(ctx, ns.data(), ns.size());
  EVP_DigestUpdate(ctx, name.data(), name.size());
  EVP_DigestFinal_ex(ctx, digest, &len);
  EVP_MD_CTX_free(ctx);
  Bytes b{};
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = digest[i];
  b[6] = static_cast<unsigned char>((b[6] & 0x0F) | 0x50);
  b[8] = static_cast<unsigned char>((b[8] & 0x3F) | 0x80);
  return format(b);
}

std::optional<Bytes> parse(std::string_view text) {
  if (text.size() == 38 && text.front() == '{' && text.back() == '}') text = text.substr(1, 36);
  if (text.size() != 36) return std::nullopt;
  Bytes b{};
  std::size_t k = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (text[i] != '-') return std::nullopt;
      ++i;
      continue;
    }
    int hi = hex_value(text[i]), lo = hex_value(text[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    b[k++] = static_cast<unsigned char>(hi * 16 + lo);
    i += 2;
  }
  return b;
}

std::string normalise(std::string_view text) {
  auto b = parse(text);
  return b ? format(*b) : std::string();
}

const Bytes& url_namespace() {
  static const Bytes ns = *parse("6ba7b811-9dad-11d1-80b4-00c04fd430c8");
  return ns;
}

}  // namespace qualrank::uuid
