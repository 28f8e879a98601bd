// The cluster as `rollcall roll` sees it before the change: its workloads and the
// Secrets and ConfigMaps they read, from `kubectl get -o yaml` output or from state
// files of the same shape (--state, a dry run without a cluster). Read with the same
// analysis as render and lint, so a workload reads a source here exactly when render
// would hash it.
#pragma once

#include <memory>
#include <set>
#include <vector>

#include "rollcall/analysis.h"
#include "rollcall/stream.h"

namespace rollcall::roll {

struct ClusterView {
  std::vector<std::unique_ptr<Stream>> streams;  // back the analysis's documents
  std::unique_ptr<Analysis> analysis;
  // Readers that are not the ones to roll: Pods a controller owns (the controller
  // is listed itself) and Jobs that finished (nothing of theirs runs any more).
  std::set<const Consumer*> skipped;
};

// Parses `streams` (throws InputError naming the stream and line) and analyses them
// with `options` (its lookup fetches the sources they read but do not hold).
ClusterView ReadClusterView(std::vector<std::unique_ptr<Stream>> streams, AnalysisOptions options,
                            const Limits& limits);

}  // namespace rollcall::roll
