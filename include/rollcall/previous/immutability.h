// The immutability preflight: fields the API server refuses to change on an object
// that already exists. Comparing each object of the previous release with the same
// object now rendered tells, before Helm touches the cluster, which upgrade would
// fail with `field is immutable` (issue 4).
//
// Values are compared as the API server reads them (semantic_equal.h), so a change
// of spelling (`1Gi` → `1024Mi`, `yes` → `true`, key order) is no change.
#pragma once

#include <string>
#include <vector>

#include "rollcall/document.h"
#include "rollcall/yaml_tree.h"

namespace rollcall {

struct ImmutableViolation {
  std::string field;    // "spec.selector", "spec.template", "spec.clusterIPs[0]", "data", …
  std::string message;  // the API server's text: "spec.selector: Invalid value: field is immutable"
  YamlMark mark;        // in the current document: the changed field, else its nearest
                        // ancestor present, else the object
};

// The changes the API server would refuse between `previous` (the object as in the
// previous release) and `current` (the same object as rendered now). The caller
// matches the two: same apiVersion group, kind, namespace and name; it also skips
// hook objects, which Helm recreates. Objects of other kinds, or of different kinds
// or groups, give no violations.
//
// Messages never carry a value: the API server would print the new value, but for a
// Secret or ConfigMap that is secret content (design.md, decision 7), and for other
// fields the path says enough. They use the API server's own form for an omitted
// value: "<field>: Invalid value: <detail>" and "<field>: Forbidden: <detail>".
//
// Rules, by apiVersion group and kind:
//   batch Job            spec.selector, spec.template, spec.completions (an Indexed Job may
//                        change it together with parallelism), spec.completionMode,
//                        spec.podFailurePolicy, spec.backoffLimitPerIndex, spec.managedBy,
//                        spec.successPolicy
//   apps Deployment, ReplicaSet, DaemonSet   spec.selector
//   apps StatefulSet     spec.selector, spec.volumeClaimTemplates, spec.serviceName,
//                        spec.podManagementPolicy (Kubernetes 1.35 and later: the rest of
//                        spec may change, revisionHistoryLimit too)
//   core Service         spec.clusterIPs[0] (from clusterIP/clusterIPs) and spec.ipFamilies
//                        once set, spec.healthCheckNodePort of a LoadBalancer with
//                        externalTrafficPolicy Local
//   core PersistentVolumeClaim   spec, except a larger resources.requests.storage,
//                        volumeAttributesClassName, and a first volumeName/storageClassName
//   core Secret          type; with immutable: true also data (stringData included) and
//                        immutable itself
//   core ConfigMap       with immutable: true, data, binaryData and immutable itself
//   rbac.authorization.k8s.io RoleBinding, ClusterRoleBinding   roleRef
//   storage.k8s.io StorageClass   parameters, provisioner, reclaimPolicy, volumeBindingMode
//   apiextensions.k8s.io CustomResourceDefinition   spec.group, spec.names.plural,
//                        spec.scope, spec.names.kind
std::vector<ImmutableViolation> FindImmutableChanges(const Document& previous,
                                                     const Document& current);

// The API group of an apiVersion: "apps" for "apps/v1", "" (core) for "v1".
std::string ApiGroup(const std::string& api_version);

}  // namespace rollcall
