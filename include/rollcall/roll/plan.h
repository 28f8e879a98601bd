// What `rollcall roll` will do: for every workload that reads a changed Secret or
// ConfigMap, whether a key it reads changed, and if so the patch that writes on its
// pod template the rollcall.dev/config-hash and config-sources render would write for
// the new content. Decided per workload from the keys it reads, never from the source
// as a whole, and computed without the cluster (the plan of --dry-run).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rollcall/model.h"
#include "rollcall/template_hash.h"

namespace rollcall::roll {

// What to do with one workload.
enum class Action : std::uint8_t {
  kRoll,       // patch its pod template; its controller replaces its pods
  kUnchanged,  // no key it reads changed, or it already carries the new hash
  kNotRolled,  // it reads a changed key but cannot roll (a Job, a bare Pod): the reason says what
               // to do
  kNextRun,    // a CronJob: nothing runs now; its next Job reads the new content
};
const char* ActionName(Action action);  // "roll", "unchanged", "not-rolled", "next-run"

// A changed source and, when rollcall has both contents, which keys differ (a key
// added or removed counts). Only names: never a value.
struct ChangedSource {
  SourceId id;
  std::optional<std::set<std::string>> changed_keys;  // nullopt: the old content is unknown
};

struct WorkloadPlan {
  const Consumer* consumer = nullptr;
  Action action = Action::kUnchanged;
  std::string reason;
  // The changed sources it reads: "secret/shared-db[password]".
  std::vector<std::string> reads;
  // Of the keys it reads, those that changed: "secret/shared-db: password"; empty
  // when none did or when that is unknown (`changed_known` false).
  std::vector<std::string> changed;
  bool changed_known = true;
  std::string hash_before;                 // the config hash on its template now, or ""
  std::optional<TemplateHash> hash_after;  // for the new content
  std::string patch;                       // kRoll: the patch, JSON
  std::string patch_type;                  // kRoll: "strategic" or "merge" (custom resources)
};

struct RollPlan {
  std::vector<ChangedSource> changed;
  std::vector<WorkloadPlan> workloads;  // in the cluster view's order
};

struct PlanRequest {
  // The cluster before the change: its workloads and the sources it holds.
  const Model* cluster = nullptr;
  // The sources its readers of changed sources read that `cluster` does not hold,
  // fetched for the plan (SourcesToLookUp).
  std::vector<Source> looked_up;
  // New contents of changed sources (a manifest about to be applied, or applied).
  std::vector<Source> new_sources;
  // Sources named as changed in the cluster already: the cluster holds their new
  // content, and the old one is unknown.
  std::vector<SourceId> named;
  // Consumers the plan leaves out: Pods a controller owns (their controller is the
  // reader), and Jobs that finished (no process holds the old content).
  std::set<const Consumer*> skipped;
  std::optional<std::string> hmac_key;
};

// Throws InputError when a workload carries a config hash of the other kind than
// the one rollcall would compute (an HMAC one without --hmac-key-file, or the
// reverse): rolling every such workload would be a mistake, not a repair.
RollPlan PlanRoll(const PlanRequest& request);

// The keys of `read` (every key of either content when it reads them all) whose
// bytes differ between `before` and `after`; a key on one side only differs.
std::set<std::string> ChangedKeys(const std::optional<std::set<std::string>>& read,
                                  const SourceEntries& before, const SourceEntries& after);

// The sources that the readers of `changed` read and `cluster` does not hold: what
// must be looked up so that their hashes can be computed, and nothing more (no
// Secret of a workload that reads no changed source is fetched).
std::vector<SourceId> SourcesToLookUp(const Model& cluster,
                                      const std::set<const Consumer*>& skipped,
                                      const std::set<SourceId>& changed);

// Every source of `kind` called `name` that `cluster` holds or one of its workloads
// reads, whatever its namespace: `roll --all-namespaces secret/NAME`, for a Secret a
// controller copies into every namespace.
std::vector<SourceId> NamedInEveryNamespace(const Model& cluster, SourceKind kind,
                                            const std::string& name);

// The patch that writes `hash` on the pod template of a workload of `kind`:
// {"spec":{"template":{"metadata":{"annotations":{…}}}}}, with the CronJob's
// jobTemplate level when there is one.
std::string AnnotationPatch(const Consumer& consumer, const TemplateHash& hash);

}  // namespace rollcall::roll
