// The options of `rollcall krm`, read from the function's config: the ResourceList's
// `functionConfig` (kpt), or the transformer config file kustomize passes to an exec
// plugin. Two shapes are accepted:
//
//   apiVersion: rollcall.dev/v1      # typed: options are top-level fields
//   kind: Rollcall
//   metadata: {name: rollcall}
//   namespace: prod
//   jobPolicy: keep
//   runOncePatterns: ['-bootstrap$']
//   strict: true
//
//   apiVersion: v1                   # what `kpt fn eval … -- namespace=prod` makes
//   kind: ConfigMap
//   data: {namespace: prod, strict: "true", runOncePatterns: "-bootstrap$"}
//
// An option rollcall does not know is an error naming it: a typo must not silently
// change nothing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rollcall/document.h"
#include "rollcall/jobs.h"

namespace rollcall {

inline constexpr const char* kFunctionConfigApiVersion = "rollcall.dev/v1";
inline constexpr const char* kFunctionConfigKind = "Rollcall";

struct FunctionConfig {
  std::string name_space;                      // "" when not given
  std::optional<JobPolicy> job_policy;         // jobPolicy: rename | keep
  std::vector<std::string> run_once_patterns;  // runOncePatterns: RE2, a list or one a line
  bool strict = false;                         // strict: warnings fail as well as errors
  std::string config_path;                     // config: a .rollcall.yaml to use
};

// Reads `node`, a functionConfig within `doc` (an undefined or null node: all
// defaults). Throws InputError naming the line and the option on anything else than
// the two shapes above.
FunctionConfig ReadFunctionConfig(const Document& doc, const YamlNode& node);

}  // namespace rollcall
