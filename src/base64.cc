#include "rollcall/base64.h"

#include <openssl/evp.h>

namespace rollcall {
namespace {

bool InAlphabet(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '/';
}

}  // namespace

std::optional<std::string> DecodeBase64(std::string_view text) {
  std::string clean;
  clean.reserve(text.size());
  for (char c : text) {
    if (c != '\n' && c != '\r') clean.push_back(c);
  }
  if (clean.size() % 4 != 0) return std::nullopt;
  std::size_t padding = 0;
  while (padding < 2 && padding < clean.size() && clean[clean.size() - 1 - padding] == '=') {
    ++padding;
  }
  for (std::size_t i = 0; i + padding < clean.size(); ++i) {
    if (!InAlphabet(clean[i])) return std::nullopt;
  }
  if (clean.empty()) return std::string();
  std::string out(clean.size() / 4 * 3, '\0');
  int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(clean.data()),
                                static_cast<int>(clean.size()));
  if (written < 0) return std::nullopt;
  out.resize(static_cast<std::size_t>(written) - padding);
  return out;
}

}  // namespace rollcall
