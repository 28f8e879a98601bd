// Which ServiceAccounts the input's RBAC lets create and update Secrets: what says that
// a workload, an operator, makes and rotates the Secrets it reads itself
// (CloudNativePG's cnpg-webhook-cert, which its operator creates at start and renews).
// Read from Role, ClusterRole, RoleBinding and ClusterRoleBinding objects
// (rbac.authorization.k8s.io) with the documents' facts (facts.h).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rollcall/document.h"
#include "rollcall/name.h"
#include "rollcall/runtime_sources.h"

namespace rollcall {

// What one RBAC object says about writing Secrets: a Role or ClusterRole that grants
// create, and update or patch, on secrets (no other role is a fact), or a binding of
// ServiceAccounts.
struct RbacFact {
  enum class Kind : std::uint8_t { kRole, kClusterRole, kRoleBinding, kClusterRoleBinding };
  Kind kind = Kind::kRole;
  std::string name, name_space;      // the object's (a cluster-wide one's namespace is "")
  std::string role_kind, role_name;  // a binding's roleRef
  std::vector<std::pair<std::string, std::string>> service_accounts;  // a binding's (ns, name)
};

// True for the four RBAC kinds: the analysis needs their trees.
bool MayGrantSecretWrites(const std::string& api_version, const std::string& kind);

// The fact `doc` states, if it is one of the four kinds.
std::optional<RbacFact> ReadRbacFact(const Document& doc, const std::string& default_namespace);

class SecretWriters {
 public:
  // The bindings and roles of the documents' facts, put together.
  explicit SecretWriters(const std::vector<Document>& documents);

  // How ServiceAccount `name_space`/`account` may create and update the Secrets of its
  // own namespace, as a runtime rotation ("its reader, which makes its own: ClusterRole
  // x lets its ServiceAccount ns/sa create and update Secrets"), or null when the
  // input grants it no such right.
  const Rotation* Find(const Name& name_space, const Name& account) const;

 private:
  std::map<std::pair<std::string, std::string>, Rotation> writers_;
};

}  // namespace rollcall
