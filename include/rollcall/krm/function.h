// `rollcall krm`: render as a KRM function. kpt (and kustomize with exec functions)
// sends a ResourceList on stdin; rollcall makes the edits render makes to its items,
// editing their bytes in place, and writes the ResourceList back with `results` for
// the findings. The pieces: krm/resource_list.h (the envelope), krm/item_stream.h
// (items to a stream and back), krm/function_config.h (options), krm/results.h and
// krm/field_path.h (the results).
#pragma once

#include <string>
#include <vector>

#include "rollcall/coverage.h"
#include "rollcall/finding.h"
#include "rollcall/input_error.h"
#include "rollcall/krm/resource_list.h"
#include "rollcall/render.h"
#include "rollcall/stream.h"

namespace rollcall {

struct KrmOutput {
  std::string resource_list;  // the ResourceList: items rendered, results appended
  // The findings, located where the items came from (their path annotations), or at
  // the ResourceList's own line when an item names no file.
  std::vector<Finding> findings;
  CoverageSummary summary;
  bool stopped = false;  // render would write nothing (--strict, immutable fields)
};

// Renders the items of `list` (parsed from `stream`) as render renders a stream.
// Throws InputError on a malformed item.
KrmOutput RenderResourceList(const Stream& stream, const ResourceList& list,
                             const RenderOptions& options, bool strict);

// The ResourceList as it came, with one error result saying why rollcall could not
// render it: what an orchestrator shows for an input error.
std::string ResourceListWithError(const Stream& stream, const ResourceList& list,
                                  const InputError& error);

}  // namespace rollcall
