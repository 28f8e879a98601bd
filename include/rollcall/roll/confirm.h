// After `kubectl apply` and before any patch: the cluster holds each source roll
// planned with, with the content it planned with. The hash a patch writes on a pod
// template is a claim about what its pods will read, so that content is read back
// from the API server rather than assumed from the manifest: kubectl keeps keys of an
// object it did not set, a webhook or a controller may rewrite what was applied, and
// another writer may have come between the plan and the apply.
#pragma once

#include <vector>

#include "rollcall/lookup.h"
#include "rollcall/source.h"

namespace rollcall::roll {

// Looks up every source of `planned` (a manifest's, the last of each id counting, as
// kubectl applies them in order) and throws InputError, at the first that differs,
// when any is absent or holds other bytes under a key, or other keys: the keys are
// named, never a value.
void ConfirmApplied(const std::vector<Source>& planned, const SourceLookup& lookup);

}  // namespace rollcall::roll
