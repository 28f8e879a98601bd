#include "rollcall/node_shape.h"

#include <stdexcept>

#include "rollcall/yaml11.h"

namespace rollcall {

static_assert(sizeof(NodeShape) == 24, "a few for every consumer of a large stream");
static_assert(sizeof(CapturedShape) == sizeof(void*), "one for every consumer");

namespace {

NodeShape::Type TypeOf(const YamlNode& node) {
  if (!node.IsDefined()) return NodeShape::Type::kUndefined;
  // `!!null ~` is null as `~` is (ResolveScalar reads the tag).
  if (node.IsNull() ||
      (node.IsScalar() && ResolveScalar(node).type == ResolvedScalar::Type::kNull)) {
    return NodeShape::Type::kNull;
  }
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

// Fills `nodes[slot]` with `node`. `path` from `next` on: what is left of it below
// this node; `full` when the node is on the path (its entries are captured, from
// `free` on, which moves past them), else only its first key's column is kept.
// `nodes` has room for every entry (CountEntries).
void Capture(const YamlNode& node, const std::vector<std::string>& path, std::size_t next,
             bool full, NodeShape* nodes, std::size_t slot, std::size_t& free, std::size_t room) {
  NodeShape& shape = nodes[slot];
  shape.type = TypeOf(node);
  if (!node.IsDefined()) return;
  YamlMark mark = node.Mark();
  shape.pos = static_cast<std::uint32_t>(MarkPos(mark));
  shape.column = mark.column < 0 ? 0 : static_cast<std::uint32_t>(mark.column);
  if (node.IsScalar()) shape.scalar = node.Scalar();
  if (node.IsSequence() || node.IsMap()) shape.size = static_cast<std::uint32_t>(node.size());
  if (!node.IsMap()) return;
  auto first = node.begin();
  if (first != node.end()) {
    int column = first->first.Mark().column;
    shape.column = column < 0 ? 0 : static_cast<std::uint32_t>(column);
  }
  if (!full) return;
  std::size_t count = 0;
  for (auto it = node.begin(); it != node.end(); ++it) ++count;
  if (room - free < 2 * count) throw std::logic_error("rollcall: a shape outgrew its count");
  std::size_t at = free;  // this mapping's entries; the ones below go after them
  free += 2 * count;
  shape.captured = true;
  shape.size = static_cast<std::uint32_t>(count);
  shape.first_entry = static_cast<std::int32_t>(at - slot);
  for (const auto& entry : node) {
    bool on_path = OnPath(entry.first, path, next);
    Capture(entry.first, path, path.size(), false, nodes, at, free, room);
    Capture(entry.second, path, on_path ? next + 1 : path.size(), on_path, nodes, at + 1, free,
            room);
    at += 2;
  }
}

}  // namespace

const NodeShape& CapturedShape::root() const {
  static const NodeShape kNone;
  return nodes_ ? nodes_[0] : kNone;
}

namespace {

// `node` and every node captured below it.
std::size_t CountNodes(const NodeShape& node) {
  std::size_t count = 1;
  for (ShapeEntry entry : node.entries())
    count += CountNodes(entry.first) + CountNodes(entry.second);
  return count;
}

}  // namespace

std::size_t CapturedShape::bytes() const {
  return nodes_ ? CountNodes(nodes_[0]) * sizeof(NodeShape) : 0;
}

CapturedShape CaptureShape(const YamlNode& node, const std::vector<std::string>& path) {
  // Exactly: the nodes find their entries by distance, so the array never grows.
  const std::size_t room = 1 + 2 * CountEntries(node, path, 0);
  auto nodes = std::make_unique<NodeShape[]>(room);
  std::size_t free = 1;
  Capture(node, path, 0, true, nodes.get(), 0, free, room);
  return CapturedShape(std::move(nodes));
}

std::optional<ShapeEntry> FindEntry(const NodeShape& map, const std::string& key) {
  std::optional<ShapeEntry> found;
  for (ShapeEntry entry : map.entries()) {
    if (entry.first.IsScalar() && entry.first.scalar == key) found.emplace(entry);
  }
  return found;
}

const NodeShape* FindValue(const NodeShape& map, const std::string& key) {
  std::optional<ShapeEntry> entry = FindEntry(map, key);
  return entry ? &entry->second : nullptr;
}

}  // namespace rollcall
