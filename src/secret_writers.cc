#include "rollcall/secret_writers.h"

#include <algorithm>
#include <initializer_list>
#include <set>

#include "rollcall/facts.h"

namespace rollcall {
namespace {

constexpr const char* kRbacApiVersion = "rbac.authorization.k8s.io/v1";

// Whether the sequence `list` holds one of `wanted` as a scalar.
bool Holds(const YamlNode& list, std::initializer_list<const char*> wanted) {
  if (!list.IsSequence()) return false;
  return std::any_of(list.begin(), list.end(), [&](const YamlNode& item) {
    const std::string text = ScalarOr(item);
    return std::any_of(wanted.begin(), wanted.end(), [&](const char* one) { return text == one; });
  });
}

// Whether a role's rules let create, and update or patch, Secrets of the core group. A
// rule naming resourceNames cannot grant create (the API server has no name to check
// then), so create comes from a rule without them.
bool WritesSecrets(const YamlNode& rules) {
  bool create = false;
  bool update = false;
  if (!rules.IsSequence()) return false;
  for (const YamlNode& rule : rules) {
    if (!Holds(Child(rule, "apiGroups"), {"", "*"}) ||
        !Holds(Child(rule, "resources"), {"secrets", "*"})) {
      continue;
    }
    const YamlNode verbs = Child(rule, "verbs");
    const YamlNode names = Child(rule, "resourceNames");
    if (Holds(verbs, {"create", "*"}) && !(names.IsSequence() && names.size() > 0)) create = true;
    if (Holds(verbs, {"update", "patch", "*"})) update = true;
  }
  return create && update;
}

}  // namespace

bool MayGrantSecretWrites(const std::string& api_version, const std::string& kind) {
  return api_version == kRbacApiVersion && (kind == "Role" || kind == "ClusterRole" ||
                                            kind == "RoleBinding" || kind == "ClusterRoleBinding");
}

std::optional<RbacFact> ReadRbacFact(const Document& doc, const std::string& default_namespace) {
  if (doc.shape() != Document::Shape::kObject ||
      !MayGrantSecretWrites(doc.api_version().str(), doc.kind().str())) {
    return std::nullopt;
  }
  RbacFact fact;
  const std::string& kind = doc.kind().str();
  fact.name = doc.name().str();
  const bool cluster_wide = kind.rfind("Cluster", 0) == 0;
  fact.name_space = cluster_wide ? "" : doc.NamespaceOr(Name(default_namespace)).str();
  if (kind == "Role" || kind == "ClusterRole") {
    fact.kind = kind == "Role" ? RbacFact::Kind::kRole : RbacFact::Kind::kClusterRole;
    if (!WritesSecrets(Child(doc.root(), "rules"))) return std::nullopt;
    return fact;
  }
  fact.kind =
      kind == "RoleBinding" ? RbacFact::Kind::kRoleBinding : RbacFact::Kind::kClusterRoleBinding;
  const YamlNode role = Child(doc.root(), "roleRef");
  fact.role_kind = ScalarOr(Child(role, "kind"));
  fact.role_name = ScalarOr(Child(role, "name"));
  const YamlNode subjects = Child(doc.root(), "subjects");
  if (subjects.IsSequence()) {
    for (const YamlNode& subject : subjects) {
      if (ScalarOr(Child(subject, "kind")) != "ServiceAccount") continue;
      // A RoleBinding's subject without a namespace is of the binding's.
      std::string name_space = ScalarOr(Child(subject, "namespace"), fact.name_space);
      fact.service_accounts.emplace_back(name_space, ScalarOr(Child(subject, "name")));
    }
  }
  if (fact.service_accounts.empty()) return std::nullopt;
  return fact;
}

SecretWriters::SecretWriters(const std::vector<Document>& documents) {
  std::vector<const RbacFact*> bindings;
  std::set<std::pair<std::string, std::string>> roles;  // (namespace or "", name) that write
  for (const Document& doc : documents) {
    const DocumentFacts* facts = doc.facts();
    if (facts == nullptr || !facts->rbac) continue;
    const RbacFact& fact = *facts->rbac;
    // A ClusterRole's namespace is "" already.
    if (fact.kind == RbacFact::Kind::kRole || fact.kind == RbacFact::Kind::kClusterRole) {
      roles.emplace(fact.name_space, fact.name);
    } else {
      bindings.push_back(&fact);
    }
  }
  for (const RbacFact* binding : bindings) {
    // A RoleBinding grants a Role of its namespace or a ClusterRole within its
    // namespace; a ClusterRoleBinding a ClusterRole everywhere. Either way the
    // ServiceAccount may write the Secrets of its own namespace only when the binding
    // reaches there.
    const bool cluster_role = binding->role_kind == "ClusterRole";
    const std::string role_namespace = cluster_role ? "" : binding->name_space;
    if (!cluster_role && binding->role_kind != "Role") continue;
    if (roles.count({role_namespace, binding->role_name}) == 0) continue;
    for (const auto& [name_space, account] : binding->service_accounts) {
      if (binding->kind == RbacFact::Kind::kRoleBinding && name_space != binding->name_space) {
        continue;
      }
      writers_.try_emplace({name_space, account},
                           Rotation{"its reader, which makes its own: " + binding->role_kind + " " +
                                        binding->role_name + " lets its ServiceAccount " +
                                        name_space + "/" + account + " create and update Secrets",
                                    Location{}});
    }
  }
}

const Rotation* SecretWriters::Find(const Name& name_space, const Name& account) const {
  auto found = writers_.find({name_space.str(), account.str()});
  return found == writers_.end() ? nullptr : &found->second;
}

}  // namespace rollcall
