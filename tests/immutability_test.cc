// Every immutability rule with a change the API server refuses and one it takes.
#include "rollcall/previous/immutability.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rollcall {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<ImmutableViolation> Check(const std::string& previous, const std::string& current) {
  Stream before(previous, "<previous>");
  Stream after(current, "<stdin>");
  std::vector<Document> a = ParseStream(before, Limits{});
  std::vector<Document> b = ParseStream(after, Limits{});
  return FindImmutableChanges(a.at(0), b.at(0));
}

std::vector<std::string> Fields(const std::string& previous, const std::string& current) {
  std::vector<std::string> out;
  for (const ImmutableViolation& violation : Check(previous, current)) {
    out.push_back(violation.field);
  }
  return out;
}

// Replaces the first `from` in `text` with `to`.
std::string Edit(std::string text, const std::string& from, const std::string& to) {
  std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// ---- Job --------------------------------------------------------------------------

const std::string kJob = R"(apiVersion: batch/v1
kind: Job
metadata:
  name: boot
spec:
  backoffLimit: 2
  template:
    metadata:
      annotations:
        rollcall.dev/config-hash: "sha256:aaaa"
    spec:
      restartPolicy: Never
      containers:
        - name: boot
          image: busybox
          resources: {requests: {memory: 64Mi}}
)";

TEST(JobRules, TemplateChangeIsRefused) {
  std::vector<ImmutableViolation> v = Check(kJob, Edit(kJob, "sha256:aaaa", "sha256:bbbb"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].field, "spec.template");
  EXPECT_EQ(v[0].message, "spec.template: Invalid value: field is immutable");
  EXPECT_EQ(v[0].mark.line, 7);  // 0-based: the template's mapping, "metadata:"
}

TEST(JobRules, MutableFieldsAndRespellingsPass) {
  EXPECT_THAT(Fields(kJob, Edit(kJob, "backoffLimit: 2", "backoffLimit: 5")), IsEmpty());
  EXPECT_THAT(Fields(kJob, Edit(kJob, "backoffLimit: 2",
                                "backoffLimit: 2\n  parallelism: 1\n"
                                "  activeDeadlineSeconds: 60")),
              IsEmpty());
  EXPECT_THAT(Fields(kJob, Edit(kJob, "memory: 64Mi", "memory: 65536Ki")), IsEmpty());
  EXPECT_THAT(Fields(kJob, Edit(kJob, "restartPolicy: Never", "restartPolicy: 'Never'")),
              IsEmpty());
}

TEST(JobRules, SelectorChangeIsRefused) {
  std::string with = Edit(kJob, "backoffLimit: 2",
                          "backoffLimit: 2\n  manualSelector: true\n"
                          "  selector: {matchLabels: {job: boot}}");
  EXPECT_THAT(Fields(with, Edit(with, "job: boot", "job: boot2")), ElementsAre("spec.selector"));
  EXPECT_THAT(Fields(with, Edit(with, "{job: boot}", "{'job': \"boot\"}")), IsEmpty());
}

TEST(JobRules, Completions) {
  std::string one = Edit(kJob, "backoffLimit: 2", "completions: 1");
  std::string two = Edit(kJob, "backoffLimit: 2", "completions: 2");
  EXPECT_THAT(Fields(one, two), ElementsAre("spec.completions"));
  EXPECT_EQ(Check(one, two)[0].message, "spec.completions: Invalid value: field is immutable");
  // Neither completions nor parallelism: both default to 1 in the live object.
  EXPECT_THAT(Fields(kJob, one), IsEmpty());
  // Left out of the new manifest only, it is deleted by Helm's three-way patch.
  EXPECT_THAT(Fields(one, kJob), ElementsAre("spec.completions"));
  EXPECT_THAT(Fields(one, Edit(kJob, "backoffLimit: 2", "completions: 0x1")), IsEmpty());
  // An Indexed Job may scale completions together with parallelism.
  std::string indexed =
      Edit(kJob, "backoffLimit: 2", "completionMode: Indexed\n  completions: 3\n  parallelism: 3");
  EXPECT_THAT(Fields(indexed, Edit(Edit(indexed, "completions: 3", "completions: 5"),
                                   "parallelism: 3", "parallelism: 5")),
              IsEmpty());
  std::vector<ImmutableViolation> alone =
      Check(indexed, Edit(indexed, "completions: 3", "completions: 5"));
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_EQ(alone[0].message,
            "spec.completions: Invalid value: can only be modified in tandem with "
            "spec.parallelism");
}

