#include "rollcall/hashing.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cstdint>
#include <stdexcept>

namespace rollcall {
namespace {

// v2 left out the namespace: a pod reads only sources of its own namespace, so it
// told nothing, and it made the hash depend on how rollcall was told the namespace.
constexpr std::string_view kEncodingTag = "rollcall-config/v2";

void PutCount(std::string& out, std::uint64_t n) {
  for (int shift = 56; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((n >> shift) & 0xFF));
  }
}

void PutField(std::string& out, std::string_view bytes) {
  PutCount(out, bytes.size());
  out.append(bytes);
}

std::string Hex(const unsigned char* digest, unsigned int size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(std::size_t{size} * 2);
  for (unsigned int i = 0; i < size; ++i) {
    out.push_back(kDigits[digest[i] >> 4]);
    out.push_back(kDigits[digest[i] & 0xF]);
  }
  return out;
}

}  // namespace

std::string CanonicalEncoding(const std::vector<SourceRead>& reads) {
  std::string out;
  PutField(out, kEncodingTag);
  PutCount(out, reads.size());
  for (const SourceRead& read : reads) {
    const Source& source = *read.source;
    PutField(out, SourceKindSlug(source.id.kind));
    PutField(out, source.id.name.view());
    if (!read.keys) {
      PutCount(out, source.entries.size());
      for (const auto& [key, value] : source.entries) {
        PutField(out, key);
        out.push_back('\x01');
        PutField(out, value);
      }
      continue;
    }
    PutCount(out, read.keys->size());
    for (const std::string& key : *read.keys) {
      PutField(out, key);
      auto found = source.entries.find(key);
      if (found == source.entries.end()) {
        out.push_back('\x00');  // absent: adding the key later must move the hash
      } else {
        out.push_back('\x01');
        PutField(out, found->second);
      }
    }
  }
  return out;
}

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("SHA-256 failed in libcrypto");
  }
  return Hex(digest, size);
}

std::string HmacSha256Hex(std::string_view key, std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest,
           &size) == nullptr) {
    throw std::runtime_error("HMAC-SHA-256 failed in libcrypto");
  }
  return Hex(digest, size);
}

std::string ConfigHash(std::string_view encoding, const std::optional<std::string>& hmac_key) {
  if (hmac_key) return "hmac-sha256:" + HmacSha256Hex(*hmac_key, encoding);
  return "sha256:" + Sha256Hex(encoding);
}

}  // namespace rollcall
