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
  ReferenceCoverage coverage;
  std::string object;     // "deployment/platform/api"
  std::string container;  // the reading container(s), "-" for an unmounted volume
  std::string reads;  // "env jwt-signing-key", "envFrom", "volume certs", "subPath volume certs", …
};

// "deployment/platform/api": how consumers and roll name a consumer.
std::string ObjectPath(const Consumer& consumer);

// Which sources to list consumers of; an unset field matches every source.
struct SourceQuery {
  std::optional<SourceKind> kind;
  std::optional<std::string> name;
  std::optional<std::string> name_space;
};

// Every reference to a source the query matches, in stream order.
std::vector<ConsumerUse> FindConsumers(const Analysis& analysis, const SourceQuery& query);

// "deployment/platform/api container api reads env jwt-signing-key: pending (…)"
std::string FormatConsumerUse(const ConsumerUse& use);

// What to run after changing the source outside a release, one line a consumer:
// `kubectl rollout restart <kind>/<name> -n <ns>` for Deployments, StatefulSets and
// DaemonSets (and `kubectl argo rollouts restart` for Rollouts); a comment saying
// what to do for CronJobs, Jobs, bare Pods and the rest. Every word is quoted for a
// POSIX shell (shell_word.h); a consumer whose name or namespace the API server
// would refuse gets a comment instead of a command; comments are Printable.
std::string RestartCommand(const Consumer& consumer);

// What to do instead of a restart for a consumer of `kind` that has no restart verb
// ("a Job cannot be restarted; …"), or "" for Deployments, StatefulSets, DaemonSets
// and Rollouts, which roll.
std::string WhatToDoInstead(const std::string& kind);

}  // namespace rollcall
