#include "rollcall/krm/field_path.h"

#include <string_view>

namespace rollcall {
namespace {

// Aliases can make a tree a graph; a bound keeps the walk finite.
constexpr std::size_t kMaxDepth = 256;

bool StartsAt(const YamlNode& node, std::size_t line, std::size_t column) {
  const YamlMark mark = node.Mark();
  return mark.line >= 0 && static_cast<std::size_t>(mark.line) == line &&
         static_cast<std::size_t>(mark.column) == column;
}

// True when `a` starts after the position.
bool After(const YamlNode& node, std::size_t line, std::size_t column) {
  const YamlMark mark = node.Mark();
  if (mark.line < 0) return false;
  auto mark_line = static_cast<std::size_t>(mark.line);
  return mark_line > line || (mark_line == line && static_cast<std::size_t>(mark.column) > column);
}

// "spec.template", or ["rollcall.dev/ignore"] for a key a dot would split.
std::string Join(const std::string& path, const std::string& key) {
  if (key.find_first_of(".[]\"") != std::string::npos) return path + "[\"" + key + "\"]";
  return path.empty() ? key : path + "." + key;
}

bool Find(const YamlNode& node, std::size_t line, std::size_t column, std::size_t depth,
          std::string& path) {
  if (StartsAt(node, line, column)) return true;
  if (depth >= kMaxDepth) return false;
  if (node.IsMap()) {
    for (const auto& entry : node) {
      if (After(entry.first, line, column)) break;
      std::string sub = Join(path, std::string(entry.first.Scalar()));
      if (StartsAt(entry.first, line, column) || Find(entry.second, line, column, depth + 1, sub)) {
        path = std::move(sub);
        return true;
      }
    }
  } else if (node.IsSequence()) {
    std::size_t i = 0;
    for (const YamlNode& item : node) {
      if (After(item, line, column)) break;
      std::string sub = path + "[" + std::to_string(i++) + "]";
      if (Find(item, line, column, depth + 1, sub)) {
        path = std::move(sub);
        return true;
      }
    }
  }
  return false;
}

}  // namespace

std::string FieldPathAt(const YamlNode& root, std::size_t line, std::size_t column) {
  std::string path;
  if (StartsAt(root, line, column)) return "";
  return Find(root, line, column, 0, path) ? path : "";
}

}  // namespace rollcall
