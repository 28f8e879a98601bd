// The previous release: run-once Jobs dropped, stale tokens, immutable fields, and
// what the deploy does to each consumer.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "rollcall/input_error.h"
#include "rollcall/lint.h"
#include "rollcall/previous/release.h"
#include "rollcall/render.h"
#include "test_support.h"

namespace rollcall {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Secret(const std::string& name, const std::string& value) {
  return "apiVersion: v1\nkind: Secret\nmetadata: {name: " + name + "}\nstringData: {v: " + value +
         "}\n---\n";
}

std::string Gateway(const std::string& image = "gw:1") {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: gw}\nspec:\n"
         "  selector: {matchLabels: {app: gw}}\n  template:\n    spec:\n      containers:\n"
         "      - name: gw\n        image: " +
         image + "\n        envFrom: [{secretRef: {name: tls}}, {secretRef: {name: other}}]\n---\n";
}

std::string BootJob(const std::string& command) {
  return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: edge-boot-1a2b3c4d\n"
         "  annotations: {rollcall.dev/run-once: \"true\"}\nspec:\n  template:\n    spec:\n"
         "      restartPolicy: Never\n      containers: [{name: boot, image: boot:1, command: [" +
         command + "]}]\n";
}

struct Upgrade {
  std::unique_ptr<PreviousRelease> previous;
  RenderResult result;
  std::vector<std::string> rollout;

  Upgrade(const std::string& before, const std::string& now) {
    previous =
        std::make_unique<PreviousRelease>(InputBytes(before), "previous.yaml", "default", Limits{});
    RenderOptions options;
    options.previous = previous.get();
    result = testing::RenderText(now, options);
    for (const RolloutEntry& entry : result.rollout) rollout.push_back(FormatRollout(entry));
  }
  bool Has(const std::string& rule) const {
    for (const Finding& finding : result.findings) {
      if (finding.rule == rule) return true;
    }
    return false;
  }
};

TEST(Rollout, FirstInstallIsAllNew) {
  RenderResult result = testing::RenderText(Secret("tls", "a") + Gateway() + BootJob("stage"));
  std::vector<std::string> lines;
  for (const RolloutEntry& entry : result.rollout) lines.push_back(FormatRollout(entry));
  EXPECT_THAT(lines,
              ElementsAre("Deployment default/gw: new", "Job default/edge-boot-1a2b3c4d: new"));
}

std::vector<std::string> Lines(const Rollout& rollout) {
  std::vector<std::string> lines;
  for (const RolloutEntry& entry : rollout) lines.push_back(FormatRollout(entry));
  return lines;
}

// A plain Job reading Secret tls.
std::string MigrateJob() {
  return "apiVersion: batch/v1\nkind: Job\nmetadata: {name: migrate}\nspec:\n  template:\n"
         "    spec:\n      restartPolicy: Never\n      containers: [{name: m, image: m:1, "
         "envFrom: [{secretRef: {name: tls}}]}]\n---\n";
}

// RenderPlan's rollout holds only the entries its consumers do not tell themselves
// (previous/rollout.h): read while the plan lives, it says what Render's, which
// holds every entry, says; a renamed Job and a removed consumer among them.
TEST(Rollout, APlansRolloutSaysWhatRendersSays) {
  const std::string job = MigrateJob();
  const std::string api =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  template:\n"
      "    spec:\n      containers: [{name: api, envFrom: [{secretRef: {name: tls}}]}]\n";
  const std::string now = Secret("tls", "a") + Secret("other", "x") + Gateway() + job + api;
  const std::string rendered_before =
      testing::RenderText(Secret("tls", "a") + Secret("other", "x") + Gateway() +
                          "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: old}\n"
                          "spec: {template: {spec: {containers: [{name: o}]}}}\n")
          .output;
  PreviousRelease before(InputBytes(rendered_before), "previous.yaml", "default", Limits{});
  const PreviousRelease* const compared[] = {nullptr, &before};
  for (const PreviousRelease* previous : compared) {
    RenderOptions options;
    options.previous = previous;
    const std::vector<std::string> rendered = Lines(testing::RenderText(now, options).rollout);
    Stream input(now, "<stdin>");
    RenderPlan plan(input, options);
    EXPECT_EQ(Lines(plan.result().rollout), rendered);
    ASSERT_EQ(rendered.size(), previous == nullptr ? 3u : 4u);
    EXPECT_EQ(rendered[0], previous == nullptr ? "Deployment default/gw: new"
                                               : "Deployment default/gw: unchanged");
    EXPECT_THAT(rendered[1], ::testing::StartsWith("Job default/migrate-"));
    EXPECT_THAT(rendered[1], ::testing::EndsWith(": new"));
    EXPECT_EQ(rendered[2], "Deployment default/api: new");
    if (previous != nullptr) {
      EXPECT_EQ(rendered[3], "Deployment default/old: removed");
    }
  }
}

