// The field path KRM results name ("spec.template.spec.containers[0].env[2]"), for
// a position that rollcall's findings point at.
#pragma once

#include <cstddef>
#include <string>

#include "rollcall/yaml_tree.h"

namespace rollcall {

// The path from `root` to the node (or mapping key) that starts exactly at 0-based
// `line` and `column` of the text `root` was parsed from; "" when none does (a
// finding on a comment, or on the object as a whole).
std::string FieldPathAt(const YamlNode& root, std::size_t line, std::size_t column);

}  // namespace rollcall