TEST(JobRules, CompletionMode) {
  EXPECT_THAT(Fields(kJob, Edit(kJob, "backoffLimit: 2", "completionMode: NonIndexed")), IsEmpty());
  EXPECT_THAT(Fields(kJob, Edit(kJob, "backoffLimit: 2", "completionMode: Indexed")),
              ElementsAre("spec.completionMode"));
}

TEST(JobRules, OtherImmutableFields) {
  struct Case {
    const char* field;
    const char* before;
    const char* after;
  };
  for (const Case& c : std::vector<Case>{
           {"spec.podFailurePolicy", "podFailurePolicy: {rules: []}",
            "podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: "
            "DisruptionTarget}]}]}"},
           {"spec.backoffLimitPerIndex", "backoffLimitPerIndex: 1", "backoffLimitPerIndex: 2"},
           {"spec.managedBy", "managedBy: kueue.x-k8s.io/multikueue", "managedBy: other.io/x"},
           {"spec.successPolicy", "successPolicy: {rules: [{succeededCount: 1}]}",
            "successPolicy: {rules: [{succeededCount: 2}]}"},
       }) {
    std::string before = Edit(kJob, "backoffLimit: 2", c.before);
    EXPECT_THAT(Fields(before, Edit(kJob, "backoffLimit: 2", c.after)), ElementsAre(c.field));
    EXPECT_THAT(Fields(before, before), IsEmpty()) << c.field;
  }
}

// ---- Deployment, ReplicaSet, DaemonSet ----------------------------------------------

std::string Workload(const std::string& kind) {
  return "apiVersion: apps/v1\nkind: " + kind +
         "\nmetadata: {name: web}\nspec:\n  replicas: 2\n"
         "  selector:\n    matchLabels: {app: web, tier: front}\n"
         "  template:\n    metadata: {labels: {app: web, tier: front}}\n"
         "    spec: {containers: [{name: web, image: 'nginx:1'}]}\n";
}

TEST(WorkloadRules, SelectorChangeIsRefused) {
  for (const char* kind : {"Deployment", "ReplicaSet", "DaemonSet"}) {
    std::string before = Workload(kind);
    std::vector<ImmutableViolation> v =
        Check(before, Edit(before, "{app: web, tier: front}", "{app: web, tier: back}"));
    ASSERT_EQ(v.size(), 1u) << kind;
    EXPECT_EQ(v[0].field, "spec.selector");
    EXPECT_EQ(v[0].message, "spec.selector: Invalid value: field is immutable");
    EXPECT_EQ(v[0].mark.line, 6);  // 0-based: the selector's mapping, "matchLabels:"
  }
}

TEST(WorkloadRules, ReplicasTemplateAndKeyOrderPass) {
  for (const char* kind : {"Deployment", "ReplicaSet", "DaemonSet"}) {
    std::string before = Workload(kind);
    EXPECT_THAT(Fields(before, Edit(before, "replicas: 2", "replicas: 3")), IsEmpty());
    EXPECT_THAT(Fields(before, Edit(before, "'nginx:1'", "'nginx:2'")), IsEmpty());
    EXPECT_THAT(
        Fields(before, Edit(before, "{app: web, tier: front}", "{\"tier\": front, app: web}")),
        IsEmpty());
  }
}

// ---- StatefulSet ------------------------------------------------------------------

