#include "rollcall/runtime_sources.h"

namespace rollcall {
namespace {

constexpr const char* kRotatedByAnnotation = "rollcall.dev/rotated-by";

std::string GroupOf(const std::string& api_version) {
  auto slash = api_version.find('/');
  return slash == std::string::npos ? "" : api_version.substr(0, slash);
}

}  // namespace

bool MayDeclareRotation(const std::string& api_version, const std::string& kind) {
  static const std::pair<const char*, const char*> kKinds[] = {
      {"cert-manager.io", "Certificate"},
      {"external-secrets.io", "ExternalSecret"},
      {"bitnami.com", "SealedSecret"},
      {"", "Secret"},
  };
  std::string group = GroupOf(api_version);
  for (const auto& [kind_group, kind_name] : kKinds) {
    if (group == kind_group && kind == kind_name) return true;
  }
  return false;
}

RuntimeSources::RuntimeSources(const std::vector<Document>& documents,
                               const std::string& default_namespace,
                               const std::vector<std::string>& configured) {
  for (const Document& doc : documents) {
    if (doc.shape() != Document::Shape::kObject ||
        !MayDeclareRotation(doc.api_version(), doc.kind())) {
      continue;
    }
    std::string name_space = doc.NamespaceOr(default_namespace);
    std::string group = GroupOf(doc.api_version());
    std::string secret;
    std::string controller;
    const YAML::Node& root = doc.root();
    if (doc.kind() == "Certificate" && group == "cert-manager.io") {
      secret = ScalarOr(Child(Child(root, "spec"), "secretName"));
      controller = "cert-manager Certificate " + name_space + "/" + doc.name();
    } else if (doc.kind() == "ExternalSecret" && group == "external-secrets.io") {
      secret = ScalarOr(Child(Child(Child(root, "spec"), "target"), "name"), doc.name());
      controller = "ExternalSecret " + name_space + "/" + doc.name();
    } else if (doc.kind() == "SealedSecret" && group == "bitnami.com") {
      secret = doc.name();
      controller = "SealedSecret " + name_space + "/" + doc.name();
    } else if (doc.kind() == "Secret" && doc.api_version() == "v1") {
      std::string by =
          ScalarOr(Child(Child(Child(root, "metadata"), "annotations"), kRotatedByAnnotation));
      if (!by.empty()) {
        secret = doc.name();
        controller = std::string(kRotatedByAnnotation) + ": " + by;
      }
    }
    if (secret.empty()) continue;
    declared_[SourceId{SourceKind::kSecret, name_space, secret}] =
        Rotation{controller, doc.Locate()};
  }
  for (const std::string& entry : configured) {
    std::string key = entry.find('/') == std::string::npos ? "secret/" + entry : entry;
    configured_[key] = Rotation{"the config file's runtimeSources (" + entry + ")", Location{}};
  }
}

const Rotation* RuntimeSources::Find(const SourceId& id) const {
  auto declared = declared_.find(id);
  if (declared != declared_.end()) return &declared->second;
  auto configured = configured_.find(std::string(SourceKindSlug(id.kind)) + "/" + id.name);
  return configured == configured_.end() ? nullptr : &configured->second;
}

}  // namespace rollcall
