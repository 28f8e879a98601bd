// What the benchmark's baselines share: a stream read whole from stdin, split into
// documents the way rollcall splits it (SplitDocuments), and each non-empty
// document's text handed to a parser, one thread, keeping nothing.
#pragma once

#include <cstdio>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "rollcall/stream.h"

namespace rollcall::bench {

// Whether `flag` is one of the program's arguments.
inline bool HasFlag(int argc, char** argv, std::string_view flag) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i] == flag) return true;
  }
  return false;
}

// Runs `parse` (std::optional<std::string>(std::string_view text): an error message,
// or nothing) over every non-empty document of stdin; `name` prefixes what it says
// on stderr. Exit status 2 at the first error, else 0. With the argument
// --split-only, no document is parsed: what reading and splitting cost, which every
// baseline's figures include.
template <typename Parse>
int ParseEveryDocument(int argc, char** argv, const char* name, const Parse& parse) {
  const bool split_only = HasFlag(argc, argv, "--split-only");
  std::string bytes{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
  std::size_t parsed = 0;
  for (const DocumentSpan& span : SplitDocuments(bytes)) {
    if (span.empty || split_only) continue;
    if (std::optional<std::string> error = parse(span.Text(bytes))) {
      std::fprintf(stderr, "%s: document %u: %s\n", name, span.index, error->c_str());
      return 2;
    }
    ++parsed;
  }
  std::fprintf(stderr, "%s: %zu documents\n", name, parsed);
  return 0;
}

}  // namespace rollcall::bench
