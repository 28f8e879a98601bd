// roll's plan: which readers of a changed source roll, decided per key they read.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "rollcall/input_error.h"
#include "rollcall/limits.h"
#include "rollcall/roll/cluster_view.h"
#include "rollcall/roll/confirm.h"
#include "rollcall/roll/plan.h"
#include "rollcall/state.h"

namespace rollcall::roll {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A Deployment `name` of namespace shop reading `reads` (the YAML of its container's
// env or envFrom entries, indented for the container).
std::string Deployment(const std::string& name, const std::string& reads,
                       const std::string& annotations = "") {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
         "\n  namespace: shop\nspec:\n  template:\n    metadata:\n" +
         (annotations.empty() ? "" : "      annotations:\n" + annotations) +
         "      labels:\n        app: x\n    spec:\n      containers:\n        - name: c\n"
         "          image: x\n" +
         reads;
}

std::string EnvKey(const std::string& key) {
  return "          env:\n            - name: E\n              valueFrom:\n"
         "                secretKeyRef:\n                  name: db\n                  key: " +
         key + "\n";
}

const char* kEnvFrom = "          envFrom:\n            - secretRef:\n                name: db\n";

// Secret shop/db with `data` (base64 values, "key: value" lines).
std::string Secret(const std::string& data) {
  return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\ndata:\n" + data;
}

struct Planned {
  ClusterView view;
  RollPlan plan;
};

// The plan for the cluster `cluster` (a stream) when Secret shop/db becomes `after`.
Planned Plan(const std::string& cluster, const std::string& after,
             const std::optional<std::string>& hmac_key = std::nullopt) {
  std::vector<std::unique_ptr<Stream>> streams;
  streams.push_back(std::make_unique<Stream>(cluster, "cluster.yaml"));
  AnalysisOptions options;
  options.default_namespace = "shop";
  Planned planned{ReadClusterView(std::move(streams), options, Limits{}), {}};
  Stream change(after, "secret.yaml");
  PlanRequest request;
  request.cluster = &planned.view.analysis->model();
  for (const Document& doc : ParseStream(change, Limits{})) {
    for (Source& source : ExtractStateSources(doc, "shop")) request.new_sources.push_back(source);
  }
  request.skipped = planned.view.skipped;
  request.hmac_key = hmac_key;
  planned.plan = PlanRoll(request);
  return planned;
}

std::vector<std::string> Actions(const RollPlan& plan) {
  std::vector<std::string> out;
  for (const WorkloadPlan& item : plan.workloads) {
    out.push_back(item.consumer->name().str() + " " + ActionName(item.action));
  }
  return out;
}

TEST(RollPlan, AKeyAddedRollsTheReadersOfEveryKeyOnly) {
  Planned planned = Plan(Secret("  a: YQ==\n") + "---\n" + Deployment("reads-a", EnvKey("a")) +
                             "---\n" + Deployment("reads-all", kEnvFrom),
                         Secret("  a: YQ==\n  b: Yg==\n"));
  EXPECT_THAT(Actions(planned.plan), ElementsAre("reads-a unchanged", "reads-all roll"));
  EXPECT_THAT(planned.plan.workloads[1].changed, ElementsAre("secret/db: b"));
  ASSERT_TRUE(planned.plan.changed[0].changed_keys);
  EXPECT_THAT(*planned.plan.changed[0].changed_keys, ElementsAre("b"));
}

// The sources of a manifest in namespace shop.
std::vector<Source> SourcesOf(const std::string& manifest) {
  Stream stream(manifest, "secret.yaml");
  std::vector<Source> sources;
  for (const Document& doc : ParseStream(stream, Limits{})) {
    for (Source& source : ExtractStateSources(doc, "shop")) sources.push_back(source);
  }
  return sources;
}

// What roll --apply confirms after the apply: the keys its workloads read, together.
TEST(KeysReadBy, TheKeysOfEveryWorkloadOfThePlanTogether) {
  const std::string after = Secret("  a: Yg==\n  b: Yg==\n  c: Yg==\n");
  const std::string readers = Secret("  a: YQ==\n") + "---\n" + Deployment("reads-a", EnvKey("a")) +
                              "---\n" + Deployment("reads-b", EnvKey("b"));
  KeysRead read = KeysReadBy(Plan(readers, after).plan, SourcesOf(after));
  ASSERT_EQ(read.size(), 1U);
  EXPECT_EQ(read.begin()->first.name, "db");
  ASSERT_TRUE(read.begin()->second);
  EXPECT_THAT(*read.begin()->second, ElementsAre("a", "b"));

  read = KeysReadBy(Plan(readers + "---\n" + Deployment("reads-all", kEnvFrom), after).plan,
                    SourcesOf(after));
  ASSERT_EQ(read.size(), 1U);
  EXPECT_FALSE(read.begin()->second) << "an envFrom reads every key";
}

// kubectl prints the workloads of a namespace as one List: 2,000 Deployments and their
// pods came to 9 MB on a real API server (bench/cluster_roll.sh), over the 8 MiB a
// document may have. The List is held to the input limit instead, each object in it
// being the API server's, at most 3 MiB.
TEST(RollPlan, ReadsAListLargerThanTheDocumentLimit) {
  std::string list = "apiVersion: v1\nkind: List\nitems:\n";
  auto item = [&](const std::string& document) {
    std::istringstream lines(document);
    std::string line;
    bool first = true;
    while (std::getline(lines, line)) {
      list += (first ? "- " : "  ") + line + "\n";
      first = false;
    }
  };
  item(Deployment("reads-a", EnvKey("a")));
  const std::string padding = "        padding: \"" + std::string(100'000, 'x') + "\"\n";
  for (int i = 0; i < 90; ++i) item(Deployment("other-" + std::to_string(i), "", padding));
  ASSERT_GT(list.size(), Limits{}.max_document_bytes);
  Planned planned = Plan(Secret("  a: YQ==\n") + "---\n" + list, Secret("  a: Yg==\n"));
  ASSERT_EQ(planned.plan.workloads.size(), 1u);
  EXPECT_THAT(Actions(planned.plan), ElementsAre("reads-a roll"));
}

TEST(ListOutputLimits, HoldAListToTheInputLimitBelowFourGiB) {
  Limits limits;
  EXPECT_EQ(ListOutputLimits(limits).max_document_bytes, limits.max_input_bytes);
  EXPECT_EQ(ListOutputLimits(limits).max_input_bytes, limits.max_input_bytes);
  limits.max_input_bytes = std::size_t{16} << 30;
  EXPECT_EQ(ListOutputLimits(limits).max_document_bytes, std::size_t{0xFFFFFFFF});
  limits.max_input_bytes = 1000;  // smaller than the document limit: that stays
  EXPECT_EQ(ListOutputLimits(limits).max_document_bytes, Limits{}.max_document_bytes);
}

TEST(RollPlan, AKeyRemovedIsAChangeForItsReader) {
  Planned planned =
      Plan(Secret("  a: YQ==\n  b: Yg==\n") + "---\n" + Deployment("reads-b", EnvKey("b")),
           Secret("  a: YQ==\n"));
  EXPECT_THAT(Actions(planned.plan), ElementsAre("reads-b roll"));
  EXPECT_THAT(planned.plan.workloads[0].changed, ElementsAre("secret/db: b"));
}

TEST(RollPlan, TheSameBytesWrittenOtherwiseAreNoChange) {
  // stringData over data, as the API server merges them: the bytes the process reads.
  Planned planned = Plan(Secret("  a: YQ==\n") + "---\n" + Deployment("reads-a", EnvKey("a")),
                         "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: "
                         "shop\nstringData:\n  a: a\n");
  EXPECT_THAT(Actions(planned.plan), ElementsAre("reads-a unchanged"));
  EXPECT_EQ(planned.plan.workloads[0].reason, "no key it reads changed");
}

TEST(RollPlan, ThePatchWritesWhatRenderWouldWriteForTheNewContent) {
  Planned planned = Plan(Secret("  a: YQ==\n") + "---\n" + Deployment("reads-a", EnvKey("a")),
                         Secret("  a: Yg==\n"));
  ASSERT_EQ(planned.plan.workloads.size(), 1u);
  const WorkloadPlan& item = planned.plan.workloads[0];
  ASSERT_TRUE(item.hash_after);
  EXPECT_EQ(item.patch,
            "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":{\"rollcall.dev/"
            "config-hash\":\"" +
                item.hash_after->hash + "\",\"rollcall.dev/config-sources\":\"secret/db[a]\"}}}}}");
  EXPECT_EQ(item.patch_type, "strategic");
  EXPECT_THAT(item.hash_after->hash, HasSubstr("sha256:"));
}

TEST(RollPlan, AnHmacHashOnATemplateStopsAPlainPlan) {
  std::string annotations =
      "        rollcall.dev/config-hash: \"hmac-sha256:00\"\n"
      "        rollcall.dev/config-sources: \"secret/db[a]\"\n";
  EXPECT_THROW(
      Plan(Secret("  a: YQ==\n") + "---\n" + Deployment("reads-a", EnvKey("a"), annotations),
           Secret("  a: Yg==\n")),
      InputError);
  // With a key, the kinds agree and it is planned.
  Planned planned =
      Plan(Secret("  a: YQ==\n") + "---\n" + Deployment("reads-a", EnvKey("a"), annotations),
           Secret("  a: Yg==\n"), std::string("key"));
  EXPECT_THAT(Actions(planned.plan), ElementsAre("reads-a roll"));
}

TEST(RollPlan, AWorkloadNoClusterCouldHoldIsNeverPatched) {
  Planned planned = Plan(Secret("  a: YQ==\n") + "---\n" + Deployment("--server=evil", EnvKey("a")),
                         Secret("  a: Yg==\n"));
  ASSERT_EQ(planned.plan.workloads.size(), 1u);
  EXPECT_EQ(planned.plan.workloads[0].action, Action::kNotRolled);
  EXPECT_EQ(planned.plan.workloads[0].patch, "");
  EXPECT_THAT(planned.plan.workloads[0].reason, HasSubstr("accepts no such name"));
}

TEST(RollPlan, ReadersInAnotherNamespaceAreNotReaders) {
  std::string elsewhere = Deployment("other", EnvKey("a"));
  elsewhere.replace(elsewhere.find("namespace: shop"), 15, "namespace: prod");
  Planned planned = Plan(Secret("  a: YQ==\n") + "---\n" + elsewhere, Secret("  a: Yg==\n"));
  EXPECT_THAT(Actions(planned.plan), ElementsAre());
}

TEST(RollPlan, ABarePodAndARunningJobAreNotRolledAFinishedJobAndAnOwnedPodAreLeftOut) {
  std::string pod =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: debug\n  namespace: shop\nspec:\n"
      "  containers:\n    - name: c\n      image: x\n" +
      EnvKey("a").substr(4);
  std::string owned = pod;
  owned.replace(owned.find("name: debug"), 11,
                "name: web-1\n  ownerReferences:\n    - kind: ReplicaSet\n      name: web\n      controller: true\n"
                "      uid: u\n      apiVersion: apps/v1");
  auto job = [](const std::string& name, const std::string& status) {
    return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name +
           "\n  namespace: shop\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n"
           "      containers:\n        - name: c\n          image: x\n" +
           EnvKey("a") + status;
  };
  Planned planned = Plan(
      Secret("  a: YQ==\n") + "---\n" + pod + "---\n" + owned + "---\n" +
          job("running", "status:\n  active: 1\n") + "---\n" +
          job("done", "status:\n  conditions:\n    - type: Complete\n      status: \"True\"\n"),
      Secret("  a: Yg==\n"));
  EXPECT_THAT(Actions(planned.plan), ElementsAre("debug not-rolled", "running not-rolled"));
  EXPECT_THAT(planned.plan.workloads[0].reason, HasSubstr("delete it and create it again"));
}

// kubectl lists each object once: a workload given twice (two --state files that
// overlap) would be planned and patched twice.
TEST(RollPlan, AWorkloadListedTwiceIsRefused) {
  const std::string web = Deployment("web", kEnvFrom);
  try {
    Plan(web + "---\n" + Deployment("api", kEnvFrom) + "---\n" + web, Secret("  a: YQ==\n"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.Describe(),
              "cluster.yaml (document 3, line 37, column 1): the cluster's state lists Deployment "
              "shop/web twice (first at cluster.yaml (document 1, line 1, column 1)); give each "
              "object once");
  }
}

}  // namespace
}  // namespace rollcall::roll
