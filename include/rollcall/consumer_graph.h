// Sources → consumers as a Graphviz picture (`rollcall consumers --format dot`): one
// node per Secret/ConfigMap and per workload, one edge per reference, coloured by how
// a change to the source reaches the process. A graph is what a reviewer looks at to
// see which readers still miss a rollout, faster than reading the lint lines.
#pragma once

#include <string>
#include <vector>

#include "rollcall/consumers.h"
#include "rollcall/model.h"

namespace rollcall {

// The DOT text for `uses` (in stream order). Sources that `model` does not hold (the
// input and --state never gave their content) are drawn dashed. Names only, never a
// value.
std::string ConsumerGraphDot(const std::vector<ConsumerUse>& uses, const Model& model);

}  // namespace rollcall