const std::string kStatefulSet = R"(apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  replicas: 1
  minReadySeconds: 0
  selector: {matchLabels: {app: db}}
  updateStrategy: {type: RollingUpdate}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: 'postgres:16'}]}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 1Gi}}
)";

TEST(StatefulSetRules, OnlyTheListedFieldsMayChange) {
  const std::string& s = kStatefulSet;
  EXPECT_THAT(Fields(s, Edit(s, "replicas: 1", "replicas: 3")), IsEmpty());
  EXPECT_THAT(Fields(s, Edit(s, "'postgres:16'", "'postgres:17'")), IsEmpty());
  EXPECT_THAT(Fields(s, Edit(s, "type: RollingUpdate", "type: OnDelete")), IsEmpty());
  EXPECT_THAT(Fields(s, Edit(s, "minReadySeconds: 0", "minReadySeconds: 10")), IsEmpty());
  EXPECT_THAT(Fields(s, Edit(s, "minReadySeconds: 0",
                             "ordinals: {start: 1}\n"
                             "  persistentVolumeClaimRetentionPolicy:"
                             " {whenDeleted: Delete}")),
              IsEmpty());
  // Defaults written out, and claim template fields the API server drops.
  EXPECT_THAT(Fields(s, Edit(s, "replicas: 1",
                             "replicas: 1\n  podManagementPolicy: OrderedReady\n"
                             "  revisionHistoryLimit: 10")),
              IsEmpty());
  EXPECT_THAT(Fields(s, Edit(s, "- metadata: {name: data}",
                             "- apiVersion: v1\n      kind: PersistentVolumeClaim\n"
                             "      metadata: {name: data}")),
              IsEmpty());
  EXPECT_THAT(Fields(s, Edit(s, "storage: 1Gi", "storage: 1024Mi")), IsEmpty());
}

TEST(StatefulSetRules, ClaimTemplateChangeIsRefused) {
  std::vector<ImmutableViolation> v =
      Check(kStatefulSet, Edit(kStatefulSet, "storage: 1Gi", "storage: 2Gi"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].field, "spec.volumeClaimTemplates");
  EXPECT_EQ(v[0].message, "spec.volumeClaimTemplates: Invalid value: field is immutable");
  EXPECT_EQ(v[0].mark.line, 13);  // the first claim template
}

// As Kubernetes 1.35 and later refuse them, each field by name (v1.37.2:
// `spec.serviceName: Invalid value: "db-headless": field is immutable`).
TEST(StatefulSetRules, FourFieldsMayNotChange) {
  const std::string& s = kStatefulSet;
  EXPECT_THAT(Fields(s, Edit(s, "serviceName: db", "serviceName: db-headless")),
              ElementsAre("spec.serviceName"));
  EXPECT_THAT(Fields(s, Edit(s, "{app: db}}\n  update", "{app: db2}}\n  update")),
              ElementsAre("spec.selector"));
  EXPECT_THAT(Fields(s, Edit(s, "replicas: 1", "replicas: 1\n  podManagementPolicy: Parallel")),
              ElementsAre("spec.podManagementPolicy"));
}

// Refused by Kubernetes 1.34 and earlier, accepted since 1.35 (every release still
// supported); v1.37.2 accepts it (tests/cluster/preflight.sh,
// statefulset-revision-history-limit).
TEST(StatefulSetRules, RevisionHistoryLimitMayChange) {
  const std::string& s = kStatefulSet;
  EXPECT_THAT(Fields(s, Edit(s, "replicas: 1", "replicas: 1\n  revisionHistoryLimit: 3")),
              IsEmpty());
}

// ---- Service ----------------------------------------------------------------------

std::string Service(const std::string& spec_lines) {
  return "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n" + spec_lines +
         "  ports: [{port: 80}]\n";
}

