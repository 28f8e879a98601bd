// After `kubectl apply` and before any patch: the cluster holds each applied source
// with the content roll planned with, in every key a workload of the plan reads. The
// hash a patch writes is a claim about what its pods will read, so that content is
// read back from the API server rather than assumed from the manifest: kubectl keeps
// keys of an object it did not set, a webhook or a controller may rewrite what was
// applied, and another writer may have come between the plan and the apply.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rollcall/lookup.h"
#include "rollcall/roll/plan.h"
#include "rollcall/source.h"

namespace rollcall::roll {

// Of each source, the keys the workloads of a plan read: nullopt for every key (an
// envFrom, a volume). A source no workload reads is absent: no hash depends on it.
using KeysRead = std::map<SourceId, std::optional<std::set<std::string>>>;

// What the workloads of `plan` read of `sources`.
KeysRead KeysReadBy(const RollPlan& plan, const std::vector<Source>& sources);

// Looks up every source of `planned` that `read` names (the last definition of each
// counting, as kubectl applies a manifest in order) and throws InputError, at the
// first that differs, when one is absent or holds other bytes, or other keys, where
// its readers read: the keys are named, never a value. A key no workload reads may
// differ (kubectl keeps one an earlier writer set): no hash depends on it.
void ConfirmApplied(const std::vector<Source>& planned, const KeysRead& read,
                    const SourceLookup& lookup);

}  // namespace rollcall::roll
