#include "rollcall/roll/observe.h"

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "rollcall/printable.h"
#include "rollcall/shell_word.h"
#include "rollcall/template_hash.h"

namespace rollcall::roll {
namespace {

using Json = nlohmann::json;
using Path = std::initializer_list<const char*>;

// Text from the cluster (a name, a phase, status.message) is shown up to this many
// bytes, then cut with "…".
constexpr std::size_t kMaxShownBytes = 200;

// Where a workload's new pod template carries the config hash: a ReplicaSet's own
// template, and the template in the patch a ControllerRevision records.
constexpr Path kReplicaSetHash = {"spec", "template", "metadata", "annotations",
                                  kConfigHashAnnotation};
constexpr Path kRevisionHash = {"data",     "spec",        "template",
                                "metadata", "annotations", kConfigHashAnnotation};

Observation Waiting(std::string detail) { return {Progress::kWaiting, std::move(detail)}; }

// The value at `path` (object keys), or null when a step is not an object or lacks
// the key.
const Json* Find(const Json& node, Path path) {
  const Json* at = &node;
  for (const char* key : path) {
    if (!at->is_object()) return nullptr;
    auto found = at->find(key);
    if (found == at->end()) return nullptr;
    at = &*found;
  }
  return at;
}

// The string at `path`, or "" when there is none (or something else is there).
std::string StringAt(const Json& node, Path path) {
  const Json* value = Find(node, path);
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

// A JSON integer that fits an int64 (nlohmann reads "5" as unsigned); nullopt for
// any other value, floats and strings included.
std::optional<std::int64_t> Integer(const Json& value) {
  if (value.is_number_unsigned()) {
    const auto number = value.get<std::uint64_t>();
    if (number > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return std::nullopt;
    }
    return static_cast<std::int64_t>(number);
  }
  if (value.is_number_integer()) return value.get<std::int64_t>();
  return std::nullopt;
}

// A string of decimal digits as an int64 ("12"); nullopt for anything else.
std::optional<std::int64_t> Digits(std::string_view text) {
  std::int64_t number = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, number);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return number;
}

std::string Joined(Path path) {
  std::string joined;
  for (const char* key : path) joined += (joined.empty() ? "" : ".") + std::string(key);
  return joined;
}

// Reads the counts of one object (replicas, generations). The API server leaves a
// count out when it is 0, so absent (or null) reads as `absent`; any other value but
// a non-negative integer makes the object unreadable, which the caller reports
// as "not yet" rather than judge from a count it made up.
class Counts {
 public:
  explicit Counts(const Json& object) : object_(object) {}

  // `digits`: a string of digits counts too (an Argo Rollout's observedGeneration).
  std::int64_t Get(Path path, std::int64_t absent = 0, bool digits = false) {
    const Json* value = Find(object_, path);
    if (value == nullptr || value->is_null()) return absent;
    std::optional<std::int64_t> count = Integer(*value);
    if (!count && digits && value->is_string())
      count = Digits(value->get_ref<const std::string&>());
    if (count && *count >= 0) return *count;
    if (unreadable_.empty()) unreadable_ = Joined(path);
    return 0;
  }

  // "status.replicas is not a count" for the first field read that was not one;
  // nullopt when every one was.
  std::optional<Observation> Problem() const {
    if (unreadable_.empty()) return std::nullopt;
    return Waiting(unreadable_ + " is not a count");
  }

