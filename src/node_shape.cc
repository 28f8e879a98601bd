#include "rollcall/node_shape.h"

namespace rollcall {
namespace {

NodeShape::Type TypeOf(const YAML::Node& node) {
  if (!node.IsDefined()) return NodeShape::Type::kUndefined;
  if (node.IsNull()) return NodeShape::Type::kNull;
  if (node.IsScalar()) return NodeShape::Type::kScalar;
  if (node.IsSequence()) return NodeShape::Type::kSequence;
  return NodeShape::Type::kMap;
}

// `path` from `next` on: what is left of it below this node; `full` when the node
// is on the path (its entries are captured), else only its first key's column is.
NodeShape Capture(const YAML::Node& node, const std::vector<std::string>& path, std::size_t next,
                  bool full) {
  NodeShape shape;
  shape.type = TypeOf(node);
  if (!node.IsDefined()) return shape;
  YAML::Mark mark = node.Mark();
  shape.pos = static_cast<std::uint32_t>(MarkPos(mark));
  shape.column = mark.column < 0 ? 0 : static_cast<std::uint32_t>(mark.column);
  if (node.IsScalar()) shape.scalar = node.Scalar();
  if (node.IsSequence() || node.IsMap()) shape.size = static_cast<std::uint32_t>(node.size());
  if (!node.IsMap()) return shape;
  bool first = true;
  for (const auto& entry : node) {
    if (first) {
      int column = entry.first.Mark().column;
      shape.first_key_column = column < 0 ? 0 : static_cast<std::uint32_t>(column);
      first = false;
    }
    if (!full) break;
    NodeShape key = Capture(entry.first, path, path.size(), false);
    bool on_path = next < path.size() && key.IsScalar() && key.scalar == path[next];
    NodeShape value = Capture(entry.second, path, on_path ? next + 1 : path.size(), on_path);
    shape.entries.emplace_back(std::move(key), std::move(value));
  }
  shape.entries.shrink_to_fit();  // kept for the whole run, for every consumer
  return shape;
}

}  // namespace

NodeShape CaptureShape(const YAML::Node& node, const std::vector<std::string>& path) {
  return Capture(node, path, 0, true);
}

const std::pair<NodeShape, NodeShape>* FindEntry(const NodeShape& map, const std::string& key) {
  const std::pair<NodeShape, NodeShape>* found = nullptr;
  for (const auto& entry : map.entries) {
    if (entry.first.IsScalar() && entry.first.scalar == key) found = &entry;
  }
  return found;
}

const NodeShape* FindValue(const NodeShape& map, const std::string& key) {
  const std::pair<NodeShape, NodeShape>* entry = FindEntry(map, key);
  return entry != nullptr ? &entry->second : nullptr;
}

}  // namespace rollcall
