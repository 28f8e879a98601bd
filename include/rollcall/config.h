// .rollcall.yaml: the project's settings for rollcall, named with --config or found
// upward from the working directory, up to the root of the git work tree it is in
// (only in the working directory itself outside any work tree): a .rollcall.yaml
// above the repository (in /tmp, in a home directory) is not the project's.
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

// A config file is read up to this size; a hand-written one is a few hundred bytes.
inline constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;
// consumerKinds entries: each is looked up for every object read (19,000 of them made
// lint five times slower).
inline constexpr std::size_t kMaxConsumerKinds = 256;

// Where the search for .rollcall.yaml looked (for --verbose) and what it found.
struct ConfigSearch {
  std::string found;  // the nearest .rollcall.yaml (an entry of any type), or ""
  std::string start;  // the directory the search began in, absolute
  // The root of the git work tree `start` is in, the last directory searched; ""
  // outside any work tree, where only `start` is searched.
  std::string work_tree;
};

// Looks for .rollcall.yaml in `start`, then each parent up to the git work tree's
// root: the nearest directory holding .git (a directory, or the file a linked work
// tree or a submodule has).
ConfigSearch SearchConfigFile(const std::string& start);

// SearchConfigFile(start).found.
std::string FindConfigFile(const std::string& start);

// Reads a config file (a regular file of at most kMaxConfigBytes). Throws InputError
// naming the file and line on anything it does not understand: a typo in a rule id
// must not silently do nothing.
Config LoadConfig(const std::string& path);

}  // namespace rollcall
