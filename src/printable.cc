#include "rollcall/printable.h"

#include "rollcall/utf8.h"

namespace rollcall {
namespace {

void AppendHex(std::string& out, const char* prefix, unsigned value, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += prefix;
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += kHex[(value >> shift) & 0xF];
}

// The characters that reorder text on display (Trojan Source: U+202A to U+202E,
// U+2066 to U+2069, and the marks U+200E, U+200F, U+061C), and the line and paragraph
// separators U+2028 and U+2029, which some viewers break lines at.
bool IsBidiControlOrLineSeparator(char32_t c) {
  return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x200E ||
         c == 0x200F || c == 0x061C || c == 0x2028 || c == 0x2029;
}

}  // namespace

std::string PrintableLines(std::string_view text) {
  std::string out;
  for (std::size_t pos = 0;;) {
    const std::size_t nl = text.find('\n', pos);
    out += Printable(text.substr(pos, nl == std::string_view::npos ? nl : nl - pos));
    if (nl == std::string_view::npos) return out;
    out += '\n';
    pos = nl + 1;
  }
}

std::string Printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7F) {  // the common case: printable ASCII
      out += text[i++];
      continue;
    }
    if (byte == '\n' || byte == '\r' || (byte < 0x20 && byte != '\t') || byte == 0x7F) {
      if (byte == '\n') {
        out += "\\n";
      } else if (byte == '\r') {
        out += "\\r";
      } else {
        AppendHex(out, "\\x", byte, 2);
      }
      ++i;
      continue;
    }
    char32_t c = 0;
    std::size_t length = DecodeUtf8(text, i, c);
    if (length == 0) {
      AppendHex(out, "\\x", byte, 2);
      ++i;
    } else if ((c >= 0x80 && c <= 0x9F) || IsBidiControlOrLineSeparator(c)) {
      AppendHex(out, "\\u", c, 4);  // C1 controls: 0x9B is CSI to some terminals
      i += length;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

}  // namespace rollcall