TEST(ServiceRules, ClusterIp) {
  std::string unset = Service("  type: ClusterIP\n");
  std::string set = Service("  clusterIP: 10.96.0.10\n");
  std::string other = Service("  clusterIP: 10.96.0.11\n");
  EXPECT_THAT(Fields(unset, set), IsEmpty());  // the allocated IP is unknown: allowed
  EXPECT_THAT(Fields(set, unset), IsEmpty());  // left out: the API server keeps it
  EXPECT_THAT(Fields(set, Service("  clusterIPs: [10.96.0.10]\n")), IsEmpty());
  std::vector<ImmutableViolation> v = Check(set, other);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].field, "spec.clusterIPs[0]");
  EXPECT_EQ(v[0].message, "spec.clusterIPs[0]: Invalid value: may not change once set");
  EXPECT_THAT(Fields(Service("  clusterIPs: [10.96.0.10, 'fd00::10']\n"),
                     Service("  clusterIPs: [10.96.0.10, 'fd00::11']\n")),
              ElementsAre("spec.clusterIPs[1]"));
  EXPECT_THAT(Fields(Service("  clusterIPs: [10.96.0.10]\n"),
                     Service("  clusterIPs: [10.96.0.10, 'fd00::10']\n")),
              IsEmpty());  // adding a secondary: an upgrade
}

TEST(ServiceRules, HeadlessAndExternalName) {
  std::string headless = Service("  clusterIP: None\n");
  EXPECT_THAT(Fields(headless, headless), IsEmpty());
  EXPECT_THAT(Fields(headless, Service("  clusterIP: 10.96.0.10\n")),
              ElementsAre("spec.clusterIPs[0]"));
  EXPECT_THAT(Fields(Service("  clusterIP: 10.96.0.10\n"),
                     Service("  type: ExternalName\n  externalName: db.example.com\n")),
              IsEmpty());
}

TEST(ServiceRules, IpFamilies) {
  std::string v4 = Service("  ipFamilies: [IPv4]\n");
  EXPECT_THAT(Fields(v4, Service("  ipFamilies: [IPv6]\n")), ElementsAre("spec.ipFamilies[0]"));
  EXPECT_EQ(Check(v4, Service("  ipFamilies: [IPv6]\n"))[0].message,
            "spec.ipFamilies[0]: Invalid value: may not change once set");
  EXPECT_THAT(Fields(v4, Service("  ipFamilies: [IPv4, IPv6]\n")), IsEmpty());
  EXPECT_THAT(Fields(v4, Service("  type: ClusterIP\n")), IsEmpty());
}

TEST(ServiceRules, HealthCheckNodePort) {
  std::string local =
      "  type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: 30001\n";
  std::vector<ImmutableViolation> v = Check(Service(local), Service(Edit(local, "30001", "30002")));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].field, "spec.healthCheckNodePort");
  EXPECT_EQ(v[0].message,
            "spec.healthCheckNodePort: Invalid value: cannot change healthCheckNodePort on "
            "loadBalancer service with externalTraffic=Local during update");
  EXPECT_THAT(Fields(Service(Edit(local, "  healthCheckNodePort: 30001\n", "")), Service(local)),
              IsEmpty());
  EXPECT_THAT(Fields(Service(local), Service(Edit(local, "Local", "Cluster"))), IsEmpty());
}

// ---- PersistentVolumeClaim --------------------------------------------------------

const std::string kClaim = R"(apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
)";

TEST(PersistentVolumeClaimRules, Storage) {
  EXPECT_THAT(Fields(kClaim, Edit(kClaim, "1Gi", "2Gi")), IsEmpty());
  EXPECT_THAT(Fields(kClaim, Edit(kClaim, "1Gi", "1024Mi")), IsEmpty());
  EXPECT_THAT(Fields(kClaim, Edit(kClaim, "1Gi", "1073741824")), IsEmpty());
  std::vector<ImmutableViolation> v = Check(Edit(kClaim, "1Gi", "2Gi"), kClaim);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].field, "spec.resources.requests.storage");
  EXPECT_EQ(v[0].message,
            "spec.resources.requests.storage: Forbidden: field can not be less than previous "
            "value");
  EXPECT_EQ(v[0].mark.line, 7);
  EXPECT_THAT(Fields(kClaim, Edit(kClaim, "1Gi", "1000Mi")),
              ElementsAre("spec.resources.requests.storage"));
}

