// The config hash: a digest of exactly what a consumer's process reads, in an
// encoding where no two different contents give the same bytes (design.md,
// decision 4). Metadata is never part of it, so labels or rollcall's own
// annotations never move the hash.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rollcall/model.h"

namespace rollcall {

// The canonical encoding, documented in docs/hashing.md:
//   "rollcall-config/v2", then the number of sources, then for each source in
//   order: kind slug, name, number of keys, and per key in byte order:
//   the key, then 0x01 and the value, or 0x00 when the source lacks the key.
// Strings are length-prefixed (8-byte big-endian), counts are 8-byte big-endian.
// `reads` must be sorted by source id (all in the consumer's namespace, so by kind
// and name); each source appears once.
std::string CanonicalEncoding(const std::vector<SourceRead>& reads);

// Lowercase hex SHA-256 or HMAC-SHA-256 (OpenSSL libcrypto).
std::string Sha256Hex(std::string_view data);
std::string HmacSha256Hex(std::string_view key, std::string_view data);

// "sha256:<hex>", or "hmac-sha256:<hex>" when a key is given.
std::string ConfigHash(std::string_view encoding, const std::optional<std::string>& hmac_key);

}  // namespace rollcall