// What stderr and the text report say of a rollout: a count by status, what changes
// first, then a line only for what is neither new nor unchanged.
TEST(Rollout, LinesCountEveryEntryAndNameOnlyWhatChanges) {
  const std::string job = MigrateJob();
  const std::string rendered_before =
      testing::RenderText(Secret("tls", "a") + Gateway() +
                          "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: old}\n"
                          "spec: {template: {spec: {containers: [{name: o}]}}}\n")
          .output;
  PreviousRelease before(InputBytes(rendered_before), "previous.yaml", "default", Limits{});
  RenderOptions options;
  options.previous = &before;
  const RenderResult result = testing::RenderText(Secret("tls", "b") + Gateway() + job, options);
  std::vector<std::string> lines = RolloutLines(result.rollout);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "1 rolled, 1 removed, 1 new");
  EXPECT_EQ(lines[1], "Deployment default/gw: rolled (changed: secret/tls)");
  EXPECT_EQ(lines[2], "Deployment default/old: removed");
  EXPECT_THAT(RolloutLines(Rollout()), ::testing::IsEmpty());
}

TEST(Rollout, UnchangedRolledWithTheChangedSourcesAndRemoved) {
  std::string first = testing::RenderText(Secret("tls", "a") + Secret("other", "x") + Gateway() +
                                          "apiVersion: apps/v1\nkind: Deployment\n"
                                          "metadata: {name: legacy}\nspec: {template: {spec: "
                                          "{containers: []}}}\n")
                          .output;
  Upgrade same(first, first);
  EXPECT_THAT(same.rollout, ElementsAre("Deployment default/gw: unchanged",
                                        "Deployment default/legacy: unchanged"));
  Upgrade rotated(first, Secret("tls", "b") + Secret("other", "x") + Gateway());
  EXPECT_THAT(rotated.rollout, ElementsAre("Deployment default/gw: rolled (changed: secret/tls)",
                                           "Deployment default/legacy: removed"));
  Upgrade image(first, Secret("tls", "a") + Secret("other", "x") + Gateway("gw:2"));
  EXPECT_THAT(image.rollout,
              ElementsAre("Deployment default/gw: rolled", "Deployment default/legacy: removed"));
}

TEST(Rollout, RenamedJobNamesItsPredecessor) {
  std::string job =
      "apiVersion: batch/v1\nkind: Job\nmetadata: {name: migrate}\nspec:\n"
      "  template:\n    spec:\n      containers:\n      - {name: m, image: m:1, "
      "envFrom: [{secretRef: {name: tls}}]}\n";
  std::string first = testing::RenderText(Secret("tls", "a") + job).output;
  Upgrade again(first, Secret("tls", "a") + job);
  EXPECT_THAT(again.rollout,
              ElementsAre(::testing::MatchesRegex("Job default/migrate-[0-9a-f]{8}: unchanged")));
  Upgrade changed(first, Secret("tls", "b") + job);
  ASSERT_EQ(changed.rollout.size(), 1u);
  EXPECT_THAT(changed.rollout[0],
              ::testing::MatchesRegex("Job default/migrate-[0-9a-f]{8}: renamed \\(was "
                                      "migrate-[0-9a-f]{8}; changed: secret/tls\\)"));
  EXPECT_FALSE(changed.Has("immutable-field"));
}

TEST(RunOnce, AlreadyRanIsDroppedAndAStaleTokenWarned) {
  std::string stage = Secret("tls", "a") + BootJob("stage");
  Upgrade same(stage, stage);
  // The previous release's document is written back: Helm sees no change.
  EXPECT_EQ(same.result.output, stage);
  EXPECT_TRUE(same.Has("run-once-already-ran"));
  EXPECT_FALSE(same.Has("stale-one-time-token"));
  EXPECT_THAT(same.rollout, ElementsAre("Job default/edge-boot-1a2b3c4d: kept (already ran: "
                                        "written back as the previous release has it)"));
  Upgrade promote(stage, Secret("tls", "a") + BootJob("promote"));
  EXPECT_EQ(promote.result.output, stage) << "the Job as it ran, not as rendered now";
  // And on the next upgrade, against that output, it is still the Job that ran.
  Upgrade next(promote.result.output, Secret("tls", "a") + BootJob("promote"));
  EXPECT_EQ(next.result.output, stage);
  EXPECT_TRUE(promote.Has("stale-one-time-token"));
  EXPECT_FALSE(StopsRender(promote.result.findings, FailOn::kNever));
  EXPECT_TRUE(StopsRender(promote.result.findings, FailOn::kWarning));
  EXPECT_FALSE(promote.Has("immutable-field"));
}

