// Reading UTF-8 one character at a time, strictly: the text checks (limits.h) and
// the escaping of names for a terminal (printable.h) agree on what is a character.
#pragma once

#include <cstddef>
#include <string_view>

namespace rollcall {

// The length of the UTF-8 sequence at text[i], with the character it encodes in
// `c`; 0 when the bytes there are not UTF-8 (overlong forms, surrogates, a cut-off
// sequence and stray continuation bytes included).
std::size_t DecodeUtf8(std::string_view text, std::size_t i, char32_t& c);

// Whether Go's unicode.IsSpace holds for `c`: ASCII's six, U+0085, U+00A0, U+1680,
// U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000. Kubernetes' stream readers
// trim with it (what follows a "---", the white space before a JSON stream's '{').
bool IsGoSpace(char32_t c);

// The length of the character at text[i] when it is Go white space (IsGoSpace), else 0
// (also for bytes that are not UTF-8, which Go decodes as U+FFFD).
std::size_t GoSpaceLength(std::string_view text, std::size_t i);

// Past the Go white space (GoSpaceLength) that starts at text[pos].
std::size_t SkipGoSpace(std::string_view text, std::size_t pos);

// The length of the line break YAML 1.1 has beyond ASCII's that starts at text[i]
// (U+0085, U+2028, U+2029), else 0.
std::size_t YamlUnicodeBreakLength(std::string_view text, std::size_t i);

// UTF-8's byte-order mark, which a YAML parser takes for the encoding's mark at the
// start of its input.
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

}  // namespace rollcall
