// Where something is in the input: the origin a user recognises (a chart template
// named by Helm, a file, or <stdin>), the document's index in the stream, and the
// 1-based line and column in the bytes rollcall read.
#pragma once

#include <cstddef>
#include <string>

namespace rollcall {

struct Location {
  std::string origin;  // "# Source:" path, Helm 4 postrender-filename, file name, or "<stdin>"
  std::size_t document = 0;  // 1-based index of the document in the stream; 0 = whole stream
  std::size_t line = 0;      // 1-based line in the input; 0 = unknown
  std::size_t column = 0;    // 1-based column in bytes; 0 = unknown

  // "<origin> (document 3, line 12, column 5)", leaving out what is unknown.
  std::string Describe() const;
  // "<origin>:12:5", as compilers and editors write it (lint's messages).
  std::string Compact() const;
};

}  // namespace rollcall
