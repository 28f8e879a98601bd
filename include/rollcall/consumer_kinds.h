// The kinds that carry a pod template, and where it sits in each. One table, so
// that adding a kind (or, later, one from the config file) is one line.
#pragma once

#include <string>
#include <vector>

namespace rollcall {

struct ConsumerKind {
  std::string kind;
  std::string api_group;          // "" for the core group; "*" for any group
  std::vector<std::string> path;  // keys from the object root to the pod template
};

// The built-in table: Deployment, StatefulSet, DaemonSet, ReplicaSet,
// ReplicationController, Job, CronJob, PodTemplate, Argo Rollouts Rollout, Pod.
const std::vector<ConsumerKind>& BuiltinConsumerKinds();

// The entry for an object's apiVersion and kind, or nullptr; `extra` (from the
// config file) is searched first.
const ConsumerKind* FindConsumerKind(const std::string& api_version, const std::string& kind,
                                     const std::vector<ConsumerKind>& extra = {});

}  // namespace rollcall
