// Sources → consumers as a Graphviz picture (`rollcall consumers --format dot`): one
// node per Secret/ConfigMap and per workload, one edge per reference, coloured by how
// a change to the source reaches the process, and drawn thick in red or orange where
// lint has an error or a warning about it. A graph is what a reviewer looks at to see
// which readers still miss a rollout, faster than reading the lint lines.
#pragma once

#include <string>
#include <vector>

#include "rollcall/consumers.h"
#include "rollcall/finding.h"
#include "rollcall/model.h"

namespace rollcall {

// The DOT text for `uses` (in stream order). Sources that `model` does not hold (the
// input, --state and --lookup never gave their content) are drawn dashed.
// `findings` are the rules' findings as RunRules (lint.h) gives them: one at warning
// or error marks the edge whose consumer and reference it names (Finding::object and
// ::reference), or, naming no reference, the consumer or source node it is about;
// the graph works none out itself. Names and finding messages only, never a value.
std::string ConsumerGraphDot(const std::vector<ConsumerUse>& uses, const Model& model,
                             const std::vector<Finding>& findings);

}  // namespace rollcall
