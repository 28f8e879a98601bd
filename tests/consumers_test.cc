// `rollcall consumers`: who reads a Secret, how, and what to restart.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace rollcall {
namespace {

using testing::FileExists;
using testing::ReadFile;
using testing::RollcallBinary;
using testing::RunProcess;
using testing::TestdataPath;

testing::ProcessResult Consumers(std::vector<std::string> args) {
  args.insert(args.begin(), {RollcallBinary(), "consumers"});
  return RunProcess(args, "");
}

TEST(Consumers, ListsTheNinePlatformConsumersWithTheirKeysAndCoverage) {
  testing::ProcessResult result =
      Consumers({"platform-secrets", "-n", "platform", TestdataPath("lint/platform")});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.err, "");
  EXPECT_EQ(result.out,
            "deployment/platform/api-gateway container gateway reads env jwt-signing-key: "
            "pending (SECRET-VERSION: pending)\n"
            "deployment/platform/auth-service container auth reads env jwt-signing-key: "
            "pending (SECRET-VERSION: pending)\n"
            "deployment/platform/billing-service container billing reads env "
            "payment-provider-api-key: pending (SECRET-VERSION: pending)\n"
            "statefulset/platform/mongodb container mongodb reads env mongodb-root-password: "
            "pending (SECRET-VERSION: pending)\n"
            "deployment/platform/mysql container mysql reads env mysql-root-password: pending "
            "(SECRET-VERSION: pending)\n"
            "deployment/platform/notification-service container notifier reads env "
            "smtp-password: pending (SECRET-VERSION: pending)\n"
            "deployment/platform/order-service container orders reads env rabbitmq-password: "
            "pending (SECRET-VERSION: pending)\n"
            "statefulset/platform/rabbitmq container rabbitmq reads env rabbitmq-password: "
            "pending (SECRET-VERSION: pending)\n"
            "deployment/platform/web-frontend container web reads env session-secret: pending "
            "(SECRET-VERSION: pending)\n");
}

TEST(Consumers, RestartCommandsRestartExactlyTheConsumers) {
  testing::ProcessResult result = Consumers(
      {"platform-secrets", "-n", "platform", "--restart-commands", TestdataPath("lint/platform")});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out,
            "kubectl rollout restart deployment/api-gateway -n platform\n"
            "kubectl rollout restart deployment/auth-service -n platform\n"
            "kubectl rollout restart deployment/billing-service -n platform\n"
            "kubectl rollout restart statefulset/mongodb -n platform\n"
            "kubectl rollout restart deployment/mysql -n platform\n"
            "kubectl rollout restart deployment/notification-service -n platform\n"
            "kubectl rollout restart deployment/order-service -n platform\n"
            "kubectl rollout restart statefulset/rabbitmq -n platform\n"
            "kubectl rollout restart deployment/web-frontend -n platform\n");
}

TEST(Consumers, CronJobsJobsAndPodsGetWhatToDoInstead) {
  std::string stream =
      "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: nightly, namespace: ops}\n"
      "spec: {jobTemplate: {spec: {template: {spec: {containers: [{name: c, envFrom: "
      "[{secretRef: {name: s}}]}]}}}}}\n---\n"
      "apiVersion: batch/v1\nkind: Job\nmetadata: {name: once, namespace: ops}\n"
      "spec: {template: {spec: {containers: [{name: c, envFrom: [{secretRef: {name: s}}]}]}}}\n"
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: debug, namespace: ops}\n"
      "spec: {containers: [{name: c, volumeMounts: [{name: v, mountPath: /s, subPath: k}]}], "
      "volumes: [{name: v, secret: {secretName: s}}]}\n";
  testing::ProcessResult restart =
      RunProcess({RollcallBinary(), "consumers", "s", "--restart-commands", "-"}, stream);
  EXPECT_EQ(restart.out,
            "# cronjob/nightly -n ops: nothing to restart; its next run reads the new value\n"
            "# job/once -n ops: a Job cannot be restarted; if it must run with the new value, "
            "delete it and create it again\n"
            "# pod/debug -n ops: a bare Pod cannot be restarted; delete it and create it again\n");
  testing::ProcessResult listing = RunProcess({RollcallBinary(), "consumers", "s", "-"}, stream);
  EXPECT_THAT(listing.out,
              ::testing::HasSubstr("pod/ops/debug container c reads subPath volume v: unresolved"));
}

