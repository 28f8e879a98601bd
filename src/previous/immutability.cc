// The immutability preflight. Each rule mirrors an update validation of the API
// server (k8s.io/kubernetes pkg/apis/*/validation, the Service REST storage,
// apiextensions-apiserver), applied to the manifests of two releases. What the
// manifests cannot tell (the live object, its status, feature gates) is assumed as a
// current cluster has it; each assumption is named where it is made.
#include "rollcall/previous/immutability.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

#include "rollcall/base64.h"
#include "rollcall/previous/semantic_equal.h"

namespace rollcall {
namespace {

using Path = std::vector<std::string>;

constexpr const char* kPvcMessage =
    "spec is immutable after creation except resources.requests and volumeAttributesClassName "
    "for bound claims";
constexpr const char* kWhenImmutable = "field is immutable when `immutable` is set";

// The API server's field.Error text for an error whose value is left out.
std::string Invalid(const std::string& field, const std::string& detail) {
  return field + ": Invalid value: " + detail;
}
std::string Forbidden(const std::string& field, const std::string& detail) {
  return field + ": Forbidden: " + detail;
}

std::string Join(const Path& path) {
  std::string out;
  for (const std::string& key : path) out += (out.empty() ? "" : ".") + key;
  return out;
}

YamlNode Undefined() { return {}; }

// The value at `key` of a mapping as Kubernetes reads it (merge keys, last duplicate).
YamlNode Field(const YamlNode& map, const std::string& key) {
  std::map<std::string, YamlNode> entries = JsonObject(map);
  auto it = entries.find(key);
  return it == entries.end() ? Undefined() : it->second;
}

YamlNode At(const YamlNode& root, const Path& path) {
  YamlNode node = root;
  for (const std::string& key : path) {
    YamlNode next = Field(node, key);
    node.reset(next);  // reset(), not operator=, which would write into the tree
  }
  return node;
}

bool Nullish(const YamlNode& node) {
  return ResolveScalar(node).type == ResolvedScalar::Type::kNull;
}

// A scalar field as the API server holds it: absent, null and "" read as `fallback`
// (a defaulted field, or "" for a plain Go string); a number as its JSON text.
std::string StringField(const YamlNode& node, const std::string& fallback = "") {
  if (Nullish(node) || !node.IsScalar()) return fallback;
  std::string text = JsonScalarText(ResolveScalar(node));
  return text.empty() ? fallback : text;
}

bool IsCollection(const YamlNode& node) {
  return node.IsDefined() && (node.IsMap() || node.IsSequence());
}

// Equality of a scalar field with a default; collections (not what the field
// takes) compare as values.
bool SameScalar(const YamlNode& a, const YamlNode& b, const std::string& fallback = "") {
  if (IsCollection(a) || IsCollection(b)) return SemanticEqual(a, b, ApiSemantics());
  return StringField(a, fallback) == StringField(b, fallback);
}

// Equality of two resource quantities, read from a JSON string or number alike.
bool SameQuantity(const YamlNode& a, const YamlNode& b) {
  if (a.IsDefined() && a.IsScalar() && b.IsDefined() && b.IsScalar()) {
    std::string ta = JsonScalarText(ResolveScalar(a));
    std::string tb = JsonScalarText(ResolveScalar(b));
    if (IsQuantity(ta) && IsQuantity(tb)) return QuantityEqual(ta, tb);
  }
  return SemanticEqual(a, b, ApiSemantics());
}

// The items of a sequence ([] for anything else), sharing the document's nodes.
std::vector<YamlNode> Items(const YamlNode& node) {
  std::vector<YamlNode> out;
  if (!node.IsDefined() || !node.IsSequence()) return out;
  for (const auto& item : node) out.emplace_back(item);  // copies share; never assign
  return out;
}

bool IsTrue(const YamlNode& node) {
  ResolvedScalar scalar = ResolveScalar(node);
  return scalar.type == ResolvedScalar::Type::kBool && scalar.boolean;
}

// A sequence of strings ([] for anything else).
std::vector<std::string> Strings(const YamlNode& node) {
  std::vector<std::string> out;
  for (const YamlNode& item : Items(node)) out.push_back(StringField(item));
  return out;
}

// Key → bytes of a Secret's data or a ConfigMap's binaryData (base64-decoded), or
// of a ConfigMap's data or a Secret's stringData. Undecodable base64 keeps its text
// behind a byte no decoded value starts with here; the API server rejects it anyway.
std::map<std::string, std::string> Entries(const YamlNode& map, bool base64) {
  constexpr char kUndecodable = '\x01';
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : JsonObject(map)) {
    std::string text(value.Scalar());  // "" for anything but a scalar
    if (base64) {
      std::optional<std::string> decoded = DecodeBase64(text);
      text = decoded ? *decoded : text.insert(0, 1, kUndecodable);
    }
    out[key] = text;
  }
  return out;
}

class Checker {
 public:
  Checker(const Document& previous, const Document& current)
      : previous_(previous.root()), current_(current.root()) {}

