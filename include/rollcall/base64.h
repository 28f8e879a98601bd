// Base64 as the Kubernetes API server reads Secret data and ConfigMap binaryData:
// Go's standard encoding with padding, line breaks ignored, anything else rejected.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rollcall {

// The decoded bytes, or nullopt when `text` is not valid base64.
std::optional<std::string> DecodeBase64(std::string_view text);

}  // namespace rollcall
