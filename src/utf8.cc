#include "rollcall/utf8.h"

namespace rollcall {

std::size_t DecodeUtf8(std::string_view text, std::size_t i, char32_t& c) {
  const auto lead = static_cast<unsigned char>(text[i]);
  std::size_t length = lead < 0x80         ? 1
                       : lead >> 5 == 0x6  ? 2
                       : lead >> 4 == 0xE  ? 3
                       : lead >> 3 == 0x1E ? 4
                                           : 0;
  if (length == 0 || i + length > text.size()) return 0;
  c = length == 1 ? lead : lead & (0x7F >> length);
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if (next >> 6 != 0x2) return 0;
    c = (c << 6) | (next & 0x3F);
  }
  static constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < kSmallest[length] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  return length;
}

bool IsGoSpace(char32_t c) {
  switch (c) {
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case ' ':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

std::size_t GoSpaceLength(std::string_view text, std::size_t i) {
  if (i >= text.size()) return 0;
  char32_t c = 0;
  const std::size_t length = DecodeUtf8(text, i, c);
  return length > 0 && IsGoSpace(c) ? length : 0;
}

std::size_t SkipGoSpace(std::string_view text, std::size_t pos) {
  for (std::size_t n; (n = GoSpaceLength(text, pos)) > 0;) pos += n;
  return pos;
}

std::size_t YamlUnicodeBreakLength(std::string_view text, std::size_t i) {
  for (std::string_view mark : {"\xC2\x85", "\xE2\x80\xA8", "\xE2\x80\xA9"}) {
    if (text.substr(i, mark.size()) == mark) return mark.size();
  }
  return 0;
}

}  // namespace rollcall
