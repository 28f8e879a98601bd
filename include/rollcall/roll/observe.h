// Whether a workload rolled, judged from what the cluster says about it after
// `rollcall roll` patched its pod template: not from kubectl's exit status, but from
// a new ReplicaSet (or ControllerRevision) that carries the new config hash and pods
// of it that became available. Pure functions over `kubectl get -o json` output, so
// that recorded API responses test them.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace rollcall::roll {

enum class Progress : std::uint8_t {
  kRolled,      // observed: the new template's pods are up (or the workload has none)
  kWaiting,     // not yet: the controller is still at work
  kFailed,      // it will not get there by itself (a progress deadline exceeded)
  kNotRolling,  // it waits for someone: to delete its pods (updateStrategy OnDelete), to
                // resume it (a paused Deployment), to lower a StatefulSet's partition that
                // holds back every pod; or a kind rollcall cannot observe
};

struct Observation {
  Progress progress = Progress::kWaiting;
  // What was seen, for the report: "ReplicaSet api-7d9f8c: 2 of 2 pods available",
  // "1 of 3 pods updated", "exceeded its progress deadline", "updateStrategy OnDelete: …".
  // Names and counts from the cluster, never a value of a Secret; text from the cluster
  // (names, an Argo Rollout's status.message) Printable (printable.h) and cut at 200
  // bytes.
  std::string detail;
};

// What else must be listed in the workload's namespace to judge it: "replicasets"
// for a Deployment and an Argo Rollout, "controllerrevisions" for a StatefulSet and a
// DaemonSet; "" for other kinds.
const char* OwnedListKind(const std::string& kind);

// Judges one workload of `kind` (Deployment, StatefulSet, DaemonSet, Rollout).
// `workload`: the object as `kubectl get -o json` prints it now. `owned`: the List
// `kubectl get -o json <OwnedListKind>` printed for its namespace (objects owned by
// other workloads are among them; only those whose ownerReferences name this
// workload's uid count). `generation`: the metadata.generation the patch returned,
// which status.observedGeneration must reach (and the workload's metadata.generation
// now, when someone changed it since, as `kubectl rollout status` waits). `hash`:
// the rollcall.dev/config-hash the patch wrote, which the new ReplicaSet's or
// ControllerRevision's pod template must carry. Malformed or missing fields (the JSON
// comes from a cluster rollcall does not trust) read as "not yet", never as a crash
// or a throw.
Observation Observe(const std::string& kind, const nlohmann::json& workload,
                    const nlohmann::json& owned, std::int64_t generation, const std::string& hash);

// `text` from the cluster or from kubectl, for a line of the report: Printable, and
// at most 200 bytes of it (cut where a UTF-8 character begins, then "…").
std::string Shown(std::string_view text);

// The metadata.generation of an object as `kubectl … -o json` printed it (what a
// patch returns); 0 when it has none that reads as a count.
std::int64_t GenerationOf(const nlohmann::json& object);

}  // namespace rollcall::roll