  std::vector<ImmutableViolation> Take() { return std::move(violations_); }

  YamlNode Previous(const Path& path) const { return At(previous_, path); }
  YamlNode Current(const Path& path) const { return At(current_, path); }

  // Marks the deepest node of `path` the current document has.
  void Add(const std::string& field, const std::string& message, const Path& path) {
    YamlMark mark = current_.Mark();
    YamlNode node = current_;
    for (const std::string& key : path) {
      YamlNode next = Field(node, key);
      if (!next.IsDefined()) break;
      mark = next.Mark();
      node.reset(next);
    }
    violations_.push_back({field, message, mark});
  }

  // apivalidation.ValidateImmutableField: Semantic.DeepEqual or "field is immutable".
  void Immutable(const Path& path) {
    if (!SemanticEqual(Previous(path), Current(path), ApiSemantics())) {
      Add(Join(path), Invalid(Join(path), "field is immutable"), path);
    }
  }

  // The same for a scalar field the API server defaults to `fallback`.
  void ImmutableScalar(const Path& path, const std::string& fallback = "") {
    if (!SameScalar(Previous(path), Current(path), fallback)) {
      Add(Join(path), Invalid(Join(path), "field is immutable"), path);
    }
  }

  // Compares the fields of the mappings at `path` except `mutable_keys`: scalars in
  // `defaults` with their default for an absent one, every value as a resource
  // quantity when `quantities`. Returns the changed keys, current's first, in order.
  std::vector<std::string> ChangedKeys(const Path& path,
                                       const std::vector<std::string>& mutable_keys,
                                       const std::map<std::string, std::string>& defaults,
                                       bool quantities = false) const {
    const std::map<std::string, YamlNode> before = JsonObject(Previous(path));
    const std::map<std::string, YamlNode> after = JsonObject(Current(path));
    auto value = [](const std::map<std::string, YamlNode>& map, const std::string& key) {
      auto it = map.find(key);
      return it == map.end() ? Undefined() : it->second;
    };
    std::vector<std::pair<std::size_t, std::string>> changed;  // (position in current, key)
    auto check = [&](const std::string& key) {
      if (std::find(mutable_keys.begin(), mutable_keys.end(), key) != mutable_keys.end()) return;
      YamlNode a = value(before, key);
      YamlNode b = value(after, key);
      auto fallback = defaults.find(key);
      bool same = fallback != defaults.end() ? SameScalar(a, b, fallback->second)
                  : quantities               ? SameQuantity(a, b)
                                             : SemanticEqualAt(key, a, b, ApiSemantics());
      if (same) return;
      std::size_t position = b.IsDefined() ? static_cast<std::size_t>(b.Mark().pos) : SIZE_MAX;
      changed.emplace_back(position, key);
    };
    for (const auto& entry : after) check(entry.first);
    for (const auto& entry : before) {
      if (after.count(entry.first) == 0) check(entry.first);
    }
    std::sort(changed.begin(), changed.end());
    std::vector<std::string> keys;
    keys.reserve(changed.size());
    for (auto& entry : changed) keys.push_back(std::move(entry.second));
    return keys;
  }

