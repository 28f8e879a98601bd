// The kubectl calls of `rollcall roll`, each one program run without a shell: every
// value joined to its flag, every name after "--" and checked as the API server would
// check it first (object_names.h), so nothing from a manifest or a cluster reads as
// an option. What kubectl prints is held to the input limit.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "rollcall/limits.h"
#include "rollcall/lookup.h"
#include "rollcall/stream.h"

namespace rollcall::roll {

// The workload kinds roll reads, as kubectl names them.
inline constexpr const char* kWorkloadResources =
    "deployments.apps,statefulsets.apps,daemonsets.apps,cronjobs.batch,jobs.batch,pods";
inline constexpr const char* kRolloutResource = "rollouts.argoproj.io";

class Kubectl {
 public:
  // The lookup's options (lookup.h): the binary, the context and the input limit;
  // roll's calls are never optional, whatever `optional` says.
  explicit Kubectl(KubectlOptions options) : options_(std::move(options)) {}

  // `kubectl get --output=yaml --namespace=NS|--all-namespaces -- RESOURCES`, as a
  // stream named after the command. With `absent_ok`, a cluster that does not know
  // the resource type (no Argo Rollouts installed) gives an empty stream.
  std::unique_ptr<Stream> GetAll(const std::string& resources,
                                 const std::optional<std::string>& name_space,
                                 bool absent_ok = false) const;
  // `kubectl apply --namespace=NS --filename=-` with `manifest` on its stdin: the
  // bytes rollcall read and planned with, not a file that may have changed since.
  // Returns what kubectl printed; throws InputError when it fails.
  std::string Apply(const std::string& manifest, const std::string& name_space) const;
  // `kubectl patch --namespace=NS --type=TYPE --patch=PATCH --output=json -- KIND NAME`;
  // the object as patched.
  nlohmann::json Patch(const std::string& kind, const std::string& name_space,
                       const std::string& name, const std::string& patch,
                       const std::string& type) const;
  // `kubectl get --namespace=NS --output=json -- RESOURCE [NAME]`: one object, or a
  // List of every object of the resource in the namespace when `name` is empty.
  nlohmann::json Get(const std::string& resource, const std::string& name_space,
                     const std::string& name = "") const;

 private:
  std::vector<std::string> Command(const std::string& verb) const;
  std::string Run(const std::vector<std::string>& argv, const std::string& origin,
                  const std::optional<std::string>& input = std::nullopt) const;
  KubectlOptions options_;
};

}  // namespace rollcall::roll
