#include "rollcall/roll/execute.h"

#include <chrono>
#include <map>
#include <thread>
#include <utility>

#include "rollcall/input_error.h"
#include "rollcall/roll/observe.h"

namespace rollcall::roll {
namespace {

// The resource kubectl names a workload of `kind` by.
const char* ResourceOf(const std::string& kind) {
  if (kind == "Deployment") return "deployments.apps";
  if (kind == "StatefulSet") return "statefulsets.apps";
  if (kind == "DaemonSet") return "daemonsets.apps";
  if (kind == "Rollout") return kRolloutResource;
  return "";
}

// The ReplicaSets or ControllerRevisions of a namespace, listed once per look.
using OwnedLists = std::map<std::pair<std::string, std::string>, nlohmann::json>;

// What the cluster shows of `consumer` now.
Observation LookAt(const Consumer& consumer, std::int64_t generation, const std::string& hash,
                   const Kubectl& kubectl, OwnedLists& owned) {
  const std::string& kind = consumer.kind().str();
  const std::string& name_space = consumer.name_space.str();
  try {
    nlohmann::json workload = kubectl.Get(ResourceOf(kind), name_space, consumer.name().str());
    nlohmann::json list;
    if (std::string owned_kind = OwnedListKind(kind); !owned_kind.empty()) {
      auto [cached, added] = owned.try_emplace({name_space, owned_kind + ".apps"});
      if (added) cached->second = kubectl.Get(owned_kind + ".apps", name_space);
      list = cached->second;
    }
    return Observe(kind, workload, list, generation, hash);
  } catch (const InputError& e) {
    // Looked at again next time; what kubectl said shows if it was the last look.
    return {Progress::kWaiting, Shown(e.what())};
  }
}

struct Watch {
  std::size_t result;       // its index in the results
  std::int64_t generation;  // what the patch returned
};

// Patches each workload the plan rolls; the others' results say what the plan said.
std::vector<WorkloadResult> Patch(const RollPlan& plan, const Kubectl& kubectl,
                                  std::vector<Watch>& watches) {
  std::vector<WorkloadResult> results;
  for (const WorkloadPlan& item : plan.workloads) {
    WorkloadResult result{&item, Outcome::kUnchanged, ""};
    if (item.action == Action::kNotRolled) result.outcome = Outcome::kNotRolled;
    if (item.action == Action::kNextRun) result.outcome = Outcome::kNextRun;
    if (item.action == Action::kRoll) {
      const Consumer& consumer = *item.consumer;
      try {
        nlohmann::json patched =
            kubectl.Patch(ResourceOf(consumer.kind().str()), consumer.name_space.str(),
                          consumer.name().str(), item.patch, item.patch_type);
        watches.push_back({results.size(), GenerationOf(patched)});
        result.outcome = Outcome::kTimedOut;
        result.observed = "patched; not observed yet";
      } catch (const InputError& e) {
        result.outcome = Outcome::kNotRolled;
        result.observed = Shown(e.what());
      }
    }
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace

std::vector<WorkloadResult> Execute(const RollPlan& plan, const Kubectl& kubectl,
                                    const Timing& timing) {
  std::vector<Watch> watches;
  std::vector<WorkloadResult> results = Patch(plan, kubectl, watches);
  auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::milliseconds(static_cast<std::int64_t>(timing.timeout_seconds * 1000));
  while (!watches.empty()) {
    OwnedLists owned;
    std::vector<Watch> waiting;
    for (const Watch& watch : watches) {
      WorkloadResult& result = results[watch.result];
      Observation seen = LookAt(*result.plan->consumer, watch.generation,
                                result.plan->hash_after->hash, kubectl, owned);
      result.observed = seen.detail;
      if (seen.progress == Progress::kRolled) {
        result.outcome = Outcome::kRolled;
      } else if (seen.progress == Progress::kWaiting) {
        waiting.push_back(watch);  // still kTimedOut, unless a later look says more
      } else {
        result.outcome = Outcome::kNotRolled;  // failed, or waits for a person (OnDelete)
      }
    }
    watches = std::move(waiting);
    if (watches.empty() || std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(
        std::chrono::milliseconds(static_cast<std::int64_t>(timing.interval_seconds * 1000)));
  }
  return results;
}

}  // namespace rollcall::roll