 private:
  const YamlNode previous_;
  const YamlNode current_;
  std::vector<ImmutableViolation> violations_;
};

// pkg/apis/batch/validation ValidateJobSpecUpdate. Assumed: the Job is not a
// suspended one that never started (those may change scheduling directives of the
// template), and ElasticIndexedJob is on (GA in 1.31).
void CheckJob(Checker& c) {
  // The live completions: as the previous manifest wrote it, else as SetDefaults_Job
  // filled it in (1 when parallelism was not given either). A field the new manifest
  // leaves out keeps the live value when the previous one left it out too: Helm's
  // three-way patch touches only what a manifest wrote. Dropped from the manifest,
  // it is deleted, and stays nil (parallelism, defaulted, is never nil by then).
  YamlNode spec_before = c.Previous({"spec"});
  YamlNode written_before = Field(spec_before, "completions");
  YamlNode written_after = c.Current({"spec", "completions"});
  std::string before = !Nullish(written_before)                     ? StringField(written_before)
                       : Nullish(Field(spec_before, "parallelism")) ? "1"
                                                                    : "";
  std::string after = !Nullish(written_after)    ? StringField(written_after)
                      : !Nullish(written_before) ? ""
                                                 : before;
  if (before != after) {
    bool indexed = StringField(c.Current({"spec", "completionMode"})) == "Indexed";
    if (!indexed) {
      c.Add("spec.completions", Invalid("spec.completions", "field is immutable"),
            {"spec", "completions"});
    } else if (!after.empty() && after != StringField(c.Current({"spec", "parallelism"}))) {
      c.Add("spec.completions",
            Invalid("spec.completions", "can only be modified in tandem with spec.parallelism"),
            {"spec", "completions"});
    }
  }
  c.Immutable({"spec", "selector"});
  c.Immutable({"spec", "template"});
  c.ImmutableScalar({"spec", "completionMode"}, "NonIndexed");
  c.Immutable({"spec", "podFailurePolicy"});
  c.Immutable({"spec", "backoffLimitPerIndex"});
  c.ImmutableScalar({"spec", "managedBy"});
  c.Immutable({"spec", "successPolicy"});
}

// pkg/apis/apps/validation ValidateStatefulSetUpdate, as every release still supported
// (1.35 and later) has it: selector, volumeClaimTemplates, serviceName and
// podManagementPolicy may not change; the rest of spec may (revisionHistoryLimit too,
// which 1.34 and earlier refused). Checked on a real API server, v1.37.2
// (tests/cluster/preflight.sh), whose messages name the field, as these do.
void CheckStatefulSet(Checker& c) {
  c.Immutable({"spec", "selector"});
  // A claim template's apiVersion, kind and status are dropped when the API server
  // converts it, so only its metadata and spec count.
  const Path templates = {"spec", "volumeClaimTemplates"};
  YamlNode before = c.Previous(templates);
  YamlNode after = c.Current(templates);
  std::vector<YamlNode> a = Items(before);
  std::vector<YamlNode> b = Items(after);
  bool same = IsCollection(before) == before.IsSequence() &&
              IsCollection(after) == after.IsSequence() && a.size() == b.size();
  for (std::size_t i = 0; same && i < a.size(); ++i) {
    same = SemanticEqual(Field(a[i], "metadata"), Field(b[i], "metadata"), ApiSemantics()) &&
           SemanticEqual(Field(a[i], "spec"), Field(b[i], "spec"), ApiSemantics());
  }
  if (!same) c.Add(Join(templates), Invalid(Join(templates), "field is immutable"), templates);
  c.ImmutableScalar({"spec", "serviceName"});
  c.ImmutableScalar({"spec", "podManagementPolicy"}, "OrderedReady");
}

// The Service's primary and secondary cluster IPs: clusterIPs, else clusterIP.
std::vector<std::string> ClusterIps(const YamlNode& spec) {
  std::vector<std::string> ips = Strings(Field(spec, "clusterIPs"));
  if (ips.empty()) {
    std::string ip = StringField(Field(spec, "clusterIP"));
    if (!ip.empty()) ips.push_back(ip);
  }
  return ips;
}

// core validation ValidateServiceUpdate (validateUpgradeDowngradeClusterIPs and
// …IPFamilies) and the Service storage's healthCheckNodePort rule. A field the new
// manifest leaves out keeps its allocated value (the API server copies it from the
// live object), so only a set value that differs is a change. Changing to or from
// type ExternalName releases the IPs and is allowed.
void CheckService(Checker& c) {
  YamlNode before = c.Previous({"spec"});
  YamlNode after = c.Current({"spec"});
  std::string type_before = StringField(Field(before, "type"), "ClusterIP");
  std::string type_after = StringField(Field(after, "type"), "ClusterIP");
  if (type_before != "ExternalName" && type_after != "ExternalName") {
    std::vector<std::string> ips_before = ClusterIps(before);
    std::vector<std::string> ips_after = ClusterIps(after);
    if (ips_after.empty()) ips_after = ips_before;
    bool headless_before = !ips_before.empty() && ips_before[0] == "None";
    bool headless_after = !ips_after.empty() && ips_after[0] == "None";
    if (!(headless_before && headless_after) && !ips_before.empty()) {
      for (std::size_t i = 0; i < 2 && i < ips_before.size() && i < ips_after.size(); ++i) {
        // The secondary is compared only when both have one; dropping or adding it is
        // a downgrade or upgrade, with rules of its own.
        if (i == 1 && ips_before.size() != ips_after.size()) break;
        if (ips_before[i] != ips_after[i]) {
          std::string field = "spec.clusterIPs[" + std::to_string(i) + "]";
          bool listed = Field(after, "clusterIPs").IsDefined();
          c.Add(field, Invalid(field, "may not change once set"),
                {"spec", listed || i == 1 ? "clusterIPs" : "clusterIP"});
          break;
        }
      }
    }
    std::vector<std::string> families_before = Strings(Field(before, "ipFamilies"));
    std::vector<std::string> families_after = Strings(Field(after, "ipFamilies"));
    // Adding or dropping the secondary family is an upgrade or a downgrade; the
    // primary may not change, nor either of the same number.
    bool changed =
        !families_before.empty() && !families_after.empty() &&
        (families_before.size() == families_after.size() ? families_before != families_after
                                                         : families_before[0] != families_after[0]);
    if (!headless_before && !headless_after && changed) {
      c.Add("spec.ipFamilies[0]", Invalid("spec.ipFamilies[0]", "may not change once set"),
            {"spec", "ipFamilies"});
    }
  }
  auto needs_health_check_port = [](const YamlNode& spec) {
    return StringField(Field(spec, "type")) == "LoadBalancer" &&
           StringField(Field(spec, "externalTrafficPolicy")) == "Local";
  };
  YamlNode port_before = Field(before, "healthCheckNodePort");
  YamlNode port_after = Field(after, "healthCheckNodePort");
  auto set = [](const YamlNode& port) { return !Nullish(port) && StringField(port) != "0"; };
  if (needs_health_check_port(before) && needs_health_check_port(after) && set(port_before) &&
      set(port_after) && !SemanticEqual(port_before, port_after)) {
    c.Add("spec.healthCheckNodePort",
          Invalid("spec.healthCheckNodePort",
                  "cannot change healthCheckNodePort on loadBalancer service with "
                  "externalTraffic=Local during update"),
          {"spec", "healthCheckNodePort"});
  }
}

// core validation ValidatePersistentVolumeClaimUpdate. Assumed: the claim is bound
// (only a bound claim may change resources.requests) and RecoverVolumeExpansionFailure
// has nothing to recover (with it, a smaller request down to status.capacity passes).
void CheckPersistentVolumeClaim(Checker& c) {
  YamlNode before = c.Previous({"spec"});
  YamlNode after = c.Current({"spec"});
  std::vector<std::string> mutable_keys = {"resources", "volumeAttributesClassName"};
  // volumeName may be set once; so may storageClassName, from nil (retroactive
  // default StorageClass) or to the class the beta annotation named.
  if (StringField(Field(before, "volumeName")).empty()) mutable_keys.emplace_back("volumeName");
  if (Nullish(Field(before, "storageClassName"))) {
    std::string annotation = StringField(
        Field(c.Previous({"metadata", "annotations"}), "volume.beta.kubernetes.io/storage-class"));
    std::string class_after = StringField(Field(after, "storageClassName"));
    if (annotation.empty() ? !class_after.empty() : annotation == class_after) {
      mutable_keys.emplace_back("storageClassName");
    }
  }
  std::vector<std::string> changed =
      c.ChangedKeys({"spec"}, mutable_keys, {{"volumeMode", "Filesystem"}});
  // resources: everything but requests.storage is as immutable as the rest.
  bool resources_same =
      c.ChangedKeys({"spec", "resources"}, {"requests"}, {}).empty() &&
      c.ChangedKeys({"spec", "resources", "requests"}, {"storage"}, {}, true).empty();
  if (!resources_same) changed.insert(changed.begin(), "resources");
  if (!changed.empty()) {
    c.Add("spec", Forbidden("spec", kPvcMessage), {"spec", changed.front()});
  }
  Path storage = {"spec", "resources", "requests", "storage"};
  YamlNode size_before = c.Previous(storage);
  YamlNode size_after = c.Current(storage);
  if (Nullish(size_before)) return;
  std::string text_before = JsonScalarText(ResolveScalar(size_before));
  std::string text_after = Nullish(size_after) ? "0" : JsonScalarText(ResolveScalar(size_after));
  // A size that is no quantity fails the API server's validation, not this rule.
  if (IsQuantity(text_before) && IsQuantity(text_after) &&
      CompareQuantity(text_after, text_before) < 0) {
    std::string field = "spec.resources.requests.storage";
    c.Add(field, Forbidden(field, "field can not be less than previous value"), storage);
  }
}

// core validation ValidateSecretUpdate and ValidateConfigMapUpdate. The API server
// merges stringData into data before it compares, so the same bytes written either
// way are no change.
void CheckSecret(Checker& c) {
  c.ImmutableScalar({"type"}, "Opaque");
  if (!IsTrue(c.Previous({"immutable"}))) return;
  if (!IsTrue(c.Current({"immutable"}))) {
    c.Add("immutable", Forbidden("immutable", kWhenImmutable), {"immutable"});
  }
  auto content = [](const YamlNode& data, const YamlNode& string_data) {
    std::map<std::string, std::string> out = Entries(data, true);
    for (auto& [key, value] : Entries(string_data, false)) out[key] = value;
    return out;
  };
  if (content(c.Previous({"data"}), c.Previous({"stringData"})) !=
      content(c.Current({"data"}), c.Current({"stringData"}))) {
    bool has_data = c.Current({"data"}).IsDefined();
    c.Add("data", Forbidden("data", kWhenImmutable), {has_data ? "data" : "stringData"});
  }
}

void CheckConfigMap(Checker& c) {
  if (!IsTrue(c.Previous({"immutable"}))) return;
  if (!IsTrue(c.Current({"immutable"}))) {
    c.Add("immutable", Forbidden("immutable", kWhenImmutable), {"immutable"});
  }
  if (Entries(c.Previous({"data"}), false) != Entries(c.Current({"data"}), false)) {
    c.Add("data", Forbidden("data", kWhenImmutable), {"data"});
  }
  if (Entries(c.Previous({"binaryData"}), true) != Entries(c.Current({"binaryData"}), true)) {
    c.Add("binaryData", Forbidden("binaryData", kWhenImmutable), {"binaryData"});
  }
}

// rbac validation ValidateRoleBindingUpdate / ValidateClusterRoleBindingUpdate.
void CheckRoleBinding(Checker& c) {
  bool same = true;
  for (const char* key : {"apiGroup", "kind", "name"}) {
    // SetDefaults_RoleBinding: roleRef.apiGroup defaults to the RBAC group.
    std::string fallback = std::string(key) == "apiGroup" ? "rbac.authorization.k8s.io" : "";
    same = same && SameScalar(c.Previous({"roleRef", key}), c.Current({"roleRef", key}), fallback);
  }
  if (!same) c.Add("roleRef", Invalid("roleRef", "cannot change roleRef"), {"roleRef"});
}

// storage validation ValidateStorageClassUpdate.
void CheckStorageClass(Checker& c) {
  if (!SemanticEqual(c.Previous({"parameters"}), c.Current({"parameters"}), ApiSemantics())) {
    c.Add("parameters", Forbidden("parameters", "updates to parameters are forbidden."),
          {"parameters"});
  }
  if (!SameScalar(c.Previous({"provisioner"}), c.Current({"provisioner"}))) {
    c.Add("provisioner", Forbidden("provisioner", "updates to provisioner are forbidden."),
          {"provisioner"});
  }
  if (!SameScalar(c.Previous({"reclaimPolicy"}), c.Current({"reclaimPolicy"}), "Delete")) {
    c.Add("reclaimPolicy", Forbidden("reclaimPolicy", "updates to reclaimPolicy are forbidden."),
          {"reclaimPolicy"});
  }
  c.ImmutableScalar({"volumeBindingMode"}, "Immediate");
}

// apiextensions validation validateCustomResourceDefinitionSpecUpdate. Assumed: the
// CRD is established, as any CRD the previous release created is by now; scope and
// names.kind are immutable only then.
void CheckCustomResourceDefinition(Checker& c) {
  c.ImmutableScalar({"spec", "scope"}, "Namespaced");
  c.ImmutableScalar({"spec", "names", "kind"});
  c.ImmutableScalar({"spec", "group"});
  c.ImmutableScalar({"spec", "names", "plural"});
}

}  // namespace