TEST(PersistentVolumeClaimRules, RestOfSpec) {
  std::vector<ImmutableViolation> v =
      Check(kClaim, Edit(kClaim, "[ReadWriteOnce]", "[ReadWriteMany]"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].field, "spec");
  EXPECT_EQ(v[0].message,
            "spec: Forbidden: spec is immutable after creation except resources.requests and "
            "volumeAttributesClassName for bound claims");
  EXPECT_EQ(v[0].mark.line, 4);
  EXPECT_THAT(Fields(kClaim, Edit(kClaim, "storage: 1Gi",
                                  "storage: 1Gi\n    limits: {storage: "
                                  "2Gi}")),
              ElementsAre("spec"));
  EXPECT_THAT(Fields(kClaim, Edit(kClaim, "  accessModes", "  volumeMode: Block\n  accessModes")),
              ElementsAre("spec"));
}

TEST(PersistentVolumeClaimRules, FieldsThatMayBeSet) {
  EXPECT_THAT(
      Fields(kClaim, Edit(kClaim, "  accessModes", "  volumeMode: Filesystem\n  accessModes")),
      IsEmpty());
  EXPECT_THAT(Fields(kClaim, Edit(kClaim, "  accessModes",
                                  "  storageClassName: fast\n"
                                  "  volumeName: pv-1\n"
                                  "  volumeAttributesClassName: gold\n"
                                  "  accessModes")),
              IsEmpty());
  std::string fast = Edit(kClaim, "  accessModes", "  storageClassName: fast\n  accessModes");
  EXPECT_THAT(Fields(fast, Edit(fast, "fast", "slow")), ElementsAre("spec"));
  std::string bound = Edit(kClaim, "  accessModes", "  volumeName: pv-1\n  accessModes");
  EXPECT_THAT(Fields(bound, Edit(bound, "pv-1", "pv-2")), ElementsAre("spec"));
  std::string gold =
      Edit(kClaim, "  accessModes", "  volumeAttributesClassName: gold\n  accessModes");
  EXPECT_THAT(Fields(gold, Edit(gold, "gold", "silver")), IsEmpty());
}

// ---- Secret and ConfigMap ---------------------------------------------------------

std::string Secret(const std::string& body) {
  return "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\n" + body;
}

TEST(SecretRules, Type) {
  std::string opaque = Secret("type: Opaque\ndata: {a: YQ==}\n");
  EXPECT_THAT(Fields(opaque, Edit(opaque, "Opaque", "kubernetes.io/tls")), ElementsAre("type"));
  EXPECT_EQ(Check(opaque, Edit(opaque, "Opaque", "kubernetes.io/tls"))[0].message,
            "type: Invalid value: field is immutable");
  EXPECT_THAT(Fields(opaque, Secret("data: {a: YQ==}\n")), IsEmpty());  // defaults to Opaque
}

TEST(SecretRules, ImmutableContent) {
  std::string before = Secret("immutable: true\nstringData: {password: s3cret}\n");
  std::vector<ImmutableViolation> v = Check(before, Edit(before, "s3cret", "n3w-s3cret"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].field, "data");
  EXPECT_EQ(v[0].message, "data: Forbidden: field is immutable when `immutable` is set");
  EXPECT_EQ(v[0].message.find("s3cret"), std::string::npos);
  // Mutable Secrets change freely.
  std::string mutable_secret = Secret("stringData: {password: s3cret}\n");
  EXPECT_THAT(Fields(mutable_secret, Edit(mutable_secret, "s3cret", "n3w")), IsEmpty());
  // The same bytes as data (base64, line-wrapped or not) or as stringData.
  EXPECT_THAT(Fields(before, Secret("immutable: yes\ndata:\n  password: czNjcmV0\n")), IsEmpty());
  EXPECT_THAT(Fields(Secret("immutable: true\ndata:\n  password: |\n    czNj\n    cmV0\n"), before),
              IsEmpty());
  EXPECT_THAT(Fields(before, Secret("immutable: true\ndata: {password: czNjcmV1}\n")),
              ElementsAre("data"));
}

