// Bounds checked before yaml-cpp sees a byte. yaml-cpp recurses once per nesting
// level without a limit, so a hostile "[[[[…" would overflow the stack; the check
// here estimates the nesting depth of a document from its text alone, erring high.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rollcall {

struct Limits {
  std::size_t max_input_bytes = std::size_t{256} << 20;  // 256 MiB
  std::size_t max_depth = 512;  // Kubernetes objects, CRD schemas included, stay far below
};

// What the text of one document shows wrong before any parser sees it.
struct TextProblem {
  enum class Kind { kTooDeep, kUnterminatedQuote };
  Kind kind = Kind::kTooDeep;
  std::size_t offset = 0;  // relative to the document's text
  std::string message;
};

// Scans a document's text once: the nesting it can reach (indentation levels,
// compact "- - -" entries and flow brackets, outside quotes, comments and block
// scalars; the estimate errs high) against `max_depth`, and quoted scalars that
// never close (yaml-cpp would swallow the rest of the document into the string).
std::optional<TextProblem> FindTextProblem(std::string_view text, std::size_t max_depth);

// The offset where `max_depth` is exceeded, if it is (FindTextProblem's depth part).
std::optional<std::size_t> FindExcessiveNesting(std::string_view text, std::size_t max_depth);

}  // namespace rollcall
