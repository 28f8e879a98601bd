// What render writes on a consumer's pod template: the config hash of what it reads
// and the list of those sources. One place computes it, so that the linter's check of
// a hash already written (rule stale-config-hash) agrees with render byte for byte.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rollcall/model.h"

namespace rollcall {

inline constexpr const char* kConfigHashAnnotation = "rollcall.dev/config-hash";
inline constexpr const char* kConfigSourcesAnnotation = "rollcall.dev/config-sources";

struct TemplateHash {
  std::string hash;     // "sha256:<hex>" or "hmac-sha256:<hex>"
  std::string sources;  // "configmap/app-config, secret/app-secret[password]"
};

// "configmap/app-config, secret/app-secret[password]": the sources in the hash, with
// keys only where the consumer reads a subset. Names and keys, never values.
std::string DescribeSources(const std::vector<SourceRead>& reads);

// The hash and sources for `consumer`, or nullopt when it reads no source `model`
// holds. HMAC-SHA-256 with `hmac_key` when set.
std::optional<TemplateHash> ComputeTemplateHash(const Consumer& consumer, const Model& model,
                                                const std::optional<std::string>& hmac_key);

// The rollcall.dev/config-hash annotation written on the consumer's pod template, or
// "" when there is none.
std::string WrittenConfigHash(const Consumer& consumer);

}  // namespace rollcall