TEST(SecretRules, ImmutableFlag) {
  std::string before = Secret("immutable: true\ndata: {a: YQ==}\n");
  std::vector<ImmutableViolation> v = Check(before, Secret("data: {a: YQ==}\n"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].field, "immutable");
  EXPECT_EQ(v[0].message, "immutable: Forbidden: field is immutable when `immutable` is set");
  EXPECT_THAT(Fields(before, Edit(before, "true", "false")), ElementsAre("immutable"));
  EXPECT_THAT(Fields(Secret("data: {a: YQ==}\n"), before), IsEmpty());  // may become immutable
}

std::string ConfigMap(const std::string& body) {
  return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\n" + body;
}

TEST(ConfigMapRules, ImmutableContent) {
  std::string before = ConfigMap("immutable: true\ndata: {mode: fast}\nbinaryData: {blob: AAE=}\n");
  EXPECT_THAT(Fields(before, Edit(before, "fast", "slow")), ElementsAre("data"));
  EXPECT_EQ(Check(before, Edit(before, "fast", "slow"))[0].message,
            "data: Forbidden: field is immutable when `immutable` is set");
  EXPECT_THAT(Fields(before, Edit(before, "AAE=", "AAI=")), ElementsAre("binaryData"));
  EXPECT_THAT(Fields(before, Edit(before, "immutable: true\n", "")), ElementsAre("immutable"));
  EXPECT_THAT(Fields(before, Edit(before, "{mode: fast}", "{'mode': \"fast\"}")), IsEmpty());
  std::string mutable_map = ConfigMap("data: {mode: fast}\n");
  EXPECT_THAT(Fields(mutable_map, Edit(mutable_map, "fast", "slow")), IsEmpty());
}

// ---- RBAC, StorageClass, CustomResourceDefinition -------------------------------------

TEST(RoleBindingRules, RoleRef) {
  for (const std::string kind : {"RoleBinding", "ClusterRoleBinding"}) {
    std::string before = "apiVersion: rbac.authorization.k8s.io/v1\nkind: " + kind +
                         "\nmetadata: {name: b}\nroleRef: {apiGroup: rbac.authorization.k8s.io,"
                         " kind: ClusterRole, name: view}\nsubjects: [{kind: User, name: a}]\n";
    std::vector<ImmutableViolation> v = Check(before, Edit(before, "name: view", "name: edit"));
    ASSERT_EQ(v.size(), 1u) << kind;
    EXPECT_EQ(v[0].field, "roleRef");
    EXPECT_EQ(v[0].message, "roleRef: Invalid value: cannot change roleRef");
    EXPECT_THAT(Fields(before, Edit(before, "kind: ClusterRole,", "kind: Role,")),
                ElementsAre("roleRef"));
    EXPECT_THAT(Fields(before, Edit(before, "name: a}", "name: b}")), IsEmpty());
    EXPECT_THAT(Fields(before, Edit(before, "apiGroup: rbac.authorization.k8s.io, ", "")),
                IsEmpty());  // the default
  }
}

const std::string kStorageClass = R"(apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast}
provisioner: ebs.csi.aws.com
parameters: {type: gp3, iops: "3000"}
allowVolumeExpansion: true
)";

