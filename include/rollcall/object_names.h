// Object and release names, checked as the Kubernetes API server and Helm check
// them. rollcall puts names from its input on the command lines of kubectl and
// helm; a name one of them would refuse can name nothing in a cluster, so it is
// never passed on. A valid name starts with a letter or digit, so it can never
// read as an option either (docs/security.md, "External programs").
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rollcall {

// --- The two rules of Kubernetes' apimachinery (validation.IsDNS1123*) ---------

// A DNS-1123 subdomain: at most 253 characters matching
// [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*
bool IsDns1123Subdomain(std::string_view text);
// A DNS-1123 label: at most 63 characters matching [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool IsDns1123Label(std::string_view text);

// Each rule in words, for messages.
inline constexpr const char* kDns1123SubdomainRule =
    "a DNS-1123 subdomain: at most 253 characters, lowercase letters, digits, '-' and '.', "
    "each part between dots starting and ending with a letter or digit";
inline constexpr const char* kDns1123LabelRule =
    "a DNS-1123 label: at most 63 characters, lowercase letters, digits and '-', starting and "
    "ending with a letter or digit";
inline constexpr const char* kHelmReleaseNameRule =
    "Helm's rule: at most 53 characters, lowercase letters, digits, '-' and '.', each part "
    "between dots starting and ending with a letter or digit";

// --- What each name is held to -------------------------------------------------

// A Secret's or ConfigMap's name (ValidateSecretName, ValidateConfigMapName): a subdomain.
bool IsSourceName(std::string_view name);
// A namespace's name (ValidateNamespaceName): a label.
bool IsNamespaceName(std::string_view name);

// The name of a new workload of `kind`, as the API server accepts it; what
// `consumers --restart-commands` may print as a command:
//  - StatefulSet: a label (apps ValidateStatefulSetName; older API servers took a
//    subdomain, but such a StatefulSet cannot create its pods);
//  - CronJob: a subdomain of at most 52 characters (the Jobs it creates append 11);
//  - Deployment, DaemonSet, ReplicaSet, Job, Pod and every other kind, custom
//    resources (an Argo Rollout) included: a subdomain, the rule every object name
//    follows.
bool IsWorkloadName(std::string_view kind, std::string_view name);

// A Helm release name, as Helm 3 and Helm 4 check it (chartutil.ValidateReleaseName):
// the subdomain pattern, at most 53 characters.
bool IsHelmReleaseName(std::string_view name);

// The release name `helm template` gets for a chart directory: the directory's name
// when Helm takes it, else that name made into one (lowercase; runs of other
// characters become '-'; cut to 53), else "release" when nothing is left.
std::string ReleaseNameFor(std::string_view directory_name);

// The message for a name that breaks its rule: "\"-A\" is not a valid namespace name
// (a DNS-1123 label: …)". nullopt when it follows the rule.
std::optional<std::string> NamespaceNameProblem(std::string_view name);
std::optional<std::string> HelmReleaseNameProblem(std::string_view name);

// `name` in double quotes, '"' and '\' escaped with a backslash, the rest made
// Printable (printable.h: "\x1b"): a name that breaks a rule is shown in messages
// without reaching the terminal raw.
std::string QuotedName(std::string_view name);

}  // namespace rollcall
