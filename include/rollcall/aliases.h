// YAML aliases that expand too far. The tree shares an aliased node instead of
// copying it (yaml_tree.h), so a "billion laughs" document parses quickly into a small graph;
// but everything that walks the tree (the rules, the Job template digest, the
// comparison with the previous release) would expand it, exponentially. Checked
// once, right after parsing, so that no later stage can meet such a document.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "rollcall/yaml_tree.h"

namespace rollcall {

struct AliasProblem {
  YamlMark mark;  // the alias that went too far
  std::string message;
};

// Walks `root` as a reader that expands aliases would, and stops at the first of:
//  - what go-yaml v2's decoder refuses as "excessive aliasing": over 1,000 nodes
//    decoded, more than 100 of them in alias expansions, at a ratio past 99% (less
//    for documents past 400,000 nodes), counted in its order;
//  - more nodes walked inside expansions than `allowed`: what is left of the
//    stream's kMaxAliasExpansion (alias_budget.h), a billion laughs;
//  - aliases that nest deeper than `max_depth` once expanded (or refer to
//    themselves), which every recursive walker would otherwise follow.
// `text` is the document's text: without both '&' and '*' there is no alias
// (MayHoldAliases), and the walk is skipped. `expanded`, when given, gets the nodes
// walked inside expansions.
inline constexpr std::size_t kMaxAliasExpansion = 1'000'000;
std::optional<AliasProblem> FindExcessiveAliasing(std::string_view text, const YamlNode& root,
                                                  std::size_t max_depth,
                                                  std::size_t allowed = kMaxAliasExpansion,
                                                  std::size_t* expanded = nullptr);

bool MayHoldAliases(std::string_view text);

}  // namespace rollcall
