#include "rollcall/printable.h"

#include "rollcall/utf8.h"

namespace rollcall {
namespace {

void AppendHex(std::string& out, const char* prefix, unsigned value, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += prefix;
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += kHex[(value >> shift) & 0xF];
}

}  // namespace

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
    } else if (c >= 0x80 && c <= 0x9F) {
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
