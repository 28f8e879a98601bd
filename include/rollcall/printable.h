// Text from the input (object names, file names, messages that quote them) made
// safe to print on one line of a terminal or a log. A name such as "web\e[2J" or
// "web\rrollcall: ok" must neither send escape sequences to the terminal nor forge
// a line of rollcall's own: every line rollcall prints for a person goes through
// Printable. JSON and SARIF escape for themselves.
#pragma once

#include <string>
#include <string_view>

namespace rollcall {

// `text` with line breaks as \n and \r, other C0 and C1 control characters and DEL
// as \xNN (C1: \u0080 to \u009F), the characters that reorder text on display
// (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) and U+2028 and U+2029 as
// \uNNNN, bytes that are not UTF-8 as \xNN, and everything else as it is (tabs and
// printable UTF-8 included). A backslash stays a backslash: the escapes are for a
// reader, not to be decoded.
std::string Printable(std::string_view text);

// `text` made Printable line by line, its line feeds kept: for outputs that escape
// line feeds their own way (GitHub's workflow commands, DOT labels).
std::string PrintableLines(std::string_view text);

}  // namespace rollcall
