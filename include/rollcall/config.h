// .rollcall.yaml: the project's settings for rollcall, found upward from the working
// directory or named with --config.
//
//   rules:                       # severity per rule id: error, warning, info or off
//     unresolved-reference: warning
//   runtimeSources:              # sources rotated at runtime: [secret/|configmap/]name
//     - secret/istio-gateway-tls
//   consumerKinds:               # more kinds with a pod template
//     - {kind: Workflow, apiGroup: argoproj.io, path: spec.podTemplate}
//   runOnce:                     # RE2 patterns of Job names that must run only once
//     - '-boot-[0-9a-f]{8}$'
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rollcall/consumer_kinds.h"
#include "rollcall/finding.h"

namespace rollcall {

struct Config {
  std::string path;  // where it was read from; "" for the built-in defaults
  std::map<std::string, std::optional<Severity>> severities;  // nullopt: the rule is off
  std::vector<std::string> runtime_sources;                   // "secret/name", "name", …
  std::vector<ConsumerKind> consumer_kinds;
  std::vector<std::string> run_once_patterns;
};

// The nearest .rollcall.yaml in `start` or a parent directory, or "".
std::string FindConfigFile(const std::string& start);

// A config file is read up to this size; a hand-written one is a few hundred bytes.
inline constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;

// Reads a config file (a regular file of at most kMaxConfigBytes). Throws InputError
// naming the file and line on anything it does not understand: a typo in a rule id
// must not silently do nothing.
Config LoadConfig(const std::string& path);

}  // namespace rollcall
