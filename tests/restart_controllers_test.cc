// Which annotations ask Stakater Reloader or Wave to restart a workload, and for what.
#include "rollcall/restart_controllers.h"

#include <gtest/gtest.h>

#include <map>

namespace rollcall {
namespace {

AnnotationReader Annotations(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const char* key) -> std::optional<std::string> {
    auto found = values.find(key);
    if (found == values.end()) return std::nullopt;
    return found->second;
  };
}

const AnnotationReader kNone = Annotations({});

TEST(RestartControllers, ReloaderAutoWatchesEverySource) {
  auto watches = ReadRestartWatches("Deployment",
                                    Annotations({{"reloader.stakater.com/auto", "true"}}), kNone);
  ASSERT_EQ(watches.size(), 1u);
  EXPECT_STREQ(watches[0].controller, "Stakater Reloader");
  EXPECT_EQ(watches[0].annotation, "reloader.stakater.com/auto");
  EXPECT_TRUE(watches[0].Watches(true, "any"));
  EXPECT_TRUE(watches[0].Watches(false, "any"));
}

TEST(RestartControllers, ReloadListsNameTheirSourcesOnly) {
  auto watches = ReadRestartWatches(
      "StatefulSet", Annotations({{"secret.reloader.stakater.com/reload", " db , queue,"}}), kNone);
  ASSERT_EQ(watches.size(), 1u);
  EXPECT_TRUE(watches[0].Watches(true, "db"));
  EXPECT_TRUE(watches[0].Watches(true, "queue"));
  EXPECT_FALSE(watches[0].Watches(true, "other"));
  EXPECT_FALSE(watches[0].Watches(false, "db"));  // a ConfigMap named db
}

TEST(RestartControllers, ThePodTemplateAnnotationsCountForReloader) {
  auto watches = ReadRestartWatches(
      "DaemonSet", kNone, Annotations({{"configmap.reloader.stakater.com/auto", "true"}}));
  ASSERT_EQ(watches.size(), 1u);
  EXPECT_TRUE(watches[0].Watches(false, "flags"));
  EXPECT_FALSE(watches[0].Watches(true, "flags"));
}

TEST(RestartControllers, WaveOnTheWorkloadOnly) {
  auto wave = ReadRestartWatches(
      "Deployment", Annotations({{"wave.pusher.com/update-on-config-change", "true"}}), kNone);
  ASSERT_EQ(wave.size(), 1u);
  EXPECT_STREQ(wave[0].controller, "Wave");
  EXPECT_TRUE(ReadRestartWatches("Rollout",
                                 Annotations({{"wave.pusher.com/update-on-config-change", "true"}}),
                                 kNone)
                  .empty());
}

// Both compare the text with "true"; and a Job or a Pod is no workload they restart.
TEST(RestartControllers, OnlyTrueAndOnlyTheirKinds) {
  EXPECT_TRUE(
      ReadRestartWatches("Deployment", Annotations({{"reloader.stakater.com/auto", "yes"}}), kNone)
          .empty());
  EXPECT_TRUE(
      ReadRestartWatches("Job", Annotations({{"reloader.stakater.com/auto", "true"}}), kNone)
          .empty());
  EXPECT_TRUE(ReadRestartWatches("Deployment",
                                 Annotations({{"reloader.stakater.com/search", "true"}}), kNone)
                  .empty());
}

}  // namespace
}  // namespace rollcall