TEST(Consumers, NoneIsANoteNotAnError) {
  testing::ProcessResult result =
      Consumers({"nothing-here", "--restart-commands", TestdataPath("lint/platform")});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out, "# nothing to roll: no consumer reads secret/nothing-here\n");
  EXPECT_EQ(result.err, "rollcall: no consumer reads secret/nothing-here\n");
}

TEST(Consumers, JsonNamesFileLineAndMarker) {
  testing::ProcessResult result = Consumers(
      {"platform-secrets", "-n", "platform", "--format", "json", TestdataPath("lint/platform")});
  ASSERT_EQ(result.exit_code, 0);
  nlohmann::json document = nlohmann::json::parse(result.out);
  EXPECT_EQ(document["source"], (nlohmann::json{{"kind", "secret"}, {"name", "platform-secrets"}}));
  ASSERT_EQ(document["consumers"].size(), 9u);
  const nlohmann::json& first = document["consumers"][0];
  EXPECT_EQ(first["object"], "deployment/platform/api-gateway");
  EXPECT_EQ(first["reads"], "env jwt-signing-key");
  EXPECT_EQ(first["coverage"], "pending");
  EXPECT_EQ(first["marker"], "pending");
  EXPECT_THAT(first["file"].get<std::string>(), ::testing::EndsWith("api-gateway.yaml"));
  EXPECT_GT(first["line"].get<int>(), 0);
}

TEST(Consumers, NeedsAName) {
  testing::ProcessResult result = Consumers({});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err,
            "rollcall: error: consumers needs the NAME of a Secret or ConfigMap (or --all)\n");
  EXPECT_EQ(result.out, "");
}

// One reader of each coverage state and a checkout with two findings
// (docs/examples/graph/shop.yaml, the example the picture in docs/consumers.md is
// drawn from).
std::string ShopExample() { return TestdataPath("../docs/examples/graph/shop.yaml"); }

