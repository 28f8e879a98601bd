// Bounds checked before yaml-cpp sees a byte. yaml-cpp recurses once per nesting
// level without a limit, so a hostile "[[[[…" would overflow the stack; the check
// here estimates the nesting depth of a document from its text alone, erring high.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace rollcall {

struct Limits {
  std::size_t max_input_bytes = std::size_t{256} << 20;  // 256 MiB
  std::size_t max_depth = 512;  // Kubernetes objects, CRD schemas included, stay far below
};

// The deepest nesting the text of one document can reach: indentation levels,
// compact "- - -" entries and flow brackets, outside quotes, comments and block
// scalars. Returns the offset (relative to `text`) where `max_depth` is exceeded.
std::optional<std::size_t> FindExcessiveNesting(std::string_view text, std::size_t max_depth);

}  // namespace rollcall