TEST(RunOnce, ATtlMeansHelmWouldCreateItAgain) {
  std::string job = BootJob("stage");
  job.replace(job.find("  template:"), 0, "  ttlSecondsAfterFinished: 600\n");
  Upgrade ttl(job, job);
  bool warned = false;
  for (const Finding& finding : ttl.result.findings) {
    if (finding.rule == "run-once-already-ran") {
      warned = finding.message.find("ttlSecondsAfterFinished") != std::string::npos;
    }
  }
  EXPECT_TRUE(warned);
}

TEST(Rollout, AKeptJobWhoseTemplateChangedIsRefusedNotRolled) {
  std::string job =
      "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n"
      "  annotations: {rollcall.dev/job-policy: keep}\nspec:\n  template:\n"
      "    spec:\n      containers: [{name: m, image: m:1}]\n";
  std::string changed = job;
  changed.replace(changed.find("m:1"), 3, "m:2");
  EXPECT_THAT(Upgrade(job, changed).rollout,
              ElementsAre("Job default/migrate: refused (its pod template changed, and a Job's "
                          "template is immutable)"));
}

TEST(Immutable, AKeptJobWithANewTemplateStopsRender) {
  std::string job =
      "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n"
      "  annotations: {rollcall.dev/job-policy: keep}\nspec:\n  template:\n    spec:\n"
      "      containers: [{name: m, image: IMAGE}]\n";
  auto with = [&](const std::string& image) {
    std::string out = job;
    out.replace(out.find("IMAGE"), 5, image);
    return out;
  };
  Upgrade changed(with("m:1"), with("m:2"));
  ASSERT_TRUE(changed.Has("immutable-field"));
  EXPECT_TRUE(StopsRender(changed.result.findings, FailOn::kNever));
  bool found = false;
  for (const Finding& finding : changed.result.findings) {
    if (finding.rule != "immutable-field") continue;
    found = true;
    EXPECT_EQ(FormatFinding(finding),
              "<stdin>:8:5: error[immutable-field] Job "
              "default/migrate: spec.template: Invalid value: field is immutable (the API server "
              "would refuse this upgrade)");
  }
  EXPECT_TRUE(found);
  std::unique_ptr<PreviousRelease> previous = std::make_unique<PreviousRelease>(
      InputBytes(with("m:1")), "previous.yaml", "default", Limits{});
  RenderOptions allow;
  allow.previous = previous.get();
  allow.config.severities["immutable-field"] = Severity::kWarning;
  EXPECT_FALSE(StopsRender(testing::RenderText(with("m:2"), allow).findings, FailOn::kNever));
  // Hooks are recreated by their tool: never an immutable change.
  std::string hook = with("m:1");
  hook.replace(hook.find("rollcall.dev/job-policy: keep"), 29, "helm.sh/hook: pre-upgrade");
  std::string hook2 = hook;
  hook2.replace(hook2.find("m:1"), 3, "m:2");
  EXPECT_FALSE(Upgrade(hook, hook2).Has("immutable-field"));
}

class FakeHelm : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("rollcall-fake-helm-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Helm(const std::string& body) {
    std::string path = (dir_ / "helm").string();
    std::ofstream(path) << "#!/bin/sh\necho \"$@\" > " << (dir_ / "args").string() << "\n" << body;
    chmod(path.c_str(), 0755);
    return path;
  }
  std::string Args() { return testing::ReadFile((dir_ / "args").string()); }
  std::filesystem::path dir_;
};

TEST_F(FakeHelm, NotFoundIsAFirstInstall) {
  auto previous = LoadPreviousRelease(Helm("echo 'Error: release: not found' >&2\nexit 1\n"),
                                      "edge", "prod", Limits{});
  EXPECT_TRUE(previous->empty());
  EXPECT_EQ(Args(), "get manifest --namespace=prod -- edge\n");
}

TEST_F(FakeHelm, AnyOtherFailureIsAnError) {
  try {
    LoadPreviousRelease(Helm("echo 'Error: Kubernetes cluster unreachable' >&2\nexit 1\n"), "edge",
                        "prod", Limits{});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.Describe(),
              "helm get manifest edge: cannot read the previous release (Error: Kubernetes "
              "cluster unreachable); refusing to treat it as a first install");
  }
}

TEST_F(FakeHelm, TheManifestIsThePreviousRelease) {
  auto previous = LoadPreviousRelease(
      Helm("printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata: {name: c}\\n'\n"), "edge", "prod",
      Limits{});
  EXPECT_FALSE(previous->empty());
  EXPECT_NE(previous->Find(ObjectKey{"", "ConfigMap", "prod", "c"}), nullptr);
}

}  // namespace
}  // namespace rollcall