TEST(Consumers, AllListsEverySourceWithItsName) {
  testing::ProcessResult result = Consumers({"--all", ShopExample()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "secret/shop/shop-db: deployment/shop/storefront container web reads env password: "
            "hashed (content known)\n"
            "configmap/shop/shop-settings: deployment/shop/storefront container web reads envFrom: "
            "hashed (content known)\n"
            "secret/shop/shop-tls: deployment/shop/storefront container web reads volume tls: "
            "runtime (rotated at runtime by cert-manager Certificate shop/shop-tls)\n"
            "secret/shop/shop-db: statefulset/shop/orders container orders reads env password: "
            "hashed (content known)\n"
            "secret/shop/payment-provider: statefulset/shop/orders container orders reads env "
            "api-key: pending (SECRET-VERSION: pending)\n"
            "secret/shop/mail-relay: cronjob/shop/nightly-report container report reads env "
            "password: waived (static: each run starts a new pod and reads it afresh)\n"
            "secret/shop/warehouse-api: cronjob/shop/nightly-report container report reads env "
            "token: unresolved (Secret shop/warehouse-api is not in the input)\n"
            "secret/shop/shop-db: deployment/shop/checkout container checkout reads env "
            "username: hashed (content known)\n"
            "secret/shop/shop-tls: deployment/shop/checkout container checkout reads env "
            "tls.key: runtime (rotated at runtime by cert-manager Certificate shop/shop-tls)\n");
}

TEST(Consumers, AllWithKindNarrowsToThatKind) {
  testing::ProcessResult result = Consumers({"--all", "--kind", "configmap", ShopExample()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "configmap/shop/shop-settings: deployment/shop/storefront container web reads envFrom: "
            "hashed (content known)\n");
}

TEST(Consumers, AllAsJsonNamesEachSource) {
  testing::ProcessResult result = Consumers({"--all", "--format", "json", ShopExample()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  nlohmann::json document = nlohmann::json::parse(result.out);
  EXPECT_FALSE(document.contains("source"));
  ASSERT_EQ(document["consumers"].size(), 9u);
  EXPECT_EQ(
      document["consumers"][1]["source"],
      (nlohmann::json{{"kind", "configmap"}, {"namespace", "shop"}, {"name", "shop-settings"}}));
  EXPECT_EQ(document["consumers"][1]["object"], "deployment/shop/storefront");
}

TEST(Consumers, DotDrawsSourcesToConsumersColouredByCoverageAndFindings) {
  testing::ProcessResult result = Consumers({"--all", "--format", "dot", ShopExample()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::string& dot = result.out;
  EXPECT_THAT(dot, ::testing::StartsWith("digraph rollcall {\n  rankdir=LR;\n"));
  // A source in the input is solid; one whose content rollcall never saw is dashed.
  EXPECT_THAT(dot,
              ::testing::HasSubstr(
                  "  \"secret/shop/shop-db\" [shape=note, label=\"Secret\\nshop/shop-db\"];\n"));
  EXPECT_THAT(dot, ::testing::HasSubstr("  \"secret/shop/warehouse-api\" [shape=note, "
                                        "label=\"Secret\\nshop/warehouse-api\\n(content not in the "
                                        "input)\", style=dashed];\n"));
  // Each consumer takes the colour of its worst reference: the storefront's is
  // runtime (blue); the CronJob's and the StatefulSet's have errors (red).
  EXPECT_THAT(dot, ::testing::HasSubstr("  \"Deployment/shop/storefront\" [shape=box, "
                                        "style=\"rounded,filled\", fillcolor=\"#bbdefb\""));
  EXPECT_THAT(dot, ::testing::HasSubstr("  \"CronJob/shop/nightly-report\" [shape=box, "
                                        "style=\"rounded,filled\", fillcolor=\"#ffcdd2\""));
  EXPECT_THAT(dot, ::testing::HasSubstr("  \"StatefulSet/shop/orders\" [shape=box, "
                                        "style=\"rounded,filled\", fillcolor=\"#ffcdd2\""));
  // One edge per reference, saying who reads what, in the colour of its state...
  EXPECT_THAT(dot,
              ::testing::HasSubstr("  \"secret/shop/shop-db\" -> \"StatefulSet/shop/orders\" "
                                   "[color=\"#2e7d32\", fontcolor=\"#2e7d32\", label=\"orders: "
                                   "env password\\nhashed\"];\n"));
  // ...or thick in the colour of its worst finding, the rule in the label, whatever
  // its state: a pending marker, a key the Secret lacks, a runtime Secret in env.
  EXPECT_THAT(
      dot, ::testing::HasSubstr("  \"secret/shop/payment-provider\" -> \"StatefulSet/shop/orders\" "
                                "[color=\"#c62828\", fontcolor=\"#c62828\", label=\"orders: env "
                                "api-key\\npending\\nerror[pending-marker]\", penwidth=3, "
                                "tooltip=\"error[pending-marker] StatefulSet shop/orders reads "));
  EXPECT_THAT(dot, ::testing::HasSubstr("  \"secret/shop/shop-db\" -> \"Deployment/shop/checkout\" "
                                        "[color=\"#c62828\", fontcolor=\"#c62828\", "
                                        "label=\"checkout: env username\\nhashed\\nerror[missing-"
                                        "key]\", penwidth=3"));
  EXPECT_THAT(dot,
              ::testing::HasSubstr("  \"secret/shop/shop-tls\" -> \"Deployment/shop/checkout\" "
                                   "[color=\"#c62828\", fontcolor=\"#c62828\", "
                                   "label=\"checkout: env tls.key\\nruntime\\nerror[runtime-"
                                   "source-in-env]\", penwidth=3"));
  EXPECT_THAT(dot, ::testing::EndsWith("  </table>>];\n}\n"));
  // Names only: the Secret's value never reaches the picture.
  EXPECT_THAT(dot, ::testing::Not(::testing::HasSubstr("example-only")));
}

// Golden pictures: each folder under testdata/graph/ holds input.yaml, fed on stdin to
// `rollcall consumers --all --format dot -`, and expected.dot, read by a person; an
// optional config.yaml is passed as --config.
class GraphGolden : public ::testing::TestWithParam<std::string> {};

std::string GraphCase(const std::string& name) { return TestdataPath("graph/" + name); }

TEST_P(GraphGolden, DrawsTheExpectedDot) {
  std::string dir = GraphCase(GetParam());
  std::vector<std::string> argv = {RollcallBinary(), "consumers", "--all", "--format", "dot"};
  if (FileExists(dir + "/config.yaml")) {
    argv.insert(argv.end(), {"--config", dir + "/config.yaml"});
  }
  argv.push_back("-");
  testing::ProcessResult result =
      RunProcess(argv, ReadFile(dir + "/input.yaml"), {"HELM_NAMESPACE="});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, ReadFile(dir + "/expected.dot"));
  EXPECT_THAT(result.out, ::testing::Not(::testing::HasSubstr("example-only")));
}

// What the golden files hold is a picture: Graphviz reads it without a complaint.
TEST_P(GraphGolden, GraphvizDrawsTheExpectedDot) {
  const std::string dot = "/usr/bin/dot";
  if (!FileExists(dot)) GTEST_SKIP() << "Graphviz is not installed (scripts/install-deps.sh)";
  testing::ProcessResult result =
      RunProcess({dot, "-Tsvg"}, ReadFile(GraphCase(GetParam()) + "/expected.dot"));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
}

INSTANTIATE_TEST_SUITE_P(Graph, GraphGolden,
                         ::testing::ValuesIn(testing::GoldenCases("graph", "input.yaml")),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return testing::GoldenCaseName(info.param);
                         });

TEST(GraphGoldenCases, AreThere) {
  EXPECT_GE(testing::GoldenCases("graph", "input.yaml").size(), 2u);
}

TEST(Consumers, DotQuotesWhatDotWouldMisread) {
  std::string stream =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ops}\nspec:\n"
      "  containers:\n  - name: 'say \"hi\" \\ bye'\n    image: i\n"
      "    env:\n    - name: E\n      valueFrom: {secretKeyRef: {name: s, key: k}}\n";
  testing::ProcessResult result =
      RunProcess({RollcallBinary(), "consumers", "s", "--format", "dot", "-"}, stream);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, ::testing::HasSubstr("label=\"say \\\"hi\\\" \\\\ bye: env "
                                               "k\\nunresolved\\nerror[unresolved-reference]\""));
  // The findings' messages quote the name too.
  EXPECT_THAT(result.out, ::testing::HasSubstr("in container say \\\"hi\\\" \\\\ bye, but"));
}

}  // namespace
}  // namespace rollcall

namespace rollcall {
namespace {

TEST(LintWithState, TheStateAccountsForTheTenthConsumer) {
  std::string tenth = TestdataPath("lint/platform-tenth/report-worker.yaml");
  testing::ProcessResult without =
      RunProcess({RollcallBinary(), "lint", "-n", "platform", tenth}, "");
  EXPECT_EQ(without.exit_code, 1);
  testing::ProcessResult with =
      RunProcess({RollcallBinary(), "lint", "-n", "platform", "--state",
                  TestdataPath("state/platform-secrets-before.yaml"), tenth},
                 "");
  EXPECT_EQ(with.exit_code, 0) << with.out;
  EXPECT_EQ(with.out,
            "references: 1 \u2014 hashed 1, waived 0, pending 0, runtime 0, unresolved 0\n"
            "no findings\n");
}

}  // namespace
}  // namespace rollcall