 private:
  const Json& object_;
  std::string unreadable_;
};

// "1 of 2 pods updated", "0 of 1 pod available", "1 of 2 updated pods available".
std::string Of(std::int64_t part, std::int64_t whole, const char* what,
               const char* adjective = "") {
  return std::to_string(part) + " of " + std::to_string(whole) + " " + adjective +
         (whole == 1 ? "pod " : "pods ") + what;
}

// A command for a person to run on the workload: its name and namespace as shell
// words.
std::string Command(const std::string& command, const Json& workload) {
  std::string line = command + ShellWord(Shown(StringAt(workload, {"metadata", "name"})));
  std::string name_space = StringAt(workload, {"metadata", "namespace"});
  if (!name_space.empty()) line += " -n " + ShellWord(Shown(name_space));
  return line;
}

// Waiting while the controller has not seen the patch: status.observedGeneration
// must reach the generation the patch returned, and the object's generation now
// when someone changed it since (as kubectl rollout status compares it).
std::optional<Observation> NotObserved(Counts& counts, std::int64_t generation,
                                       bool digits = false) {
  const std::int64_t wanted = std::max(generation, counts.Get({"metadata", "generation"}));
  const std::int64_t observed = counts.Get({"status", "observedGeneration"}, 0, digits);
  if (auto problem = counts.Problem()) return problem;
  if (observed >= wanted) return std::nullopt;
  return Waiting("generation " + std::to_string(wanted) + " not observed yet (observedGeneration " +
                 std::to_string(observed) + ")");
}

// A StatefulSet's or a DaemonSet's update strategy when it is not one that rolls.
std::optional<Observation> NotRollingUpdate(const Json& workload) {
  std::string type = StringAt(workload, {"spec", "updateStrategy", "type"});
  if (type == "OnDelete") {
    return Observation{Progress::kNotRolling,
                       "updateStrategy OnDelete: its pods take the new template only when deleted"};
  }
  if (!type.empty() && type != "RollingUpdate") {
    return Waiting("updateStrategy type is neither RollingUpdate nor OnDelete");
  }
  return std::nullopt;
}

// The items of the List `owned` with an ownerReference to `uid`.
std::vector<const Json*> OwnedBy(const Json& owned, const std::string& uid) {
  std::vector<const Json*> items;
  const Json* list = Find(owned, {"items"});
  if (uid.empty() || list == nullptr || !list->is_array()) return items;
  for (const Json& item : *list) {
    const Json* owners = Find(item, {"metadata", "ownerReferences"});
    if (owners == nullptr || !owners->is_array()) continue;
    if (std::any_of(owners->begin(), owners->end(),
                    [&](const Json& owner) { return StringAt(owner, {"uid"}) == uid; })) {
      items.push_back(&item);
    }
  }
  return items;
}

std::vector<const Json*> OwnedBy(const Json& owned, const Json& workload) {
  return OwnedBy(owned, StringAt(workload, {"metadata", "uid"}));
}

bool CarriesHash(const Json& item, Path where, const std::string& hash) {
  return !hash.empty() && StringAt(item, where) == hash;
}

// Which of a workload's ReplicaSets or ControllerRevisions is newer: a
// ControllerRevision's `revision`, the revision annotation of a Deployment's or a
// Rollout's ReplicaSet; -1 without one.
std::int64_t Revision(const Json& item) {
  const Json* revision = Find(item, {"revision"});
  if (revision != nullptr) return Integer(*revision).value_or(-1);
  for (const char* annotation :
       {"deployment.kubernetes.io/revision", "rollout.argoproj.io/revision"}) {
    std::optional<std::int64_t> number =
        Digits(StringAt(item, {"metadata", "annotations", annotation}));
    if (number) return *number;
  }
  return -1;
}

// The newest of `items` (the first of the newest), or null when there are none.
const Json* Newest(const std::vector<const Json*>& items) {
  const Json* newest = nullptr;
  for (const Json* item : items) {
    if (newest == nullptr || Revision(*item) > Revision(*newest)) newest = item;
  }
  return newest;
}

// The newest ReplicaSet of `workload` whose pod template carries `hash`.
const Json* NewReplicaSet(const Json& workload, const Json& owned, const std::string& hash) {
  std::vector<const Json*> items = OwnedBy(owned, workload);
  items.erase(
      std::remove_if(items.begin(), items.end(),
                     [&](const Json* item) { return !CarriesHash(*item, kReplicaSetHash, hash); }),
      items.end());
  return Newest(items);
}

std::string Named(const char* kind, const Json& item) {
  return std::string(kind) + " " + Shown(StringAt(item, {"metadata", "name"}));
}

bool ProgressDeadlineExceeded(const Json& deployment) {
  const Json* conditions = Find(deployment, {"status", "conditions"});
  if (conditions == nullptr || !conditions->is_array()) return false;
  return std::any_of(conditions->begin(), conditions->end(), [](const Json& condition) {
    return StringAt(condition, {"type"}) == "Progressing" &&
           StringAt(condition, {"reason"}) == "ProgressDeadlineExceeded";
  });
}

Observation ObserveDeployment(const Json& deployment, const Json& owned, std::int64_t generation,
                              const std::string& hash) {
  const Json* paused = Find(deployment, {"spec", "paused"});
  if (paused != nullptr && paused->is_boolean() && paused->get<bool>()) {
    return {
        Progress::kNotRolling,
        "paused: resume it (" + Command("kubectl rollout resume deployment/", deployment) + ")"};
  }
  Counts counts(deployment);
  if (auto waiting = NotObserved(counts, generation)) return *waiting;
  const std::int64_t replicas = counts.Get({"spec", "replicas"}, 1);
  const std::int64_t total = counts.Get({"status", "replicas"});
  const std::int64_t updated = counts.Get({"status", "updatedReplicas"});
  const std::int64_t available = counts.Get({"status", "availableReplicas"});
  if (auto problem = counts.Problem()) return *problem;
  if (ProgressDeadlineExceeded(deployment)) {
    return {Progress::kFailed, "exceeded its progress deadline"};
  }
  const Json* replica_set = NewReplicaSet(deployment, owned, hash);
  if (replica_set == nullptr) return Waiting("no ReplicaSet with the new config hash yet");
  if (updated < replicas) return Waiting(Of(updated, replicas, "updated"));
  if (total > updated) {
    const std::int64_t old = total - updated;
    return Waiting(std::to_string(old) + (old == 1 ? " old pod" : " old pods") +
                   " pending termination");
  }
  if (available < updated) return Waiting(Of(available, updated, "available", "updated "));
  return {Progress::kRolled,
          Named("ReplicaSet", *replica_set) + ": " + Of(available, updated, "available")};
}

Observation ObserveStatefulSet(const Json& set, const Json& owned, std::int64_t generation,
                               const std::string& hash) {
  if (auto refusal = NotRollingUpdate(set)) return *refusal;
  Counts counts(set);
  if (auto waiting = NotObserved(counts, generation)) return *waiting;
  const std::int64_t replicas = counts.Get({"spec", "replicas"}, 1);
  const std::int64_t ready = counts.Get({"status", "readyReplicas"});
  const std::int64_t updated = counts.Get({"status", "updatedReplicas"});
  const Path kPartition = {"spec", "updateStrategy", "rollingUpdate", "partition"};
  const Json* partition_value = Find(set, kPartition);
  const bool partitioned = partition_value != nullptr && !partition_value->is_null();
  const std::int64_t partition = counts.Get(kPartition);
  if (auto problem = counts.Problem()) return *problem;
  const std::string update_revision = StringAt(set, {"status", "updateRevision"});
  const Json* revision = nullptr;
  for (const Json* item : OwnedBy(owned, set)) {
    if (!update_revision.empty() && StringAt(*item, {"metadata", "name"}) == update_revision) {
      revision = item;
    }
  }
  if (revision == nullptr || !CarriesHash(*revision, kRevisionHash, hash)) {
    return Waiting("no ControllerRevision with the new config hash yet");
  }
  if (ready < replicas) return Waiting(Of(ready, replicas, "ready"));
  const std::string rolled = Named("ControllerRevision", *revision) + ": ";
  if (partitioned && partition > 0) {
    if (partition >= replicas) {
      return {Progress::kNotRolling, "partition " + std::to_string(partition) + " holds back all " +
                                         std::to_string(replicas) +
                                         " pods: none takes the new template until it is lowered"};
    }
    const std::int64_t wanted = replicas - partition;
    if (updated < wanted) {
      return Waiting(Of(updated, wanted, "updated") + " (partition " + std::to_string(partition) +
                     ")");
    }
    return {Progress::kRolled, rolled + Of(updated, replicas, "updated") + " (partition " +
                                   std::to_string(partition) +
                                   " keeps ordinals below it on the old template)"};
  }
  if (partitioned) {
    if (updated < replicas) return Waiting(Of(updated, replicas, "updated"));
  } else if (update_revision != StringAt(set, {"status", "currentRevision"})) {
    return Waiting(Of(updated, replicas, "at revision ") + Shown(update_revision));
  }
  return {Progress::kRolled, rolled + Of(updated, replicas, "updated")};
}

Observation ObserveDaemonSet(const Json& set, const Json& owned, std::int64_t generation,
                             const std::string& hash) {
  if (auto refusal = NotRollingUpdate(set)) return *refusal;
  Counts counts(set);
  if (auto waiting = NotObserved(counts, generation)) return *waiting;
  const std::int64_t desired = counts.Get({"status", "desiredNumberScheduled"});
  const std::int64_t updated = counts.Get({"status", "updatedNumberScheduled"});
  const std::int64_t available = counts.Get({"status", "numberAvailable"});
  if (auto problem = counts.Problem()) return *problem;
  const Json* revision = Newest(OwnedBy(owned, set));
  if (revision == nullptr || !CarriesHash(*revision, kRevisionHash, hash)) {
    return Waiting("no ControllerRevision with the new config hash yet");
  }
  if (updated < desired) return Waiting(Of(updated, desired, "updated"));
  if (available < desired) return Waiting(Of(available, desired, "available"));
  return {Progress::kRolled,
          Named("ControllerRevision", *revision) + ": " + Of(available, desired, "available")};
}

// An Argo Rollout (argoproj.io/v1alpha1), whose status.observedGeneration is a
// string of digits.
Observation ObserveRollout(const Json& rollout, const Json& owned, std::int64_t generation,
                           const std::string& hash) {
  Counts counts(rollout);
  if (auto waiting = NotObserved(counts, generation, /*digits=*/true)) return *waiting;
  const std::int64_t replicas = counts.Get({"spec", "replicas"}, 1);
  const std::int64_t updated = counts.Get({"status", "updatedReplicas"});
  const std::int64_t available = counts.Get({"status", "availableReplicas"});
  if (auto problem = counts.Problem()) return *problem;
  const std::string phase = StringAt(rollout, {"status", "phase"});
  const std::string message = StringAt(rollout, {"status", "message"});
  if (phase == "Degraded") {
    return {Progress::kFailed, "degraded" + (message.empty() ? "" : ": " + Shown(message))};
  }
  if (phase == "Paused") {
    return Waiting("paused: promote it (" + Command("kubectl argo rollouts promote ", rollout) +
                   ")");
  }
  const Json* replica_set = NewReplicaSet(rollout, owned, hash);
  if (replica_set == nullptr) return Waiting("no ReplicaSet with the new config hash yet");
  if (updated < replicas) return Waiting(Of(updated, replicas, "updated"));
  if (available < replicas) return Waiting(Of(available, replicas, "available"));
  if (phase != "Healthy") {
    if (phase.empty()) return Waiting("no phase yet");
    return Waiting("phase " + Shown(phase) + (message.empty() ? "" : ": " + Shown(message)));
  }
  return {Progress::kRolled,
          Named("ReplicaSet", *replica_set) + ": " + Of(available, replicas, "available")};
}

}  // namespace

std::string Shown(std::string_view text) {
  if (text.size() <= kMaxShownBytes) return Printable(text);
  std::size_t cut = kMaxShownBytes;
  while (cut > kMaxShownBytes - 3 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return Printable(text.substr(0, cut)) + "…";
}

std::int64_t GenerationOf(const nlohmann::json& object) {
  const Json* generation = Find(object, {"metadata", "generation"});
  std::optional<std::int64_t> count = generation ? Integer(*generation) : std::nullopt;
  return count && *count > 0 ? *count : 0;
}

const char* OwnedListKind(const std::string& kind) {
  if (kind == "Deployment" || kind == "Rollout") return "replicasets";
  if (kind == "StatefulSet" || kind == "DaemonSet") return "controllerrevisions";
  return "";
}

Observation Observe(const std::string& kind, const nlohmann::json& workload,
                    const nlohmann::json& owned, std::int64_t generation, const std::string& hash) {
  using Judge = Observation (*)(const Json&, const Json&, std::int64_t, const std::string&);
  Judge judge = nullptr;
  if (kind == "Deployment") judge = ObserveDeployment;
  if (kind == "StatefulSet") judge = ObserveStatefulSet;
  if (kind == "DaemonSet") judge = ObserveDaemonSet;
  if (kind == "Rollout") judge = ObserveRollout;
  if (judge == nullptr) {
    return {Progress::kNotRolling, "rollcall cannot observe kind " + Shown(kind) +
                                       ": it observes Deployments, StatefulSets, DaemonSets and "
                                       "Argo Rollouts"};
  }
  if (!workload.is_object()) return Waiting("kubectl printed no " + Shown(kind) + " object");
  return judge(workload, owned, generation, hash);
}

}  // namespace rollcall::roll
