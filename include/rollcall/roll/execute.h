// Carrying out a plan: patch every workload it rolls, then look at each until it is
// seen rolled, cannot get there by itself, or the time is up. What each ended as is
// what the cluster showed (observe.h), never kubectl's exit status alone.
#pragma once

#include <vector>

#include "rollcall/roll/kubectl.h"
#include "rollcall/roll/plan.h"
#include "rollcall/roll/report.h"

namespace rollcall::roll {

struct Timing {
  double timeout_seconds = 300;  // --timeout: how long to wait for the rollouts, in all
  double interval_seconds = 2;   // --interval: between two looks
};

// One result per workload of `plan`, in its order: a failed patch is not-rolled with
// kubectl's words; a patched workload is rolled, not-rolled (a progress deadline,
// OnDelete) or timed-out with what was seen last. A workload to roll is patched even
// when the one before it failed: each is the repair of its own readers.
std::vector<WorkloadResult> Execute(const RollPlan& plan, const Kubectl& kubectl,
                                    const Timing& timing);

}  // namespace rollcall::roll