TEST(StorageClassRules, ImmutableFields) {
  const std::string& s = kStorageClass;
  EXPECT_THAT(Fields(s, Edit(s, "gp3", "io2")), ElementsAre("parameters"));
  EXPECT_EQ(Check(s, Edit(s, "gp3", "io2"))[0].message,
            "parameters: Forbidden: updates to parameters are forbidden.");
  EXPECT_THAT(Fields(s, Edit(s, "ebs.csi.aws.com", "efs.csi.aws.com")), ElementsAre("provisioner"));
  EXPECT_EQ(Check(s, Edit(s, "ebs.csi.aws.com", "efs.csi.aws.com"))[0].message,
            "provisioner: Forbidden: updates to provisioner are forbidden.");
  EXPECT_THAT(Fields(s, s + "reclaimPolicy: Retain\n"), ElementsAre("reclaimPolicy"));
  EXPECT_EQ(Check(s, s + "reclaimPolicy: Retain\n")[0].message,
            "reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.");
  EXPECT_THAT(Fields(s, s + "volumeBindingMode: WaitForFirstConsumer\n"),
              ElementsAre("volumeBindingMode"));
  EXPECT_EQ(Check(s, s + "volumeBindingMode: WaitForFirstConsumer\n")[0].message,
            "volumeBindingMode: Invalid value: field is immutable");
}

TEST(StorageClassRules, DefaultsAndMutableFieldsPass) {
  const std::string& s = kStorageClass;
  EXPECT_THAT(Fields(s, s + "reclaimPolicy: Delete\nvolumeBindingMode: Immediate\n"), IsEmpty());
  EXPECT_THAT(Fields(s, Edit(s, "allowVolumeExpansion: true", "allowVolumeExpansion: false")),
              IsEmpty());
  EXPECT_THAT(Fields(s, Edit(s, "{type: gp3, iops: \"3000\"}", "{iops: '3000', type: gp3}")),
              IsEmpty());
}

const std::string kCrd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}
  versions: [{name: v1, served: true, storage: true}]
)";

TEST(CustomResourceDefinitionRules, NamesGroupAndScope) {
  EXPECT_THAT(Fields(kCrd, Edit(kCrd, "group: example.com", "group: example.org")),
              ElementsAre("spec.group"));
  EXPECT_EQ(Check(kCrd, Edit(kCrd, "group: example.com", "group: example.org"))[0].message,
            "spec.group: Invalid value: field is immutable");
  EXPECT_THAT(Fields(kCrd, Edit(kCrd, "plural: widgets", "plural: gadgets")),
              ElementsAre("spec.names.plural"));
  EXPECT_THAT(Fields(kCrd, Edit(kCrd, "kind: Widget", "kind: Gadget")),
              ElementsAre("spec.names.kind"));
  EXPECT_THAT(Fields(kCrd, Edit(kCrd, "scope: Namespaced", "scope: Cluster")),
              ElementsAre("spec.scope"));
}

TEST(CustomResourceDefinitionRules, OtherChangesPass) {
  EXPECT_THAT(Fields(kCrd, Edit(kCrd, "[wd]", "[wd, wdg]")), IsEmpty());
  EXPECT_THAT(Fields(kCrd, Edit(kCrd, "storage: true}]",
                                "storage: true}, {name: v2, served: "
                                "true, storage: false}]")),
              IsEmpty());
}

// ---- Matching ---------------------------------------------------------------------

TEST(Matching, OtherKindsAndGroupsGiveNothing) {
  std::string before = Workload("Deployment");
  std::string moved = Edit(before, "{app: web, tier: front}", "{app: web}");
  EXPECT_THAT(Fields(Edit(before, "apps/v1", "extensions/v1beta1"), moved), IsEmpty());
  EXPECT_THAT(Fields(Edit(before, "Deployment", "StatefulSet"), moved), IsEmpty());
  EXPECT_THAT(
      Fields(Edit(before, "apps/v1", "example.com/v1"), Edit(moved, "apps/v1", "example.com/v1")),
      IsEmpty());
  EXPECT_THAT(Fields("a: 1\n", "a: 2\n"), IsEmpty());  // not objects
  EXPECT_EQ(ApiGroup("apps/v1"), "apps");
  EXPECT_EQ(ApiGroup("v1"), "");
}

}  // namespace
}  // namespace rollcall
