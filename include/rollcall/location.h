// Where something is in the input: the file rollcall read (or <stdin>), the
// document's index in it, the 1-based line and column in those bytes, and the Helm
// template the document was rendered from. A line is always a line of `origin`: a
// rendered stream's line numbers mean nothing in the template, whose path does not
// exist from where rollcall runs (lint maps a chart's findings to its template files,
// inputs.h's MapToTemplates, only where it can prove the line).
#pragma once

#include <cstddef>
#include <string>
#include <utility>

namespace rollcall {

// The origin of what rollcall read from its standard input, in messages and reports.
inline constexpr char kStandardInput[] = "<stdin>";

struct Location {
  Location() = default;
  Location(std::string origin_, std::size_t document_, std::size_t line_, std::size_t column_)
      : origin(std::move(origin_)), document(document_), line(line_), column(column_) {}

  std::string origin;        // file name, chart template (once mapped), or "<stdin>"
  std::size_t document = 0;  // 1-based index of the document in the stream; 0 = whole stream
  std::size_t line = 0;      // 1-based line in the input; 0 = unknown
  std::size_t column = 0;    // 1-based column in bytes; 0 = unknown
  // The template the document came from, as Helm names it ("# Source:", or Helm 4's
  // postrender-filename annotation); empty when none did.
  std::string source;

  // "<origin> (document 3, line 12, column 5, from chart/templates/x.yaml)", leaving
  // out what is unknown.
  std::string Describe() const;
  // "<origin>:12:5", as compilers and editors write it (lint's messages).
  std::string Compact() const;
};

}  // namespace rollcall
