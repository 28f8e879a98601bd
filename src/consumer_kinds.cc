#include "rollcall/consumer_kinds.h"

namespace rollcall {

const std::vector<ConsumerKind>& BuiltinConsumerKinds() {
  static const std::vector<ConsumerKind> kinds = {
      {"Deployment", "apps", {"spec", "template"}},
      {"StatefulSet", "apps", {"spec", "template"}},
      {"DaemonSet", "apps", {"spec", "template"}},
      {"ReplicaSet", "apps", {"spec", "template"}},
      {"ReplicationController", "", {"spec", "template"}},
      {"Job", "batch", {"spec", "template"}},
      {"CronJob", "batch", {"spec", "jobTemplate", "spec", "template"}},
      {"PodTemplate", "", {"template"}},
      {"Rollout", "argoproj.io", {"spec", "template"}},
      // A bare Pod is its own template: metadata and spec at the root.
      {"Pod", "", {}},
  };
  return kinds;
}

const ConsumerKind* FindConsumerKind(const std::string& api_version, const std::string& kind,
                                     const std::vector<ConsumerKind>& extra) {
  auto slash = api_version.find('/');
  std::string group = slash == std::string::npos ? "" : api_version.substr(0, slash);
  for (const auto* table : {&extra, &BuiltinConsumerKinds()}) {
    for (const ConsumerKind& entry : *table) {
      if (entry.kind == kind && (entry.api_group == "*" || entry.api_group == group)) {
        return &entry;
      }
    }
  }
  return nullptr;
}

}  // namespace rollcall
