// The part of a document's tree that byte edits need, kept once the tree is gone:
// a mapping's entries with each value's type, position and text, and the entries
// of the mappings along one path of keys below it. For a pod template, the path
// metadata → annotations is all the annotation editor looks at: a few hundred
// bytes, where the whole tree is several times its text (docs/performance.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rollcall/name.h"
#include "rollcall/yaml_tree.h"

namespace rollcall {

// One node of a CapturedShape. Small: every consumer of a large stream keeps a few
// for the whole run (24 bytes each, docs/performance.md). It lives only in its
// capture's array, where its entries are found by their distance from it, so it
// is never copied.
struct NodeShape {
  enum class Type : std::uint8_t { kUndefined, kNull, kScalar, kSequence, kMap };

  NodeShape() = default;
  NodeShape(const NodeShape&) = delete;
  NodeShape& operator=(const NodeShape&) = delete;

  Type type = Type::kUndefined;
  bool captured = false;  // a mapping on the captured path: its entries are here
  // The 0-based column of its start mark; a non-empty mapping's, that of its first
  // key: the indentation it shows (a block mapping starts at its first key).
  std::uint32_t column = 0;
  std::uint32_t pos = 0;   // the start mark's offset in the document's text
  std::uint32_t size = 0;  // a mapping's or sequence's entries, captured or not
  // A scalar's text: a key ("metadata", an annotation's), or an annotation's value.
  Name scalar;
  // A captured mapping's: where its entries start in the capture's array, counted
  // in nodes from this one.
  std::int32_t first_entry = 0;

  // A mapping's entries; none for a mapping off the captured path.
  class ShapeEntries entries() const;
  bool IsDefined() const { return type != Type::kUndefined; }
  bool IsNull() const { return type == Type::kNull; }
  bool IsScalar() const { return type == Type::kScalar; }
  bool IsMap() const { return type == Type::kMap; }
};

// A mapping's key and value: two nodes side by side in their capture's array.
struct ShapeEntry {
  const NodeShape& first;
  const NodeShape& second;
};

// A mapping's captured entries, in document order.
class ShapeEntries {
 public:
  class Iterator {
   public:
    explicit Iterator(const NodeShape* key) : key_(key) {}
    ShapeEntry operator*() const { return {key_[0], key_[1]}; }
    Iterator& operator++() {
      key_ += 2;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return key_ != other.key_; }

   private:
    const NodeShape* key_;
  };

  ShapeEntries(const NodeShape* first_key, std::size_t count) : first_(first_key), count_(count) {}
  Iterator begin() const { return Iterator(first_); }
  Iterator end() const { return Iterator(first_ + 2 * count_); }
  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  ShapeEntry front() const { return *begin(); }
  ShapeEntry back() const { return {first_[2 * count_ - 2], first_[2 * count_ - 1]}; }

 private:
  const NodeShape* first_;
  std::size_t count_;
};

inline ShapeEntries NodeShape::entries() const { return {this + first_entry, captured ? size : 0}; }

// A node and the entries captured below it, all in one array: the node first,
// then each captured mapping's entries together, key and value side by side (one
// allocation for the whole capture, and 8 bytes where it is held). Moves, never
// copies.
class CapturedShape {
 public:
  CapturedShape() = default;
  explicit CapturedShape(std::unique_ptr<NodeShape[]> nodes) : nodes_(std::move(nodes)) {}

  const NodeShape& root() const;
  operator const NodeShape&() const { return root(); }  // NOLINT: reads as its root
  bool empty() const { return !nodes_; }
  // The bytes its nodes take.
  std::size_t bytes() const;

 private:
  std::unique_ptr<NodeShape[]> nodes_;  // null: nothing captured, an undefined root
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
// key is duplicated, as Kubernetes reads it; none when absent or not captured.
std::optional<ShapeEntry> FindEntry(const NodeShape& map, const std::string& key);
// That entry's value, or null.
const NodeShape* FindValue(const NodeShape& map, const std::string& key);

}  // namespace rollcall
