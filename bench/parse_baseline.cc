// The benchmark's baseline: reads a stream on stdin, splits it into documents the
// way rollcall does (SplitDocuments) and parses each with yaml-cpp's YAML::Load,
// one thread, keeping nothing. What any tool that reads every document with
// yaml-cpp pays at least; rollcall's render is measured against it.
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>

#include "rollcall/stream.h"

int main() {
  std::string bytes{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
  std::size_t parsed = 0;
  for (const rollcall::DocumentSpan& span : rollcall::SplitDocuments(bytes)) {
    if (span.empty) continue;
    try {
      YAML::Node root = YAML::Load(std::string(span.Text(bytes)));
      parsed += root.IsDefined() ? 1 : 0;
    } catch (const YAML::Exception& e) {
      std::fprintf(stderr, "parse_baseline: document %u: %s\n", span.index, e.what());
      return 2;
    }
  }
  std::fprintf(stderr, "parse_baseline: %zu documents\n", parsed);
  return 0;
}
