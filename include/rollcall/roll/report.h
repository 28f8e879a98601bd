// What `rollcall roll` says: the plan (--dry-run) or, after the run, each workload's
// outcome as observed, in text or JSON. Names, keys and hashes; never a value.
#pragma once

#include <string>
#include <vector>

#include "rollcall/roll/plan.h"

namespace rollcall::roll {

// How a workload ended.
enum class Outcome : std::uint8_t {
  kPlanned,    // --dry-run: nothing was done (the action says what would be)
  kRolled,     // patched, and a new ReplicaSet/revision carrying the hash became available
  kUnchanged,  // not touched: no key it reads changed
  kNotRolled,  // it reads a changed key and still runs the old content: the detail says why
  kTimedOut,   // patched, and not observed rolled within --timeout
  kNextRun,    // a CronJob: its next Job reads the new content
};
const char* OutcomeName(Outcome outcome);  // "rolled", "unchanged", …

struct WorkloadResult {
  const WorkloadPlan* plan = nullptr;
  Outcome outcome = Outcome::kPlanned;
  std::string observed;  // what the cluster showed last ("ReplicaSet api-7d9f: 2 of 2 …")
};

// Whether every workload that had to roll was observed rolled: the exit status.
bool AllReached(const std::vector<WorkloadResult>& results);

// Text: the changed sources, then one block a workload ("rolled  deployment/ns/api"),
// then a count of each outcome. `plan_only`: the patches are shown.
std::string ReportText(const RollPlan& plan, const std::vector<WorkloadResult>& results,
                       bool plan_only);
std::string ReportJson(const RollPlan& plan, const std::vector<WorkloadResult>& results,
                       bool plan_only);

}  // namespace rollcall::roll
