#include "rollcall/byte_scan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rollcall {

namespace {

bool IsPlainAscii(unsigned char byte) {
  return (byte >= 0x20 && byte < 0x7F) || byte == '\n' || byte == '\t';
}

}  // namespace

std::size_t SkipPlainAscii(std::string_view text, std::size_t pos) {
  const char* data = text.data();
  std::size_t size = text.size();
#if defined(__SSE2__)
  // Sixteen bytes at a time: signed, a byte of 0x80 or more is negative, so
  // "greater than 0x1F and less than 0x7F" is exactly printable ASCII.
  const __m128i low = _mm_set1_epi8(0x1F);
  const __m128i high = _mm_set1_epi8(0x7F);
  const __m128i line_feed = _mm_set1_epi8('\n');
  const __m128i tab = _mm_set1_epi8('\t');
  while (pos + 16 <= size) {
    __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + pos));
    __m128i plain = _mm_and_si128(_mm_cmpgt_epi8(chunk, low), _mm_cmplt_epi8(chunk, high));
    plain = _mm_or_si128(
        plain, _mm_or_si128(_mm_cmpeq_epi8(chunk, line_feed), _mm_cmpeq_epi8(chunk, tab)));
    auto mask = static_cast<unsigned>(_mm_movemask_epi8(plain));
    if (mask != 0xFFFFu) return pos + static_cast<std::size_t>(__builtin_ctz(~mask & 0xFFFFu));
    pos += 16;
  }
#endif
  while (pos < size && IsPlainAscii(static_cast<unsigned char>(data[pos]))) ++pos;
  return pos;
}

std::size_t SkipSpaces(std::string_view text, std::size_t pos, std::size_t end) {
  const char* data = text.data();
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(' ');
  while (pos + 16 <= end) {
    __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + pos));
    auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, space)));
    if (mask != 0xFFFFu) return pos + static_cast<std::size_t>(__builtin_ctz(~mask & 0xFFFFu));
    pos += 16;
  }
#endif
  while (pos < end && data[pos] == ' ') ++pos;
  return pos;
}

}  // namespace rollcall
