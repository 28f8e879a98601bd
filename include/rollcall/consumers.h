// Who reads a source: the enumeration for the command that changes it outside any
// release (a `secrets apply` verb). Apply the Secret, then restart exactly these
// consumers, and report honestly whether anything rolled.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rollcall/analysis.h"

namespace rollcall {

// One reference to the source, as a line of `rollcall consumers`.
struct ConsumerUse {
  const ReferenceCoverage* coverage = nullptr;
  std::string object;     // "deployment/platform/api"
  std::string container;  // the reading container(s), "-" for an unmounted volume
  std::string reads;  // "env jwt-signing-key", "envFrom", "volume certs", "subPath volume certs", …
};

// Every reference to the source `kind`/`name`, in `name_space` when given (else in
// any namespace), in stream order.
std::vector<ConsumerUse> FindConsumers(const Analysis& analysis, SourceKind kind,
                                       const std::string& name,
                                       const std::optional<std::string>& name_space);

// "deployment/platform/api container api reads env jwt-signing-key: pending (…)"
std::string FormatConsumerUse(const ConsumerUse& use);

// What to run after changing the source outside a release, one line a consumer:
// `kubectl rollout restart <kind>/<name> -n <ns>` for Deployments, StatefulSets and
// DaemonSets (and `kubectl argo rollouts restart` for Rollouts); a comment saying
// what to do for CronJobs, Jobs, bare Pods and the rest.
std::string RestartCommand(const Consumer& consumer);

}  // namespace rollcall
