// Scanning text for the few bytes that matter, faster than a byte-by-byte state
// machine: the text checks read every byte of every document, CRDs included, so they
// run at close to memory speed here (docs/performance.md).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace rollcall {

// Offset of the first byte at or after `pos` that is neither printable ASCII
// (0x20–0x7E) nor a line feed or tab, or text.size() when there is none.
std::size_t SkipPlainAscii(std::string_view text, std::size_t pos);

// Offset of the first byte in [pos, end) that is not a space, or `end`: the
// indentation of a line (a CRD's lines are indented 30 columns and more).
std::size_t SkipSpaces(std::string_view text, std::size_t pos, std::size_t end);

// A set of bytes, tested by table lookup.
class ByteSet {
 public:
  explicit constexpr ByteSet(std::string_view bytes) {
    for (char c : bytes) member_[static_cast<unsigned char>(c)] = true;
  }
  constexpr bool Contains(char c) const { return member_[static_cast<unsigned char>(c)]; }

 private:
  std::array<bool, 256> member_{};
};

// Offset of the first byte in [pos, end) that is in `set`, or `end`.
inline std::size_t FindAnyOf(std::string_view text, std::size_t pos, std::size_t end,
                             const ByteSet& set) {
  while (pos < end && !set.Contains(text[pos])) ++pos;
  return pos;
}

}  // namespace rollcall
