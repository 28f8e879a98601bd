// The part of a document's tree that byte edits need, kept once the tree is gone:
// a mapping's entries with each value's type, position and text, and the entries
// of the mappings along one path of keys below it. For a pod template, the path
// metadata → annotations is all the annotation editor looks at: a few hundred
// bytes, where the whole tree is several times its text (docs/performance.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rollcall/name.h"
#include "rollcall/yaml_tree.h"

namespace rollcall {

// One node of a CapturedShape. Small: every consumer of a large stream keeps a few
// for the whole run. Only its CapturedShape holds it (its entries point there), so
// it is never copied.
struct NodeShape {
  enum class Type : std::uint8_t { kUndefined, kNull, kScalar, kSequence, kMap };

  NodeShape() = default;
  NodeShape(NodeShape&&) = default;
  NodeShape& operator=(NodeShape&&) = default;
  NodeShape(const NodeShape&) = delete;
  NodeShape& operator=(const NodeShape&) = delete;

  Type type = Type::kUndefined;
  std::uint32_t column = 0;            // the start mark's 0-based column
  std::uint32_t first_key_column = 0;  // a non-empty mapping's: the indentation it shows
  std::uint32_t pos = 0;               // the start mark's offset in the document's text
  std::uint32_t size = 0;              // a mapping's or sequence's entries, captured or not
  std::uint32_t entry_count = 0;       // of them, those captured
  // A scalar's text: a key ("metadata", an annotation's), or an annotation's value.
  Name scalar;
  const std::pair<NodeShape, NodeShape>* first_entry = nullptr;  // in its CapturedShape

  // A mapping's entries; none for a mapping off the captured path.
  class ShapeEntries entries() const;
  bool IsDefined() const { return type != Type::kUndefined; }
  bool IsNull() const { return type == Type::kNull; }
  bool IsScalar() const { return type == Type::kScalar; }
  bool IsMap() const { return type == Type::kMap; }
};

using ShapeEntry = std::pair<NodeShape, NodeShape>;  // a mapping's key and value

// A mapping's captured entries, in document order.
class ShapeEntries {
 public:
  ShapeEntries(const ShapeEntry* first, std::size_t count) : first_(first), count_(count) {}
  const ShapeEntry* begin() const { return first_; }
  const ShapeEntry* end() const { return first_ + count_; }
  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  const ShapeEntry& front() const { return first_[0]; }
  const ShapeEntry& back() const { return first_[count_ - 1]; }

 private:
  const ShapeEntry* first_;
  std::size_t count_;
};

inline ShapeEntries NodeShape::entries() const { return {first_entry, entry_count}; }

// A node and the entries captured below it, every mapping's together in one
// array (one allocation for the whole capture). Moves, never copies: its nodes
// point into the array.
class CapturedShape {
 public:
  CapturedShape() = default;
  CapturedShape(NodeShape root, std::vector<ShapeEntry> entries)
      : root_(std::move(root)), entries_(std::move(entries)) {}
  CapturedShape(CapturedShape&&) = default;
  CapturedShape& operator=(CapturedShape&&) = default;

  const NodeShape& root() const { return root_; }
  operator const NodeShape&() const { return root_; }  // NOLINT: reads as its root

 private:
  NodeShape root_;
  std::vector<ShapeEntry> entries_;
};

// A mark's offset in the text it was parsed from; an undefined node's (-1) is read
// as the start.
inline std::size_t MarkPos(const YamlMark& mark) {
  return mark.pos < 0 ? 0 : static_cast<std::size_t>(mark.pos);
}

// `node` with its entries, and those of the mappings reached from it through the
// keys of `path` ({"metadata", "annotations"}: metadata's and its annotations').
CapturedShape CaptureShape(const YamlNode& node, const std::vector<std::string>& path = {});

// The entry (key and value) for `key` in a captured mapping, the last one when the
// key is duplicated, as Kubernetes reads it; null when absent or not captured.
const ShapeEntry* FindEntry(const NodeShape& map, const std::string& key);
// That entry's value, or null.
const NodeShape* FindValue(const NodeShape& map, const std::string& key);

}  // namespace rollcall
