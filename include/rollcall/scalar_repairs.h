// Where yaml-cpp 0.7 reads a scalar differently from go-yaml v2 (which Helm, kubectl
// and the API server use), repaired in the tree right after the parse, so that every
// reader of a value (the hash, references, keys) gets what Kubernetes gets:
//  - the escapes \N and \_ in double-quoted scalars: yaml-cpp writes the single
//    bytes 0x85 and 0xA0, which are not UTF-8; go-yaml U+0085 and U+00A0;
//  - folded scalars with keep chomping (">+"): yaml-cpp drops the trailing empty
//    lines that keep chomping keeps, so "x\n" and "x\n\n" hashed the same.
// A document's last line without a line break is another such place; Parse hands
// yaml-cpp the text with the line break kubectl's stream reader adds. docs/yaml.md
// has each case.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string_view>

namespace rollcall {

// True when `text` may hold what RepairScalars repairs: an escape \N or \_, or a
// folded block scalar header with keep chomping. Without it the walk is skipped.
bool MayNeedScalarRepairs(std::string_view text);

// Repairs every scalar of `root` (keys included) parsed from `text`. Aliased nodes
// may be met more than once: each repair gives the same result again. The tree must
// have passed FindExcessiveAliasing (aliases.h), which bounds the walk.
void RepairScalars(std::string_view text, YAML::Node& root);

}  // namespace rollcall
