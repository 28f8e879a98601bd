#include "rollcall/aliases.h"

#include <utility>
#include <vector>

namespace rollcall {

std::optional<AliasProblem> FindExcessiveAliasing(std::string_view text, const YamlNode& root,
                                                  std::size_t max_depth) {
  if (text.find('&') == std::string_view::npos || text.find('*') == std::string_view::npos) {
    return std::nullopt;
  }
  // Every node written out takes at least one byte of text; past that, the walk
  // is expanding aliases.
  const std::size_t max_nodes = text.size() + kMaxAliasExpansion;
  std::size_t visited = 0;
  std::vector<std::pair<YamlNode, std::size_t>> stack = {{root, 1}};  // node, depth
  while (!stack.empty()) {
    auto [node, depth] = std::move(stack.back());
    stack.pop_back();
    if (++visited > max_nodes) {
      return AliasProblem{node.Mark(),
                          "invalid YAML: aliases expand this document to more than " +
                              std::to_string(max_nodes) +
                              " nodes; Kubernetes refuses such excessive aliasing too"};
    }
    if (depth > max_depth) {
      return AliasProblem{node.Mark(), "invalid YAML: aliases nest deeper than " +
                                           std::to_string(max_depth) +
                                           " levels once expanded (or an alias contains itself)"};
    }
    if (node.IsSequence()) {
      for (const auto& item : node) stack.emplace_back(item, depth + 1);
    } else if (node.IsMap()) {
      for (const auto& entry : node) {
        stack.emplace_back(entry.first, depth + 1);
        stack.emplace_back(entry.second, depth + 1);
      }
    }
  }
  return std::nullopt;
}

}  // namespace rollcall
