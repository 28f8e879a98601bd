// `rollcall consumers`: who reads a Secret, how, and what to restart.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace rollcall {
namespace {

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
  EXPECT_EQ(result.err, "rollcall: error: consumers needs the NAME of a Secret or ConfigMap\n");
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
