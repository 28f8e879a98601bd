// The part of a yaml-cpp tree that byte edits need, kept once the tree is gone:
// a mapping's entries with each value's type, position and text, and the entries
// of the mappings along one path of keys below it. For a pod template, the path
// metadata → annotations is all the annotation editor looks at: a few hundred
// bytes, where the whole tree is ~40 times its text (docs/performance.md).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rollcall/name.h"

namespace rollcall {

// Small: every consumer of a large stream keeps one for the whole run.
struct NodeShape {
  enum class Type : std::uint8_t { kUndefined, kNull, kScalar, kSequence, kMap };

  Type type = Type::kUndefined;
  std::uint32_t column = 0;            // the start mark's 0-based column
  std::uint32_t first_key_column = 0;  // a non-empty mapping's: the indentation it shows
  std::uint32_t pos = 0;               // the start mark's offset in the document's text
  std::uint32_t size = 0;              // a mapping's or sequence's entries, captured or not
  // A scalar's text: a key ("metadata", an annotation's), or an annotation's value.
  Name scalar;
  // A mapping's entries in document order; empty for a mapping off the captured path.
  std::vector<std::pair<NodeShape, NodeShape>> entries;

  bool IsDefined() const { return type != Type::kUndefined; }
  bool IsNull() const { return type == Type::kNull; }
  bool IsScalar() const { return type == Type::kScalar; }
  bool IsMap() const { return type == Type::kMap; }
};

// A mark's offset in the text it was parsed from; yaml-cpp marks an unknown place
// with -1, read as the start.
inline std::size_t MarkPos(const YAML::Mark& mark) {
  return mark.pos < 0 ? 0 : static_cast<std::size_t>(mark.pos);
}

// `node` with its entries, and those of the mappings reached from it through the
// keys of `path` ({"metadata", "annotations"}: metadata's and its annotations').
NodeShape CaptureShape(const YAML::Node& node, const std::vector<std::string>& path = {});

// The entry (key and value) for `key` in a captured mapping, the last one when the
// key is duplicated, as Kubernetes reads it; null when absent or not captured.
const std::pair<NodeShape, NodeShape>* FindEntry(const NodeShape& map, const std::string& key);
// That entry's value, or null.
const NodeShape* FindValue(const NodeShape& map, const std::string& key);

}  // namespace rollcall
