#include "rollcall/node_shape.h"

#include <stdexcept>

namespace rollcall {
namespace {

NodeShape::Type TypeOf(const YamlNode& node) {
  if (!node.IsDefined()) return NodeShape::Type::kUndefined;
  if (node.IsNull()) return NodeShape::Type::kNull;
  if (node.IsScalar()) return NodeShape::Type::kScalar;
  if (node.IsSequence()) return NodeShape::Type::kSequence;
  return NodeShape::Type::kMap;
}

// Whether an entry with key `key` continues the path (at `next`) below a mapping.
bool OnPath(const YamlNode& key, const std::vector<std::string>& path, std::size_t next) {
  return next < path.size() && key.IsScalar() && key.Scalar() == path[next];
}

// The entries Capture takes below `node`, so that their array is allocated once.
std::size_t CountEntries(const YamlNode& node, const std::vector<std::string>& path,
                         std::size_t next) {
  if (!node.IsDefined() || !node.IsMap()) return 0;
  std::size_t count = 0;
  for (const auto& entry : node) {
    ++count;
    if (OnPath(entry.first, path, next)) count += CountEntries(entry.second, path, next + 1);
  }
  return count;
}

// `path` from `next` on: what is left of it below this node; `full` when the node
// is on the path (its entries go into `entries`, together), else only its first
// key's column is kept. `entries` has room for every entry (CountEntries): they
// are pointed at where they are put.
NodeShape Capture(const YamlNode& node, const std::vector<std::string>& path, std::size_t next,
                  bool full, std::vector<ShapeEntry>& entries) {
  NodeShape shape;
  shape.type = TypeOf(node);
  if (!node.IsDefined()) return shape;
  YamlMark mark = node.Mark();
  shape.pos = static_cast<std::uint32_t>(MarkPos(mark));
  shape.column = mark.column < 0 ? 0 : static_cast<std::uint32_t>(mark.column);
  if (node.IsScalar()) shape.scalar = node.Scalar();
  if (node.IsSequence() || node.IsMap()) shape.size = static_cast<std::uint32_t>(node.size());
  if (!node.IsMap()) return shape;
  auto first = node.begin();
  if (first != node.end()) {
    int column = first->first.Mark().column;
    shape.first_key_column = column < 0 ? 0 : static_cast<std::uint32_t>(column);
  }
  if (!full) return shape;
  std::size_t count = 0;
  for (auto it = node.begin(); it != node.end(); ++it) ++count;
  std::size_t at = entries.size();
  if (entries.capacity() - at < count)
    throw std::logic_error("rollcall: a shape outgrew its count");
  entries.resize(at + count);  // this mapping's block; the ones below go after it
  shape.first_entry = entries.data() + at;
  shape.entry_count = static_cast<std::uint32_t>(count);
  for (const auto& entry : node) {
    bool on_path = OnPath(entry.first, path, next);
    NodeShape key = Capture(entry.first, path, path.size(), false, entries);
    NodeShape value =
        Capture(entry.second, path, on_path ? next + 1 : path.size(), on_path, entries);
    entries[at++] = ShapeEntry(std::move(key), std::move(value));
  }
  return shape;
}

}  // namespace

CapturedShape CaptureShape(const YamlNode& node, const std::vector<std::string>& path) {
  std::vector<ShapeEntry> entries;
  // Exactly: the nodes point into it, so it must never grow.
  entries.reserve(CountEntries(node, path, 0));
  NodeShape root = Capture(node, path, 0, true, entries);
  return {std::move(root), std::move(entries)};
}

const ShapeEntry* FindEntry(const NodeShape& map, const std::string& key) {
  const ShapeEntry* found = nullptr;
  for (const ShapeEntry& entry : map.entries()) {
    if (entry.first.IsScalar() && entry.first.scalar == key) found = &entry;
  }
  return found;
}

const NodeShape* FindValue(const NodeShape& map, const std::string& key) {
  const ShapeEntry* entry = FindEntry(map, key);
  return entry != nullptr ? &entry->second : nullptr;
}

}  // namespace rollcall
