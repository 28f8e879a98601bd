// Whether a workload rolled, judged from recorded `kubectl get -o json` output
// (testdata/roll/observed/, one file per response): each kind through a rollout as
// its controller goes through one, the rollouts that end otherwise, the objects that
// must not count, and cluster output no controller writes.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "rollcall/roll/observe.h"
#include "test_support.h"

namespace rollcall::roll {
namespace {

using Json = nlohmann::json;

// The config hash `rollcall roll` patched in, and the one the pods had before.
const std::string kNew = "sha256:50ed290cbbebd436fa79672fdb75d8e4015d784c2f811352560b0efba2f3b4fd";
const std::string kOld = "sha256:529898f825c6b974ae19d4e03d6d3ea82b31c0819e0afee3c2518f264b4e6521";

Json Recorded(const std::string& name) {
  return Json::parse(testing::ReadFile(testing::TestdataPath("roll/observed/" + name + ".json")));
}

const char* ProgressName(Progress progress) {
  switch (progress) {
    case Progress::kRolled:
      return "rolled";
    case Progress::kWaiting:
      return "waiting";
    case Progress::kFailed:
      return "failed";
    case Progress::kNotRolling:
      return "not rolling";
  }
  return "?";
}

// The generation each recorded patch returned.
std::int64_t PatchedGeneration(const std::string& kind) {
  if (kind == "Deployment") return 4;   // api
  if (kind == "StatefulSet") return 3;  // db
  if (kind == "DaemonSet") return 2;    // node-agent
  if (kind == "Rollout") return 7;      // checkout
  return 1;
}

// "rolled: ReplicaSet api-7d9f8c6b5: 2 of 2 pods available"
std::string Seen(const std::string& kind, const Json& workload, const Json& owned,
                 const std::string& hash = kNew) {
  Observation observation = Observe(kind, workload, owned, PatchedGeneration(kind), hash);
  return std::string(ProgressName(observation.progress)) + ": " + observation.detail;
}

// What Observe sees in two recorded responses.
std::string Replay(const std::string& kind, const std::string& workload, const std::string& owned) {
  return Seen(kind, Recorded(workload), Recorded(owned));
}

// One recorded moment of a rollout: the workload, what it owned, what Observe says.
struct Moment {
  const char* workload;
  const char* owned;
  const char* seen;
};

// A rollout replayed as its controller went through it, moment by moment.
void ExpectReplay(const std::string& kind, const std::vector<Moment>& moments) {
  for (const Moment& moment : moments) {
    EXPECT_EQ(Replay(kind, moment.workload, moment.owned), moment.seen)
        << moment.workload << " with " << moment.owned;
  }
}

TEST(ObserveDeployment, RollsAsTheControllerGoes) {
  ExpectReplay(
      "Deployment",
      {
          {"deployment-patched", "replicasets-before",
           "waiting: generation 4 not observed yet (observedGeneration 3)"},
          {"deployment-new-replicaset", "replicasets-before",
           "waiting: no ReplicaSet with the new config hash yet"},
          {"deployment-new-replicaset", "replicasets-new-empty", "waiting: 0 of 2 pods updated"},
          {"deployment-one-updated", "replicasets-rolling", "waiting: 1 of 2 pods updated"},
          {"deployment-old-terminating", "replicasets-rolling",
           "waiting: 1 old pod pending termination"},
          {"deployment-becoming-available", "replicasets-rolled",
           "waiting: 1 of 2 updated pods available"},
          {"deployment-rolled", "replicasets-rolled",
           "rolled: ReplicaSet api-7d9f8c6b5: 2 of 2 pods available"},
      });
}

TEST(ObserveDeployment, CountsAreNotEnoughWithoutTheNewHash) {
  // Every pod updated and available, but no ReplicaSet of api's carries the hash
  // the patch wrote: the old one has the old hash, web's has the new one.
  EXPECT_EQ(Replay("Deployment", "deployment-rolled", "replicasets-before"),
            "waiting: no ReplicaSet with the new config hash yet");
  EXPECT_EQ(Replay("Deployment", "deployment-rolled", "replicasets-other-owner"),
            "waiting: no ReplicaSet with the new config hash yet");
  // The hash of the patch before, which the old ReplicaSet carries, is not this one.
  EXPECT_EQ(Seen("Deployment", Recorded("deployment-rolled"), Recorded("replicasets-before"), kOld),
            "rolled: ReplicaSet api-6d5f9c7b8: 2 of 2 pods available");
  EXPECT_EQ(Seen("Deployment", Recorded("deployment-rolled"), Recorded("replicasets-rolled"), ""),
            "waiting: no ReplicaSet with the new config hash yet");
}

TEST(ObserveDeployment, ProgressDeadlineExceededFails) {
  EXPECT_EQ(Replay("Deployment", "deployment-deadline", "replicasets-rolling"),
            "failed: exceeded its progress deadline");
}

TEST(ObserveDeployment, PausedDoesNotRoll) {
  Json paused = Recorded("deployment-new-replicaset");
  paused["spec"]["paused"] = true;
  EXPECT_EQ(Seen("Deployment", paused, Recorded("replicasets-before")),
            "not rolling: paused: resume it (kubectl rollout resume deployment/api -n shop)");
}

TEST(ObserveDeployment, ScaledToZeroRollsOnceItsReplicaSetExists) {
  EXPECT_EQ(Replay("Deployment", "deployment-scaled-to-zero", "replicasets-before"),
            "waiting: no ReplicaSet with the new config hash yet");
  EXPECT_EQ(Replay("Deployment", "deployment-scaled-to-zero", "replicasets-scaled-to-zero"),
            "rolled: ReplicaSet api-7d9f8c6b5: 0 of 0 pods available");
  // Old pods not gone yet: as kubectl rollout status, not before they are.
  Json terminating = Recorded("deployment-scaled-to-zero");
  terminating["status"]["replicas"] = 2;
  EXPECT_EQ(Seen("Deployment", terminating, Recorded("replicasets-scaled-to-zero")),
            "waiting: 2 old pods pending termination");
}

TEST(ObserveDeployment, NamesTheNewestReplicaSetWithTheHash) {
  // The image changed after the patch: a newer ReplicaSet with the same hash.
  Json replica_sets = Recorded("replicasets-rolled");
  Json newer = replica_sets["items"][1];
  newer["metadata"]["name"] = "api-8c4b7d9f6";
  newer["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "5";
  replica_sets["items"].insert(replica_sets["items"].begin(), newer);
  EXPECT_EQ(Seen("Deployment", Recorded("deployment-rolled"), replica_sets),
            "rolled: ReplicaSet api-8c4b7d9f6: 2 of 2 pods available");
}

TEST(ObserveDeployment, ChangedSinceThePatchWaitsForTheNewerGeneration) {
  Json scaled = Recorded("deployment-rolled");
  scaled["metadata"]["generation"] = 5;
  EXPECT_EQ(Seen("Deployment", scaled, Recorded("replicasets-rolled")),
            "waiting: generation 5 not observed yet (observedGeneration 4)");
}

TEST(ObserveStatefulSet, RollsAsTheControllerGoes) {
  ExpectReplay(
      "StatefulSet",
      {
          {"statefulset-patched", "controllerrevisions-db-before",
           "waiting: generation 3 not observed yet (observedGeneration 2)"},
          {"statefulset-pod-replaced", "controllerrevisions-db-before",
           "waiting: no ControllerRevision with the new config hash yet"},
          {"statefulset-pod-replaced", "controllerrevisions-db", "waiting: 2 of 3 pods ready"},
          {"statefulset-one-of-three", "controllerrevisions-db", "waiting: 1 of 3 pods updated"},
          {"statefulset-rolled", "controllerrevisions-db",
           "rolled: ControllerRevision db-6f9d8c7b5: 3 of 3 pods updated"},
      });
}

TEST(ObserveStatefulSet, UpdateRevisionOfAnotherOwnerDoesNotCount) {
  Json revisions = Recorded("controllerrevisions-db");
  revisions["items"][1]["metadata"]["ownerReferences"][0]["uid"] =
      "11111111-2222-4333-8444-555555555555";
  EXPECT_EQ(Seen("StatefulSet", Recorded("statefulset-rolled"), revisions),
            "waiting: no ControllerRevision with the new config hash yet");
}

TEST(ObserveStatefulSet, PartitionRollsTheOrdinalsAboveIt) {
  EXPECT_EQ(Replay("StatefulSet", "statefulset-partition", "controllerrevisions-db"),
            "rolled: ControllerRevision db-6f9d8c7b5: 1 of 3 pods updated (partition 2 keeps "
            "ordinals below it on the old template)");
  Json waiting = Recorded("statefulset-partition");
  waiting["status"].erase("updatedReplicas");
  EXPECT_EQ(Seen("StatefulSet", waiting, Recorded("controllerrevisions-db")),
            "waiting: 0 of 1 pod updated (partition 2)");
  Json all = Recorded("statefulset-partition");
  all["spec"]["updateStrategy"]["rollingUpdate"]["partition"] = 3;
  EXPECT_EQ(Seen("StatefulSet", all, Recorded("controllerrevisions-db")),
            "not rolling: partition 3 holds back all 3 pods: none takes the new template until "
            "it is lowered");
}

TEST(ObserveStatefulSet, WithoutPartitionItWaitsForTheCurrentRevision) {
  EXPECT_EQ(Replay("StatefulSet", "statefulset-no-partition", "controllerrevisions-db"),
            "waiting: 2 of 3 pods at revision db-6f9d8c7b5");
  Json done = Recorded("statefulset-no-partition");
  done["status"]["currentRevision"] = "db-6f9d8c7b5";
  done["status"]["updatedReplicas"] = 3;
  EXPECT_EQ(Seen("StatefulSet", done, Recorded("controllerrevisions-db")),
            "rolled: ControllerRevision db-6f9d8c7b5: 3 of 3 pods updated");
}

TEST(ObserveStatefulSet, ScaledToZero) {
  Json zero = Recorded("statefulset-rolled");
  zero["spec"]["replicas"] = 0;
  for (const char* count :
       {"replicas", "readyReplicas", "availableReplicas", "currentReplicas", "updatedReplicas"}) {
    zero["status"].erase(count);
  }
  EXPECT_EQ(Seen("StatefulSet", zero, Recorded("controllerrevisions-db")),
            "rolled: ControllerRevision db-6f9d8c7b5: 0 of 0 pods updated");
}

TEST(ObserveDaemonSet, RollsAsTheControllerGoes) {
  ExpectReplay(
      "DaemonSet",
      {
          {"daemonset-patched", "controllerrevisions-node-agent-before",
           "waiting: generation 2 not observed yet (observedGeneration 1)"},
          {"daemonset-one-updated", "controllerrevisions-node-agent-before",
           "waiting: no ControllerRevision with the new config hash yet"},
          {"daemonset-one-updated", "controllerrevisions-node-agent",
           "waiting: 1 of 3 pods updated"},
          {"daemonset-updated", "controllerrevisions-node-agent", "waiting: 2 of 3 pods available"},
          {"daemonset-rolled", "controllerrevisions-node-agent",
           "rolled: ControllerRevision node-agent-7b9c6d8f5: 3 of 3 pods available"},
      });
}

TEST(ObserveDaemonSet, TheNewestRevisionMustCarryTheHash) {
  // Rolled back since: the controller renumbered the old revision as the newest.
  Json revisions = Recorded("controllerrevisions-node-agent");
  revisions["items"][1]["revision"] = 3;
  EXPECT_EQ(Seen("DaemonSet", Recorded("daemonset-rolled"), revisions),
            "waiting: no ControllerRevision with the new config hash yet");
}

TEST(ObserveRollout, RollsAsTheControllerGoes) {
  ExpectReplay("Rollout",
               {
                   {"rollout-patched", "replicasets-checkout-before",
                    "waiting: generation 7 not observed yet (observedGeneration 6)"},
                   {"rollout-progressing", "replicasets-checkout", "waiting: 2 of 4 pods updated"},
                   {"rollout-old-terminating", "replicasets-checkout",
                    "waiting: phase Progressing: old replicas are pending termination"},
                   {"rollout-rolled", "replicasets-checkout",
                    "rolled: ReplicaSet checkout-6c8d9f7b4d: 4 of 4 pods available"},
                   {"rollout-rolled", "replicasets-checkout-before",
                    "waiting: no ReplicaSet with the new config hash yet"},
               });
}

TEST(ObserveRollout, PausedWaitsForAPromotion) {
  EXPECT_EQ(Replay("Rollout", "rollout-paused", "replicasets-checkout"),
            "waiting: paused: promote it (kubectl argo rollouts promote checkout -n shop)");
}

TEST(ObserveRollout, DegradedFailsWithItsMessage) {
  EXPECT_EQ(Replay("Rollout", "rollout-degraded", "replicasets-checkout"),
            "failed: degraded: ProgressDeadlineExceeded: ReplicaSet \"checkout-6c8d9f7b4d\" has "
            "timed out progressing.");
}

TEST(ObserveRollout, ObservedGenerationIsAStringOrANumber) {
  Json number = Recorded("rollout-rolled");
  number["status"]["observedGeneration"] = 7;
  EXPECT_EQ(Seen("Rollout", number, Recorded("replicasets-checkout")),
            "rolled: ReplicaSet checkout-6c8d9f7b4d: 4 of 4 pods available");
  for (const Json& other : {Json("7f9c7b8f9"), Json(""), Json("-7"), Json(" 7"), Json(7.0)}) {
    Json odd = Recorded("rollout-rolled");
    odd["status"]["observedGeneration"] = other;
    EXPECT_EQ(Seen("Rollout", odd, Recorded("replicasets-checkout")),
              "waiting: status.observedGeneration is not a count")
        << other.dump();
  }
}

TEST(Observe, OnDeleteDoesNotRoll) {
  const char* on_delete =
      "not rolling: updateStrategy OnDelete: its pods take the new template only when deleted";
  ExpectReplay("StatefulSet", {{"statefulset-on-delete", "controllerrevisions-db", on_delete}});
  ExpectReplay("DaemonSet", {{"daemonset-on-delete", "controllerrevisions-node-agent", on_delete}});
}

TEST(Observe, OtherKindsAreNotObserved) {
  EXPECT_STREQ(OwnedListKind("Deployment"), "replicasets");
  EXPECT_STREQ(OwnedListKind("Rollout"), "replicasets");
  EXPECT_STREQ(OwnedListKind("StatefulSet"), "controllerrevisions");
  EXPECT_STREQ(OwnedListKind("DaemonSet"), "controllerrevisions");
  EXPECT_STREQ(OwnedListKind("CronJob"), "");
  EXPECT_STREQ(OwnedListKind("deployment"), "");
  EXPECT_EQ(Seen("CronJob", Json::object(), Json::object()),
            "not rolling: rollcall cannot observe kind CronJob: it observes Deployments, "
            "StatefulSets, DaemonSets and Argo Rollouts");
}

TEST(ObserveMalformed, NotAnObjectIsNotYet) {
  for (const Json& workload : {Json(), Json("api"), Json(4), Json::array({Json::object()})}) {
    EXPECT_EQ(Seen("Deployment", workload, Recorded("replicasets-rolled")),
              "waiting: kubectl printed no Deployment object");
  }
  EXPECT_EQ(Seen("StatefulSet", Json(), Json()), "waiting: kubectl printed no StatefulSet object");
  Json no_status = Recorded("deployment-rolled");
  no_status["status"] = nullptr;
  EXPECT_EQ(Seen("Deployment", no_status, Recorded("replicasets-rolled")),
            "waiting: generation 4 not observed yet (observedGeneration 0)");
}

TEST(ObserveMalformed, OwnedListWithoutItems) {
  const Json deployment = Recorded("deployment-rolled");
  Json lists = Json::array({Json(), Json::object(), Json("items"), Json::array()});
  for (Json items : {Json(), Json("x"), Json(3), Json::object({{"a", 1}}),
                     Json::array({Json(), Json(5), Json("x"), Json::object({{"metadata", nullptr}}),
                                  Json::object({{"metadata", {{"ownerReferences", "api"}}}})})}) {
    lists.push_back(Json::object({{"kind", "List"}, {"items", items}}));
  }
  for (const Json& owned : lists) {
    EXPECT_EQ(Seen("Deployment", deployment, owned),
              "waiting: no ReplicaSet with the new config hash yet")
        << owned.dump();
  }
}

TEST(ObserveMalformed, CountsThatAreNotCounts) {
  struct Case {
    std::vector<const char*> path;
    Json value;
    std::string seen;
  };
  const std::vector<Case> cases = {
      {{"status", "updatedReplicas"}, "2", "waiting: status.updatedReplicas is not a count"},
      {{"status", "replicas"}, "3", "waiting: status.replicas is not a count"},
      {{"status", "availableReplicas"}, 2.5, "waiting: status.availableReplicas is not a count"},
      {{"spec", "replicas"}, -1, "waiting: spec.replicas is not a count"},
      {{"spec", "replicas"}, Json::array({2}), "waiting: spec.replicas is not a count"},
      {{"status", "observedGeneration"}, 1e30, "waiting: status.observedGeneration is not a count"},
      {{"status", "observedGeneration"},
       Json::parse("18446744073709551615"),
       "waiting: status.observedGeneration is not a count"},
      {{"status", "observedGeneration"}, "4", "waiting: status.observedGeneration is not a count"},
      {{"metadata", "generation"}, true, "waiting: metadata.generation is not a count"},
      // Absent or null: 0, as the API server leaves out a count of 0.
      {{"status", "availableReplicas"}, nullptr, "waiting: 0 of 2 updated pods available"},
      // Large but a count.
      {{"status", "observedGeneration"},
       Json::parse("9223372036854775807"),
       "rolled: ReplicaSet api-7d9f8c6b5: 2 of 2 pods available"},
      {{"spec", "replicas"},
       Json::parse("9223372036854775807"),
       "waiting: 2 of 9223372036854775807 pods updated"},
      // A spec.replicas of null is one, as the API server defaults it.
      {{"spec", "replicas"}, nullptr, "rolled: ReplicaSet api-7d9f8c6b5: 2 of 2 pods available"},
      // Conditions that are not a list of conditions are no deadline.
      {{"status", "conditions"},
       "ProgressDeadlineExceeded",
       "rolled: ReplicaSet api-7d9f8c6b5: 2 of 2 pods available"},
  };
  for (const Case& c : cases) {
    Json deployment = Recorded("deployment-rolled");
    Json* at = &deployment;
    for (const char* key : c.path) at = &(*at)[key];
    *at = c.value;
    EXPECT_EQ(Seen("Deployment", deployment, Recorded("replicasets-rolled")), c.seen)
        << c.value.dump();
  }
}

TEST(ObserveMalformed, OwnersAreMatchedByUidOnly) {
  // Neither a missing uid nor one of another type matches a missing or empty one.
  Json deployment = Recorded("deployment-rolled");
  deployment["metadata"].erase("uid");
  EXPECT_EQ(Seen("Deployment", deployment, Recorded("replicasets-rolled")),
            "waiting: no ReplicaSet with the new config hash yet");
  Json replica_sets = Recorded("replicasets-rolled");
  for (Json& item : replica_sets["items"]) {
    item["metadata"]["ownerReferences"][0].erase("uid");
  }
  deployment["metadata"]["uid"] = "";
  EXPECT_EQ(Seen("Deployment", deployment, replica_sets),
            "waiting: no ReplicaSet with the new config hash yet");
  replica_sets = Recorded("replicasets-rolled");
  replica_sets["items"][1]["metadata"]["ownerReferences"] =
      Json::object({{"uid", Recorded("deployment-rolled")["metadata"]["uid"]}});
  EXPECT_EQ(Seen("Deployment", Recorded("deployment-rolled"), replica_sets),
            "waiting: no ReplicaSet with the new config hash yet");
}

TEST(ObserveMalformed, ClusterTextIsShownBoundedAndPrintable) {
  Json degraded = Recorded("rollout-degraded");
  degraded["status"]["message"] = "\x1b[2J" + std::string(1000, 'x') + "\nrollcall: ok";
  EXPECT_EQ(Seen("Rollout", degraded, Recorded("replicasets-checkout")),
            "failed: degraded: \\x1b[2J" + std::string(196, 'x') + "…");
  // Cut where a character begins: 199 bytes of 'x', then a two-byte "é".
  degraded["status"]["message"] = std::string(199, 'x') + "é" + "tail";
  EXPECT_EQ(Seen("Rollout", degraded, Recorded("replicasets-checkout")),
            "failed: degraded: " + std::string(199, 'x') + "…");
  Json replica_sets = Recorded("replicasets-checkout");
  replica_sets["items"][1]["metadata"]["name"] = std::string(300, 'n') + "\r";
  EXPECT_EQ(Seen("Rollout", Recorded("rollout-rolled"), replica_sets),
            "rolled: ReplicaSet " + std::string(200, 'n') + "…: 4 of 4 pods available");
  Json paused = Recorded("rollout-paused");
  paused["metadata"]["name"] = "checkout; rm -rf ~";
  paused["metadata"]["namespace"] = "$(id)";
  EXPECT_EQ(Seen("Rollout", paused, Recorded("replicasets-checkout")),
            "waiting: paused: promote it (kubectl argo rollouts promote 'checkout; rm -rf ~' -n "
            "'$(id)')");
}

// Every field of every recorded object replaced, one at a time, with what no
// controller writes: Observe judges each without a throw.
void ReplaceEachField(Json& node, const std::function<void()>& judge) {
  const std::vector<Json> odd = {Json(),
                                 Json("x"),
                                 Json(-1),
                                 Json(1e300),
                                 Json::array(),
                                 Json::object(),
                                 Json::parse("18446744073709551615")};
  auto replace = [&](Json& slot) {
    Json kept = slot;
    for (const Json& value : odd) {
      slot = value;
      judge();
    }
    slot = kept;
    ReplaceEachField(slot, judge);
  };
  if (node.is_structured()) {
    for (Json& child : node) replace(child);  // an object's values, an array's items
  }
}

TEST(ObserveMalformed, NoFieldThrows) {
  struct Recording {
    const char* kind;
    const char* workload;
    const char* owned;
  };
  for (const Recording& recording : {
           Recording{"Deployment", "deployment-rolled", "replicasets-rolled"},
           Recording{"StatefulSet", "statefulset-partition", "controllerrevisions-db"},
           Recording{"DaemonSet", "daemonset-rolled", "controllerrevisions-node-agent"},
           Recording{"Rollout", "rollout-rolled", "replicasets-checkout"},
       }) {
    Json workload = Recorded(recording.workload);
    Json owned = Recorded(recording.owned);
    int judged = 0;
    auto judge = [&] {
      EXPECT_NO_THROW(
          Observe(recording.kind, workload, owned, PatchedGeneration(recording.kind), kNew));
      ++judged;
    };
    ReplaceEachField(workload, judge);
    ReplaceEachField(owned, judge);
    EXPECT_GT(judged, 100) << recording.kind;
    EXPECT_EQ(
        Observe(recording.kind, workload, owned, PatchedGeneration(recording.kind), kNew).progress,
        Progress::kRolled)
        << recording.kind;
  }
}

// What kubectl or the cluster says reaches the report escaped and cut: a failed
// patch's message, a Rollout's status.message.
TEST(Shown, EscapesAndCutsTextFromTheCluster) {
  EXPECT_EQ(Shown("web\x1b[2J\nrollcall: ok"), "web\\x1b[2J\\nrollcall: ok");
  EXPECT_EQ(Shown(std::string(300, 'a')), std::string(200, 'a') + "…");
  // Not inside a UTF-8 character: "é" is two bytes, the 200th byte its second.
  EXPECT_EQ(Shown(std::string(199, 'a') + "é" + std::string(50, 'b')), std::string(199, 'a') + "…");
}

TEST(GenerationOf, ReadsOnlyACount) {
  EXPECT_EQ(GenerationOf(Json::parse(R"({"metadata": {"generation": 4}})")), 4);
  EXPECT_EQ(GenerationOf(Json::parse(R"({"metadata": {"generation": "4"}})")), 0);
  EXPECT_EQ(GenerationOf(Json::parse(R"({"metadata": {"generation": -1}})")), 0);
  EXPECT_EQ(GenerationOf(Json::parse(R"({"metadata": null})")), 0);
  EXPECT_EQ(GenerationOf(Json::parse(R"([1])")), 0);
}

}  // namespace
}  // namespace rollcall::roll