std::string ApiGroup(const std::string& api_version) {
  std::size_t slash = api_version.find('/');
  return slash == std::string::npos ? "" : api_version.substr(0, slash);
}

std::vector<ImmutableViolation> FindImmutableChanges(const Document& previous,
                                                     const Document& current) {
  if (previous.shape() != Document::Shape::kObject || current.shape() != Document::Shape::kObject ||
      previous.kind() != current.kind()) {
    return {};
  }
  std::string group = ApiGroup(current.api_version());
  if (ApiGroup(previous.api_version()) != group) return {};
  const std::string& kind = current.kind();
  Checker checker(previous, current);
  if (group == "batch" && kind == "Job") {
    CheckJob(checker);
  } else if (group == "apps" &&
             (kind == "Deployment" || kind == "ReplicaSet" || kind == "DaemonSet")) {
    checker.Immutable({"spec", "selector"});
  } else if (group == "apps" && kind == "StatefulSet") {
    CheckStatefulSet(checker);
  } else if (group.empty() && kind == "Service") {
    CheckService(checker);
  } else if (group.empty() && kind == "PersistentVolumeClaim") {
    CheckPersistentVolumeClaim(checker);
  } else if (group.empty() && kind == "Secret") {
    CheckSecret(checker);
  } else if (group.empty() && kind == "ConfigMap") {
    CheckConfigMap(checker);
  } else if (group == "rbac.authorization.k8s.io" &&
             (kind == "RoleBinding" || kind == "ClusterRoleBinding")) {
    CheckRoleBinding(checker);
  } else if (group == "storage.k8s.io" && kind == "StorageClass") {
    CheckStorageClass(checker);
  } else if (group == "apiextensions.k8s.io" && kind == "CustomResourceDefinition") {
    CheckCustomResourceDefinition(checker);
  }
  return checker.Take();
}

}  // namespace rollcall
