// Controllers that restart a workload when a Secret or ConfigMap it reads changes,
// asked to by an annotation on the workload: Stakater Reloader and Wave. A reference
// they watch is covered (waived) even when rollcall cannot read its content, on the
// condition, said in every such reason, that the controller runs in the cluster.
//
// Reloader (github.com/stakater/Reloader) reads, on the workload's metadata or its
// pod template's:
//   reloader.stakater.com/auto: "true"            every Secret and ConfigMap it reads
//   secret.reloader.stakater.com/auto: "true"     every Secret
//   configmap.reloader.stakater.com/auto: "true"  every ConfigMap
//   secret.reloader.stakater.com/reload: "a,b"    these Secrets
//   configmap.reloader.stakater.com/reload: "c"   these ConfigMaps
// and reloader.stakater.com/search: "true" with reloader.stakater.com/match: "true"
// on the source, which rollcall can only see on a source in the input, whose content
// it hashes anyway: search covers nothing here.
// Wave (github.com/wave-k8s/wave) reads wave.pusher.com/update-on-config-change:
// "true" on the workload's metadata: every Secret and ConfigMap it reads.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rollcall {

// What one workload asks of a restart controller.
struct RestartWatch {
  const char* controller = "";  // "Stakater Reloader", "Wave"
  bool every_secret = false;
  bool every_config_map = false;
  std::vector<std::string> secrets;  // named in a reload annotation
  std::vector<std::string> config_maps;
  std::string annotation;  // the first annotation that asked, for the reason's text

  // Whether a change to the Secret (`secret`) or ConfigMap named `name` restarts it.
  bool Watches(bool secret, std::string_view name) const;
};

// An annotation's text by key, or nullopt when it is not written.
using AnnotationReader = std::function<std::optional<std::string>(const char* key)>;

// What the annotations of a workload of `kind` ask, from the workload's own
// (`workload`) and its pod template's (`pod_template`); the controllers act on
// Deployments, StatefulSets, DaemonSets (and Reloader on Argo Rollouts and
// OpenShift DeploymentConfigs) only. Empty when none asks.
std::vector<RestartWatch> ReadRestartWatches(std::string_view kind,
                                             const AnnotationReader& workload,
                                             const AnnotationReader& pod_template);

}  // namespace rollcall
